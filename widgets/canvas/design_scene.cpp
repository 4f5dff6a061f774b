#include "widgets/canvas/design_scene.h"

#include <QGraphicsProxyWidget>
#include <QGraphicsSceneDragDropEvent>
#include <QGraphicsSceneMouseEvent>
#include <QIntValidator>
#include <QKeyEvent>
#include <QLineEdit>
#include <QPainter>
#include <QMimeData>

#include <cmath>
#include <set>

#include "core/catalog/cable_choice.h"
#include "core/catalog/part_schema.h"
#include "core/design/design_index.h"
#include "widgets/common/qt_string.h"
#include "widgets/analysis/analysis_service.h"
#include "widgets/canvas/component_item.h"
#include "widgets/canvas/link_item.h"
#include "widgets/document/commands.h"
#include "widgets/document/design_document.h"
#include "widgets/document/edit_check.h"
#include "widgets/palette/part_mime.h"
#include "widgets/style/theme.h"

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

// A one-line editor for a count, committing on Enter or focus loss and
// cancelling on Escape.
class CountEditor : public QLineEdit {
public:
    using QLineEdit::QLineEdit;
    std::function<void(bool commit)> done;

protected:
    void keyPressEvent(QKeyEvent* e) override
    {
        if (e->key() == Qt::Key_Escape) {
            finish(false);
            return;
        }
        if (e->key() == Qt::Key_Return || e->key() == Qt::Key_Enter) {
            finish(true);
            return;
        }
        QLineEdit::keyPressEvent(e);
    }
    void focusOutEvent(QFocusEvent* e) override
    {
        QLineEdit::focusOutEvent(e);
        finish(true);
    }

private:
    void finish(bool commit)
    {
        if (auto f = std::exchange(done, nullptr))
            f(commit);
    }
};

}  // namespace

DesignScene::DesignScene(DesignDocument* document, AnalysisService* analysis, QObject* parent)
    : QGraphicsScene(parent), doc_(document), analysis_(analysis)
{
    linkTimer_.setSingleShot(true);
    linkTimer_.setInterval(0);
    connect(&linkTimer_, &QTimer::timeout, this, &DesignScene::updateLinks);
    connect(doc_, &DesignDocument::designReset, this, &DesignScene::rebuild);
    connect(doc_, &DesignDocument::componentAdded, this, [this](const QString& id) {
        addItemFor(id);
        scheduleLinkUpdate();
    });
    connect(doc_, &DesignDocument::componentRemoved, this, &DesignScene::removeItemFor);
    connect(doc_, &DesignDocument::componentChanged, this, &DesignScene::syncItem);
    connect(doc_, &DesignDocument::linkAdded, this, &DesignScene::addLinkItem);
    connect(doc_, &DesignDocument::linkRemoved, this, [this](const QString& id) {
        delete links_.take(id);
    });
    connect(doc_, &DesignDocument::linkChanged, this, [this](const QString&) { scheduleLinkUpdate(); });
    connect(analysis_, &AnalysisService::updated, this, [this] {
        // Only items whose tip, badges or problem marks changed redraw: most
        // edits (a PUE, a tp) change none, and the canvas stays as painted.
        for (ComponentItem* item : std::as_const(items_)) {
            QStringList tip;
            if (const Part* p = item->part())
                tip << "<b>" + q(p->name).toHtmlEscaped() + "</b> (" + q(std::string(partKindName(p->kind))) + ")";
            for (const Problem* pr : analysis_->problemsFor(item->id()))
                tip << (pr->severity == Severity::Error ? tr("Error: ") : tr("Warning: ")) +
                           q(pr->message).toHtmlEscaped();
            const QString shown = tip.join("<br>") + '\n' + item->totalsText();
            if (!item->setAnalysisShown(shown))
                continue;
            item->setToolTip(tip.join("<br>"));
            item->relayout();
            item->update(item->analysisRect());
        }
    });
    rebuild();
}

