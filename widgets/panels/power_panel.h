#pragma once
// Panel 4, rack power and PUE: kW per rack type (with how many there are)
// against each rack's cooling limit, the ~30 kW air-cooling line drawn
// across; IT power by category plus the facility overhead the PUE adds; the
// year's energy, cost and CO2 and the energy of the training run.
#include <vector>

#include "widgets/panels/plot_panel.h"

class QCPBars;
class QCPItemLine;
class QCPItemStraightLine;

namespace studio {

class FigureTable;

class PowerPanel : public PlotPanel {
    Q_OBJECT
public:
    explicit PowerPanel(AnalysisService* service, QWidget* parent = nullptr);
    FigureTable* figures() const { return figures_; }
    QCPItemStraightLine* airLine() const { return airLine_; }

protected:
    void refresh(const Analysis& analysis) override;

private:
    QCustomPlot *racks_, *facility_;
    FigureTable* figures_;
    QCPBars *withinLimit_, *overLimit_;
    std::vector<QCPBars*> loads_;  // compute, network, storage, other, overhead
    std::vector<QCPItemLine*> limits_;
    QCPItemStraightLine* airLine_;
    QCPItemText *airLabel_, *noRacks_, *pueLabel_;
    std::vector<QCPItemText*> rackLabels_;
};

}  // namespace studio
