#include "widgets/canvas/component_item.h"

#include <QApplication>
#include <QGraphicsSceneMouseEvent>
#include <QPainter>
#include <QStyleOptionGraphicsItem>

#include <cmath>

#include "core/catalog/catalog.h"
#include "core/design/design.h"
#include "core/text.h"
#include "widgets/analysis/analysis_service.h"
#include "widgets/canvas/design_scene.h"
#include "widgets/canvas/far_out.h"
#include "widgets/document/design_document.h"
#include "widgets/style/theme.h"

namespace studio {
namespace {

QString elided(const QFontMetricsF& fm, const QString& text, double width)
{
    return fm.elidedText(text, Qt::ElideRight, width);
}

}  // namespace

ComponentItem::ComponentItem(DesignScene* scene, const QString& id)
    : scene_(scene), id_(id), componentId_(id.toStdString())
{
    // The extended option carries the exposed rect paint() fills within.
    // Without children it contains them: set now, before it has any, as
    // Qt tells every descendant when the flag changes (updateContainsChildren).
    setFlags(ItemIsSelectable | ItemIsMovable | ItemSendsGeometryChanges | ItemUsesExtendedStyleOption |
             ItemContainsChildrenInShape);
    setAcceptHoverEvents(true);
    if (const Component* c = component())
        part_ = scene_->document()->catalog().find(c->part);
    size_ = naturalSize();
    updateCacheMode();
}

void ComponentItem::updateCacheMode()
{
    // Painted once into a pixmap at screen resolution and blitted after: an
    // edit elsewhere on the canvas repaints none of this item's text
    // (measured by bench_studio: a third off a rack-count edit). Not far
    // out, where an item is a few fills, and not a container large on
    // screen: its pixmap is megabytes, allocated and drawn again whenever
    // its header (count, totals) changes (bench_huge at 100%: a rack-count
    // edit of a design drawn in full 15 -> 12 ms).
    constexpr double kMaxCachedPixels = 512.0 * 512.0;
    const double zoom = scene_->viewZoom();
    const bool cached =
        !scene_->farOut() && (!isContainer() || size_.width() * zoom * size_.height() * zoom <= kMaxCachedPixels);
    if (const CacheMode mode = cached ? DeviceCoordinateCache : NoCache; mode != cacheMode())
        setCacheMode(mode);
}

int ComponentItem::componentIndex() const
{
    // Asked on every paint and for every item after each recompute: where
    // the component was last holds while no component moved, else it is
    // checked before the ids are hashed (comparing ten thousand ids after
    // every edit was a tenth of an edit of a design drawn in full).
    const DesignDocument* doc = scene_->document();
    if (hintOrder_ == doc->componentOrder())
        return indexHint_;
    hintOrder_ = doc->componentOrder();
    const auto& components = doc->design().components;
    if (indexHint_ >= 0 && std::size_t(indexHint_) < components.size() &&
        components[std::size_t(indexHint_)].id == componentId_)
        return indexHint_;
    indexHint_ = doc->componentIndex(componentId_);
    return indexHint_;
}

const Component* ComponentItem::component() const
{
    const int i = componentIndex();
    return i < 0 ? nullptr : &scene_->document()->design().components[std::size_t(i)];
}

const Part* ComponentItem::part() const
{
    return part_;
}

PartKind ComponentItem::kind() const
{
    const Part* p = part();
    return p ? p->kind : PartKind::Group;
}

bool ComponentItem::isContainer() const
{
    const PartKind k = kind();
    return k == PartKind::Node || k == PartKind::Rack || k == PartKind::Group;
}

bool ComponentItem::isCollapsed() const
{
    const Component* c = component();
    return c && c->collapsed;
}

QSizeF ComponentItem::naturalSize() const
{
    if (kind() == PartKind::Fabric)
        return {kFabricW, kFabricH};
    if (!isContainer())
        return {kTileW, kTileH};
    if (isCollapsed())
        return {260, kHeader + 26};
    return {260, kHeader + 60};
}

bool ComponentItem::syncPart()
{
    const Component* c = component();
    const Part* part = c ? scene_->document()->catalog().find(c->part) : nullptr;
    if (part == part_)
        return false;
    part_ = part;
    updateCacheMode();  // a tile may have become a container
    return true;
}

void ComponentItem::syncFromDocument()
{
    const Component* c = component();
    if (!c)
        return;
    const bool partChanged = syncPart();
    setPos(c->position.x, c->position.y);
    for (QGraphicsItem* child : childItems())
        child->setVisible(!c->collapsed);
    relayout();
    // Synced for a child's sake (its size, its visibility): nothing it
    // draws itself changed.
    if (drawn_ && *drawn_ == *c && !partChanged)
        return;
    retell_ = true;  // the next analysis sets the tip and badges again
    scene_->forgetShown(componentIndex());
    // A container whose count or name changed repaints its header strip
    // only, and far out nothing (the view's nameplate names it): redrawing
    // a large container is most of a rack-count edit's time.
    const bool headerOnly = drawn_ && isContainer() && !c->collapsed && !drawn_->collapsed && drawn_->part == c->part &&
        drawn_->props == c->props && (drawn_->count > 1) == (c->count > 1);
    if (!headerOnly)
        update();
    else if (!scene_->farOut())
        update(analysisRect());
    drawn_ = *c;
}

void ComponentItem::relayout()
{
    QSizeF size = naturalSize();
    if (const Component* c = component(); c && c->size)
        size = size.expandedTo(QSizeF(c->size->w, c->size->h));
    if (isContainer() && !isCollapsed()) {
        QRectF children;
        for (QGraphicsItem* child : childItems())
            if (child->type() == Type)
                children |= QRectF(child->pos(), static_cast<ComponentItem*>(child)->frameRect().size());
        if (!children.isNull())
            size = size.expandedTo(QSizeF(children.right() + kPad, children.bottom() + kPad));
    }
    const bool resized = size != size_;
    if (resized) {
        prepareGeometryChange();
        size_ = size;
        updateCacheMode();
    }
    if (updateContainsChildren() || resized)
        if (auto* p = dynamic_cast<ComponentItem*>(parentItem()))
            p->relayout();
    if (resized)
        scene_->itemMoved(this);
}

bool ComponentItem::updateContainsChildren()
{
    // Qt draws and hit-tests everything under a container any part of which
    // it repaints or hit-tests, unless told its children stay inside it: a
    // rack-count edit's repaint of the pod's header strip visited all 12,847
    // items of a design drawn in full (two fifths of the edit). The right
    // and bottom hold by relayout(); a child at a negative position (a file
    // or a nudge can put one there) or a descendant outside its own
    // container does not, and then Qt must look at every item below.
    // Setting the flag visits every descendant: it changes only when
    // containment does, never on and off while a design is built.
    bool inside = true;
    if (!isCollapsed())  // a collapsed container's children are hidden
        for (QGraphicsItem* child : childItems())
            inside = inside && child->type() == Type && child->x() >= 0 && child->y() >= 0 &&
                (child->flags() & ItemContainsChildrenInShape);
    if (bool(flags() & ItemContainsChildrenInShape) == inside)
        return false;
    setFlag(ItemContainsChildrenInShape, inside);
    return true;
}

void ComponentItem::stopContainingChildren()
{
    // A child dragged by the mouse may leave its containers before the drop
    // decides where it goes: until then they draw it wherever it is. Once
    // per drag, not per mouse move (each change visits every descendant).
    for (auto* p = dynamic_cast<ComponentItem*>(parentItem()); p; p = dynamic_cast<ComponentItem*>(p->parentItem()))
        if (p->flags() & ItemContainsChildrenInShape)
            p->setFlag(ItemContainsChildrenInShape, false);
}

bool ComponentItem::setAnalysisShown(ItemAnalysis shown)
{
    const bool changed = analysisShown_ != shown;
    if (!changed && !retell_)
        return false;
    retell_ = false;
    if (changed) {
        // Far out an item draws no totals (the view's nameplate does) and
        // its problems as its outline's colour, all round: a pod's totals
        // after a rack-count edit repainted a strip across the whole
        // drawing, and Qt looked at every item under it.
        if (!scene_->farOut())
            update(analysisRect());
        else if (!analysisShown_ || analysisShown_->problems != shown.problems)
            update();
        analysisShown_ = std::move(shown);
    }
    return true;
}

QRectF ComponentItem::analysisRect() const
{
    return isContainer() && !isCollapsed() ? QRectF(-2, -10, size_.width() + 16, kHeader + 10) : boundingRect();
}

void ComponentItem::setDropHighlight(bool on)
{
    if (dropHighlight_ != on) {
        dropHighlight_ = on;
        update();
    }
}

QRectF ComponentItem::boundingRect() const
{
    // Room for the replication stack, the port handle and the warning mark.
    return frameRect().adjusted(-2, -10, 14, 8);
}

QPainterPath ComponentItem::shape() const
{
    QPainterPath p;
    p.addRect(frameRect());
    p.addEllipse(portRect());
    return p;
}

QRectF ComponentItem::countBadgeRect() const
{
    // As wide as its text: "x 1,024" must not be clipped.
    QFont bold = QApplication::font();
    bold.setBold(true);
    const double w = std::max(40.0, QFontMetricsF(bold).horizontalAdvance(countText()) + 16), h = 18;
    if (isContainer())
        return {size_.width() - w - 8, 6, w, h};
    // Tiles keep their first line for the name: the badge sits bottom right.
    return {size_.width() - w - 6, size_.height() - h - 5, w, h};
}

QRectF ComponentItem::collapseToggleRect() const
{
    return isContainer() ? QRectF(8, 8, 14, 14) : QRectF();
}

QRectF ComponentItem::portRect() const
{
    return {size_.width() - 6, size_.height() / 2 - 6, 12, 12};
}

QString ComponentItem::countText() const
{
    const Component* c = component();
    return c ? QStringLiteral("\u00d7 %1").arg(QString::fromStdString(formatCount(c->count))) : QString();
}

QString ComponentItem::totalsText() const
{
    const ComponentTotals* t = scene_->analysis()->totalsAt(componentIndex());
    if (!t)
        return {};
    QStringList parts;
    auto counted = [](std::int64_t n, const QString& one, const QString& many) {
        return (n == 1 ? one : many).arg(QString::fromStdString(formatCount(n)));
    };
    if (t->gpus)
        parts << counted(t->gpus, tr("%1 GPU"), tr("%1 GPUs"));
    if (kind() != PartKind::Node && t->nodes)
        parts << counted(t->nodes, tr("%1 node"), tr("%1 nodes"));
    if (t->kw > 0)
        parts << QString::fromStdString(formatPowerKw(t->kw));
    if (t->nics)
        parts << counted(t->nics, tr("%1 NIC"), tr("%1 NICs"));
    const Component* c = component();
    QString text =
        parts.join(QStringLiteral(" \u00b7 ")) + (c && c->count > 1 && !parts.isEmpty() ? tr(" each") : QString());
    // A disaggregated serving layout's roles, over all instances.
    if (t->prefillGpus || t->decodeGpus) {
        QStringList roles;
        if (t->prefillGpus)
            roles << tr("prefill %1").arg(QString::fromStdString(formatCount(t->prefillGpus)));
        if (t->decodeGpus)
            roles << tr("decode %1").arg(QString::fromStdString(formatCount(t->decodeGpus)));
        text += (text.isEmpty() ? QString() : QStringLiteral(" \u00b7 ")) + roles.join(QStringLiteral(" \u00b7 "));
    }
    return text;
}

void ComponentItem::paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget*)
{
    const Component* c = component();
    const Part* p = part();
    if (!c || !p)
        return;
    const SceneColors col = sceneColors();
    const QColor accent = col.accent(p->kind);
    const QRectF r = frameRect();
    if (drawnFarOut(painter)) {
        paintOutline(painter);
        return;
    }
    painter->setRenderHint(QPainter::Antialiasing);
    const double radius = isContainer() ? 8 : 6;
    // A large container's fill is most of its cost, and an update often
    // exposes only its header strip: fill just the exposed part of a shape,
    // then stroke its whole outline (cheap: the outline is thin).
    const QRectF exposed = option->exposedRect.isValid() ? option->exposedRect : boundingRect();
    auto rounded = [&](const QRectF& rect, const QBrush& brush, const QPen& pen) {
        QPainterPath shape;
        shape.addRoundedRect(rect, radius, radius);
        if (exposed.contains(rect)) {
            painter->fillPath(shape, brush);
        } else if (exposed.intersects(rect)) {
            QPainterPath visible;
            visible.addRect(exposed);
            painter->fillPath(shape.intersected(visible), brush);
        }
        painter->strokePath(shape, pen);
    };

    // Outlines are one device pixel (cosmetic): the raster engine strokes
    // those, dashed or not, without building a polygon per dash, which made
    // a pod's dashed border the dearest thing on the canvas to repaint.
    QPen thin(col.border, 1);
    thin.setCosmetic(true);
    // Replicated components draw a stack behind them.
    if (c->count > 1)
        for (int k = 2; k >= 1; --k)
            rounded(r.translated(4 * k, -4 * k), isContainer() ? col.containerHeader : col.tileFill, thin);

    const bool marked = isSelected() || dropHighlight_;
    QPen border(isSelected() ? col.selection : (dropHighlight_ ? col.dropTarget : accent.darker(110)),
                marked ? 2.2 : 1);
    border.setCosmetic(!marked);
    if (p->kind == PartKind::Group)
        border.setStyle(Qt::DashLine);
    rounded(r, isContainer() ? col.containerFill : col.tileFill, border);

    QFont bold = painter->font();
    bold.setBold(true);
    QFont small = painter->font();
    small.setPointSizeF(std::max(6.5, small.pointSizeF() - 1.5));
    const QString name = QString::fromStdString(c->name.empty() ? p->name : c->name);

    if (isContainer()) {
        QPainterPath header;
        header.addRoundedRect(QRectF(r.x(), r.y(), r.width(), kHeader), radius, radius);
        painter->setPen(Qt::NoPen);
        painter->setBrush(col.containerHeader);
        painter->save();
        painter->setClipRect(QRectF(r.x(), r.y(), r.width(), kHeader));
        painter->drawPath(header);
        painter->restore();
        painter->setPen(col.border);
        painter->drawLine(QPointF(r.x() + 1, kHeader), QPointF(r.right() - 1, kHeader));
        // Collapse toggle.
        const QRectF t = collapseToggleRect();
        painter->setPen(QPen(col.mutedText, 1.6));
        QPolygonF tri = c->collapsed ? QPolygonF({t.topLeft() + QPointF(4, 2), t.bottomLeft() + QPointF(4, -2),
                                                  QPointF(t.right() - 2, t.center().y())})
                                     : QPolygonF({t.topLeft() + QPointF(2, 4), t.topRight() + QPointF(-2, 4),
                                                  QPointF(t.center().x(), t.bottom() - 2)});
        painter->setBrush(col.mutedText);
        painter->drawPolygon(tri);
        partIcon(p->kind).paint(painter, QRect(26, 6, 18, 18));
        painter->setFont(bold);
        painter->setPen(col.text);
        const QRectF badge = countBadgeRect();
        const QString totals = totalsText();
        painter->setFont(small);
        const double totalsW = QFontMetricsF(small).horizontalAdvance(totals);
        painter->setFont(bold);
        const double nameW = std::max(40.0, badge.left() - 50 - (totalsW > 0 ? totalsW + 12 : 0));
        painter->drawText(QRectF(50, 0, nameW, kHeader), Qt::AlignVCenter | Qt::AlignLeft,
                          elided(QFontMetricsF(bold), name, nameW));
        painter->setFont(small);
        painter->setPen(col.mutedText);
        painter->drawText(QRectF(badge.left() - totalsW - 10, 0, totalsW, kHeader), Qt::AlignVCenter | Qt::AlignRight,
                          totals);
        if (c->collapsed) {
            painter->drawText(
                QRectF(12, kHeader, r.width() - 24, r.height() - kHeader), Qt::AlignVCenter | Qt::AlignLeft,
                elided(QFontMetricsF(small), QString::fromStdString(p->name) + tr(" (collapsed)"), r.width() - 24));
        }
    } else {
        painter->setPen(Qt::NoPen);
        painter->setBrush(accent);
        painter->drawRoundedRect(QRectF(r.x(), r.y(), 5, r.height()), 2.5, 2.5);
        partIcon(p->kind).paint(painter, QRect(12, int(r.height() / 2 - 14), 28, 28));
        const QRectF badge = countBadgeRect();
        painter->setFont(bold);
        painter->setPen(col.text);
        const double textX = 48, textW = r.width() - textX - 8;
        painter->drawText(QRectF(textX, 6, textW, 18), Qt::AlignVCenter | Qt::AlignLeft,
                          elided(QFontMetricsF(bold), name, textW));
        painter->setFont(small);
        painter->setPen(col.mutedText);
        const double detailW = (p->kind == PartKind::Fabric ? r.width() - 8 : badge.left() - 4) - textX;
        QString detail = QString::fromStdString(p->name);
        if (p->kind == PartKind::Fabric) {
            if (const Analysis* a = scene_->analysis()->analysis())
                for (const auto& f : a->inventory.fabrics)
                    if (QString::fromStdString(f.component) == id_) {
                        // Only the tiers the tree has: a one-switch fabric has no spine to count.
                        if (f.tree.spine == 0 && f.tree.core == 0)
                            detail = f.tree.leaf == 1 ? tr("1 switch") : tr("%1 switches").arg(f.tree.leaf);
                        else if (f.tree.core == 0)
                            detail = tr("%1 leaf \u00b7 %2 spine").arg(f.tree.leaf).arg(f.tree.spine);
                        else
                            detail = tr("%1 leaf \u00b7 %2 spine \u00b7 %3 core")
                                         .arg(f.tree.leaf)
                                         .arg(f.tree.spine)
                                         .arg(f.tree.core);
                        const Part* sw = scene_->document()->catalog().find(f.switchPart);
                        const double w = countBadgeRect().left() - textX - 4;
                        painter->drawText(
                            QRectF(textX, 44, w, 16), Qt::AlignVCenter | Qt::AlignLeft,
                            elided(QFontMetricsF(small), sw ? QString::fromStdString(sw->name) : QString(), w));
                    }
        }
        painter->drawText(QRectF(textX, 24, detailW, 18), Qt::AlignVCenter | Qt::AlignLeft,
                          elided(QFontMetricsF(small), detail, detailW));
    }

    // Replication badge, editable in place.
    const QRectF badge = countBadgeRect();
    painter->setPen(Qt::NoPen);
    QColor pill = accent;
    pill.setAlpha(c->count > 1 ? 60 : 25);
    painter->setBrush(pill);
    painter->drawRoundedRect(badge, 9, 9);
    painter->setFont(bold);
    painter->setPen(c->count > 1 ? col.text : col.mutedText);
    painter->drawText(badge, Qt::AlignCenter, countText());

    // Problems found by the core.
    const auto problems = scene_->analysis()->problemsAt(componentIndex());
    if (!problems.isEmpty()) {
        bool error = false;
        for (const Problem* pr : problems)
            error = error || pr->severity == Severity::Error;
        const QPointF tip(r.right() - 2, -9);
        QPolygonF mark({tip, tip + QPointF(-8, 14), tip + QPointF(8, 14)});
        painter->setPen(QPen(Qt::white, 1));
        painter->setBrush(error ? col.error : col.warning);
        painter->drawPolygon(mark);
        painter->setPen(QPen(Qt::white, 1.6));
        painter->drawLine(tip + QPointF(0, 4), tip + QPointF(0, 9));
        painter->drawPoint(tip + QPointF(0, 11.5));
    }

    // Port handle: drag from it to another item to create a link.
    if (hover_ || isSelected()) {
        painter->setPen(QPen(col.tileFill, 1.5));
        painter->setBrush(col.link);
        painter->drawEllipse(portRect());
    }
}