void DesignScene::rebuild()
{
    linkFrom_ = nullptr;
    rubberLink_ = nullptr;
    dropTarget_ = nullptr;
    clear();
    items_.clear();
    links_.clear();
    for (const auto& c : doc_->design().components)
        addItemFor(q(c.id));
    for (const auto& l : doc_->design().links)
        addLinkItem(q(l.id));
    updateLinks();
}

ComponentItem* DesignScene::addItemFor(const QString& id)
{
    const int index = doc_->componentIndex(id.toStdString());
    if (index < 0 || items_.contains(id))
        return items_.value(id);
    const Component& c = doc_->design().components[std::size_t(index)];
    auto* item = new ComponentItem(this, id);
    items_.insert(id, item);
    if (ComponentItem* parent = items_.value(q(c.parent)))
        item->setParentItem(parent);
    else
        addItem(item);
    // Children added before their container (an undo restoring by index)
    // move in now.
    for (ComponentItem* other : std::as_const(items_))
        if (other != item && !other->parentItem())
            if (const Component* oc = other->component(); oc && q(oc->parent) == id) {
                other->setParentItem(item);
                other->syncFromDocument();
            }
    item->syncFromDocument();
    if (ComponentItem* parent = items_.value(q(c.parent)))
        parent->syncFromDocument();  // visibility under a collapsed container, size
    return item;
}

void DesignScene::removeItemFor(const QString& id)
{
    ComponentItem* item = items_.take(id);
    if (!item)
        return;
    // Children whose components still exist stand alone until they go too.
    for (QGraphicsItem* child : item->childItems())
        if (child->type() == ComponentItem::Type) {
            const QPointF scenePos = child->scenePos();
            child->setParentItem(nullptr);
            if (!child->scene())
                addItem(child);
            child->setPos(scenePos);
        }
    auto* parent = dynamic_cast<ComponentItem*>(item->parentItem());
    if (linkFrom_ == item)
        linkFrom_ = nullptr;
    if (dropTarget_ == item)
        dropTarget_ = nullptr;
    delete item;
    if (parent)
        parent->relayout();
    scheduleLinkUpdate();
}

void DesignScene::syncItem(const QString& id)
{
    ComponentItem* item = items_.value(id);
    const Component* c = item ? item->component() : nullptr;
    if (!c)
        return;
    ComponentItem* wanted = items_.value(q(c->parent));
    auto* old = dynamic_cast<ComponentItem*>(item->parentItem());
    if (wanted != old) {
        item->setParentItem(wanted);
        if (!wanted && !item->scene())
            addItem(item);
        if (old)
            old->relayout();
    }
    item->syncFromDocument();
    if (wanted)
        wanted->syncFromDocument();
    scheduleLinkUpdate();
}

void DesignScene::addLinkItem(const QString& id)
{
    if (links_.contains(id))
        return;
    auto* item = new LinkItem(this, id);
    links_.insert(id, item);
    addItem(item);
    scheduleLinkUpdate();
}

void DesignScene::scheduleLinkUpdate()
{
    linkTimer_.start();
}

void DesignScene::updateLinks()
{
    const DesignIndex index(doc_->design(), doc_->catalog());
    for (LinkItem* l : std::as_const(links_))
        l->route(index);
    // Keep room around the drawing for drops beyond its edge.
    setSceneRect(itemsBoundingRect().adjusted(-400, -300, 600, 400).united(QRectF(-200, -150, 1400, 900)));
}

ComponentItem* DesignScene::visibleItemFor(const QString& id) const
{
    ComponentItem* item = items_.value(id);
    while (item && !item->isVisible())
        item = dynamic_cast<ComponentItem*>(item->parentItem());
    return item;
}

QStringList DesignScene::selectedComponentIds() const
{
    QStringList ids;
    for (QGraphicsItem* i : selectedItems())
        if (i->type() == ComponentItem::Type)
            ids << static_cast<ComponentItem*>(i)->id();
    return ids;
}

QStringList DesignScene::selectedLinkIds() const
{
    QStringList ids;
    for (QGraphicsItem* i : selectedItems())
        if (i->type() == LinkItem::Type)
            ids << static_cast<LinkItem*>(i)->id();
    return ids;
}

