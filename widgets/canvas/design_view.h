#pragma once
// The canvas's view: zoom by wheel and pinch, pan by the middle button or
// by dragging with Space held, rubber-band selection, arrow keys to move the
// selection (merged into one undo step per burst), zoom to fit and 100%.
// The overview dock is a Minimap (minimap.h).
#include <QElapsedTimer>
#include <QGraphicsView>
#include <QHash>

#include <optional>

namespace studio {

class ComponentItem;
class DesignScene;

class DesignView : public QGraphicsView {
    Q_OBJECT
public:
    explicit DesignView(DesignScene* scene, QWidget* parent = nullptr);
    DesignScene* designScene() const { return scene_; }

    void zoomIn() { zoomBy(1.25); }
    void zoomOut() { zoomBy(1 / 1.25); }
    void zoomToFit();
    void zoomTo100();
    double zoom() const { return transform().m11(); }

signals:
    void zoomChanged(double factor);

protected:
    // Far out (below ItemMetrics::kDetailZoom) items draw no text: the view
    // names the innermost containers wide enough on screen to carry a name,
    // so a drawing of thousands of items reads as its scalable units or
    // racks.
    void drawForeground(QPainter* painter, const QRectF& rect) override;
    bool viewportEvent(QEvent* event) override;
    void wheelEvent(QWheelEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;
    void keyReleaseEvent(QKeyEvent* event) override;

private:
    // A container's name (and totals when there is room) drawn far out, over
    // its top left corner `box` (view coordinates).
    struct Nameplate {
        QRectF back;
        QFont titleFont, totalsFont;
        QString title, totals;
    };
    static constexpr double kNameplateMinWidth = 90;  // pixels a name needs to say something
    std::optional<Nameplate> nameplate(const ComponentItem* item, const QRectF& box) const;
    void zoomBy(double factor);
    DesignScene* scene_;
    bool spaceHeld_ = false;
    bool middlePanning_ = false;
    QPoint panLast_;
    int arrowMergeKey_ = 0;
    QElapsedTimer lastArrow_;
    // Where each name was last drawn: it repaints there when it changes.
    QHash<const ComponentItem*, QRect> plates_;
};

}  // namespace studio
