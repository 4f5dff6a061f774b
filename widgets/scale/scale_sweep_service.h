#pragma once
// The scale sweep (core/scale) of the open design, off the GUI thread
// (BackgroundRunner): restarted by every edit, a stale sweep never shown.
#include <optional>

#include "core/scale/scale_sweep.h"
#include "widgets/analysis/background_runner.h"

namespace studio {

class ScaleSweepService : public BackgroundRunner {
    Q_OBJECT
public:
    ScaleSweepService(DesignDocument* document, AnalysisService* analyses, QObject* parent = nullptr);

    // The sweep of the design as it is now, or nullptr (none yet, still
    // running, or a design with errors).
    const SweepResult* result() const { return current_ ? &*current_ : nullptr; }
    Scaling scaling() const { return scaling_; }
    void setScaling(Scaling scaling);  // sweeps again

protected:
    Work work() override;
    void discard() override { current_.reset(); }

private:
    Scaling scaling_ = Scaling::Strong;
    std::optional<SweepResult> current_;
};

}  // namespace studio
