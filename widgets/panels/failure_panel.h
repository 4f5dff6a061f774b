#pragma once
// Panel 5, failure cadence: cluster MTBF against GPU count (log axes) with
// this design marked; failures per day by component class; goodput against
// the checkpoint interval with the Young and Daly optimums marked; and what
// a training run should expect (interruptions, P(failure in 24 h)).
#include <vector>

#include "widgets/panels/plot_panel.h"

class QCPBars;
class QCPGraph;
class QCPItemStraightLine;

namespace studio {

class FigureTable;

class FailurePanel : public PlotPanel {
    Q_OBJECT
public:
    explicit FailurePanel(AnalysisService* service, QWidget* parent = nullptr);
    FigureTable* figures() const { return figures_; }

protected:
    void refresh(const Analysis& analysis) override;

private:
    QCustomPlot *mtbf_, *classes_, *goodput_;
    FigureTable* figures_;
    QCPGraph *mtbfCurve_, *design_, *goodputCurve_, *optimum_, *chosen_;
    QCPBars* perDay_;
    QCPItemText *designLabel_, *optimumLabel_, *chosenLabel_, *noCheckpoints_;
    QCPItemStraightLine *daly_, *young_;
    std::vector<QCPItemText*> classLabels_;
};

}  // namespace studio
