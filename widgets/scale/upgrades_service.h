#pragma once
// The what-if upgrades (core/scale/upgrades) of the open design, off the
// GUI thread (BackgroundRunner): restarted by every edit, run only while
// the Sensitivity panel is shown.
#include <optional>

#include "core/scale/upgrades.h"
#include "widgets/analysis/background_runner.h"

namespace studio {

class UpgradesService : public BackgroundRunner {
    Q_OBJECT
public:
    UpgradesService(DesignDocument* document, AnalysisService* analyses, QObject* parent = nullptr);

    // The upgrades of the design as it is now, or nullptr (none yet, still
    // running, or a design with errors).
    const UpgradesResult* result() const { return current_ ? &*current_ : nullptr; }

protected:
    Work work() override;
    void discard() override { current_.reset(); }

private:
    std::optional<UpgradesResult> current_;
};

}  // namespace studio