void DesignScene::selectComponents(const QStringList& ids)
{
    clearSelection();
    for (const QString& id : ids)
        if (ComponentItem* item = visibleItemFor(id))
            item->setSelected(true);
}

ComponentItem* DesignScene::containerAt(QPointF scenePos, const QSet<ComponentItem*>& exclude) const
{
    for (QGraphicsItem* i : items(scenePos, Qt::IntersectsItemShape, Qt::DescendingOrder)) {
        if (i->type() != ComponentItem::Type || !i->isVisible())
            continue;
        auto* c = static_cast<ComponentItem*>(i);
        bool excluded = false;
        for (QGraphicsItem* a = c; a && !excluded; a = a->parentItem())
            excluded = exclude.contains(static_cast<ComponentItem*>(a));
        if (!excluded)
            return c;
    }
    return nullptr;
}

QPointF DesignScene::snapped(QPointF p) const
{
    if (!snap_)
        return p;
    return {std::round(p.x() / kGrid) * kGrid, std::round(p.y() / kGrid) * kGrid};
}

QString DesignScene::refusalForParent(const QString& childPart, ComponentItem* target) const
{
    const Part* child = doc_->catalog().find(childPart.toStdString());
    if (!child)
        return tr("unknown part %1").arg(childPart);
    if (!target)
        return q(topLevelRefusal(child->kind));
    const Part* parent = target->part();
    if (!parent)
        return {};
    if (!canContain(parent->kind, parent->attribute("role"), child->kind, child->attribute("role")))
        return q(nestingRefusal(parent->kind, parent->attribute("role"), child->kind, child->attribute("role")));
    return {};
}

QString DesignScene::dropPart(const QString& partId, QPointF scenePos)
{
    const Catalog& cat = doc_->catalog();
    const Part* part = cat.find(partId.toStdString());
    if (!part)
        return tr("No part %1 in the catalog").arg(partId);
    ComponentItem* target = containerAt(scenePos);
    if (const QString why = refusalForParent(partId, target); !why.isEmpty())
        return why;
    QPointF local = snapped(target ? target->mapFromScene(scenePos) : scenePos);
    if (target && local.y() < ComponentItem::kHeader + 6)
        local.setY(ComponentItem::kHeader + 10);
    local.setX(std::max(local.x(), target ? ComponentItem::kPad : local.x()));

    std::set<std::string> taken;
    auto freshId = [&](const std::string& prefix) {
        std::string id = doc_->uniqueComponentId(prefix);
        for (int n = 2; taken.count(id); ++n)
            id = doc_->uniqueComponentId(prefix + "-" + std::to_string(n));
        taken.insert(id);
        return id;
    };
    std::vector<Component> add;
    Component c;
    c.id = freshId(idPrefix(*part));
    c.part = part->id;
    c.name = part->name;
    c.parent = target ? target->id().toStdString() : std::string();
    c.position = {local.x(), local.y()};
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
        // NICs and DPUs, as the catalog lists them.
        const struct { const char* attr; const char* figure; const char* name; } contents[] = {
            {"accelerator", "gpus", "GPU"}, {"nic", "compute_nics", "NIC"}, {"dpu", "dpus", "DPU"}};
        double x = ComponentItem::kPad;
        for (const auto& k : contents) {
            const Part* child = cat.find(part->attribute(k.attr));
            const Figure* n = part->figure(k.figure);
            if (!child || !n || n->value < 1)
                continue;
            Component ch;
            ch.id = freshId(c.id + "." + idPrefix(*child));
            ch.part = child->id;
            ch.name = k.name;
            ch.parent = c.id;
            ch.count = std::int64_t(n->value);
            ch.position = {x, ComponentItem::kHeader + 10};
            x += ComponentItem::kTileW + 10;
            add.push_back(ch);
        }
    }
    Design proposed = doc_->design();
    proposed.components.insert(proposed.components.end(), add.begin(), add.end());
    if (const QString why = refusalFor(*doc_, proposed); !why.isEmpty())
        return why;
    doc_->undoStack()->push(new AddItemsCommand(doc_, add, {}, tr("Add %1").arg(q(part->name))));
    selectComponents({q(c.id)});
    return {};
}