void ComponentItem::paintOutline(QPainter* painter) const
{
    const Component* component = this->component();
    if (!component || !part_)
        return;
    const Component& c = *component;
    const Part& p = *part_;
    // Seen from far out (a design drawn in full, seen whole) text and icons
    // would be a few pixels: the shape, its fill and what marks it
    // (selected, replicated, a problem) are what can be seen, and they cost
    // a small part of drawing the item in full.
    const SceneColors col = sceneColors();
    const QRectF r = frameRect();
    QColor edge = col.accent(p.kind).darker(110);
    if (const auto problems = scene_->analysis()->problemsAt(componentIndex()); !problems.isEmpty()) {
        edge = col.warning;
        for (const Problem* pr : problems)
            if (pr->severity == Severity::Error)
                edge = col.error;
    }
    if (isSelected() || dropHighlight_)
        edge = isSelected() ? col.selection : col.dropTarget;
    // An item of a few pixels is a dot of its outline's colour.
    const QRectF onDevice = painter->worldTransform().mapRect(r);
    if (onDevice.width() < 4 && onDevice.height() < 4) {
        painter->fillRect(r, edge);
        return;
    }
    // Fills first, then the outline without a brush: solid fills take the
    // raster engine's quick path, a filled and stroked rectangle does not.
    const QColor fill = isContainer() ? col.containerFill : col.tileFill;
    if (c.count > 1)
        painter->fillRect(r.translated(8, -8), isContainer() ? col.containerHeader : col.tileFill);
    painter->fillRect(r, fill);
    if (isContainer())
        painter->fillRect(QRectF(r.x(), r.y(), r.width(), kHeader), col.containerHeader);
    else
        painter->fillRect(QRectF(r.x(), r.y(), 5, r.height()), col.accent(p.kind));
    QPen pen(edge, edge == col.accent(p.kind).darker(110) ? 1 : 2);
    pen.setCosmetic(true);
    painter->setPen(pen);
    painter->setBrush(Qt::NoBrush);
    if (c.count > 1)
        painter->drawRect(r.translated(8, -8));
    painter->drawRect(r);
}

