#pragma once
// The scale sweep drawn: tokens/s against GPUs (the best layout at each
// size and the workload's own) with ideal linear, Amdahl and Gustafson;
// MFU, goodput and wall-clock days on the same axis; where the fabric adds
// a tier, where the batch gives a GPU less than a sequence and where the
// site's power budget is passed. Hover a size for its figures. The Scale
// panel shows it live; the design review prints it.
#include <QWidget>

#include <optional>

#include "core/scale/scale_sweep.h"

class QCPGraph;
class QMouseEvent;

namespace studio {

class ChartPlot;

class ScaleCharts : public QWidget {
    Q_OBJECT
public:
    explicit ScaleCharts(QWidget* parent = nullptr);

    // Draws `result`; nullptr or a sweep with an error clears the plots.
    void draw(const SweepResult* result);

    ChartPlot* throughputPlot() const { return throughput_; }
    ChartPlot* figuresPlot() const { return figures_; }
    QCPGraph* bestGraph() const { return best_; }
    QCPGraph* idealGraph() const { return ideal_; }
    QCPGraph* daysGraph() const { return days_; }

protected:
    void changeEvent(QEvent* event) override;

private:
    void plot(const SweepResult& r);
    void showTip(QMouseEvent* event, ChartPlot* plot);

    std::optional<SweepResult> shown_;
    ChartPlot *throughput_, *figures_;
    QCPGraph *best_ = nullptr, *user_ = nullptr, *ideal_ = nullptr, *amdahl_ = nullptr, *gustafson_ = nullptr,
             *design_ = nullptr;
    QCPGraph *mfu_ = nullptr, *goodput_ = nullptr, *days_ = nullptr;
};

}  // namespace studio
