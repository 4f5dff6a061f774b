#include "widgets/document/design_document.h"

#include <algorithm>
#include <utility>

#include <QCryptographicHash>
#include <QFile>

#include "core/contract.h"
#include "core/format/design_reader.h"
#include "core/format/design_validator.h"
#include "core/format/design_writer.h"
#include "core/json/json_text.h"
#include "core/version.h"
#include "widgets/common/atomic_write.h"
#include "widgets/common/qt_string.h"

namespace studio {

namespace {

QByteArray digestOf(const char* data, std::size_t size)
{
    return QCryptographicHash::hash(QByteArrayView(data, qsizetype(size)), QCryptographicHash::Sha256);
}

}  // namespace

DesignDocument::DesignDocument(QObject* parent)
    : QObject(parent), catalog_(std::make_shared<Catalog>(Catalog::builtin()))
{}

void DesignDocument::reset(Design design, std::shared_ptr<const Catalog> catalog, const QString& filePath)
{
    design_ = std::move(design);
    ++componentOrder_;
    componentIds_.clear();
    linkIds_.clear();
    catalog_ = std::move(catalog);
    ++revision_;
    undoStack_.clear();
    undoStack_.setUndoLimit(undoLimit_);
    const bool pathChanged = filePath_ != filePath;
    filePath_ = filePath;
    diskDigest_.clear();
    emit designReset();
    emit changed();
    if (pathChanged)
        emit filePathChanged(filePath_);
}

void DesignDocument::setUndoLimit(int steps)
{
    undoLimit_ = std::max(0, steps);
    if (undoStack_.count() == 0)
        undoStack_.setUndoLimit(undoLimit_);
}

void DesignDocument::setCatalog(std::shared_ptr<const Catalog> catalog)
{
    // Kept until every view has moved to the new catalog's parts.
    const std::shared_ptr<const Catalog> previous = std::exchange(catalog_, std::move(catalog));
    ++revision_;
    emit catalogChanged();
    emit settingsChanged();
    emit changed();
}

bool DesignDocument::load(const QString& path, const Catalog& base, std::vector<Problem>* problems)
{
    // One read: the digest is of exactly the text the design came from.
    const FileText file = readTextFile(path.toStdString());
    DesignLoad loaded;
    if (file.error)
        loaded.problems.push_back({Severity::Error, "", *file.error});
    else
        loaded = readDesignText(file.text, base);
    if (problems)
        *problems = loaded.problems;
    if (!loaded.ok())
        return false;
    reset(std::move(*loaded.design), std::move(loaded.catalog), path);
    diskDigest_ = digestOf(file.text.data(), file.text.size());
    return true;
}

bool DesignDocument::saveAs(const QString& path, QString* error)
{
    const std::string text = writeDesignText(design_);
    if (!writeAtomically(path, QByteArrayView(text.data(), qsizetype(text.size())), error))
        return false;
    diskDigest_ = digestOf(text.data(), text.size());
    // The file now records this studio as its writer.
    design_.app_version = std::string(kAppVersion);
    undoStack_.setClean();
    if (filePath_ != path) {
        filePath_ = path;
        emit filePathChanged(filePath_);
    }
    return true;
}

bool DesignDocument::fileChangedOnDisk() const
{
    if (filePath_.isEmpty() || filePath_.startsWith(':'))
        return false;
    QFile file(filePath_);
    if (!file.exists())
        return false;
    if (!file.open(QIODevice::ReadOnly))
        return true;  // there, but not what we can vouch for
    const QByteArray bytes = file.readAll();
    return diskDigest_.isEmpty() || digestOf(bytes.constData(), std::size_t(bytes.size())) != diskDigest_;
}

const std::vector<Problem>& DesignDocument::problems() const
{
    if (problemsRevision_ != revision_) {
        problems_ = validateDesign(design_, *catalog_);
        problemsRevision_ = revision_;
    }
    return problems_;
}

void DesignDocument::setProblems(std::vector<Problem> problems)
{
    problems_ = std::move(problems);
    problemsRevision_ = revision_;
}

int DesignDocument::componentIndex(const std::string& id) const
{
    return componentIds_.find(design_.components, id);
}

int DesignDocument::linkIndex(const std::string& id) const
{
    return linkIds_.find(design_.links, id);
}

std::string DesignDocument::uniqueComponentId(const std::string& prefix) const
{
    if (componentIndex(prefix) < 0 && !prefix.empty())
        return prefix;
    for (int n = 2;; ++n) {
        const std::string id = prefix + "-" + std::to_string(n);
        if (componentIndex(id) < 0)
            return id;
    }
}

std::string DesignDocument::uniqueLinkId(const std::string& prefix) const
{
    if (linkIndex(prefix) < 0 && !prefix.empty())
        return prefix;
    for (int n = 2;; ++n) {
        const std::string id = prefix + "-" + std::to_string(n);
        if (linkIndex(id) < 0)
            return id;
    }
}

void DesignDocument::insertComponent(int index, const Component& c)
{
    STUDIO_EXPECTS(index >= 0 && std::size_t(index) <= design_.components.size());
    ++revision_;
    design_.components.insert(design_.components.begin() + index, c);
    ++componentOrder_;
    componentIds_.inserted(design_.components, std::size_t(index));
    emit componentAdded(q(c.id));
    emit changed();
}

Component DesignDocument::takeComponent(int index)
{
    STUDIO_EXPECTS(index >= 0 && std::size_t(index) < design_.components.size());
    ++revision_;
    Component c = design_.components[std::size_t(index)];
    design_.components.erase(design_.components.begin() + index);
    ++componentOrder_;
    componentIds_.erased(c.id, std::size_t(index));
    emit componentRemoved(q(c.id));
    emit changed();
    return c;
}

void DesignDocument::replaceComponent(int index, const Component& c)
{
    STUDIO_EXPECTS(index >= 0 && std::size_t(index) < design_.components.size());
    ++revision_;
    if (design_.components[std::size_t(index)].id != c.id)
        ++componentOrder_;
    componentIds_.replaced(design_.components[std::size_t(index)].id, c.id, std::size_t(index));
    design_.components[std::size_t(index)] = c;
    emit componentChanged(q(c.id));
    emit changed();
}

void DesignDocument::insertLink(int index, const Link& l)
{
    STUDIO_EXPECTS(index >= 0 && std::size_t(index) <= design_.links.size());
    ++revision_;
    design_.links.insert(design_.links.begin() + index, l);
    linkIds_.inserted(design_.links, std::size_t(index));
    emit linkAdded(q(l.id));
    emit changed();
}

Link DesignDocument::takeLink(int index)
{
    STUDIO_EXPECTS(index >= 0 && std::size_t(index) < design_.links.size());
    ++revision_;
    Link l = design_.links[std::size_t(index)];
    design_.links.erase(design_.links.begin() + index);
    linkIds_.erased(l.id, std::size_t(index));
    emit linkRemoved(q(l.id));
    emit changed();
    return l;
}

void DesignDocument::replaceLink(int index, const Link& l)
{
    STUDIO_EXPECTS(index >= 0 && std::size_t(index) < design_.links.size());
    ++revision_;
    linkIds_.replaced(design_.links[std::size_t(index)].id, l.id, std::size_t(index));
    design_.links[std::size_t(index)] = l;
    emit linkChanged(q(l.id));
    emit changed();
}

void DesignDocument::replaceWorkload(const Workload& w)
{
    ++revision_;
    design_.workload = w;
    emit settingsChanged();
    emit changed();
}

void DesignDocument::replaceFacility(const Facility& f)
{
    ++revision_;
    design_.facility = f;
    emit settingsChanged();
    emit changed();
}

void DesignDocument::replaceParts(const Json& embedded, std::shared_ptr<const Catalog> catalog)
{
    ++revision_;
    design_.catalog = embedded;
    setCatalog(std::move(catalog));
    emit changed();
}

void DesignDocument::replaceOperations(const Operations& o)
{
    ++revision_;
    design_.operations = o;
    emit settingsChanged();
    emit changed();
}

void DesignDocument::replaceInfo(const std::string& name, const std::string& description)
{
    ++revision_;
    design_.name = name;
    design_.description = description;
    emit settingsChanged();
    emit changed();
}

}  // namespace studio
