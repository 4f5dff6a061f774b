#include "widgets/document/design_editor.h"

#include <QUndoStack>

#include <algorithm>
#include <exception>
#include <map>

#include "core/catalog/cable_choice.h"
#include "core/format/design_validator.h"
#include "core/text.h"
#include "widgets/canvas/item_metrics.h"
#include "widgets/common/qt_string.h"
#include "widgets/document/design_document.h"

namespace studio {
namespace {

std::string idPrefix(const Part& p)
{
    switch (p.kind) {
    case PartKind::Accelerator: return "gpu";
    case PartKind::Nic: return "nic";
    case PartKind::Switch: return "switch";
    case PartKind::Node: return "node";
    case PartKind::Rack: return "rack";
    case PartKind::Storage: return "storage";
    case PartKind::Fabric: return "fabric";
    case PartKind::Link: return "link";
    case PartKind::Group: {
        const std::string role = p.attribute("role");
        return role == "scalable_unit" ? "su" : role == "nvlink_domain" ? "nvl" : role.empty() ? "group" : role;
    }
    }
    return "item";
}

// `id` and each of its ancestors, innermost first.
bool hasAncestorIn(const Design& d, const std::string& id, const std::set<std::string>& ids)
{
    const Component* c = d.component(id);
    // A parent chain is at most kMaxNesting long in a valid design; the bound
    // also stops at a cycle, which validation refuses anyway.
    for (std::size_t depth = 0; c && !c->parent.empty() && depth <= kMaxNesting; ++depth) {
        if (ids.count(c->parent))
            return true;
        c = d.component(c->parent);
    }
    return false;
}

}  // namespace

DesignEditor::DesignEditor(DesignDocument* document) : doc_(document) {}

std::optional<Problem> DesignEditor::newError(const Design& proposed) const
{
    return firstNew(validateDesign(proposed, doc_->catalog()));
}

std::optional<Problem> DesignEditor::firstNew(std::vector<Problem> problems) const
{
    if (errorsRevision_ != doc_->revision()) {
        errors_.clear();
        for (const auto& p : doc_->problems())
            if (p.severity == Severity::Error)
                errors_.emplace(p.code, p.pointer);
        errorsRevision_ = doc_->revision();
    }
    for (auto& p : problems)
        if (p.severity == Severity::Error && !errors_.count({p.code, p.pointer}))
            return std::move(p);
    return std::nullopt;
}

QString DesignEditor::describe(const Problem& p) const
{
    // "/components/3/position/y" names an item by index: say which, by name.
    const Design& d = doc_->design();
    for (const auto& [prefix, isComponent] :
         {std::pair{std::string("/components/"), true}, std::pair{std::string("/links/"), false}}) {
        if (p.pointer.rfind(prefix, 0) != 0)
            continue;
        const std::size_t slash = p.pointer.find('/', prefix.size());
        const std::string index = p.pointer.substr(prefix.size(), slash - prefix.size());
        const std::string field = slash == std::string::npos ? std::string() : p.pointer.substr(slash + 1);
        std::size_t i = 0;
        const bool number = !index.empty() && index.find_first_not_of("0123456789") == std::string::npos;
        if (number)
            i = std::size_t(std::stoull(index));
        QString who;
        if (isComponent && number && i < d.components.size())
            who = q(d.components[i].name.empty() ? d.components[i].id : d.components[i].name);
        else if (!isComponent && number && i < d.links.size())
            who = QObject::tr("link %1").arg(q(d.links[i].id));
        else
            break;  // an item the edit adds: the pointer is all there is
        // Rules about containment and ids say what they are about already.
        if (field.empty() || field == "parent" || field == "id" || field == "part")
            return who + ": " + q(p.message);
        return who + ", " + q(field) + ": " + q(p.message);
    }
    const std::string where = p.pointer.empty() ? std::string() : p.pointer.substr(1);
    return where.empty() ? q(p.message) : q(where) + ": " + q(p.message);
}

EditResult DesignEditor::refuse(std::string code, std::string message) const
{
    EditResult r;
    r.status = EditResult::Status::Refused;
    r.problem = {Severity::Error, "", std::move(message), std::move(code)};
    r.reason = q(r.problem.message);
    return r;
}

EditResult DesignEditor::submit(std::unique_ptr<DesignCommand> command)
{
    // Nothing an edit does may throw into the event loop: a failure while
    // building or checking the change refuses it and leaves the design as it was.
    try {
        if (command->changesNothing())
            return {};
        // The design the edit makes, validated where it is: previewed on the
        // document's own design (no signals) and taken back however the
        // validation ends.
        std::vector<Problem> before = doc_->problems();
        std::vector<Problem> problems;
        {
            // A design without problems whose edit changes only items' own
            // fields can have no problem but theirs: only their rules are
            // asked (a move of one node of thousands checks that node).
            std::vector<std::size_t> components, links;
            auto change = before.empty() ? command->fieldChange() : std::nullopt;
            bool found = true;
            for (std::size_t k = 0; change && k < change->components.size(); ++k) {
                const int i = doc_->componentIndex(change->components[k]);
                found = found && i >= 0;
                components.push_back(std::size_t(std::max(i, 0)));
            }
            for (std::size_t k = 0; change && k < change->links.size(); ++k) {
                const int i = doc_->linkIndex(change->links[k]);
                found = found && i >= 0;
                links.push_back(std::size_t(std::max(i, 0)));
            }
            if (!found)
                change.reset();
            command->preview(doc_->design_);
            struct TakeBack {
                const DesignCommand& command;
                Design& design;
                ~TakeBack() { command.unpreview(design); }
            } previewed{*command, doc_->design_};
            // Added links only: the design keeps no problem if they hold.
            // Removals only: it keeps none at all.
            const auto added = before.empty() ? command->addedLinksOnly() : std::nullopt;
            std::vector<std::size_t> addedAt;
            for (std::size_t k = 0; added && k < added->size(); ++k)
                addedAt.push_back(doc_->design_.links.size() - added->size() + k);  // appended in order
            bool clean = false;
            if (change) {
                problems = validateFields(doc_->design_, doc_->catalog(), components, links, change->settings);
                clean = problems.empty();
            } else if (added) {
                clean = addedLinksHold(doc_->design_, doc_->catalog(), addedAt);
            } else {
                clean = before.empty() && command->removesOnly();
            }
            // Otherwise, or where they find something, the whole design is
            // checked: the refusal names the first problem in file order, as
            // the file reader would.
            if (!clean)
                problems = validateDesign(doc_->design_, doc_->catalog());
        }
        if (auto problem = firstNew(problems)) {
            EditResult r;
            r.status = EditResult::Status::Refused;
            r.reason = describe(*problem);
            r.problem = std::move(*problem);
            return r;
        }
        // Its redo and undo hand the document the problems now known.
        command->setProblems(doc_, std::move(before), std::move(problems));
        doc_->undoStack()->push(command.release());
        EditResult r;
        r.status = EditResult::Status::Applied;
        return r;
    } catch (const std::exception& e) {
        return refuse("internal_error", std::string("internal error: ") + e.what());
    }
}

std::string DesignEditor::freshComponentId(const std::string& prefix, std::set<std::string>& taken) const
{
    std::string id = doc_->uniqueComponentId(prefix);
    for (int n = 2; taken.count(id); ++n)
        id = doc_->uniqueComponentId(prefix + "-" + std::to_string(n));
    taken.insert(id);
    return id;
}

EditResult DesignEditor::addPart(const std::string& partId, const std::string& parent, Point position,
                                 std::string* newId)
{
    const Catalog& cat = doc_->catalog();
    const Part* part = cat.find(partId);
    if (!part)
        return refuse("unknown_part", "no part " + inQuotes(partId) + " in the catalog");
    std::set<std::string> taken;
    std::vector<Component> add;
    Component c;
    c.id = freshComponentId(idPrefix(*part), taken);
    c.part = part->id;
    c.name = part->name;
    c.parent = parent;
    c.position = position;
    if (part->kind == PartKind::Fabric) {
        // A fabric needs a switch: the catalog's first of the right kind.
        for (const Part& p : cat.parts())
            if (p.kind == PartKind::Switch) {
                c.props["switch"] = p.id;
                break;
            }
    }
    add.push_back(c);
    if (part->kind == PartKind::Node) {
        // A node platform arrives with what it carries: its GPUs, compute
        // NICs and DPUs, as the catalog lists them, in a row under its header.
        const struct {
            const char* attr;
            const char* figure;
            const char* name;
        } contents[] = {{"accelerator", "gpus", "GPU"}, {"nic", "compute_nics", "NIC"}, {"dpu", "dpus", "DPU"}};
        double x = ItemMetrics::kPad;
        for (const auto& k : contents) {
            const Part* child = cat.find(part->attribute(k.attr));
            const Figure* n = part->figure(k.figure);
            if (!child || !n || n->value < 1)
                continue;
            Component ch;
            ch.id = freshComponentId(c.id + "." + idPrefix(*child), taken);
            ch.part = child->id;
            ch.name = k.name;
            ch.parent = c.id;
            ch.count = std::int64_t(n->value);
            ch.position = {x, ItemMetrics::kHeader + 10};
            x += ItemMetrics::kTileW + 10;
            add.push_back(ch);
        }
    }
    EditResult r = addItems(add, {}, QObject::tr("Add %1").arg(q(part->name)));
    if (r.applied() && newId)
        *newId = c.id;
    return r;
}

EditResult DesignEditor::connect(const std::string& fromId, const std::string& toId)
{
    if (fromId == toId)
        return refuse("self_link", "a link joins two different items");
    const Design& d = doc_->design();
    const Component* from = d.component(fromId);
    const Component* to = d.component(toId);
    if (!from || !to)
        return refuse("dangling_link", "a link needs an item at each end");
    const Catalog& cat = doc_->catalog();
    for (const Component* c : {from, to})
        if (const Part* p = cat.find(c->part);
            p && (p->kind == PartKind::Group || p->kind == PartKind::Rack || p->kind == PartKind::Accelerator))
            return refuse("not_linkable",
                          "links join NICs, nodes, switches, storage and fabrics, not " +
                              std::string(partKindLabel(p->kind)) + "s");
    // The cable: a fabric's own, else the slowest catalog cable that carries
    // the NIC's speed on its protocol.
    std::string cable;
    for (const Component* c : {to, from})
        if (auto it = c->props.find("cable"); it != c->props.end() && it->second.is_string())
            cable = it->second.get<std::string>();
    if (cable.empty()) {
        double speed = 0;
        std::string protocol;
        for (const Component* c : {from, to}) {
            const Part* p = cat.find(c->part);
            if (p && (p->kind == PartKind::Nic || p->kind == PartKind::Switch)) {
                speed = std::max(speed, p->figure("port_gbps") ? p->figure("port_gbps")->value : 0.0);
                protocol = p->attribute("protocol");
            }
        }
        cable = defaultCable(cat, speed, protocol);
    }
    Link l;
    l.id = doc_->uniqueLinkId(from->id + "-" + to->id);
    l.from = from->id;
    l.to = to->id;
    l.part = cable;
    l.count = 1;
    return addItems({}, {l}, QObject::tr("Connect %1 to %2").arg(q(from->name), q(to->name)));
}

EditResult DesignEditor::addItems(std::vector<Component> components, std::vector<Link> links, const QString& text)
{
    if (components.empty() && links.empty())
        return {};
    return submit(std::make_unique<AddItemsCommand>(doc_, std::move(components), std::move(links), text));
}

EditResult DesignEditor::remove(const std::vector<std::string>& componentIds, const std::vector<std::string>& linkIds,
                                const QString& text)
{
    auto command = std::make_unique<RemoveItemsCommand>(doc_, componentIds, linkIds, text);
    if (command->isEmpty())
        return {};
    return submit(std::move(command));
}

EditResult DesignEditor::setCount(const std::string& id, std::int64_t count)
{
    const Component* now = doc_->design().component(id);
    if (!now)
        return refuse("missing", "no item " + inQuotes(id));
    Component c = *now;
    c.count = count;
    return changeComponents({c}, QObject::tr("Set count of %1 to %2").arg(q(c.name)).arg(count));
}

EditResult DesignEditor::moveBy(const std::vector<std::string>& ids, Point delta, int mergeKey)
{
    const Design& d = doc_->design();
    const std::set<std::string> all(ids.begin(), ids.end());
    std::set<std::string> done;
    std::vector<Component> moved;
    for (const auto& id : ids) {
        const Component* c = d.component(id);
        // An item inside a moving container moves with it.
        if (!c || hasAncestorIn(d, id, all) || !done.insert(id).second)
            continue;
        Component next = *c;
        next.position.x += delta.x;
        next.position.y += delta.y;
        moved.push_back(std::move(next));
    }
    if (moved.empty())
        return refuse("nothing_selected", "select items to move");
    return changeComponents(std::move(moved), QObject::tr("Move"), mergeKey);
}

EditResult DesignEditor::place(const std::vector<Placement>& placements)
{
    const Design& d = doc_->design();
    std::vector<Component> changed;
    bool reparent = false;
    for (const auto& p : placements) {
        const Component* c = d.component(p.id);
        if (!c)
            return refuse("missing", "no item " + inQuotes(p.id));
        Component next = *c;
        next.parent = p.parent;
        next.position = p.position;
        reparent = reparent || next.parent != c->parent;
        if (!(next == *c))
            changed.push_back(std::move(next));
    }
    return changeComponents(std::move(changed), reparent ? QObject::tr("Move into container") : QObject::tr("Move"));
}

EditResult DesignEditor::toggleCollapsed(const std::vector<std::string>& ids)
{
    std::vector<Component> changed;
    for (const auto& id : ids)
        if (const Component* c = doc_->design().component(id)) {
            Component next = *c;
            next.collapsed = !next.collapsed;
            changed.push_back(std::move(next));
        }
    if (changed.empty())
        return refuse("nothing_selected", "select containers to collapse or expand");
    const QString text = changed.size() > 1 ? QObject::tr("Collapse or expand %1 items").arg(changed.size())
        : changed.front().collapsed         ? QObject::tr("Collapse %1").arg(q(changed.front().name))
                                            : QObject::tr("Expand %1").arg(q(changed.front().name));
    return changeComponents(std::move(changed), text);
}

namespace {

// The boxes of items of one container, or why they cannot be lined up.
std::optional<std::string> boxesOf(const Design& d, const std::vector<SizedItem>& items, std::size_t least,
                                   std::vector<Box>* boxes)
{
    if (items.size() < least)
        return "select " + std::string(least == 2 ? "two" : "three") + " or more items";
    const Component* first = d.component(items.front().id);
    for (const auto& item : items) {
        const Component* c = d.component(item.id);
        if (!c)
            return "no item " + inQuotes(item.id);
        if (c->parent != first->parent)
            return "the items must be in the same container";
        boxes->push_back({c->position, item.size});
    }
    return std::nullopt;
}

// The items' components with the positions `to` (one per item, in order).
std::vector<Component> movedTo(const Design& d, const std::vector<SizedItem>& items, const std::vector<Point>& to)
{
    std::vector<Component> moved;
    for (std::size_t i = 0; i < items.size(); ++i) {
        Component c = *d.component(items[i].id);
        c.position = to[i];
        moved.push_back(std::move(c));
    }
    return moved;
}

}  // namespace

EditResult DesignEditor::align(const std::vector<SizedItem>& items, Alignment how)
{
    std::vector<Box> boxes;
    if (auto why = boxesOf(doc_->design(), items, 2, &boxes))
        return refuse("cannot_align", "Align: " + *why);
    return changeComponents(movedTo(doc_->design(), items, alignBoxes(boxes, how)), QObject::tr("Align"));
}

EditResult DesignEditor::distribute(const std::vector<SizedItem>& items, Distribution how)
{
    std::vector<Box> boxes;
    if (auto why = boxesOf(doc_->design(), items, 3, &boxes))
        return refuse("cannot_distribute", "Distribute: " + *why);
    return changeComponents(movedTo(doc_->design(), items, distributeBoxes(boxes, how)), QObject::tr("Distribute"));
}

EditResult DesignEditor::paste(const Fragment& fragment, const std::string& target, const QString& text,
                               std::vector<std::string>* roots)
{
    const Design& d = doc_->design();
    std::set<std::string> inFragment, taken;
    for (const auto& c : fragment.components)
        inFragment.insert(c.id);
    for (const auto& c : d.components)
        taken.insert(c.id);
    // New ids, unique in the design and among themselves.
    std::map<std::string, std::string> idMap;
    for (const auto& c : fragment.components) {
        std::string id = c.id;
        for (int n = 2; taken.count(id); ++n)
            id = c.id + "-" + std::to_string(n);
        taken.insert(id);
        idMap[c.id] = id;
    }
    const bool intoTarget = !target.empty() && d.component(target) && !inFragment.count(target);
    std::vector<Component> add;
    std::vector<std::string> newRoots;
    for (Component c : fragment.components) {
        const bool root = !inFragment.count(c.parent);
        c.id = idMap[c.id];
        if (root) {
            if (intoTarget)
                c.parent = target;
            else if (!d.component(c.parent))
                c.parent.clear();
            c.position.x += 20;
            c.position.y += 20;
            newRoots.push_back(c.id);
        } else {
            c.parent = idMap[c.parent];
        }
        add.push_back(std::move(c));
    }
    std::vector<Link> links;
    std::set<std::string> linkIds;
    for (const auto& l : d.links)
        linkIds.insert(l.id);
    for (Link l : fragment.links) {
        for (std::string* end : {&l.from, &l.to})
            if (idMap.count(*end))
                *end = idMap[*end];
        // A link whose other end is neither pasted nor here is left behind.
        if (!taken.count(l.from) || !taken.count(l.to))
            continue;
        std::string id = l.id;
        for (int n = 2; linkIds.count(id); ++n)
            id = l.id + "-" + std::to_string(n);
        linkIds.insert(id);
        l.id = id;
        links.push_back(std::move(l));
    }
    EditResult r = addItems(std::move(add), std::move(links), text);
    if (r.applied() && roots)
        *roots = std::move(newRoots);
    return r;
}

EditResult DesignEditor::addFabric(FabricPlan plan, Point position)
{
    if (!plan.error.empty())
        return refuse("no_fabric", plan.error);
    plan.fabric.position = position;
    return addItems({plan.fabric}, plan.links, QObject::tr("Generate fabric"));
}

EditResult DesignEditor::changeComponents(std::vector<Component> after, const QString& text, int mergeKey)
{
    for (const auto& c : after)
        if (doc_->componentIndex(c.id) < 0)
            return refuse("missing", "no item " + inQuotes(c.id));
    if (after.empty())
        return {};
    return submit(std::make_unique<ChangeComponentsCommand>(doc_, std::move(after), text, mergeKey));
}

EditResult DesignEditor::changeLinks(std::vector<Link> after, const QString& text, int mergeKey)
{
    for (const auto& l : after)
        if (doc_->linkIndex(l.id) < 0)
            return refuse("missing", "no link " + inQuotes(l.id));
    if (after.empty())
        return {};
    return submit(std::make_unique<ChangeLinksCommand>(doc_, std::move(after), text, mergeKey));
}

EditResult DesignEditor::changeSettings(DesignSettings after, const QString& text, int mergeKey)
{
    return submit(std::make_unique<ChangeSettingsCommand>(doc_, std::move(after), text, mergeKey));
}

EditResult DesignEditor::addParts(const Json& catalogDocument, const QString& text)
{
    auto catalog = std::make_shared<Catalog>(doc_->catalog());
    for (const Problem& p : catalog->merge(catalogDocument, "the imported parts"))
        if (p.severity == Severity::Error)
            return refuse("invalid_part", p.pointer + ": " + p.message);
    Json embedded = doc_->design().catalog.is_object()
        ? doc_->design().catalog
        : Json{{"format", "cluster-studio.catalog"}, {"format_version", "1.0"}};
    Json& sources = embedded["sources"];
    if (!sources.is_object())
        sources = Json::object();
    const Json added = catalogDocument.value("sources", Json::object());
    for (const auto& [key, value] : added.items())
        sources[key] = value;
    Json& parts = embedded["parts"];
    if (!parts.is_array())
        parts = Json::array();
    const Json newParts = catalogDocument.value("parts", Json::array());
    for (const Json& part : newParts) {
        const auto same = std::find_if(parts.begin(), parts.end(),
                                       [&](const Json& p) { return p.value("id", "") == part.value("id", ""); });
        if (same != parts.end())
            *same = part;
        else
            parts.push_back(part);
    }
    return submit(std::make_unique<AddPartsCommand>(doc_, std::move(embedded), std::move(catalog), text));
}

EditResult DesignEditor::changeDesign(const Design& after, const QString& text)
{
    const Design& now = doc_->design();
    auto sameIds = [](const auto& a, const auto& b) {
        return a.size() == b.size() &&
            std::equal(a.begin(), a.end(), b.begin(), [](const auto& x, const auto& y) { return x.id == y.id; });
    };
    if (!sameIds(now.components, after.components) || !sameIds(now.links, after.links))
        return refuse("changed_items", "the design changed since the edit was proposed: its items differ");
    std::vector<Component> components;
    for (std::size_t i = 0; i < now.components.size(); ++i)
        if (!(now.components[i] == after.components[i]))
            components.push_back(after.components[i]);
    std::vector<Link> links;
    for (std::size_t i = 0; i < now.links.size(); ++i)
        if (!(now.links[i] == after.links[i]))
            links.push_back(after.links[i]);
    auto command = std::make_unique<CompositeCommand>(text);
    if (!components.empty())
        command->add(std::make_unique<ChangeComponentsCommand>(doc_, std::move(components), text));
    if (!links.empty())
        command->add(std::make_unique<ChangeLinksCommand>(doc_, std::move(links), text));
    if (DesignSettings settings = DesignSettings::of(after); !(settings == DesignSettings::of(now)))
        command->add(std::make_unique<ChangeSettingsCommand>(doc_, std::move(settings), text));
    if (command->isEmpty())
        return {};
    return submit(std::move(command));
}

}  // namespace studio
