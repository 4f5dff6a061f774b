#include "widgets/canvas/design_view.h"

#include <QGestureEvent>
#include <QGraphicsItem>
#include <QKeyEvent>
#include <QPinchGesture>
#include <QScrollBar>
#include <QWheelEvent>

#include <cmath>

#include "widgets/canvas/design_scene.h"
#include "widgets/document/commands.h"
#include "widgets/style/theme.h"

namespace studio {

DesignView::DesignView(DesignScene* scene, QWidget* parent) : QGraphicsView(scene, parent), scene_(scene)
{
    setRenderHints(QPainter::Antialiasing | QPainter::TextAntialiasing | QPainter::SmoothPixmapTransform);
    setDragMode(RubberBandDrag);
    setRubberBandSelectionMode(Qt::IntersectsItemShape);
    setTransformationAnchor(AnchorUnderMouse);
    setResizeAnchor(AnchorViewCenter);
    setViewportUpdateMode(SmartViewportUpdate);
    // The grid is drawn once per view change, not under every edited item.
    setCacheMode(CacheBackground);
    setAcceptDrops(true);
    viewport()->grabGesture(Qt::PinchGesture);
    setFocusPolicy(Qt::StrongFocus);
}

void DesignView::zoomBy(double factor)
{
    const double next = std::clamp(zoom() * factor, 0.05, 8.0);
    factor = next / zoom();
    scale(factor, factor);
    emit zoomChanged(zoom());
}

void DesignView::zoomToFit()
{
    QRectF r;
    for (QGraphicsItem* i : scene()->items())
        if (!i->parentItem() && i->isVisible())
            r |= i->sceneBoundingRect();
    if (r.isNull())
        r = QRectF(0, 0, 800, 600);
    fitInView(r.adjusted(-40, -40, 40, 40), Qt::KeepAspectRatio);
    if (zoom() > 1.5)  // a tiny design is not blown up past readable
        zoomTo100();
    emit zoomChanged(zoom());
}

void DesignView::zoomTo100()
{
    const QPointF center = mapToScene(viewport()->rect().center());
    resetTransform();
    centerOn(center);
    emit zoomChanged(zoom());
}

bool DesignView::viewportEvent(QEvent* event)
{
    if (event->type() == QEvent::Gesture) {
        auto* ge = static_cast<QGestureEvent*>(event);
        if (auto* pinch = static_cast<QPinchGesture*>(ge->gesture(Qt::PinchGesture))) {
            if (pinch->changeFlags() & QPinchGesture::ScaleFactorChanged)
                zoomBy(pinch->scaleFactor());
            return true;
        }
    }
    return QGraphicsView::viewportEvent(event);
}

void DesignView::wheelEvent(QWheelEvent* event)
{
    // The wheel zooms around the cursor; with Shift it scrolls sideways.
    if (event->modifiers() & Qt::ShiftModifier) {
        QGraphicsView::wheelEvent(event);
        return;
    }
    const double steps = event->angleDelta().y() / 120.0;
    if (steps != 0)
        zoomBy(std::pow(1.15, steps));
    event->accept();
}

void DesignView::mousePressEvent(QMouseEvent* event)
{
    if (event->button() == Qt::MiddleButton) {
        middlePanning_ = true;
        panLast_ = event->pos();
        viewport()->setCursor(Qt::ClosedHandCursor);
        event->accept();
        return;
    }
    QGraphicsView::mousePressEvent(event);
}

void DesignView::mouseReleaseEvent(QMouseEvent* event)
{
    if (event->button() == Qt::MiddleButton && middlePanning_) {
        middlePanning_ = false;
        viewport()->unsetCursor();
        event->accept();
        return;
    }
    QGraphicsView::mouseReleaseEvent(event);
}

void DesignView::keyPressEvent(QKeyEvent* event)
{
    if (event->key() == Qt::Key_Space && !event->isAutoRepeat() && !spaceHeld_) {
        spaceHeld_ = true;
        setDragMode(ScrollHandDrag);
        setInteractive(false);
        event->accept();
        return;
    }
    QPointF delta;
    const double step = (event->modifiers() & Qt::ShiftModifier) ? 50 : DesignScene::kGrid;
    switch (event->key()) {
    case Qt::Key_Left: delta = {-step, 0}; break;
    case Qt::Key_Right: delta = {step, 0}; break;
    case Qt::Key_Up: delta = {0, -step}; break;
    case Qt::Key_Down: delta = {0, step}; break;
    default: break;
    }
    if (!delta.isNull() && !scene_->selectedComponentIds().isEmpty()) {
        // A burst of arrow presses is one undo step.
        if (!lastArrow_.isValid() || lastArrow_.elapsed() > 1000)
            arrowMergeKey_ = nextMergeKey();
        lastArrow_.restart();
        scene_->moveSelectionBy(delta, arrowMergeKey_);
        event->accept();
        return;
    }
    QGraphicsView::keyPressEvent(event);
}

void DesignView::keyReleaseEvent(QKeyEvent* event)
{
    if (event->key() == Qt::Key_Space && !event->isAutoRepeat() && spaceHeld_) {
        spaceHeld_ = false;
        setInteractive(true);
        setDragMode(RubberBandDrag);
        event->accept();
        return;
    }
    QGraphicsView::keyReleaseEvent(event);
}

}  // namespace studio
