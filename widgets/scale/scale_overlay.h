#pragma once
// The scale sweeps of two to four designs overlaid, one colour per design
// (the compare view's): delivered tokens/s and wall-clock days to train
// against GPUs, each at the best layout per size, each design's own size
// starred. Hover a point for its figures. ScaleCompareTab is the compare
// view's Scale tab around it: the sweeps run off the GUI thread while the
// tab is shown.
#include <QString>
#include <QWidget>

#include <vector>

#include "core/scale/scale_sweep.h"
#include "widgets/compare/compare_run_tab.h"

class QMouseEvent;

namespace studio {

class ChartPlot;

struct LabelledSweep {
    QString label;  // the design's, as the compare view names it
    SweepResult sweep;
};

// One line per design: its colour's name is the legend's; what limits it.
QString scaleOverlaySummary(const std::vector<LabelledSweep>& sweeps);

class ScaleOverlay : public QWidget {
    Q_OBJECT
public:
    explicit ScaleOverlay(QWidget* parent = nullptr);

    // Draws the sweeps (a sweep with an error draws nothing for its design).
    void draw(std::vector<LabelledSweep> sweeps);

    ChartPlot* throughputPlot() const { return throughput_; }
    ChartPlot* daysPlot() const { return days_; }

protected:
    void changeEvent(QEvent* event) override;

private:
    void plot();
    void showTip(QMouseEvent* event, ChartPlot* plot);

    std::vector<LabelledSweep> shown_;
    ChartPlot *throughput_, *days_;
};

// Strong scaling of each design as compared (its workload and layout in the
// comparison), one sweep after another, each a share of the progress.
class ScaleCompareTab : public CompareRunTab {
    Q_OBJECT
public:
    explicit ScaleCompareTab(QWidget* parent = nullptr);
    ScaleOverlay* overlay() const { return overlay_; }

protected:
    QString runningText(std::size_t designs) const override;
    BackgroundJob::Task task(std::vector<ComparedRun> designs) override;

private:
    ScaleOverlay* overlay_;
};

}  // namespace studio
