#pragma once
// Recomputes the design's analyses after edits: a burst of edits (a drag,
// typing) triggers one recompute when control returns to the event loop,
// not one per change, and before the canvas paints the edit (a PostedCall).
// Holds the validation problems and analysis warnings that the canvas marks
// on items and the warnings dock lists.
#include <QHash>
#include <QObject>

#include <optional>
#include <vector>

#include "core/analysis/analysis.h"
#include "core/metrics/explanations.h"
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
    // The serving analysis of a valid serving design (nullptr otherwise);
    // its errors are among the problems.
    const Serving* serving() const { return serving_ ? &*serving_ : nullptr; }
    // Validation problems, then analysis warnings.
    const std::vector<Problem>& problems() const { return problems_; }
    // Problems that point at a component ("/components/N/...").
    QList<const Problem*> problemsFor(const QString& componentId) const;
    const ComponentTotals* totalsFor(const QString& componentId) const;
    // The component a problem's pointer names, or "".
    QString componentOf(const Problem& p) const;

    // The explanation of a metrics key for the last analysis (nullptr when
    // none); built on first use after each recompute.
    const Explanation* explanation(std::string_view key) const;
    int recomputeCount() const { return recomputes_; }

    void recomputeNow();

signals:
    void updated();

private:
    DesignDocument* doc_;
    PostedCall recompute_{this, [this] { recomputeNow(); }};
    std::optional<Analysis> analysis_;
    std::optional<Serving> serving_;
    std::vector<Problem> problems_;
    QHash<QString, int> componentIndex_;
    mutable std::optional<std::vector<ExplainedMetric>> explained_;
    int recomputes_ = 0;
};

}  // namespace studio
