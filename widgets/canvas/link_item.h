#pragma once
// A cable bundle on the canvas: an orthogonal route between the two items
// it joins (or their nearest visible containers), labelled with the cable
// speed and the number of cables it stands for.
//
// The item is the label (what selects, what the tip is on); each straight
// run of the route is a child item of its own (LinkSegment, in the .cpp).
// A route's rectangle is mostly empty, and in a design drawn in full
// thousands of routes' rectangles cover any point of the canvas: with one
// item per route, moving one node repainted the rectangles of its links
// (most of the view) and every mouse move tested thousands of links. Runs
// make what a change repaints, and what the pointer is tested against,
// the ink.
#include <QGraphicsItem>
#include <QPainterPath>
#include <QPolygonF>

#include <array>
#include <string>

namespace studio {

class DesignScene;
class LinkSegment;

class LinkItem : public QGraphicsItem {
public:
    enum { Type = QGraphicsItem::UserType + 2 };
    LinkItem(DesignScene* scene, const QString& id);
    int type() const override { return Type; }
    QString id() const { return id_; }
    const std::string& linkId() const { return linkId_; }
    // The components it joins, as the scene filed it under them.
    QString from() const { return from_; }
    QString to() const { return to_; }
    void setEnds(const QString& from, const QString& to);
    // "400G x 1,024", as drawn.
    QString label() const { return label_; }
    // Where the label may paint; within boundingRect().
    QRectF labelRect() const;
    // The route, in scene coordinates (the item stays at the origin).
    QPainterPath path() const { return path_; }

    // Re-routes between the endpoints' current rectangles.
    void route();
    QRectF boundingRect() const override;
    void paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget* widget) override;
    // The route as it is drawn far out (below ItemMetrics::kDetailZoom):
    // one pixel wide, no label. Also what the overview draws.
    void paintOutline(QPainter* painter) const;

    // A run of the route was pressed or released: as if the link was.
    void pressedOnRoute(QGraphicsSceneMouseEvent* event) { mousePressEvent(event); }
    void releasedOnRoute(QGraphicsSceneMouseEvent* event) { mouseReleaseEvent(event); }

protected:
    QVariant itemChange(GraphicsItemChange change, const QVariant& value) override;

private:
    DesignScene* scene_;
    QString id_;
    std::string linkId_;  // id_ as the document spells it
    QString from_, to_;
    QString label_;
    QPointF labelAt_;
    QPainterPath path_;
    QPolygonF polyline_;                  // the route's corners
    std::array<LinkSegment*, 4> runs_{};  // children; a route has four runs
};

// The link whose route `item` is a run of, or nullptr for any other item.
LinkItem* linkOfRun(QGraphicsItem* item);

// An orthogonal route from one rectangle to another. It leaves `from` from
// its bottom, runs along a horizontal channel at `channelY` (below the
// containers the link must leave), and enters `to` from the side facing it.
// `lane` shifts the channel and the approach so parallel links stay apart.
QPainterPath orthogonalRoute(const QRectF& from, const QRectF& to, double channelY, double lane = 0);

}  // namespace studio
