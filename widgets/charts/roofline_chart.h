#pragma once
// The roofline of one GPU. For one design: a compute ceiling per precision
// (the training precision's bold), the HBM slope and the slower slopes a GPU
// sees from NVLink, the scale-out NIC and storage, the ridge labelled, and
// the workload's operations placed by intensity at the throughput the
// step-time model gives them, each labelled where there is room. For two to
// four: each design's roof (its HBM slope up to the ridge, then its training
// precision's ceiling) in the design's colour, with the numbers of each roof
// in a corner.
#include <QHash>
#include <QSizeF>
#include <QString>

#include <map>
#include <string>
#include <vector>

#include "widgets/charts/chart_renderer.h"
#include "widgets/charts/chart_style.h"
#include "widgets/charts/figure_table.h"

class QCPGraph;
class QCPItemText;
class QCustomPlot;

namespace studio {

class RooflineChart : public ChartRenderer {
public:
    void setUp(ChartView& view) override;
    void draw(ChartView& view, const std::vector<ChartDesign>& designs) override;
    static std::vector<FigureRow> figures(const Analysis& analysis);

private:
    void drawOne(ChartView& view, const Analysis& a);
    void drawOverlay(ChartView& view, const std::vector<ChartDesign>& designs);
    void showOne(bool shown);
    void placeLabels();
    QCPGraph* line(std::vector<QCPGraph*>& pool, std::size_t i);

    ChartView* view_ = nullptr;
    QCustomPlot* plot_ = nullptr;
    // One design's picture, kept between draws.
    std::vector<QCPGraph*> ceilings_, slopes_;         // slopes_[0] is HBM
    std::vector<bool> ceilingIsTraining_;              // by ceiling: the training precision's roof
    std::map<std::string, QCPGraph*> ops_;             // by kind
    std::map<std::string, std::vector<int>> opIndex_;  // by kind: data index -> roofline point
    QCPGraph* ridge_ = nullptr;
    QCPItemText* ridgeLabel_ = nullptr;
    std::vector<QCPItemText*> ceilingLabels_, slopeLabels_, opLabels_;
    std::vector<int> opLabelPoint_;  // roofline point of each op label
    double xMin_ = 0.1, xMax_ = 1e5;
    QHash<QString, QSizeF> textSizes_;  // label sizes by font and text, for placeLabels
    bool one_ = true;                   // what the plot shows now: one design's picture, or roofs overlaid
    Transient overlay_;                 // several designs' roofs, rebuilt on each draw
};

}  // namespace studio
