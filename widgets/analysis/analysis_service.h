#pragma once
// Recomputes the design's analyses after edits: a burst of edits (a drag,
// typing) triggers one recompute when control returns to the event loop,
// not one per change, and before the canvas paints the edit (a PostedCall).
// Holds the validation problems and analysis warnings that the canvas marks
// on items and the warnings dock lists.
#include <QHash>
#include <QObject>

#include <cstdint>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/metrics/explanations.h"
#include "core/model/analysis.h"
#include "core/problem.h"
#include "core/serving/serving.h"
#include "widgets/common/posted_call.h"

namespace studio {

class DesignDocument;

class AnalysisService : public QObject {
    Q_OBJECT
public:
    explicit AnalysisService(DesignDocument* document, QObject* parent = nullptr);

    // The last analysis of a valid design (nullptr while the design has
    // validation errors).
    const Analysis* analysis() const { return analysis_ ? &*analysis_ : nullptr; }
    // Whether the figures are of the design as it is now: false between an
    // edit and the recompute it asked for.
    bool current() const;
    // Runs that recompute now if one is waiting (it would run before the
    // next paint): for a caller that must not act on a stale analysis.
    void bringUpToDate();
    // The serving analysis of a valid serving design (nullptr otherwise);
    // its errors are among the problems.
    const Serving* serving() const { return analysis_ ? analysis_->served.get() : nullptr; }
    // Validation problems, then analysis warnings.
    const std::vector<Problem>& problems() const { return problems_; }
    // Problems that point at a component ("/components/N/...").
    QList<const Problem*> problemsFor(const std::string& componentId) const;
    // A component's totals in the last analysis; nullptr when there is
    // none, or while an edit waits for its recompute (which runs before the
    // next paint).
    const ComponentTotals* totalsFor(const std::string& componentId) const;
    // The same by the component's position in the document's design.
    QList<const Problem*> problemsAt(int componentIndex) const;
    const ComponentTotals* totalsAt(int componentIndex) const;
    // The component a problem's pointer names, or "".
    QString componentOf(const Problem& p) const;
    // Its index in the document's components, or -1.
    int componentIndexOf(const Problem& p) const;

    // The explanation of a metrics key for the last analysis (nullptr when
    // none); built on first use after each recompute.
    const Explanation* explanation(std::string_view key) const;
    int recomputeCount() const { return recomputes_; }

    void recomputeNow();

signals:
    void updated();

private:
    // The posted call after a burst of edits: a recompute, unless only
    // where items are drawn changed.
    void refresh();
    void rememberAll();
    // Whether the component changed only where or how it is drawn
    // (position, size, collapsed) since the analyses last read it.
    bool changedOnlyInDrawing(const QString& id);

    DesignDocument* doc_;
    PostedCall recompute_{this, [this] { refresh(); }};
    // Each component as the analyses last read it, without its position,
    // size and collapsed state, which no figure depends on: moving items
    // (a drag, arrow keys, align) recomputes nothing.
    std::unordered_map<std::string, Component> analysed_;
    bool relevant_ = true;          // something the analyses read changed since they ran
    bool validationClean_ = false;  // the design had no validation problems when they ran
    std::optional<Analysis> analysis_;
    std::vector<Problem> problems_;
    std::uint64_t revision_ = ~std::uint64_t{0};    // the document's, when last recomputed
    QHash<int, QList<const Problem*>> problemsAt_;  // by component index at that revision
    mutable std::optional<std::vector<ExplainedMetric>> explained_;
    int recomputes_ = 0;
};

}  // namespace studio
