#include "widgets/analysis/analysis_service.h"

#include "core/format/design_validator.h"
#include "widgets/document/design_document.h"

namespace studio {

AnalysisService::AnalysisService(DesignDocument* document, QObject* parent) : QObject(parent), doc_(document)
{
    connect(doc_, &DesignDocument::changed, this, [this] { recompute_.request(); });
    recomputeNow();
}

void AnalysisService::recomputeNow()
{
    recompute_.cancel();
    ++recomputes_;
    explained_.reset();
    const Design& d = doc_->design();
    problems_ = validateDesign(d, doc_->catalog());
    componentIndex_.clear();
    for (std::size_t i = 0; i < d.components.size(); ++i)
        componentIndex_.insert(QString::fromStdString(d.components[i].id), int(i));
    serving_.reset();
    if (hasErrors(problems_)) {
        analysis_.reset();
    } else {
        analysis_ = analyzeDesign(d, doc_->catalog());
        problems_.insert(problems_.end(), analysis_->warnings.begin(), analysis_->warnings.end());
        // A few microseconds: computed with the rest, its errors shown as
        // the file's are (a batch that does not fit, at its pointer).
        if (d.workload.isServing()) {
            serving_ = analyzeServing(d, doc_->catalog());
            problems_.insert(problems_.end(), serving_->errors.begin(), serving_->errors.end());
        }
    }
    emit updated();
}

const Explanation* AnalysisService::explanation(std::string_view key) const
{
    if (!analysis_)
        return nullptr;
    if (!explained_)
        explained_ = explainMetrics(*analysis_);
    return findExplanation(*explained_, key);
}

QString AnalysisService::componentOf(const Problem& p) const
{
    static const std::string prefix = "/components/";
    if (p.pointer.rfind(prefix, 0) != 0)
        return {};
    const std::size_t end = p.pointer.find('/', prefix.size());
    const std::string number = p.pointer.substr(prefix.size(), end == std::string::npos ? end : end - prefix.size());
    bool ok = false;
    const int index = QString::fromStdString(number).toInt(&ok);
    const auto& comps = doc_->design().components;
    if (!ok || index < 0 || index >= int(comps.size()))
        return {};
    return QString::fromStdString(comps[std::size_t(index)].id);
}

QList<const Problem*> AnalysisService::problemsFor(const QString& componentId) const
{
    QList<const Problem*> out;
    for (const auto& p : problems_)
        if (componentOf(p) == componentId)
            out << &p;
    return out;
}

const ComponentTotals* AnalysisService::totalsFor(const QString& componentId) const
{
    const auto it = componentIndex_.find(componentId);
    if (!analysis_ || it == componentIndex_.end() || *it >= int(analysis_->totals.size()))
        return nullptr;
    return &analysis_->totals[std::size_t(*it)];
}

}  // namespace studio
