#include "widgets/canvas/design_view.h"

#include <QGestureEvent>
#include <QGraphicsItem>
#include <QKeyEvent>
#include <QPinchGesture>
#include <QScrollBar>
#include <QWheelEvent>

#include <cmath>
#include <functional>
#include <optional>

#include "core/catalog/part.h"
#include "widgets/canvas/component_item.h"
#include "widgets/canvas/design_scene.h"
#include "widgets/canvas/item_metrics.h"
#include "widgets/canvas/link_item.h"
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
    scene_->setViewZoom(zoom());
    connect(this, &DesignView::zoomChanged, this, [this](double zoom) {
        scene_->setViewZoom(zoom);
        scene_->setLinksShown(zoom >= ItemMetrics::kLinkZoom);
        plates_.clear();
    });
    // A name drawn far out lies over the item, not in it: where it was and
    // where it goes repaint with it.
    connect(scene_, &DesignScene::itemRelabelled, this, [this](ComponentItem* item) {
        if (zoom() >= ItemMetrics::kDetailZoom)
            return;
        QRect area = plates_.value(item);
        const QRectF box = mapFromScene(item->mapRectToScene(item->frameRect())).boundingRect();
        if (box.width() >= kNameplateMinWidth)
            if (const auto plate = nameplate(item, box))
                area |= plate->back.toAlignedRect();
        if (!area.isEmpty())
            viewport()->update(area.adjusted(-1, -1, 1, 1));
    });
}

std::optional<DesignView::Nameplate> DesignView::nameplate(const ComponentItem* item, const QRectF& box) const
{
    const Component* c = item->component();
    if (!c)
        return std::nullopt;
    QFont bold = font();
    bold.setBold(true);
    bold.setPixelSize(12);
    QFont small = font();
    small.setPixelSize(11);
    const QFontMetricsF titleMetrics(bold), totalsMetrics(small);
    Nameplate plate{{}, bold, small, {}, {}};
    const QString title = QString::fromStdString(c->name.empty() && item->part() ? item->part()->name : c->name);
    const QString totals = item->totalsText();
    const double width = box.width() - 16;
    const bool twoLines = !totals.isEmpty() && box.height() >= titleMetrics.height() + totalsMetrics.height() + 10;
    plate.title = titleMetrics.elidedText(title, Qt::ElideRight, width);
    plate.totals = twoLines ? totalsMetrics.elidedText(totals, Qt::ElideRight, width) : QString();
    const double textWidth =
        std::max(titleMetrics.horizontalAdvance(plate.title), totalsMetrics.horizontalAdvance(plate.totals));
    plate.back = QRectF(box.left() + 4, box.top() + 4, textWidth + 8,
                        titleMetrics.height() + (twoLines ? totalsMetrics.height() : 0) + 4);
    return plate;
}

void DesignView::drawForeground(QPainter* painter, const QRectF& rect)
{
    if (zoom() >= ItemMetrics::kDetailZoom)
        return;
    const QTransform toView = painter->worldTransform();
    const QRectF exposed = toView.mapRect(rect);
    auto onView = [&toView](const ComponentItem* item) {
        return toView.mapRect(item->mapRectToScene(item->frameRect()));
    };
    painter->save();
    painter->resetTransform();
    const SceneColors col = sceneColors();
    std::function<void(ComponentItem*)> name = [&](ComponentItem* item) {
        if (!item->isVisible() || !item->isContainer() || item->isCollapsed())
            return;
        const QRectF box = onView(item);
        if (!box.intersects(exposed))
            return;
        bool childrenNamed = false;
        for (QGraphicsItem* child : item->childItems())
            if (child->type() == ComponentItem::Type && static_cast<ComponentItem*>(child)->isContainer() &&
                onView(static_cast<ComponentItem*>(child)).width() >= kNameplateMinWidth) {
                childrenNamed = true;
                name(static_cast<ComponentItem*>(child));
            }
        if (childrenNamed || box.width() < kNameplateMinWidth)
            return;
        const auto plate = nameplate(item, box);
        if (!plate)
            return;
        plates_.insert(item, plate->back.toAlignedRect());
        QColor fill = col.containerHeader;
        fill.setAlpha(235);
        painter->setPen(Qt::NoPen);
        painter->setBrush(fill);
        painter->drawRoundedRect(plate->back, 3, 3);
        painter->setFont(plate->titleFont);
        painter->setPen(col.text);
        painter->drawText(plate->back.adjusted(4, 2, -4, 0), Qt::AlignLeft | Qt::AlignTop, plate->title);
        if (!plate->totals.isEmpty()) {
            painter->setFont(plate->totalsFont);
            painter->setPen(col.mutedText);
            painter->drawText(plate->back.adjusted(4, 2 + QFontMetricsF(plate->titleFont).height(), -4, 0),
                              Qt::AlignLeft | Qt::AlignTop, plate->totals);
        }
    };
    for (ComponentItem* item : scene_->topLevelItems())
        name(item);
    painter->restore();
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
    QRectF r = scene_->drawingRect();
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

void DesignView::mouseMoveEvent(QMouseEvent* event)
{
    if (middlePanning_) {
        const QPoint delta = event->pos() - panLast_;
        panLast_ = event->pos();
        horizontalScrollBar()->setValue(horizontalScrollBar()->value() - delta.x());
        verticalScrollBar()->setValue(verticalScrollBar()->value() - delta.y());
        event->accept();
        return;
    }
    QGraphicsView::mouseMoveEvent(event);
    // A link is selected by its label; a rubber band crossing only its route
    // selects it too (the runs of a route are items of their own).
    if (dragMode() == RubberBandDrag && !rubberBandRect().isNull())
        for (QGraphicsItem* item : items(rubberBandRect(), rubberBandSelectionMode()))
            if (LinkItem* link = linkOfRun(item))
                link->setSelected(true);
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
