#pragma once
// The Sensitivity panel: what limits this design. A tornado of the days to
// train as each input moves -50%, -10%, +10% and +50% (largest effect on
// top), the sentence naming the binding constraint, and each input's days,
// cost and layout notes on hover. Fed by the SensitivityService, which only
// runs while the panel is shown.
#include <QWidget>

#include "core/scale/sensitivity.h"

class QLabel;
class QProgressBar;
class QCPBars;
class QMouseEvent;

namespace studio {

class ChartPlot;
class SensitivityService;

class SensitivityPanel : public QWidget {
    Q_OBJECT
public:
    SensitivityPanel(SensitivityService* service, QWidget* parent = nullptr);

    // Whether the user can see the panel: the analysis runs only then.
    void setShown(bool shown);

    ChartPlot* plot() const { return plot_; }
    QLabel* summaryLabel() const { return summary_; }
    // The bars, for tests: days change in % at -50%, -10%, +10%, +50%; key
    // 1 is the input with the largest effect (at the top).
    QCPBars* bars(int change) const { return bars_[change]; }

protected:
    void changeEvent(QEvent* event) override;

private:
    void refresh();
    void showTip(QMouseEvent* event);

    SensitivityService* service_;
    QProgressBar* progress_;
    QLabel* summary_;
    ChartPlot* plot_;
    QCPBars* bars_[4] = {};
};

}  // namespace studio
