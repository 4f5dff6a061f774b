#include "widgets/canvas/link_item.h"

#include <QPainter>
#include <QStyleOptionGraphicsItem>

#include "core/analysis/inventory.h"
#include "core/catalog/catalog.h"
#include "core/design/design_index.h"
#include "core/text.h"
#include "widgets/canvas/component_item.h"
#include "widgets/canvas/design_scene.h"
#include "widgets/document/design_document.h"
#include "widgets/style/theme.h"

namespace studio {

QPainterPath orthogonalRoute(const QRectF& from, const QRectF& to, double channelY, double lane)
{
    QPainterPath path;
    const bool rightward = to.center().x() >= from.center().x();
    const QPointF a(from.center().x(), from.bottom());
    const QPointF b(rightward ? to.left() : to.right(), to.center().y());
    const double approachX = rightward ? b.x() - 16 - lane : b.x() + 16 + lane;
    channelY = std::max(channelY, a.y() + 8);
    path.moveTo(a);
    path.lineTo(a.x(), channelY);
    path.lineTo(approachX, channelY);
    path.lineTo(approachX, b.y());
    path.lineTo(b);
    return path;
}

LinkItem::LinkItem(DesignScene* scene, const QString& id) : scene_(scene), id_(id)
{
    setFlags(ItemIsSelectable);
    setZValue(1000);  // above every container
}

void LinkItem::route(const DesignIndex& designIndex)
{
    const DesignDocument* doc = scene_->document();
    const int index = doc->linkIndex(id_.toStdString());
    if (index < 0)
        return;
    const Link& l = doc->design().links[std::size_t(index)];
    ComponentItem* from = scene_->visibleItemFor(QString::fromStdString(l.from));
    ComponentItem* to = scene_->visibleItemFor(QString::fromStdString(l.to));
    if (!from || !to || from == to) {
        setPath({});
        return;
    }
    const QRectF a = from->mapRectToScene(from->frameRect());
    const QRectF b = to->mapRectToScene(to->frameRect());
    // The channel runs below the outermost container the link has to leave;
    // links are spread over a few channels so they do not overlap.
    double channel = a.bottom() + 10;
    for (QGraphicsItem* up = from->parentItem(); up && up->type() == ComponentItem::Type; up = up->parentItem()) {
        auto* c = static_cast<ComponentItem*>(up);
        if (c->isAncestorOf(to))
            break;
        channel = std::max(channel, c->mapRectToScene(c->frameRect()).bottom() + 10);
    }
    const double lane = 8 * (index % 4);
    channel += lane;
    const QPainterPath p = orthogonalRoute(a, b, channel, lane);
    // The label sits on the channel, a third of the way along.
    const QPointF labelAt(a.center().x() + (b.x() - a.center().x()) / 3, channel);
    // "400G x 1,024": the cable speed and how many cables the link stands for.
    QString speed;
    if (const Part* cable = doc->catalog().find(l.part); cable && cable->figure("gbps"))
        speed = QString::fromStdString(formatValue(cable->figure("gbps")->value)) + "G";
    const QString label =
        speed + QStringLiteral(" \u00d7 ") + QString::fromStdString(formatCount(cablesOf(l, designIndex)));
    setToolTip(QString::fromStdString(l.id) + ": " + QString::fromStdString(l.from) + " \u2192 " +
               QString::fromStdString(l.to));
    // Every edit re-routes every link; one that did not move repaints its
    // label at most (a rack-count edit changes the cable counts, not the
    // routes, and repainting whole routes was most of its canvas repaint).
    if (p == path() && labelAt == labelAt_) {
        if (label != label_) {
            label_ = label;
            update(labelRect());
        }
        return;
    }
    prepareGeometryChange();
    setPath(p);
    labelAt_ = labelAt;
    label_ = label;
}

QRectF LinkItem::labelRect() const
{
    return QRectF(labelAt_ - QPointF(60, 12), QSizeF(120, 24));
}

QRectF LinkItem::boundingRect() const
{
    return QGraphicsPathItem::boundingRect().united(labelRect()).adjusted(-4, -4, 4, 4);
}

void LinkItem::paint(QPainter* painter, const QStyleOptionGraphicsItem*, QWidget*)
{
    if (path().isEmpty())
        return;
    const SceneColors col = sceneColors();
    painter->setRenderHint(QPainter::Antialiasing);
    painter->setPen(QPen(isSelected() ? col.selection : col.link, isSelected() ? 2.6 : 1.8, Qt::SolidLine, Qt::RoundCap,
                         Qt::RoundJoin));
    painter->setBrush(Qt::NoBrush);
    painter->drawPath(path());
    QFont f = painter->font();
    f.setPointSizeF(std::max(6.5, f.pointSizeF() - 1.5));
    painter->setFont(f);
    const QFontMetricsF fm(f);
    const QRectF box(labelAt_ - QPointF(fm.horizontalAdvance(label_) / 2 + 6, fm.height() / 2 + 2),
                     QSizeF(fm.horizontalAdvance(label_) + 12, fm.height() + 4));
    painter->setPen(QPen(isSelected() ? col.selection : col.link, 1));
    painter->setBrush(col.linkLabelFill);
    painter->drawRoundedRect(box, 4, 4);
    painter->setPen(col.text);
    painter->drawText(box, Qt::AlignCenter, label_);
}

}  // namespace studio
