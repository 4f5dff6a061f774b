#pragma once
// The Scale panel: how many GPUs pay off. The scale sweep's tokens/s
// against GPUs (the best layout at each size and the workload's own) with
// ideal linear, Amdahl and Gustafson beside it; MFU, goodput and days to
// train on the same axis; where the fabric adds a tier and where the batch
// gives a GPU less than a sequence; one sentence on where scaling stops
// paying. Fed by the ScaleSweepService, which only sweeps while the panel
// is shown (setShown: a tabbed dock's widget stays "visible" behind the
// current tab, so its dock tells).
#include <QWidget>

#include "core/scale/scale_sweep.h"

class QComboBox;
class QLabel;
class QProgressBar;
class QCPGraph;
class QMouseEvent;

namespace studio {

class ChartPlot;
class ScaleSweepService;

class ScalePanel : public QWidget {
    Q_OBJECT
public:
    ScalePanel(ScaleSweepService* sweep, QWidget* parent = nullptr);

    // Whether the user can see the panel: the sweep runs only then.
    void setShown(bool shown);

    ChartPlot* throughputPlot() const { return throughput_; }
    ChartPlot* figuresPlot() const { return figures_; }
    QLabel* summaryLabel() const { return summary_; }
    QComboBox* scalingBox() const { return scaling_; }
    QProgressBar* progressBar() const { return progress_; }
    // The graphs, for tests: best layout, the workload's layout, ideal,
    // Amdahl, Gustafson; MFU, goodput, wall days.
    QCPGraph* bestGraph() const { return best_; }
    QCPGraph* idealGraph() const { return ideal_; }
    QCPGraph* daysGraph() const { return days_; }

protected:
    void changeEvent(QEvent* event) override;

private:
    void refresh();
    void plot(const SweepResult& r);
    void clearPlots();
    void showTip(QMouseEvent* event, ChartPlot* plot);

    ScaleSweepService* sweep_;
    QComboBox* scaling_;
    QProgressBar* progress_;
    QLabel* summary_;
    ChartPlot *throughput_, *figures_;
    QCPGraph *best_ = nullptr, *user_ = nullptr, *ideal_ = nullptr, *amdahl_ = nullptr, *gustafson_ = nullptr,
             *design_ = nullptr;
    QCPGraph *mfu_ = nullptr, *goodput_ = nullptr, *days_ = nullptr;
};

}  // namespace studio
