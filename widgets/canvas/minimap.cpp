#include "widgets/canvas/minimap.h"

#include <QGraphicsItem>
#include <QGraphicsScene>
#include <QMouseEvent>
#include <QPainter>
#include <QScrollBar>

#include "widgets/canvas/design_scene.h"
#include "widgets/canvas/design_view.h"
#include "widgets/style/theme.h"

namespace studio {

Minimap::Minimap(DesignView* main, QWidget* parent) : QWidget(parent), main_(main)
{
    // Short enough that the window fits a 1,366 x 768 screen (the left
    // column's docks sit above the Analysis dock); it asks for 180.
    setMinimumSize(160, 80);
    setCursor(Qt::PointingHandCursor);
    timer_.setSingleShot(true);
    timer_.setInterval(250);
    connect(&timer_, &QTimer::timeout, this, &Minimap::refreshNow);
    // Not restarted by further changes: a long drag still refreshes it.
    connect(main_->designScene(), &DesignScene::drawingChanged, this, [this] {
        if (!timer_.isActive())
            timer_.start();
    });
    auto outline = [this] { update(); };
    connect(main_->horizontalScrollBar(), &QScrollBar::valueChanged, this, outline);
    connect(main_->verticalScrollBar(), &QScrollBar::valueChanged, this, outline);
    connect(main_, &DesignView::zoomChanged, this, outline);
}

void Minimap::refreshNow()
{
    timer_.stop();
    const QRectF r = main_->designScene()->drawingRect();
    const qreal dpr = devicePixelRatioF();
    snapshot_ = QPixmap((QSizeF(size()) * dpr).toSize());
    snapshot_.setDevicePixelRatio(dpr);
    snapshot_.fill(sceneColors().background);
    source_ = r.adjusted(-20, -20, 20, 20);
    target_ = {};
    if (!r.isNull() && width() > 0 && height() > 0) {
        // Keep the aspect ratio, centred.
        QSizeF fitted = source_.size();
        fitted.scale(QSizeF(size()), Qt::KeepAspectRatio);
        target_ = QRectF(QPointF((width() - fitted.width()) / 2, (height() - fitted.height()) / 2), fitted);
        QPainter painter(&snapshot_);
        const QTransform toWidget = QTransform::fromTranslate(-source_.left(), -source_.top()) *
            QTransform::fromScale(target_.width() / source_.width(), target_.height() / source_.height()) *
            QTransform::fromTranslate(target_.left(), target_.top());
        main_->designScene()->drawOverview(painter, toWidget);
    }
    update();
}

QPointF Minimap::toScene(const QPointF& pos) const
{
    if (target_.isEmpty())
        return source_.center();
    return source_.topLeft() +
        QPointF((pos.x() - target_.left()) * source_.width() / target_.width(),
                (pos.y() - target_.top()) * source_.height() / target_.height());
}

QRectF Minimap::toWidget(const QRectF& r) const
{
    if (source_.isEmpty())
        return {};
    const double sx = target_.width() / source_.width(), sy = target_.height() / source_.height();
    return {target_.left() + (r.left() - source_.left()) * sx, target_.top() + (r.top() - source_.top()) * sy,
            r.width() * sx, r.height() * sy};
}

void Minimap::paintEvent(QPaintEvent*)
{
    QPainter painter(this);
    if (snapshot_.isNull())
        painter.fillRect(rect(), sceneColors().background);
    else
        painter.drawPixmap(0, 0, snapshot_);
    const QRectF visible = toWidget(main_->mapToScene(main_->viewport()->rect()).boundingRect());
    QColor c = sceneColors().selection;
    painter.setPen(QPen(c, 1));
    c.setAlpha(40);
    painter.setBrush(c);
    painter.drawRect(visible.intersected(QRectF(rect()).adjusted(0, 0, -1, -1)));
}

void Minimap::mousePressEvent(QMouseEvent* event)
{
    main_->centerOn(toScene(event->position()));
    update();
}

void Minimap::mouseMoveEvent(QMouseEvent* event)
{
    if (event->buttons() & Qt::LeftButton) {
        main_->centerOn(toScene(event->position()));
        update();
    }
}

void Minimap::resizeEvent(QResizeEvent* event)
{
    QWidget::resizeEvent(event);
    refreshNow();
}

}  // namespace studio
