#pragma once
// The sensitivity analysis (core/scale) of the open design, off the GUI
// thread (BackgroundRunner): restarted by every edit, run only while its
// panel is shown.
#include <optional>

#include "core/scale/sensitivity.h"
#include "widgets/analysis/background_runner.h"

namespace studio {

class SensitivityService : public BackgroundRunner {
    Q_OBJECT
public:
    SensitivityService(DesignDocument* document, AnalysisService* analyses, QObject* parent = nullptr);

    // The tornado of the design as it is now, or nullptr (none yet, still
    // running, or a design with errors).
    const SensitivityResult* result() const { return current_ ? &*current_ : nullptr; }

protected:
    Work work() override;
    void discard() override { current_.reset(); }

private:
    std::optional<SensitivityResult> current_;
};

}  // namespace studio
