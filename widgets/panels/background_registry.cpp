#include "widgets/panels/background_registry.h"

#include <QObject>

#include <algorithm>

#include "widgets/scale/scale_overlay.h"
#include "widgets/scale/scale_panel.h"
#include "widgets/scale/sensitivity_panel.h"
#include "widgets/search/layouts_panel.h"
#include "widgets/serving/serving_panel.h"

namespace studio {

bool BackgroundEntry::appliesTo(WorkloadKind kind) const
{
    return workloadIn(workloads, kind);
}

namespace {

// A panel with a static `report(ReportDocument&, const ReportInputs&)` has
// design-review pages.
template <typename Panel>
BackgroundEntry entry(const char* key, const char* title, std::vector<WorkloadKind> workloads)
{
    BackgroundEntry e{QString::fromLatin1(key),
                      QObject::tr(title),
                      std::move(workloads),
                      [](DesignDocument* document, AnalysisService* analyses, QWidget* parent) -> BackgroundPanel* {
                          return new Panel(document, analyses, parent);
                      },
                      {},
                      {},
                      {},
                      std::nullopt};
    if constexpr (requires(ReportDocument & doc, const ReportInputs& in) { Panel::report(doc, in); })
        e.report = &Panel::report;
    if constexpr (requires(const Design& d, const Catalog& c, const std::atomic<bool>* cancel) {
                      Panel::prepareReport(d, c, cancel);
                  })
        e.prepare = &Panel::prepareReport;
    return e;
}

template <typename Tab>
BackgroundEntry comparedIn(BackgroundEntry e)
{
    e.makeCompareTab = [](QWidget* parent) -> CompareRunTab* { return new Tab(parent); };
    return e;
}

BackgroundEntry raisedFor(BackgroundEntry e, WorkloadKind kind)
{
    e.raisedFor = kind;
    return e;
}

}  // namespace

const std::vector<BackgroundEntry>& backgroundRegistry()
{
    using enum WorkloadKind;
    static const std::vector<BackgroundEntry> entries{
        entry<LayoutsPanel>("layouts", "Layouts", {Training}),
        comparedIn<ScaleCompareTab>(entry<ScalePanel>("scale", "Scale", {Training})),
        entry<SensitivityPanel>("sensitivity", "Sensitivity", {Training}),
        raisedFor(entry<ServingPanel>("serving", "Serving", {Serving}), Serving),
    };
    return entries;
}

const BackgroundEntry* findBackgroundEntry(const QString& key)
{
    for (const BackgroundEntry& e : backgroundRegistry())
        if (e.key == key)
            return &e;
    return nullptr;
}

}  // namespace studio
