#pragma once
// The Scale panel: how many GPUs pay off. The scaling choice, the sweep's
// sentence and ScaleCharts, fed by the ScaleSweepService, which only sweeps
// while the panel is shown. On paper (`report`): the same, and a row per size.
#include "core/scale/scale_sweep.h"
#include "widgets/panels/background_panel.h"

class QComboBox;
class QLabel;
class QProgressBar;
class QCPGraph;

namespace studio {

class ChartPlot;
class DesignDocument;
class MessageStack;
class ScaleCharts;
class ScaleSweepService;

// The sweep in a few sentences (rich text): where scaling stops paying, the
// scaling, the anchor of ideal and the serial fraction.
QString scaleSummary(const SweepResult& result);

class ScalePanel : public BackgroundPanel {
    Q_OBJECT
public:
    ScalePanel(DesignDocument* document, AnalysisService* analyses, QWidget* parent = nullptr);

    // The sweep runs only while the panel is shown.
    void setShown(bool shown) override;
    std::vector<BackgroundJob*> jobs() const override;
    ScaleSweepService* sweep() const { return sweep_; }
    // docs/model.md section 16 in the design review: the sweep's sentence,
    // its two charts and a row per size (none for a layout that cannot run).
    static void report(ReportDocument& doc, const ReportInputs& in);
    // Its sweep, off the GUI thread: a SweepResult.
    static std::any prepareReport(const Design& design, const Catalog& catalog, const std::atomic<bool>* cancel);

    ScaleCharts* charts() const { return charts_; }
    QLabel* summaryLabel() const { return summary_; }
    MessageStack* messageStack() const { return stack_; }
    QComboBox* scalingBox() const { return scaling_; }
    QProgressBar* progressBar() const { return progress_; }

private:
    void refresh();

    DesignDocument* doc_;
    ScaleSweepService* sweep_;
    QComboBox* scaling_;
    QProgressBar* progress_;
    QLabel* summary_;
    ScaleCharts* charts_;
    MessageStack* stack_;
};

}  // namespace studio
