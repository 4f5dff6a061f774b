#pragma once
// What a design costs (docs/model.md section 20). A bar per design of its
// capex by kind (compute, scale-out fabric, storage, racks, the facility
// built), its band and any part without a price written at its end; and a
// bar per design of a GPU-hour owned, at its utilisation, with the cloud's
// price for its GPU drawn across it (rent or own). One design's panel adds
// its table: capex, a year of ownership, the training run or the served
// tokens, and the parts left unpriced.
#include <vector>

#include "widgets/charts/chart_renderer.h"
#include "widgets/charts/chart_style.h"
#include "widgets/charts/figure_table.h"

class QCPBars;
class QCPItemLine;
class QCPItemText;
class QCustomPlot;

namespace studio {

class CostChart : public ChartRenderer {
public:
    void setUp(ChartView& view) override;
    void draw(ChartView& view, const std::vector<ChartDesign>& designs) override;
    static std::vector<FigureRow> figures(const Analysis& analysis);

private:
    void drawCapex(ChartView& view, const std::vector<ChartDesign>& designs);
    void drawGpuHour(ChartView& view, const std::vector<ChartDesign>& designs);

    ChartView* view_ = nullptr;
    QCustomPlot *capex_ = nullptr, *hour_ = nullptr;
    std::vector<QCPBars*> kinds_;  // compute, network, storage, racks, facility
    QCPBars* owned_ = nullptr;
    std::vector<QCPItemLine*> clouds_;
    std::vector<QCPItemText*> capexLabels_, hourLabels_;
    double scale_ = 1;        // USD to the capex axis' unit
    Transient overlayOwned_;  // a bar series per design, in its colour
};

}  // namespace studio
