#pragma once
// Failure cadence: cluster MTBF against GPU count (log axes) with each
// design marked; failures per day by component class; goodput against the
// checkpoint interval with the Daly optimum marked (and, for one design,
// Young's and the interval the design sets); and for one design what a
// training run should expect (interruptions, P(failure in 24 h)).
#include <vector>

#include "widgets/charts/chart_renderer.h"
#include "widgets/charts/chart_style.h"
#include "widgets/charts/figure_table.h"

class QCPBars;
class QCPGraph;
class QCPItemStraightLine;
class QCPItemText;
class QCustomPlot;

namespace studio {

class FailureChart : public ChartRenderer {
public:
    void setUp(ChartView& view) override;
    void draw(ChartView& view, const std::vector<ChartDesign>& designs) override;
    static std::vector<FigureRow> figures(const Analysis& analysis);

private:
    void drawMtbf(ChartView& view, const std::vector<ChartDesign>& designs);
    void drawClasses(ChartView& view, const std::vector<ChartDesign>& designs);
    void drawGoodput(ChartView& view, const std::vector<ChartDesign>& designs);

    ChartView* view_ = nullptr;
    QCustomPlot *mtbf_ = nullptr, *classes_ = nullptr, *goodput_ = nullptr;
    // One design's picture, kept between draws.
    QCPGraph *mtbfCurve_ = nullptr, *design_ = nullptr, *goodputCurve_ = nullptr, *optimum_ = nullptr,
             *chosen_ = nullptr;
    QCPBars* perDay_ = nullptr;
    QCPItemText *designLabel_ = nullptr, *optimumLabel_ = nullptr, *chosenLabel_ = nullptr, *noCheckpoints_ = nullptr;
    QCPItemStraightLine *daly_ = nullptr, *young_ = nullptr;
    std::vector<QCPItemText*> classLabels_;
    // Several designs' series, rebuilt on each draw.
    Transient overlayMtbf_, overlayClasses_, overlayGoodput_;
};

}  // namespace studio
