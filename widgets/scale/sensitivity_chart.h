#pragma once
// The sensitivity tornado drawn: the change in days to train (or the run's
// cost, or a GPU-hour's) as each input moves -50%, -10%, +10% and +50% (the
// largest effect on top); hover a row for each change's days, costs and
// layout notes. The Sensitivity panel
// shows it live; the design review prints it.
#include <QWidget>

#include <optional>
#include <vector>

#include "core/scale/sensitivity.h"

class QCPBars;
class QMouseEvent;

namespace studio {

class ChartPlot;

class SensitivityChart : public QWidget {
    Q_OBJECT
public:
    explicit SensitivityChart(QWidget* parent = nullptr);

    // Draws `result`; nullptr or one with an error clears the plot.
    void draw(const SensitivityResult* result);
    // What the bars are the change in (days by default); redraws.
    void setMeasure(SensitivityMeasure measure);
    SensitivityMeasure measure() const { return measure_; }

    ChartPlot* plot() const { return plot_; }
    // The measure's change in % at -50%, -10%, +10%, +50%; key 1 is the
    // input with the largest effect on it (at the top). Inputs with no
    // effect have no bars: their names share the bottom row.
    QCPBars* bars(int change) const { return bars_[change]; }

protected:
    void changeEvent(QEvent* event) override;

private:
    void showTip(QMouseEvent* event);

    std::optional<SensitivityResult> shown_;
    SensitivityMeasure measure_ = SensitivityMeasure::Days;
    std::vector<std::size_t> order_;     // shown_'s inputs with an effect, top row first
    std::vector<std::size_t> noEffect_;  // and those without, sharing the bottom row
    ChartPlot* plot_;
    QCPBars* bars_[4] = {};
};

}  // namespace studio