QString DesignScene::createLink(const QString& fromId, const QString& toId)
{
    if (fromId == toId)
        return tr("A link joins two different items");
    const int fi = doc_->componentIndex(fromId.toStdString()), ti = doc_->componentIndex(toId.toStdString());
    if (fi < 0 || ti < 0)
        return tr("A link needs an item at each end");
    const Design& d = doc_->design();
    const Catalog& cat = doc_->catalog();
    const Component& from = d.components[std::size_t(fi)];
    const Component& to = d.components[std::size_t(ti)];
    const Part* fp = cat.find(from.part);
    const Part* tp = cat.find(to.part);
    for (const Part* p : {fp, tp})
        if (p && (p->kind == PartKind::Group || p->kind == PartKind::Rack || p->kind == PartKind::Accelerator))
            return tr("Links join NICs, nodes, switches, storage and fabrics, not %1")
                .arg(q(std::string(partKindLabel(p->kind))) + "s");
    // The cable: a fabric's own, else the slowest catalog cable that carries
    // the NIC's speed on its protocol.
    std::string cable;
    for (const Component* c : {&to, &from})
        if (auto it = c->props.find("cable"); it != c->props.end() && it->second.is_string())
            cable = it->second.get<std::string>();
    if (cable.empty()) {
        double speed = 0;
        std::string protocol;
        for (const auto* c : {&from, &to}) {
            const Part* p = cat.find(c->part);
            if (p && (p->kind == PartKind::Nic || p->kind == PartKind::Switch)) {
                speed = std::max(speed, p->figure("port_gbps") ? p->figure("port_gbps")->value : 0.0);
                protocol = p->attribute("protocol");
            }
        }
        cable = defaultCable(cat, speed, protocol);
    }
    Link l;
    l.id = doc_->uniqueLinkId(from.id + "-" + to.id);
    l.from = from.id;
    l.to = to.id;
    l.part = cable;
    l.count = 1;
    doc_->undoStack()->push(new AddItemsCommand(doc_, {}, {l}, tr("Connect %1 to %2").arg(q(from.name), q(to.name))));
    return {};
}

QString DesignScene::setCount(const QString& id, qint64 count)
{
    const int i = doc_->componentIndex(id.toStdString());
    if (i < 0)
        return tr("No such item");
    if (count < 1 || count > kMaxCount)
        return tr("A count must be between 1 and 10,000,000");
    Component c = doc_->design().components[std::size_t(i)];
    if (c.count == count)
        return {};
    c.count = count;
    Design proposed = doc_->design();
    proposed.components[std::size_t(i)] = c;
    if (const QString why = refusalFor(*doc_, proposed); !why.isEmpty())
        return why;
    doc_->undoStack()->push(new ChangeComponentsCommand(doc_, {c}, tr("Set count of %1 to %2").arg(q(c.name)).arg(count)));
    return {};
}

QString DesignScene::moveSelectionBy(QPointF delta, int mergeKey)
{
    std::vector<Component> moved;
    const QStringList ids = selectedComponentIds();
    for (const QString& id : ids) {
        ComponentItem* item = items_.value(id);
        bool ancestorSelected = false;
        for (QGraphicsItem* a = item ? item->parentItem() : nullptr; a; a = a->parentItem())
            ancestorSelected = ancestorSelected || a->isSelected();
        if (!item || ancestorSelected)
            continue;
        Component c = *item->component();
        c.position.x += delta.x();
        c.position.y += delta.y();
        moved.push_back(c);
    }
    if (moved.empty())
        return tr("Select items to move");
    doc_->undoStack()->push(new ChangeComponentsCommand(doc_, moved, tr("Move"), mergeKey));
    return {};
}

void DesignScene::toggleCollapsed(const QString& id)
{
    const int i = doc_->componentIndex(id.toStdString());
    if (i < 0)
        return;
    Component c = doc_->design().components[std::size_t(i)];
    c.collapsed = !c.collapsed;
    doc_->undoStack()->push(new ChangeComponentsCommand(
        doc_, {c}, (c.collapsed ? tr("Collapse %1") : tr("Expand %1")).arg(q(c.name))));
}

