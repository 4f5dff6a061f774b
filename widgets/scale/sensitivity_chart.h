#pragma once
// The sensitivity tornado drawn: the change in days to train as each input
// moves -50%, -10%, +10% and +50% (the largest effect on top); hover a row
// for each change's days, cost and layout notes. The Sensitivity panel
// shows it live; the design review prints it.
#include <QWidget>

#include <optional>

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

    ChartPlot* plot() const { return plot_; }
    // Days change in % at -50%, -10%, +10%, +50%; key 1 is the input with
    // the largest effect (at the top).
    QCPBars* bars(int change) const { return bars_[change]; }

protected:
    void changeEvent(QEvent* event) override;

private:
    void showTip(QMouseEvent* event);

    std::optional<SensitivityResult> shown_;
    ChartPlot* plot_;
    QCPBars* bars_[4] = {};
};

}  // namespace studio
