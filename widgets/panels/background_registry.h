#pragma once
// The analyses whose result comes from a run off the GUI thread, in the
// order the main window docks them: the layout search, the scale sweep,
// what limits the design and the best way to serve. The main window's
// docks, the design review's pages and the compare view's tabs are made
// from this list: a new one is a core function, a BackgroundPanel (with a
// static `report` for its pages) and a CompareRunTab when designs can be
// overlaid, and one entry here. The instant analyses are in
// widgets/charts/analysis_registry.h.
#include <QString>

#include <functional>
#include <optional>
#include <vector>

#include "core/design/design.h"
#include "widgets/panels/background_panel.h"

namespace studio {

class CompareRunTab;
class DesignDocument;

struct BackgroundEntry {
    QString key;    // the dock's object name: window state, `screenshot --raise`
    QString title;  // the dock's title, the compare view's tab
    // The workloads its design-review pages are for. Its panel and compare
    // tab take any design and say why they have nothing for one.
    std::vector<WorkloadKind> workloads;
    std::function<BackgroundPanel*(DesignDocument*, AnalysisService*, QWidget* parent)> makePanel;
    // The design review's pages (they may add none, as for a layout that
    // cannot run); empty: the review has none.
    std::function<void(ReportDocument&, const ReportInputs&)> report;
    // The core work those pages need, which the review runs on a thread of
    // its own while the GUI thread lays out the pages before them (for a
    // runnable training design; it stops early once `cancel` is set); its
    // result reaches `report` as ReportInputs::prepared. Empty: none.
    std::function<std::any(const Design&, const Catalog&, const std::atomic<bool>* cancel)> prepare;
    // The compare view's tab, 2-4 designs overlaid; empty: none.
    std::function<CompareRunTab*(QWidget* parent)> makeCompareTab;
    // Brought to the front when a design of this kind is opened (a serving
    // design's figures are on its panel, not the training analyses').
    std::optional<WorkloadKind> raisedFor;
    bool appliesTo(WorkloadKind kind) const;
};

const std::vector<BackgroundEntry>& backgroundRegistry();
// nullptr when none has that key.
const BackgroundEntry* findBackgroundEntry(const QString& key);

}  // namespace studio
