#pragma once
// The QCustomPlot every chart draws on. It replots into one opaque buffer,
// cleared to the plot's background, and its paint is a copy of that buffer:
// QCustomPlot's own clears its buffers to transparent, fills the widget with
// the background on every paint and blends the buffers over it, and the
// widgets under a plot paint first because it is not opaque. With five
// plots on a large screen those fills and blends were a tenth of an edit.
#include <qcustomplot.h>

#include <functional>

namespace studio {

// Of `count` points at plot coordinates `coords(i)`, the one nearest the
// pixel `at` within `radius` pixels (what a hover tip is about), or -1.
int nearestPoint(const QCustomPlot* plot, QPointF at, std::size_t count,
                 const std::function<QPointF(std::size_t)>& coords, double radius);

class ChartPlot : public QCustomPlot {
    Q_OBJECT
public:
    explicit ChartPlot(QWidget* parent = nullptr);

    // Whether the last replot drew onto the background itself (a solid,
    // opaque brush and no background pixmap); otherwise QCustomPlot's paint.
    bool paintsOpaque() const;

protected:
    void paintEvent(QPaintEvent* event) override;
    // The legend re-flows to the new width before the replot.
    void resizeEvent(QResizeEvent* event) override;
};

}  // namespace studio
