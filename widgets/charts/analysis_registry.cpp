#include "widgets/charts/analysis_registry.h"

#include <QObject>

#include <algorithm>

#include "core/model/analysis.h"

#include "widgets/charts/cost_chart.h"
#include "widgets/charts/failure_chart.h"
#include "widgets/charts/hierarchy_chart.h"
#include "widgets/charts/mfu_chart.h"
#include "widgets/charts/power_chart.h"
#include "widgets/charts/roofline_chart.h"

namespace studio {

bool AnalysisEntry::appliesTo(WorkloadKind kind) const
{
    return workloadIn(workloads, kind);
}

std::vector<ChartDesign> designsFor(const AnalysisEntry& entry, const std::vector<ChartDesign>& designs)
{
    std::vector<ChartDesign> kept;
    for (std::size_t i = 0; i < designs.size(); ++i)
        if (entry.appliesTo(designs[i].analysis->workloadKind())) {
            kept.push_back(designs[i]);
            kept.back().color = colorIndex(designs, i);
        }
    return kept;
}

namespace {

template <typename Renderer>
AnalysisEntry entry(const char* key, const char* title, std::vector<WorkloadKind> workloads)
{
    return {QString::fromLatin1(key), QObject::tr(title), [] { return std::make_unique<Renderer>(); },
            &Renderer::figures, std::move(workloads)};
}

}  // namespace

const std::vector<AnalysisEntry>& analysisRegistry()
{
    using enum WorkloadKind;
    // A GPU's roofline, its tiers and its power matter to any workload; the
    // MFU breakdown and checkpoint cadence are a training run's.
    static const std::vector<AnalysisEntry> entries{
        entry<RooflineChart>("roofline", "Roofline", {Training, Serving}),
        entry<HierarchyChart>("hierarchy", "Bandwidth hierarchy", {Training, Serving}),
        entry<MfuChart>("mfu", "MFU breakdown", {Training}),
        entry<PowerChart>("power", "Power and PUE", {Training, Serving}),
        entry<FailureChart>("failures", "Failure cadence", {Training}),
        entry<CostChart>("cost", "Cost", {Training, Serving}),
    };
    return entries;
}

const AnalysisEntry* findAnalysis(const QString& key)
{
    for (const AnalysisEntry& e : analysisRegistry())
        if (e.key == key)
            return &e;
    return nullptr;
}

QStringList analysisKeys()
{
    QStringList keys;
    for (const AnalysisEntry& e : analysisRegistry())
        keys << e.key;
    return keys;
}

}  // namespace studio
