#pragma once
// The bandwidth hierarchy: one bar per tier (HBM, NVLink domain, scale-out
// inside a leaf, across the spine and core, storage) on a log scale in GB/s
// per GPU. For one design each bar carries its latency and the parallelism
// axes whose traffic lands there, the ratio to the tier above sits between
// bars, and a tier carrying an axis too slow for it is drawn in the warning
// colour. For two to four, each tier has a bar per design, its value on it.
#include <vector>

#include "widgets/charts/chart_renderer.h"
#include "widgets/charts/chart_style.h"
#include "widgets/charts/figure_table.h"

class QCPBars;
class QCPItemText;
class QCustomPlot;

namespace studio {

class HierarchyChart : public ChartRenderer {
public:
    void setUp(ChartView& view) override;
    void draw(ChartView& view, const std::vector<ChartDesign>& designs) override;
    static std::vector<FigureRow> figures(const Analysis& analysis);

private:
    void drawOne(ChartView& view, const Analysis& a);
    void drawOverlay(ChartView& view, const std::vector<ChartDesign>& designs);

    ChartView* view_ = nullptr;
    QCustomPlot* plot_ = nullptr;
    QCPBars *bars_ = nullptr, *flagged_ = nullptr;
    std::vector<QCPItemText*> valueLabels_, ratioLabels_;
    Transient overlay_;
};

}  // namespace studio
