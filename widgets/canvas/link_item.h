#pragma once
// A cable bundle on the canvas: an orthogonal route between the two items
// it joins (or their nearest visible containers), labelled with the cable
// speed and the number of cables it stands for.
#include <QGraphicsPathItem>

namespace studio {

class DesignScene;
class DesignIndex;

class LinkItem : public QGraphicsPathItem {
public:
    enum { Type = QGraphicsItem::UserType + 2 };
    LinkItem(DesignScene* scene, const QString& id);
    int type() const override { return Type; }
    QString id() const { return id_; }
    // "400G x 1,024", as drawn.
    QString label() const { return label_; }
    // Where the label may paint; within boundingRect().
    QRectF labelRect() const;

    // Re-routes between the endpoints' current rectangles.
    void route(const DesignIndex& index);
    QRectF boundingRect() const override;
    void paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget* widget) override;

private:
    DesignScene* scene_;
    QString id_;
    QString label_;
    QPointF labelAt_;
};

// An orthogonal route from one rectangle to another. It leaves `from` from
// its bottom, runs along a horizontal channel at `channelY` (below the
// containers the link must leave), and enters `to` from the side facing it.
// `lane` shifts the channel and the approach so parallel links stay apart.
QPainterPath orthogonalRoute(const QRectF& from, const QRectF& to, double channelY, double lane = 0);

}  // namespace studio
