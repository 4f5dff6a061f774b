#pragma once
// The Scale panel: how many GPUs pay off. The scaling choice, the sweep's
// sentence and ScaleCharts, fed by the ScaleSweepService, which only sweeps
// while the panel is shown.
#include <QWidget>

#include "core/scale/scale_sweep.h"

class QComboBox;
class QLabel;
class QProgressBar;
class QCPGraph;

namespace studio {

class ChartPlot;
class ScaleCharts;
class ScaleSweepService;

// The sweep in a few sentences (rich text): where scaling stops paying, the
// scaling, the anchor of ideal and the serial fraction.
QString scaleSummary(const SweepResult& result);

class ScalePanel : public QWidget {
    Q_OBJECT
public:
    ScalePanel(ScaleSweepService* sweep, QWidget* parent = nullptr);

    // Whether the user can see the panel (a tabbed dock's widget stays
    // "visible" behind the current tab, so its dock tells): the sweep runs
    // only then.
    void setShown(bool shown);

    ScaleCharts* charts() const { return charts_; }
    QLabel* summaryLabel() const { return summary_; }
    QComboBox* scalingBox() const { return scaling_; }
    QProgressBar* progressBar() const { return progress_; }

private:
    void refresh();

    ScaleSweepService* sweep_;
    QComboBox* scaling_;
    QProgressBar* progress_;
    QLabel* summary_;
    ScaleCharts* charts_;
};

}  // namespace studio
