#include "widgets/canvas/link_item.h"

#include <QPainter>
#include <QStyleOptionGraphicsItem>

#include "core/analysis/inventory.h"
#include "core/catalog/catalog.h"
#include "core/text.h"
#include "widgets/canvas/component_item.h"
#include "widgets/canvas/design_scene.h"
#include "widgets/canvas/far_out.h"
#include "widgets/canvas/item_metrics.h"
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

// One straight run of a link's route: its rectangle is the ink, so moving
// a link repaints its runs and the pointer is tested against them. Drawn
// as its link is (selected, far out); pressing it presses the link.
class LinkSegment : public QGraphicsItem {
public:
    enum { Type = QGraphicsItem::UserType + 3 };
    explicit LinkSegment(LinkItem* link) : QGraphicsItem(link), link_(link)
    {
        // Under the link's label; the exposed rect bounds what it draws.
        setFlags(ItemStacksBehindParent | ItemUsesExtendedStyleOption);
    }
    int type() const override { return Type; }

    void setLine(const QLineF& line)
    {
        if (line == line_)
            return;
        prepareGeometryChange();
        line_ = line;
    }
    QRectF boundingRect() const override
    {
        // Room for the widest pen (a selected route) and its round caps.
        return line_.isNull() ? QRectF() : QRectF(line_.p1(), line_.p2()).normalized().adjusted(-2, -2, 2, 2);
    }
    // The run stroked one unit wide with square caps, as the pointer picks it.
    QPainterPath shape() const override
    {
        QPainterPath p;
        p.addRect(QRectF(line_.p1(), line_.p2()).normalized().adjusted(-0.5, -0.5, 0.5, 0.5));
        return p;
    }
    bool contains(const QPointF& point) const override
    {
        return QRectF(line_.p1(), line_.p2()).normalized().adjusted(-0.5, -0.5, 0.5, 0.5).contains(point);
    }
    void paint(QPainter* painter, const QStyleOptionGraphicsItem*, QWidget*) override
    {
        if (line_.isNull())
            return;
        const SceneColors col = sceneColors();
        const bool selected = link_->isSelected();
        if (drawnFarOut(painter)) {
            QPen thin(selected ? col.selection : col.link, selected ? 2 : 1);
            thin.setCosmetic(true);
            painter->setPen(thin);
            painter->setRenderHint(QPainter::Antialiasing, false);
        } else {
            painter->setRenderHint(QPainter::Antialiasing);
            painter->setPen(
                QPen(selected ? col.selection : col.link, selected ? 2.6 : 1.8, Qt::SolidLine, Qt::RoundCap));
        }
        painter->drawLine(line_);
    }

protected:
    void mousePressEvent(QGraphicsSceneMouseEvent* event) override { link_->pressedOnRoute(event); }
    void mouseReleaseEvent(QGraphicsSceneMouseEvent* event) override { link_->releasedOnRoute(event); }

private:
    LinkItem* link_;
    QLineF line_;
};

LinkItem* linkOfRun(QGraphicsItem* item)
{
    return item && item->type() == LinkSegment::Type ? static_cast<LinkItem*>(item->parentItem()) : nullptr;
}

LinkItem::LinkItem(DesignScene* scene, const QString& id) : scene_(scene), id_(id), linkId_(id.toStdString())
{
    // The extended option carries the exposed rect paint() tests its label against.
    setFlags(ItemIsSelectable | ItemUsesExtendedStyleOption);
    setZValue(1000);  // above every container
    for (auto& run : runs_)
        run = new LinkSegment(this);
}

void LinkItem::setEnds(const QString& from, const QString& to)
{
    from_ = from;
    to_ = to;
    const QString tip = id_ + ": " + from_ + " \u2192 " + to_;
    setToolTip(tip);
    for (LinkSegment* run : runs_)
        run->setToolTip(tip);
}

