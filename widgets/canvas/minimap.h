#pragma once
// The overview: the whole drawing with the main view's area outlined; click
// or drag in it to move the main view. The drawing is a snapshot rendered a
// moment after the scene changes (at most four times a second), not on
// every edit: at an overview's scale the items' text alone costs more than
// the canvas, and a live edit must not pay for it.
#include <QPixmap>
#include <QTimer>
#include <QWidget>

namespace studio {

class DesignView;

class Minimap : public QWidget {
    Q_OBJECT
public:
    explicit Minimap(DesignView* main, QWidget* parent = nullptr);
    // Renders the snapshot now (a theme change, tests).
    void refreshNow();
    QSize sizeHint() const override { return {240, 180}; }

protected:
    void paintEvent(QPaintEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;

private:
    QPointF toScene(const QPointF& pos) const;
    QRectF toWidget(const QRectF& sceneRect) const;
    DesignView* main_;
    QTimer timer_;
    QPixmap snapshot_;
    QRectF source_, target_;  // the scene rect drawn, and where in the widget
};

}  // namespace studio
