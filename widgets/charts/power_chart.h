#pragma once
// Rack power and PUE. For one design: kW per rack type (with how many there
// are) against each rack's cooling limit, the ~30 kW air-cooling line drawn
// across; IT power by category plus the overhead the PUE adds, in one bar;
// and a table of the year's energy, cost and CO2 and the training run's
// energy. For two to four: each design's densest rack against its limit and
// the air line, and a bar per design of IT by category plus overhead.
#include <vector>

#include "widgets/charts/chart_renderer.h"
#include "widgets/charts/chart_style.h"
#include "widgets/charts/figure_table.h"

class QCPBars;
class QCPItemLine;
class QCPItemStraightLine;
class QCPItemText;
class QCustomPlot;

namespace studio {

class PowerChart : public ChartRenderer {
public:
    void setUp(ChartView& view) override;
    void draw(ChartView& view, const std::vector<ChartDesign>& designs) override;
    static std::vector<FigureRow> figures(const Analysis& analysis);

private:
    void drawRacks(ChartView& view, const std::vector<ChartDesign>& designs);
    void drawFacility(ChartView& view, const std::vector<ChartDesign>& designs);

    ChartView* view_ = nullptr;
    QCustomPlot *racks_ = nullptr, *facility_ = nullptr;
    QCPBars *withinLimit_ = nullptr, *overLimit_ = nullptr;
    std::vector<QCPBars*> loads_;  // compute, network, storage, other, overhead
    std::vector<QCPItemLine*> limits_;
    QCPItemStraightLine* airLine_ = nullptr;
    QCPItemText *airLabel_ = nullptr, *noRacks_ = nullptr, *pueLabel_ = nullptr;
    std::vector<QCPItemText*> rackLabels_, pueLabels_;
    std::vector<std::size_t> rackOf_;      // bar key - 1 -> the first rack of its kind (one design)
    std::vector<std::int64_t> rackCount_;  // bar key - 1 -> the racks it stands for (one design)
    double scale_ = 1;                     // kW to the facility axis' unit
    Transient overlayRacks_;
};

}  // namespace studio