QVariant ComponentItem::itemChange(GraphicsItemChange change, const QVariant& value)
{
    if (change == ItemPositionChange && scene_->snapToGrid()) {
        const QPointF p = value.toPointF();
        const double g = DesignScene::kGrid;
        return QPointF(std::round(p.x() / g) * g, std::round(p.y() / g) * g);
    }
    if (change == ItemPositionHasChanged) {
        if (auto* p = dynamic_cast<ComponentItem*>(parentItem()); p && !scene_->isDragging())
            p->relayout();
        else if (p)
            stopContainingChildren();
        scene_->itemMoved(this);
    }
    if (change == ItemSelectedHasChanged)
        update();
    return QGraphicsObject::itemChange(change, value);
}

void ComponentItem::mousePressEvent(QGraphicsSceneMouseEvent* event)
{
    if (event->button() == Qt::LeftButton && (hover_ || isSelected()) && portRect().contains(event->pos())) {
        scene_->beginLinkDrag(this, event->scenePos());
        event->accept();
        return;
    }
    if (event->button() == Qt::LeftButton && collapseToggleRect().contains(event->pos())) {
        scene_->toggleCollapsed(id_);
        event->accept();
        return;
    }
    if (event->button() == Qt::LeftButton)
        scene_->setDragging(true);
    QGraphicsObject::mousePressEvent(event);
}

void ComponentItem::mouseReleaseEvent(QGraphicsSceneMouseEvent* event)
{
    QGraphicsObject::mouseReleaseEvent(event);
    if (event->button() == Qt::LeftButton)
        scene_->commitMove(event->scenePos());
}

void ComponentItem::mouseDoubleClickEvent(QGraphicsSceneMouseEvent* event)
{
    if (countBadgeRect().contains(event->pos())) {
        scene_->editCount(this);
        event->accept();
        return;
    }
    if (isContainer() && event->pos().y() < kHeader) {
        scene_->toggleCollapsed(id_);
        event->accept();
        return;
    }
    QGraphicsObject::mouseDoubleClickEvent(event);
}

void ComponentItem::hoverEnterEvent(QGraphicsSceneHoverEvent* event)
{
    hover_ = true;
    update();
    QGraphicsObject::hoverEnterEvent(event);
}

void ComponentItem::hoverLeaveEvent(QGraphicsSceneHoverEvent* event)
{
    hover_ = false;
    update();
    QGraphicsObject::hoverLeaveEvent(event);
}

}  // namespace studio
