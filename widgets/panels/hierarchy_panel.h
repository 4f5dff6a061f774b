#pragma once
// Panel 2, the bandwidth hierarchy: one bar per tier (HBM, NVLink domain,
// scale-out inside a leaf, across the spine and core, storage) on a log
// scale in GB/s per GPU with its latency, the ratio to the tier above
// between bars, and the parallelism axes whose traffic lands on each tier; a
// tier carrying an axis too slow for it is drawn in the warning colour.
#include <vector>

#include "widgets/panels/plot_panel.h"

class QCPBars;

namespace studio {

class FigureTable;

class HierarchyPanel : public PlotPanel {
    Q_OBJECT
public:
    explicit HierarchyPanel(AnalysisService* service, QWidget* parent = nullptr);
    FigureTable* figures() const { return figures_; }

protected:
    void refresh(const Analysis& analysis) override;

private:
    QCustomPlot* plot_;
    FigureTable* figures_;
    QCPBars *bars_, *flagged_;
    std::vector<QCPItemText*> valueLabels_, ratioLabels_;
};

}  // namespace studio
