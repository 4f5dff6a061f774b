#include "widgets/document/commands.h"

#include <algorithm>
#include <set>
#include <type_traits>

#include "core/contract.h"
#include "widgets/document/design_document.h"

namespace studio {

int nextMergeKey()
{
    static int key = 0;
    return ++key;
}

void DesignCommand::setProblems(DesignDocument* doc, std::vector<Problem> before, std::vector<Problem> after)
{
    problemsDoc_ = doc;
    problemsBefore_ = std::make_shared<const std::vector<Problem>>(std::move(before));
    problemsAfter_ = std::make_shared<const std::vector<Problem>>(std::move(after));
}

void DesignCommand::restoreProblems(bool after) const
{
    if (const auto& problems = after ? problemsAfter_ : problemsBefore_; problemsDoc_ && problems)
        problemsDoc_->setProblems(*problems);
}

// --- AddItemsCommand

AddItemsCommand::AddItemsCommand(DesignDocument* doc, std::vector<Component> components, std::vector<Link> links,
                                 const QString& text)
    : DesignCommand(text), doc_(doc), components_(std::move(components)), links_(std::move(links))
{}

void AddItemsCommand::preview(Design& d) const
{
    d.components.insert(d.components.end(), components_.begin(), components_.end());
    d.links.insert(d.links.end(), links_.begin(), links_.end());
}

std::optional<std::vector<std::string>> AddItemsCommand::addedLinksOnly() const
{
    if (!components_.empty())
        return std::nullopt;
    std::vector<std::string> ids;
    for (const Link& l : links_)
        ids.push_back(l.id);
    return ids;
}

void AddItemsCommand::unpreview(Design& d) const
{
    d.links.resize(d.links.size() - links_.size());
    d.components.resize(d.components.size() - components_.size());
}

void AddItemsCommand::redo()
{
    for (const auto& c : components_)
        doc_->insertComponent(int(doc_->design().components.size()), c);
    for (const auto& l : links_)
        doc_->insertLink(int(doc_->design().links.size()), l);
    restoreProblems(true);
}

void AddItemsCommand::undo()
{
    for (auto it = links_.rbegin(); it != links_.rend(); ++it)
        doc_->takeLink(doc_->linkIndex(it->id));
    for (auto it = components_.rbegin(); it != components_.rend(); ++it)
        doc_->takeComponent(doc_->componentIndex(it->id));
    restoreProblems(false);
}

// --- RemoveItemsCommand

RemoveItemsCommand::RemoveItemsCommand(DesignDocument* doc, const std::vector<std::string>& componentIds,
                                       const std::vector<std::string>& linkIds, const QString& text)
    : DesignCommand(text), doc_(doc)
{
    const Design& d = doc->design();
    std::set<std::string> doomed(componentIds.begin(), componentIds.end());
    // Everything inside a removed container goes with it.
    for (bool grew = true; grew;) {
        grew = false;
        for (const auto& c : d.components)
            if (!c.parent.empty() && doomed.count(c.parent) && doomed.insert(c.id).second)
                grew = true;
    }
    for (std::size_t i = 0; i < d.components.size(); ++i)
        if (doomed.count(d.components[i].id))
            components_.emplace_back(int(i), d.components[i]);
    const std::set<std::string> linkSet(linkIds.begin(), linkIds.end());
    for (std::size_t i = 0; i < d.links.size(); ++i) {
        const Link& l = d.links[i];
        if (linkSet.count(l.id) || doomed.count(l.from) || doomed.count(l.to))
            links_.emplace_back(int(i), l);
    }
}

void RemoveItemsCommand::preview(Design& d) const
{
    for (auto it = links_.rbegin(); it != links_.rend(); ++it)
        d.links.erase(d.links.begin() + it->first);
    for (auto it = components_.rbegin(); it != components_.rend(); ++it)
        d.components.erase(d.components.begin() + it->first);
}

void RemoveItemsCommand::unpreview(Design& d) const
{
    for (const auto& [index, c] : components_)
        d.components.insert(d.components.begin() + index, c);
    for (const auto& [index, l] : links_)
        d.links.insert(d.links.begin() + index, l);
}

void RemoveItemsCommand::redo()
{
    for (auto it = links_.rbegin(); it != links_.rend(); ++it)
        doc_->takeLink(it->first);
    for (auto it = components_.rbegin(); it != components_.rend(); ++it)
        doc_->takeComponent(it->first);
    restoreProblems(true);
}

void RemoveItemsCommand::undo()
{
    for (const auto& [index, c] : components_)
        doc_->insertComponent(index, c);
    for (const auto& [index, l] : links_)
        doc_->insertLink(index, l);
    restoreProblems(false);
}

// --- ChangeItemsCommand: the same for components and links.

namespace {
int indexOf(DesignDocument* doc, const Component& c)
{
    return doc->componentIndex(c.id);
}
int indexOf(DesignDocument* doc, const Link& l)
{
    return doc->linkIndex(l.id);
}
const Component& at(DesignDocument* doc, const Component&, int i)
{
    return doc->design().components[std::size_t(i)];
}
const Link& at(DesignDocument* doc, const Link&, int i)
{
    return doc->design().links[std::size_t(i)];
}
void replace(DesignDocument* doc, int i, const Component& c)
{
    doc->replaceComponent(i, c);
}
void replace(DesignDocument* doc, int i, const Link& l)
{
    doc->replaceLink(i, l);
}
std::vector<Component>& itemsOf(Design& d, const Component&)
{
    return d.components;
}
std::vector<Link>& itemsOf(Design& d, const Link&)
{
    return d.links;
}
}  // namespace

template <typename Item>
ChangeItemsCommand<Item>::ChangeItemsCommand(DesignDocument* doc, std::vector<Item> after, const QString& text,
                                             int mergeKey)
    : DesignCommand(text), doc_(doc), after_(std::move(after)), mergeKey_(mergeKey)
{
    for (const auto& v : after_) {
        const int i = indexOf(doc, v);
        STUDIO_EXPECTS(i >= 0);
        before_.push_back(at(doc, v, i));
    }
}

namespace {
template <typename Item>
void assignById(Design& d, const Item& value)
{
    auto& items = itemsOf(d, value);
    const auto it = std::find_if(items.begin(), items.end(), [&](const Item& x) { return x.id == value.id; });
    STUDIO_EXPECTS(it != items.end());
    *it = value;
}
}  // namespace

template <typename Item>
void ChangeItemsCommand<Item>::preview(Design& d) const
{
    for (const auto& v : after_)
        assignById(d, v);
}

template <typename Item>
void ChangeItemsCommand<Item>::unpreview(Design& d) const
{
    // In reverse: an item listed twice gets its first value back.
    for (auto it = before_.rbegin(); it != before_.rend(); ++it)
        assignById(d, *it);
}

template <typename Item>
void ChangeItemsCommand<Item>::apply(const std::vector<Item>& values)
{
    for (const auto& v : values)
        replace(doc_, indexOf(doc_, v), v);
}

template <typename Item>
void ChangeItemsCommand<Item>::redo()
{
    apply(after_);
    restoreProblems(true);
}

template <typename Item>
void ChangeItemsCommand<Item>::undo()
{
    apply(before_);
    restoreProblems(false);
}

namespace {
// What a component or a link says of itself, as opposed to what relates it
// to other items (its id, container, part and count; a link's ends).
bool relatesTheSame(const Component& a, const Component& b)
{
    return a.id == b.id && a.part == b.part && a.parent == b.parent && a.count == b.count;
}
bool relatesTheSame(const Link& a, const Link& b)
{
    return a.id == b.id && a.from == b.from && a.to == b.to;
}
}  // namespace

template <typename Item>
std::optional<FieldChange> ChangeItemsCommand<Item>::fieldChange() const
{
    FieldChange change;
    for (std::size_t i = 0; i < after_.size(); ++i) {
        if (!relatesTheSame(before_[i], after_[i]))
            return std::nullopt;
        (std::is_same_v<Item, Component> ? change.components : change.links).push_back(after_[i].id);
    }
    return change;
}

template <typename Item>
int ChangeItemsCommand<Item>::id() const
{
    if (!mergeKey_)
        return -1;
    return std::is_same_v<Item, Component> ? kChangeComponentsId : kChangeLinksId;
}

template <typename Item>
bool ChangeItemsCommand<Item>::mergeWith(const QUndoCommand* other)
{
    const auto* o = static_cast<const ChangeItemsCommand<Item>*>(other);
    if (o->mergeKey_ != mergeKey_ || o->after_.size() != after_.size())
        return false;
    for (std::size_t i = 0; i < after_.size(); ++i)
        if (o->after_[i].id != after_[i].id)
            return false;
    after_ = o->after_;
    takeProblemsAfter(*o);
    return true;
}

template class ChangeItemsCommand<Component>;
template class ChangeItemsCommand<Link>;

// --- ChangeSettingsCommand

DesignSettings DesignSettings::of(const Design& d)
{
    return {d.name, d.description, d.workload, d.facility, d.operations};
}

AddPartsCommand::AddPartsCommand(DesignDocument* doc, Json embedded, std::shared_ptr<const Catalog> catalog,
                                 const QString& text)
    : DesignCommand(text), doc_(doc), before_(doc->design().catalog), after_(std::move(embedded)),
      catalogBefore_(doc->catalogPtr()), catalogAfter_(std::move(catalog))
{}

void AddPartsCommand::redo()
{
    doc_->replaceParts(after_, catalogAfter_);
    restoreProblems(true);
}

void AddPartsCommand::undo()
{
    doc_->replaceParts(before_, catalogBefore_);
    restoreProblems(false);
}

ChangeSettingsCommand::ChangeSettingsCommand(DesignDocument* doc, DesignSettings after, const QString& text,
                                             int mergeKey)
    : DesignCommand(text), doc_(doc), before_(DesignSettings::of(doc->design())), after_(std::move(after)),
      mergeKey_(mergeKey)
{}

void ChangeSettingsCommand::set(Design& d, const DesignSettings& s)
{
    d.name = s.name;
    d.description = s.description;
    d.workload = s.workload;
    d.facility = s.facility;
    d.operations = s.operations;
}

void ChangeSettingsCommand::preview(Design& d) const
{
    set(d, after_);
}

void ChangeSettingsCommand::unpreview(Design& d) const
{
    set(d, before_);
}

void ChangeSettingsCommand::apply(const DesignSettings& s)
{
    const Design& d = doc_->design();
    if (d.name != s.name || d.description != s.description)
        doc_->replaceInfo(s.name, s.description);
    if (!(d.workload == s.workload))
        doc_->replaceWorkload(s.workload);
    if (!(d.facility == s.facility))
        doc_->replaceFacility(s.facility);
    if (!(d.operations == s.operations))
        doc_->replaceOperations(s.operations);
}

void ChangeSettingsCommand::redo()
{
    apply(after_);
    restoreProblems(true);
}
void ChangeSettingsCommand::undo()
{
    apply(before_);
    restoreProblems(false);
}

bool ChangeSettingsCommand::mergeWith(const QUndoCommand* other)
{
    const auto* o = static_cast<const ChangeSettingsCommand*>(other);
    if (o->mergeKey_ != mergeKey_)
        return false;
    after_ = o->after_;
    takeProblemsAfter(*o);
    return true;
}

void CompositeCommand::redo()
{
    for (auto& part : parts_)
        part->redo();
    restoreProblems(true);
}

void CompositeCommand::undo()
{
    for (auto it = parts_.rbegin(); it != parts_.rend(); ++it)
        (*it)->undo();
    restoreProblems(false);
}

std::optional<FieldChange> CompositeCommand::fieldChange() const
{
    FieldChange all;
    for (const auto& part : parts_) {
        const auto change = part->fieldChange();
        if (!change)
            return std::nullopt;
        all.components.insert(all.components.end(), change->components.begin(), change->components.end());
        all.links.insert(all.links.end(), change->links.begin(), change->links.end());
        all.settings = all.settings || change->settings;
    }
    return all;
}

void CompositeCommand::preview(Design& design) const
{
    for (const auto& part : parts_)
        part->preview(design);
}

void CompositeCommand::unpreview(Design& design) const
{
    for (auto it = parts_.rbegin(); it != parts_.rend(); ++it)
        (*it)->unpreview(design);
}

bool CompositeCommand::changesNothing() const
{
    return std::all_of(parts_.begin(), parts_.end(), [](const auto& part) { return part->changesNothing(); });
}

}  // namespace studio