void DesignScene::removeSelection()
{
    std::vector<std::string> comps, links;
    for (const QString& id : selectedComponentIds())
        comps.push_back(id.toStdString());
    for (const QString& id : selectedLinkIds())
        links.push_back(id.toStdString());
    auto* cmd = new RemoveItemsCommand(doc_, comps, links, tr("Delete"));
    if (cmd->isEmpty()) {
        delete cmd;
        return;
    }
    doc_->undoStack()->push(cmd);
}

void DesignScene::commitMove(QPointF)
{
    dragging_ = false;
    highlightDropTarget(nullptr);
    QSet<ComponentItem*> moving;
    for (QGraphicsItem* i : selectedItems())
        if (i->type() == ComponentItem::Type)
            moving.insert(static_cast<ComponentItem*>(i));
    std::vector<Component> changed;
    QString refusal;
    for (ComponentItem* item : std::as_const(moving)) {
        bool ancestorMoving = false;
        for (QGraphicsItem* a = item->parentItem(); a; a = a->parentItem())
            ancestorMoving = ancestorMoving || moving.contains(static_cast<ComponentItem*>(a));
        const Component* c = item->component();
        if (ancestorMoving || !c)
            continue;
        const QPointF center = item->mapToScene(item->frameRect().center());
        ComponentItem* target = containerAt(center, moving);
        Component next = *c;
        QPointF local = item->pos();
        if (target != item->parentItem()) {
            if (const QString why = refusalForParent(q(c->part), target); !why.isEmpty()) {
                refusal = why;
                break;
            }
            local = target ? target->mapFromScene(item->scenePos()) : item->scenePos();
            next.parent = target ? target->id().toStdString() : std::string();
        }
        local = snapped(local);
        if (target && local.y() < ComponentItem::kHeader + 4)
            local.setY(ComponentItem::kHeader + 10);
        next.position = {local.x(), local.y()};
        if (!(next == *c))
            changed.push_back(next);
    }
    if (refusal.isEmpty() && !changed.empty()) {
        Design proposed = doc_->design();
        for (const auto& c : changed)
            proposed.components[std::size_t(doc_->componentIndex(c.id))] = c;
        refusal = refusalFor(*doc_, proposed);
    }
    if (!refusal.isEmpty()) {
        emit message(refusal);
        for (ComponentItem* item : std::as_const(moving))
            syncItem(item->id());  // put it back where the document has it
        return;
    }
    if (changed.empty())
        return;
    bool reparent = false;
    for (const auto& c : changed)
        reparent = reparent || c.parent != items_.value(q(c.id))->component()->parent;
    doc_->undoStack()->push(new ChangeComponentsCommand(doc_, changed, reparent ? tr("Move into container") : tr("Move")));
}

void DesignScene::beginLinkDrag(ComponentItem* from, QPointF scenePos)
{
    linkFrom_ = from;
    delete rubberLink_;
    rubberLink_ = new QGraphicsPathItem;
    rubberLink_->setPen(QPen(sceneColors().link, 1.8, Qt::DashLine));
    rubberLink_->setZValue(2000);
    addItem(rubberLink_);
    QPainterPath p(from->portScenePos());
    p.lineTo(scenePos);
    rubberLink_->setPath(p);
}

void DesignScene::mouseMoveEvent(QGraphicsSceneMouseEvent* event)
{
    if (linkFrom_ && rubberLink_) {
        QPainterPath p(linkFrom_->portScenePos());
        p.lineTo(event->scenePos());
        rubberLink_->setPath(p);
        ComponentItem* over = containerAt(event->scenePos(), {linkFrom_});
        highlightDropTarget(over);
        event->accept();
        return;
    }
    QGraphicsScene::mouseMoveEvent(event);
    if (event->buttons() & Qt::LeftButton) {
        // While dragging items, show the container they would drop into.
        QSet<ComponentItem*> moving;
        for (QGraphicsItem* i : selectedItems())
            if (i->type() == ComponentItem::Type)
                moving.insert(static_cast<ComponentItem*>(i));
        if (!moving.isEmpty() && mouseGrabberItem() && mouseGrabberItem()->type() == ComponentItem::Type)
            highlightDropTarget(containerAt(event->scenePos(), moving));
    }
}

