#pragma once
// The MFU breakdown: a waterfall from peak FLOP/s to delivered (kernel
// efficiency, each exposed communication, the bubble, stragglers,
// recompute, then checkpointing, failures and maintenance), and beside it
// the memory each GPU holds against its HBM. For one design the losses are
// red and the levels blue, each with its value, and the table gives the
// step's figures (step time, tokens/s, TFLOP/s per GPU, MFU, HFU, days to
// train); for two to four each step has a bar per design and each design a
// memory column against its own HBM.
#include <string>
#include <vector>

#include "widgets/charts/chart_renderer.h"
#include "widgets/charts/chart_style.h"
#include "widgets/charts/figure_table.h"

class QCPBars;
class QCPItemStraightLine;
class QCPItemText;
class QCustomPlot;

namespace studio {

class ChartText;

class MfuChart : public ChartRenderer {
public:
    void setUp(ChartView& view) override;
    void draw(ChartView& view, const std::vector<ChartDesign>& designs) override;
    static std::vector<FigureRow> figures(const Analysis& analysis);

private:
    void drawWaterfall(ChartView& view, const std::vector<ChartDesign>& designs);
    void drawMemory(ChartView& view, const std::vector<ChartDesign>& designs);

    ChartView* view_ = nullptr;
    QCustomPlot *waterfall_ = nullptr, *memory_ = nullptr;
    QCPBars *base_ = nullptr, *loss_ = nullptr, *level_ = nullptr;
    std::vector<QCPBars*> memoryParts_;
    QCPItemStraightLine* capacity_ = nullptr;
    ChartText* capacityLabel_ = nullptr;
    std::vector<QCPItemText*> valueLabels_;
    std::vector<std::string> steps_;  // the waterfall's bars' keys, by category, for tips
    Transient overlayWaterfall_, overlayMemory_;
};

}  // namespace studio
