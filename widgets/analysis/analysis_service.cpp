#include "widgets/analysis/analysis_service.h"

#include "widgets/document/design_document.h"

namespace studio {

namespace {
// A component as the analyses see it: where and how it is drawn left out.
Component undrawn(Component c)
{
    c.position = {};
    c.size.reset();
    c.collapsed = false;
    return c;
}
}  // namespace

AnalysisService::AnalysisService(DesignDocument* document, QObject* parent) : QObject(parent), doc_(document)
{
    // The specific signals come before `changed`: by then it is known
    // whether anything the analyses read changed.
    auto relevant = [this] { relevant_ = true; };
    connect(doc_, &DesignDocument::designReset, this, [this] {
        rememberAll();
        relevant_ = true;
    });
    connect(doc_, &DesignDocument::componentAdded, this, [this](const QString& id) {
        changedOnlyInDrawing(id);
        relevant_ = true;
    });
    connect(doc_, &DesignDocument::componentRemoved, this, [this](const QString& id) {
        analysed_.erase(id.toStdString());
        relevant_ = true;
    });
    connect(doc_, &DesignDocument::componentChanged, this, [this](const QString& id) {
        if (!changedOnlyInDrawing(id))
            relevant_ = true;
    });
    connect(doc_, &DesignDocument::linkAdded, this, relevant);
    connect(doc_, &DesignDocument::linkRemoved, this, relevant);
    connect(doc_, &DesignDocument::linkChanged, this, relevant);
    connect(doc_, &DesignDocument::settingsChanged, this, relevant);
    connect(doc_, &DesignDocument::changed, this, [this] { recompute_.request(); });
    rememberAll();
    recomputeNow();
}

void AnalysisService::rememberAll()
{
    analysed_.clear();
    for (const Component& c : doc_->design().components)
        analysed_.insert_or_assign(c.id, undrawn(c));
}

bool AnalysisService::changedOnlyInDrawing(const QString& qid)
{
    const std::string id = qid.toStdString();
    const int i = doc_->componentIndex(id);
    if (i < 0)
        return false;
    Component now = undrawn(doc_->design().components[std::size_t(i)]);
    const auto it = analysed_.find(id);
    if (it != analysed_.end() && it->second == now)
        return true;
    analysed_.insert_or_assign(id, std::move(now));
    return false;
}

void AnalysisService::refresh()
{
    // Only where items are drawn changed: every figure, warning and total
    // still holds (by index too: nothing was added or removed), and the
    // document's problems say whether validation still agrees.
    if (!relevant_ && validationClean_ && doc_->problems().empty()) {
        revision_ = doc_->revision();
        return;
    }
    recomputeNow();
}

void AnalysisService::recomputeNow()
{
    recompute_.cancel();
    relevant_ = false;
    ++recomputes_;
    explained_.reset();
    const Design& d = doc_->design();
    problems_ = doc_->problems();
    validationClean_ = problems_.empty();
    revision_ = doc_->revision();
    if (hasErrors(problems_)) {
        analysis_.reset();
    } else {
        analysis_ = analyzeDesign(d, doc_->catalog());
        problems_.insert(problems_.end(), analysis_->warnings.begin(), analysis_->warnings.end());
        // Computed with the rest, its errors shown as the file's are (a
        // batch that does not fit, at its pointer).
        if (const Serving* s = serving())
            problems_.insert(problems_.end(), s->errors.begin(), s->errors.end());
    }
    problemsAt_.clear();
    for (const Problem& p : problems_)
        if (const int i = componentIndexOf(p); i >= 0)
            problemsAt_[i] << &p;
    emit updated();
}

bool AnalysisService::current() const
{
    return revision_ == doc_->revision();
}

void AnalysisService::bringUpToDate()
{
    if (current())
        return;
    recompute_.cancel();
    refresh();
}

const Explanation* AnalysisService::explanation(std::string_view key) const
{
    if (!analysis_)
        return nullptr;
    if (!explained_)
        explained_ = explainMetrics(*analysis_);
    return findExplanation(*explained_, key);
}

int AnalysisService::componentIndexOf(const Problem& p) const
{
    static const std::string prefix = "/components/";
    if (p.pointer.rfind(prefix, 0) != 0)
        return -1;
    const std::size_t end = p.pointer.find('/', prefix.size());
    const std::string number = p.pointer.substr(prefix.size(), end == std::string::npos ? end : end - prefix.size());
    bool ok = false;
    const int index = QString::fromStdString(number).toInt(&ok);
    if (!ok || index < 0 || index >= int(doc_->design().components.size()))
        return -1;
    return index;
}

QString AnalysisService::componentOf(const Problem& p) const
{
    const int index = componentIndexOf(p);
    return index < 0 ? QString() : QString::fromStdString(doc_->design().components[std::size_t(index)].id);
}

QList<const Problem*> AnalysisService::problemsFor(const std::string& componentId) const
{
    return problemsAt(doc_->componentIndex(componentId));
}

QList<const Problem*> AnalysisService::problemsAt(int componentIndex) const
{
    // Asked for every item on the canvas after each recompute: by index
    // while the document is as analysed, else by reading the pointers.
    if (revision_ == doc_->revision())
        return problemsAt_.value(componentIndex);
    QList<const Problem*> out;
    for (const auto& p : problems_)
        if (componentIndex >= 0 && componentIndexOf(p) == componentIndex)
            out << &p;
    return out;
}

const ComponentTotals* AnalysisService::totalsFor(const std::string& componentId) const
{
    return totalsAt(doc_->componentIndex(componentId));
}

const ComponentTotals* AnalysisService::totalsAt(int componentIndex) const
{
    if (!analysis_ || revision_ != doc_->revision())
        return nullptr;
    if (componentIndex < 0 || componentIndex >= int(analysis_->totals.size()))
        return nullptr;
    return &analysis_->totals[std::size_t(componentIndex)];
}

}  // namespace studio
