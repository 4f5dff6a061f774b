#pragma once
// Panel 3, the MFU breakdown: a waterfall from peak FLOP/s to delivered
// (kernel efficiency, each exposed communication, the bubble, stragglers,
// recompute, then checkpointing, failures and maintenance) with its values
// on the bars; beside it the step's figures (step time, tokens/s, TFLOP/s
// per GPU, MFU, HFU, days to train) and the memory each GPU holds against
// its HBM.
#include <vector>

#include "widgets/panels/plot_panel.h"

class QCPBars;
class QCPItemStraightLine;

namespace studio {

class FigureTable;

class MfuPanel : public PlotPanel {
    Q_OBJECT
public:
    explicit MfuPanel(AnalysisService* service, QWidget* parent = nullptr);
    FigureTable* figures() const { return figures_; }
    QCPItemStraightLine* capacityLine() const { return capacity_; }

protected:
    void refresh(const Analysis& analysis) override;

private:
    QCustomPlot *waterfall_, *memory_;
    FigureTable* figures_;
    QCPBars *base_, *loss_, *level_;
    std::vector<QCPBars*> memoryParts_;
    QCPItemStraightLine* capacity_;
    QCPItemText* capacityLabel_;
    std::vector<QCPItemText*> valueLabels_;
    std::vector<std::string> keys_;  // waterfall bar per data key, for tips
};

}  // namespace studio
