#pragma once
// Panel 1, the roofline of one GPU: a compute ceiling per precision, the HBM
// slope and the slower slopes a GPU sees from NVLink, the scale-out NIC and
// storage, the ridge point labelled, and the workload's operations placed by
// intensity at the throughput the step-time model gives them.
#include <map>
#include <string>
#include <vector>

#include "widgets/panels/plot_panel.h"

class QCPGraph;

namespace studio {

class FigureTable;

class RooflinePanel : public PlotPanel {
    Q_OBJECT
public:
    explicit RooflinePanel(AnalysisService* service, QWidget* parent = nullptr);
    QCPItemText* ridgeLabel() const { return ridgeLabel_; }
    FigureTable* figures() const { return figures_; }

protected:
    void refresh(const Analysis& analysis) override;

private:
    void placeLabels();
    QCPGraph* line(std::vector<QCPGraph*>& pool, std::size_t i);

    QCustomPlot* plot_;
    FigureTable* figures_;
    std::vector<QCPGraph*> ceilings_, slopes_;  // slopes_[0] is HBM
    std::map<std::string, QCPGraph*> ops_;      // by kind
    std::map<std::string, std::vector<int>> opIndex_;  // by kind: data index -> roofline point
    QCPGraph* ridge_;
    QCPItemText* ridgeLabel_;
    std::vector<QCPItemText*> ceilingLabels_, slopeLabels_, opLabels_;
    std::vector<int> opLabelPoint_;  // roofline point of each op label
    double xMin_ = 0.1, xMax_ = 1e5;
};

}  // namespace studio