void DesignScene::mouseReleaseEvent(QGraphicsSceneMouseEvent* event)
{
    if (linkFrom_) {
        ComponentItem* from = linkFrom_;
        linkFrom_ = nullptr;
        delete rubberLink_;
        rubberLink_ = nullptr;
        highlightDropTarget(nullptr);
        ComponentItem* to = containerAt(event->scenePos(), {from});
        const QString why = to ? createLink(from->id(), to->id()) : tr("Drop the link on another item");
        if (!why.isEmpty())
            emit message(why);
        event->accept();
        return;
    }
    QGraphicsScene::mouseReleaseEvent(event);
}

void DesignScene::highlightDropTarget(ComponentItem* item)
{
    if (dropTarget_ == item)
        return;
    if (dropTarget_)
        dropTarget_->setDropHighlight(false);
    dropTarget_ = item;
    if (dropTarget_)
        dropTarget_->setDropHighlight(true);
}

void DesignScene::editCount(ComponentItem* item)
{
    const Component* c = item->component();
    if (!c)
        return;
    auto* editor = new CountEditor;
    editor->setValidator(new QIntValidator(1, int(kMaxCount), editor));
    editor->setText(QString::number(c->count));
    editor->setAlignment(Qt::AlignCenter);
    editor->selectAll();
    auto* proxy = addWidget(editor);
    proxy->setZValue(3000);
    const QRectF badge = item->mapRectToScene(item->countBadgeRect());
    proxy->setGeometry(badge.adjusted(-8, -2, 8, 2));
    const QString id = item->id();
    editor->done = [this, editor, proxy, id](bool commit) {
        if (commit) {
            bool ok = false;
            const qint64 n = editor->text().toLongLong(&ok);
            if (ok) {
                if (const QString why = setCount(id, n); !why.isEmpty())
                    emit message(why);
            }
        }
        proxy->deleteLater();
    };
    editor->setFocus();
}

void DesignScene::dragEnterEvent(QGraphicsSceneDragDropEvent* event)
{
    event->setAccepted(!partFromMime(event->mimeData()).isEmpty());
}

void DesignScene::dragMoveEvent(QGraphicsSceneDragDropEvent* event)
{
    const QString part = partFromMime(event->mimeData());
    if (part.isEmpty()) {
        event->ignore();
        return;
    }
    ComponentItem* target = containerAt(event->scenePos());
    highlightDropTarget(refusalForParent(part, target).isEmpty() ? target : nullptr);
    event->acceptProposedAction();
}

void DesignScene::dragLeaveEvent(QGraphicsSceneDragDropEvent*)
{
    highlightDropTarget(nullptr);
}

void DesignScene::dropEvent(QGraphicsSceneDragDropEvent* event)
{
    highlightDropTarget(nullptr);
    const QString part = partFromMime(event->mimeData());
    if (part.isEmpty())
        return;
    const QString why = dropPart(part, event->scenePos());
    if (!why.isEmpty())
        emit message(why);
    event->acceptProposedAction();
}

void DesignScene::drawBackground(QPainter* painter, const QRectF& rect)
{
    const SceneColors col = sceneColors();
    painter->fillRect(rect, col.background);
    const double scale = painter->transform().m11();
    const double minor = 20, major = 100;
    auto lines = [&](double step, const QColor& color) {
        if (step * scale < 6)
            return;
        painter->setPen(QPen(color, 0));
        QVector<QLineF> v;
        for (double x = std::floor(rect.left() / step) * step; x < rect.right(); x += step)
            v << QLineF(x, rect.top(), x, rect.bottom());
        for (double y = std::floor(rect.top() / step) * step; y < rect.bottom(); y += step)
            v << QLineF(rect.left(), y, rect.right(), y);
        painter->drawLines(v);
    };
    lines(minor, col.grid);
    lines(major, col.gridMajor);
}

}  // namespace studio