void LinkItem::route()
{
    const DesignDocument* doc = scene_->document();
    const int index = doc->linkIndex(linkId_);
    if (index < 0)
        return;
    const Link& l = doc->design().links[std::size_t(index)];
    ComponentItem* from = scene_->visibleItemFor(QString::fromStdString(l.from));
    ComponentItem* to = scene_->visibleItemFor(QString::fromStdString(l.to));
    if (!from || !to || from == to) {
        if (!path_.isEmpty()) {
            prepareGeometryChange();
            path_ = {};
            polyline_.clear();
            for (LinkSegment* run : runs_)
                run->setLine({});
        }
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
    // Parallel links are spread over four lanes by their id, so a link keeps
    // its lane when others are added or removed and nothing else re-routes.
    const double lane = 8 * double(qHash(id_, 0) % 4);
    channel += lane;
    const QPainterPath p = orthogonalRoute(a, b, channel, lane);
    // The label sits on the channel, a third of the way along.
    const QPointF labelAt(a.center().x() + (b.x() - a.center().x()) / 3, channel);
    // "400G x 1,024": the cable speed and how many cables the link stands for.
    QString speed;
    if (const Part* cable = doc->catalog().find(l.part); cable && cable->figure("gbps"))
        speed = QString::fromStdString(formatValue(cable->figure("gbps")->value)) + "G";
    const auto end = [&](const std::string& id) -> std::int64_t {
        const int i = doc->componentIndex(id);
        return i < 0 ? 0
                     : cableEndInstances(doc->catalog().find(doc->design().components[std::size_t(i)].part),
                                         scene_->instances(id));
    };
    const std::int64_t cables = cablesOf(l, end(l.from), end(l.to));
    const QString label = speed + QStringLiteral(" \u00d7 ") + QString::fromStdString(formatCount(cables));
    // A link whose route did not move repaints its label at most (a
    // rack-count edit changes the cable counts, not the routes).
    if (p == path_ && labelAt == labelAt_) {
        if (label != label_) {
            label_ = label;
            update(labelRect());
        }
        return;
    }
    path_ = p;
    polyline_ = p.toSubpathPolygons().value(0);
    // Only the runs that moved repaint.
    for (std::size_t i = 0; i < runs_.size(); ++i)
        runs_[i]->setLine(int(i) + 1 < polyline_.size() ? QLineF(polyline_[int(i)], polyline_[int(i) + 1]) : QLineF());
    if (labelAt != labelAt_) {
        prepareGeometryChange();
        labelAt_ = labelAt;
    }
    if (label != label_) {
        label_ = label;
        update(labelRect());
    }
}

QVariant LinkItem::itemChange(GraphicsItemChange change, const QVariant& value)
{
    // The runs draw in the link's selection colour.
    if (change == ItemSelectedHasChanged)
        for (LinkSegment* run : runs_)
            run->update();
    return QGraphicsItem::itemChange(change, value);
}

void LinkItem::paintOutline(QPainter* painter) const
{
    // Far out the label would be a few pixels: the route alone, one pixel
    // wide, as the items under it draw their outlines.
    const SceneColors col = sceneColors();
    QPen thin(isSelected() ? col.selection : col.link, isSelected() ? 2 : 1);
    thin.setCosmetic(true);
    painter->setPen(thin);
    painter->setRenderHint(QPainter::Antialiasing, false);
    painter->drawPolyline(polyline_);
}

QRectF LinkItem::labelRect() const
{
    return QRectF(labelAt_ - QPointF(60, 12), QSizeF(120, 24));
}

QRectF LinkItem::boundingRect() const
{
    return path_.isEmpty() ? QRectF() : labelRect().adjusted(-4, -4, 4, 4);
}

void LinkItem::paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget*)
{
    // The route is drawn by its runs; far out there is no label to draw.
    if (path_.isEmpty() || drawnFarOut(painter) || !labelRect().intersects(option->exposedRect))
        return;
    const SceneColors col = sceneColors();
    painter->setRenderHint(QPainter::Antialiasing);
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
