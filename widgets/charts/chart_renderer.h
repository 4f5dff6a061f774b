#pragma once
// One analysis drawn for one to four designs. A renderer builds its plots
// once in a ChartView and redraws them from the core's results on every
// update: one design is a panel (its details, labels and table of numbers);
// two to four are overlaid, one colour per design, as the compare view and
// the comparison report show them. Every view of an analysis (panel,
// compare view, design review, comparison report) draws it through its one
// renderer, registered in analysis_registry.h.
#include <QString>

#include <vector>

namespace studio {

struct Analysis;
class ChartView;

struct ChartDesign {
    const Analysis* analysis = nullptr;  // owned by whoever feeds the view, valid until the next update
    QString label;                       // the design's name in legends and tips; "" when it is alone
    // Its colour among those compared (designColor), when a chart draws only
    // some of them (the serving designs left out of a training chart); -1:
    // its position.
    int color = -1;
};

inline int colorIndex(const std::vector<ChartDesign>& designs, std::size_t i)
{
    return designs[i].color >= 0 ? designs[i].color : int(i);
}

class ChartRenderer {
public:
    virtual ~ChartRenderer() = default;
    // Creates the plots (ChartView::addPlot), lays them out in the view's
    // grid, and makes what every draw reuses.
    virtual void setUp(ChartView& view) = 0;
    // Draws `designs` (at least one). Data goes into plottables kept from the
    // last draw where the shape allows: a live edit must not rebuild a plot.
    virtual void draw(ChartView& view, const std::vector<ChartDesign>& designs) = 0;
};

}  // namespace studio
