#pragma once
// The layout search (core/search) for the open design, off the GUI thread
// (BackgroundRunner): restarted by every edit, a stale result never shown.
#include <optional>

#include "core/search/layout_search.h"
#include "widgets/analysis/background_runner.h"

namespace studio {

class LayoutSearchService : public BackgroundRunner {
    Q_OBJECT
public:
    using BackgroundRunner::BackgroundRunner;

    // The last result for the design as it is now, or nullptr (none yet, a
    // search still running for the latest edit, or a design with errors).
    const SearchResult* result() const { return current_ ? &*current_ : nullptr; }

    Objective objective() const { return objective_; }
    void setObjective(Objective objective);  // searches again
    int top() const { return kTop; }

    static constexpr int kTop = 20;

protected:
    Work work() override;
    void discard() override { current_.reset(); }

private:
    Objective objective_ = Objective::Time;
    std::optional<SearchResult> current_;
};

}  // namespace studio
