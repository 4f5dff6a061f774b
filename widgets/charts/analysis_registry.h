#pragma once
// The analyses the studio shows, in the order it shows them. The panel tabs
// and grid, the compare view's charts, the design review's pages and the
// comparison report's charts are all made from this list: a new analysis
// is one entry here and one renderer (chart_renderer.h).
#include <QString>

#include <functional>
#include <memory>
#include <vector>

#include "core/design/design.h"
#include "widgets/charts/chart_renderer.h"
#include "widgets/charts/figure_table.h"

namespace studio {

struct Analysis;

struct AnalysisEntry {
    QString key;    // "roofline": object names, settings, `screenshot --panel`, export file names
    QString title;  // "Roofline": tabs, frames, report sections
    std::function<std::unique_ptr<ChartRenderer>()> makeRenderer;
    // The table of numbers a panel shows beside its plots and a design
    // review prints under them, each row explaining itself.
    std::function<std::vector<FigureRow>(const Analysis&)> figures;
    // The workloads it applies to (serving's own figures are in the Serving
    // panel; the analyses here that apply to it are the GPU's and the cluster's).
    std::vector<WorkloadKind> workloads;
    bool appliesTo(WorkloadKind kind) const;
};

const std::vector<AnalysisEntry>& analysisRegistry();
// The designs whose workload `entry` applies to, each keeping its colour
// among all of them (a training run's chart leaves the serving designs out).
std::vector<ChartDesign> designsFor(const AnalysisEntry& entry, const std::vector<ChartDesign>& designs);
// nullptr when no analysis has that key.
const AnalysisEntry* findAnalysis(const QString& key);
QStringList analysisKeys();

}  // namespace studio
