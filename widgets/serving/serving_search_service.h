#pragma once
// The serving search (core/serving/serving_search) for the open design, off
// the GUI thread (BackgroundRunner): restarted by every edit, a stale result
// never shown. A training design's search ends at once with its error.
#include <optional>

#include "core/serving/serving_search.h"
#include "widgets/analysis/background_runner.h"

namespace studio {

class ServingSearchService : public BackgroundRunner {
    Q_OBJECT
public:
    ServingSearchService(DesignDocument* document, AnalysisService* analyses, QObject* parent = nullptr);

    // The last result for the design as it is now, or nullptr.
    const ServingSearchResult* result() const { return current_ ? &*current_ : nullptr; }
    // The last published result, even if the design was edited since;
    // none once another design opens (new, opened, imported, recovered or
    // reloaded from disk).
    const ServingSearchResult* lastResult() const { return last_ ? &*last_ : nullptr; }

    static constexpr int kTop = 20;  // of each kind

protected:
    Work work() override;
    void discard() override { current_.reset(); }

private:
    std::optional<ServingSearchResult> current_, last_;
};

}  // namespace studio
