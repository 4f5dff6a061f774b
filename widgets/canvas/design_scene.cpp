#include "widgets/canvas/design_scene.h"

#include <QGraphicsProxyWidget>
#include <QGraphicsSceneDragDropEvent>
#include <QGraphicsSceneMouseEvent>
#include <QIntValidator>
#include <QKeyEvent>
#include <QLineEdit>
#include <QMimeData>
#include <QPainter>
#include <QStyleOptionGraphicsItem>

#include <algorithm>
#include <cmath>
#include <functional>

#include "core/catalog/part_schema.h"
#include "core/design/design_index.h"
#include "widgets/analysis/analysis_service.h"
#include "widgets/canvas/component_item.h"
#include "widgets/canvas/item_metrics.h"
#include "widgets/canvas/link_item.h"
#include "widgets/common/qt_string.h"
#include "widgets/document/design_document.h"
#include "widgets/palette/part_mime.h"
#include "widgets/style/theme.h"

namespace studio {
namespace {

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
    : QGraphicsScene(parent), doc_(document), editor_(document), analysis_(analysis)
{
    // Qt deepens its index with the item count (2^15 cells for a design
    // drawn in full), and an item is listed in every cell it covers: 1,024
    // cells keep lookups quick at a small part of the memory (bench_huge).
    setBspTreeDepth(10);
    connect(doc_, &DesignDocument::designReset, this, &DesignScene::rebuild);
    connect(doc_, &DesignDocument::componentAdded, this, &DesignScene::addItemFor);
    connect(doc_, &DesignDocument::componentRemoved, this, &DesignScene::removeItemFor);
    connect(doc_, &DesignDocument::componentChanged, this, &DesignScene::syncItem);
    connect(doc_, &DesignDocument::catalogChanged, this, [this] {
        for (ComponentItem* item : std::as_const(items_))
            item->syncPart();
    });
    connect(doc_, &DesignDocument::linkAdded, this, &DesignScene::addLinkItem);
    connect(doc_, &DesignDocument::linkRemoved, this, &DesignScene::removeLinkItem);
    connect(doc_, &DesignDocument::linkChanged, this, [this](const QString& id) {
        if (LinkItem* link = links_.value(id)) {
            indexLinkEnds(link);
            scheduleRoute(link);
        }
    });
    connect(analysis_, &AnalysisService::updated, this, &DesignScene::showAnalysis);
    rebuild();
}

void DesignScene::showAnalysis()
{
    // What each component's item shows, by index, compared with what it
    // showed in one pass over two arrays: only the items whose totals or
    // problems changed are touched and redrawn. A design drawn in full has
    // tens of thousands of items and most edits (a PUE, a tp, a cable)
    // change a few; visiting every item to compare was a tenth of an edit.
    const auto& components = doc_->design().components;
    const std::size_t n = components.size();
    std::vector<std::optional<ItemAnalysis>>& now = next_;
    now.resize(n);
    for (std::size_t i = 0; i < n; ++i) {
        ItemAnalysis& shown = now[i] ? *now[i] : now[i].emplace();
        shown.totals.reset();
        if (const ComponentTotals* t = analysis_->totalsAt(int(i)))
            shown.totals = *t;
        shown.problems.clear();
        for (const Problem* pr : analysis_->problemsAt(int(i)))
            shown.problems.emplace_back(pr->severity, pr->message);
    }
    bool changed = false;
    auto show = [&](ComponentItem* item, const ItemAnalysis& shown) {
        if (!item->setAnalysisShown(shown))
            return;
        QStringList tip;
        if (const Part* p = item->part())
            tip << "<b>" + q(p->name).toHtmlEscaped() + "</b> (" + q(std::string(partKindName(p->kind))) + ")";
        for (const auto& [severity, message] : shown.problems)
            tip << (severity == Severity::Error ? tr("Error: ") : tr("Warning: ")) + q(message).toHtmlEscaped();
        item->setToolTip(tip.join("<br>"));
        item->relayout();
        emit itemRelabelled(item);
        changed = true;
    };
    if (shownOrder_ == doc_->componentOrder() && shown_.size() == n) {
        for (std::size_t i = 0; i < n; ++i)
            if (shown_[i] != now[i])
                if (ComponentItem* item = items_.value(q(components[i].id)))
                    show(item, *now[i]);
    } else {
        // Items added, removed or reordered: each item by its index.
        for (ComponentItem* item : std::as_const(items_)) {
            const int index = item->componentIndex();
            show(item, index >= 0 && std::size_t(index) < n ? *now[std::size_t(index)] : ItemAnalysis{});
        }
    }
    shown_.swap(next_);
    shownOrder_ = doc_->componentOrder();
    if (changed)
        emit drawingChanged();
}

void DesignScene::forgetShown(int componentIndex)
{
    if (componentIndex >= 0 && std::size_t(componentIndex) < shown_.size())
        shown_[std::size_t(componentIndex)].reset();
}

void DesignScene::rebuild()
{
    linkFrom_ = nullptr;
    rubberLink_ = nullptr;
    dropTarget_ = nullptr;
    routeAll_ = true;
    moved_.clear();
    toRoute_.clear();
    orphans_.clear();
    linksAt_.clear();
    clear();
    items_.clear();
    topLevel_.reset();
    links_.clear();
    for (const auto& c : doc_->design().components)
        addItemFor(q(c.id));
    for (const auto& l : doc_->design().links)
        addLinkItem(q(l.id));
    updateLinks();
}

std::int64_t DesignScene::instances(const std::string& componentId) const
{
    std::int64_t n = 1;
    const std::string* id = &componentId;
    // A parent chain is at most kMaxNesting long in a valid design; the
    // bound also stops at a cycle.
    for (std::size_t depth = 0; depth <= kMaxNesting; ++depth) {
        const int i = doc_->componentIndex(*id);
        if (i < 0)
            return depth == 0 ? 0 : n;
        const Component& c = doc_->design().components[std::size_t(i)];
        n *= c.count;
        if (c.parent.empty())
            break;
        id = &c.parent;
    }
    return n;
}

void DesignScene::awaitParent(ComponentItem* item, const std::string& parentId)
{
    forgetOrphan(item);
    if (!parentId.empty())
        orphans_.insert(q(parentId), item);
}

void DesignScene::forgetOrphan(ComponentItem* item)
{
    for (auto it = orphans_.begin(); it != orphans_.end();)
        it = it.value() == item ? orphans_.erase(it) : std::next(it);
}

ComponentItem* DesignScene::addItemFor(const QString& id)
{
    const int index = doc_->componentIndex(id.toStdString());
    if (index < 0 || items_.contains(id))
        return items_.value(id);
    const Component& c = doc_->design().components[std::size_t(index)];
    auto* item = new ComponentItem(this, id);
    items_.insert(id, item);
    topLevel_.reset();
    if (ComponentItem* parent = items_.value(q(c.parent))) {
        item->setParentItem(parent);
    } else {
        addItem(item);
        awaitParent(item, c.parent);
    }
    // Children added before their container (an undo restoring by index)
    // move in now.
    const QList<ComponentItem*> waiting = orphans_.values(id);
    orphans_.remove(id);
    for (ComponentItem* child : waiting) {
        child->setParentItem(item);
        child->syncFromDocument();
    }
    item->syncFromDocument();
    if (ComponentItem* parent = items_.value(q(c.parent)))
        parent->syncFromDocument();  // visibility under a collapsed container, size
    itemMoved(item);
    return item;
}

void DesignScene::removeItemFor(const QString& id)
{
    ComponentItem* item = items_.take(id);
    if (!item)
        return;
    topLevel_.reset();
    // Children whose components still exist stand alone until they go too,
    // or until their container comes back (an undo).
    for (QGraphicsItem* child : item->childItems())
        if (child->type() == ComponentItem::Type) {
            auto* orphan = static_cast<ComponentItem*>(child);
            const QPointF scenePos = orphan->scenePos();
            orphan->setParentItem(nullptr);
            if (!orphan->scene())
                addItem(orphan);
            orphan->setPos(scenePos);
            awaitParent(orphan, item->componentId());
            itemMoved(orphan);
        }
    auto* parent = dynamic_cast<ComponentItem*>(item->parentItem());
    if (linkFrom_ == item)
        linkFrom_ = nullptr;
    if (dropTarget_ == item)
        dropTarget_ = nullptr;
    forgetOrphan(item);
    moved_.remove(item);
    // Links still filed under it route to nothing until they go too.
    for (auto [at, end] = linksAt_.equal_range(id); at != end; ++at)
        toRoute_.insert(at.value());
    delete item;
    if (parent)
        parent->relayout();
    routeLinks_.request();
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
        topLevel_.reset();
        item->setParentItem(wanted);
        if (!wanted && !item->scene())
            addItem(item);
        if (old)
            old->relayout();
    }
    if (wanted)
        forgetOrphan(item);
    else
        awaitParent(item, c->parent);
    item->syncFromDocument();
    if (wanted)
        wanted->syncFromDocument();
    emit itemRelabelled(item);
    // Its links' labels count its instances, which a new count changes.
    itemMoved(item);
}

void DesignScene::addLinkItem(const QString& id)
{
    if (links_.contains(id))
        return;
    auto* item = new LinkItem(this, id);
    links_.insert(id, item);
    item->setVisible(linksShown_);
    addItem(item);
    indexLinkEnds(item);
    scheduleRoute(item);
}

void DesignScene::removeLinkItem(const QString& id)
{
    LinkItem* link = links_.take(id);
    if (!link)
        return;
    linksAt_.remove(link->from(), link);
    linksAt_.remove(link->to(), link);
    toRoute_.remove(link);
    delete link;
    routeLinks_.request();  // the others keep their routes; the drawing changed
}

void DesignScene::indexLinkEnds(LinkItem* link)
{
    const int index = doc_->linkIndex(link->linkId());
    if (index < 0)
        return;
    const Link& l = doc_->design().links[std::size_t(index)];
    const QString from = q(l.from), to = q(l.to);
    if (from == link->from() && to == link->to())
        return;
    linksAt_.remove(link->from(), link);
    linksAt_.remove(link->to(), link);
    link->setEnds(from, to);
    linksAt_.insert(from, link);
    if (to != from)
        linksAt_.insert(to, link);
}

void DesignScene::itemMoved(ComponentItem* item)
{
    if (!routeAll_)
        moved_.insert(item);
    routeLinks_.request();
}

void DesignScene::scheduleRoute(LinkItem* link)
{
    if (!routeAll_)
        toRoute_.insert(link);
    routeLinks_.request();
}

void DesignScene::updateLinks()
{
    routeLinks_.cancel();
    if (routeAll_) {
        for (LinkItem* l : std::as_const(links_))
            l->route();
    } else {
        // The links of every item inside a moved one move with it: its
        // scene position, its containers' bottoms (the channels) or its
        // visibility (a collapse) changed.
        QSet<LinkItem*> routes = toRoute_;
        QSet<QGraphicsItem*> seen;
        std::vector<QGraphicsItem*> stack(moved_.begin(), moved_.end());
        while (!stack.empty()) {
            QGraphicsItem* at = stack.back();
            stack.pop_back();
            if (at->type() != ComponentItem::Type || seen.contains(at))
                continue;
            seen.insert(at);
            for (auto [link, end] = linksAt_.equal_range(static_cast<ComponentItem*>(at)->id()); link != end; ++link)
                routes.insert(link.value());
            const QList<QGraphicsItem*> children = at->childItems();
            stack.insert(stack.end(), children.begin(), children.end());
        }
        for (LinkItem* l : std::as_const(routes))
            l->route();
    }
    routeAll_ = false;
    moved_.clear();
    toRoute_.clear();
    updateDrawingRect();
    emit drawingChanged();
}

void DesignScene::setViewZoom(double zoom)
{
    if (zoom == viewZoom_)
        return;
    viewZoom_ = zoom;
    for (ComponentItem* item : std::as_const(items_))
        item->updateCacheMode();
}

void DesignScene::setLinksShown(bool shown)
{
    if (shown == linksShown_)
        return;
    linksShown_ = shown;
    for (LinkItem* link : std::as_const(links_))
        link->setVisible(shown);
}

QList<ComponentItem*> DesignScene::topLevelItems() const
{
    if (topLevel_)
        return *topLevel_;
    QList<ComponentItem*> top;
    for (ComponentItem* item : std::as_const(items_))
        if (!item->parentItem())
            top << item;
    std::stable_sort(top.begin(), top.end(),
                     [](const ComponentItem* a, const ComponentItem* b) { return a->zValue() < b->zValue(); });
    topLevel_ = top;
    return top;
}

void DesignScene::drawOverview(QPainter& painter, const QTransform& toDevice) const
{
    const QList<ComponentItem*> top = topLevelItems();
    std::function<void(ComponentItem*)> draw = [&](ComponentItem* item) {
        if (!item->isVisible())
            return;
        const QTransform t = item->sceneTransform() * toDevice;
        painter.setTransform(t);
        item->paintOutline(&painter);
        const QRectF onDevice = t.mapRect(item->frameRect());
        if (onDevice.width() < 12 && onDevice.height() < 12)
            return;  // what is inside would be a pixel or two each
        for (QGraphicsItem* child : item->childItems())
            if (child->type() == ComponentItem::Type)
                draw(static_cast<ComponentItem*>(child));
    };
    for (ComponentItem* item : top)
        draw(item);
    // As the canvas draws links: not when they would be among thousands of
    // one-pixel lines.
    if (QStyleOptionGraphicsItem::levelOfDetailFromTransform(toDevice) >= ItemMetrics::kLinkZoom)
        for (LinkItem* link : std::as_const(links_)) {
            painter.setTransform(link->sceneTransform() * toDevice);
            link->paintOutline(&painter);
        }
    painter.resetTransform();
}

void DesignScene::updateDrawingRect()
{
    // Containers hold their items, and a link's channel and label lie at
    // most 50 units below the outermost container it leaves: the top-level
    // items give the extent.
    QRectF r;
    for (ComponentItem* item : topLevelItems())
        if (item->isVisible())
            r |= item->sceneBoundingRect();
    drawingRect_ = r.isNull() ? r : r.adjusted(-4, -4, 4, 60);
    // Keep room around the drawing for drops beyond its edge.
    const QRectF scene = drawingRect_.adjusted(-400, -300, 600, 400).united(QRectF(-200, -150, 1400, 900));
    if (scene != sceneRect())
        setSceneRect(scene);
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
    ComponentItem* target = containerAt(scenePos);
    // Said before anything is built, and while dragging (dragMoveEvent).
    if (const QString why = refusalForParent(partId, target); !why.isEmpty())
        return why;
    QPointF local = snapped(target ? target->mapFromScene(scenePos) : scenePos);
    if (target && local.y() < ComponentItem::kHeader + 6)
        local.setY(ComponentItem::kHeader + 10);
    local.setX(std::max(local.x(), target ? ComponentItem::kPad : local.x()));
    std::string id;
    const EditResult r = editor_.addPart(partId.toStdString(), target ? target->id().toStdString() : std::string(),
                                         {local.x(), local.y()}, &id);
    if (r.applied())
        selectComponents({q(id)});
    return r.reason;
}

QString DesignScene::createLink(const QString& fromId, const QString& toId)
{
    return editor_.connect(fromId.toStdString(), toId.toStdString()).reason;
}

QString DesignScene::setCount(const QString& id, qint64 count)
{
    return editor_.setCount(id.toStdString(), count).reason;
}

QString DesignScene::moveSelectionBy(QPointF delta, int mergeKey)
{
    std::vector<std::string> ids;
    for (const QString& id : selectedComponentIds())
        ids.push_back(id.toStdString());
    return editor_.moveBy(ids, {delta.x(), delta.y()}, mergeKey).reason;
}

void DesignScene::toggleCollapsed(const QString& id)
{
    if (const EditResult r = editor_.toggleCollapsed({id.toStdString()}); r.refused())
        emit message(r.reason);
}

void DesignScene::removeSelection()
{
    std::vector<std::string> comps, links;
    for (const QString& id : selectedComponentIds())
        comps.push_back(id.toStdString());
    for (const QString& id : selectedLinkIds())
        links.push_back(id.toStdString());
    if (const EditResult r = editor_.remove(comps, links, tr("Delete")); r.refused())
        emit message(r.reason);
}

void DesignScene::commitMove(QPointF)
{
    dragging_ = false;
    highlightDropTarget(nullptr);
    QSet<ComponentItem*> moving;
    for (QGraphicsItem* i : selectedItems())
        if (i->type() == ComponentItem::Type)
            moving.insert(static_cast<ComponentItem*>(i));
    std::vector<Placement> placements;
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
        Placement p{c->id, c->parent, {}};
        QPointF local = item->pos();
        if (target != item->parentItem()) {
            if (const QString why = refusalForParent(q(c->part), target); !why.isEmpty()) {
                refusal = why;
                break;
            }
            local = target ? target->mapFromScene(item->scenePos()) : item->scenePos();
            p.parent = target ? target->id().toStdString() : std::string();
        }
        local = snapped(local);
        if (target && local.y() < ComponentItem::kHeader + 4)
            local.setY(ComponentItem::kHeader + 10);
        p.position = {local.x(), local.y()};
        placements.push_back(std::move(p));
    }
    if (refusal.isEmpty())
        refusal = editor_.place(placements).reason;
    if (!refusal.isEmpty()) {
        emit message(refusal);
        for (ComponentItem* item : std::as_const(moving))
            syncItem(item->id());  // put it back where the document has it
    }
    // The drag stopped its containers containing it (stopContainingChildren):
    // a drop back where it was changes nothing in the document to say again.
    for (ComponentItem* item : std::as_const(moving))
        if (auto* parent = dynamic_cast<ComponentItem*>(item->parentItem()))
            parent->relayout();
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
