#include "widgets/charts/chart_plot.h"

#include "widgets/charts/chart_style.h"

namespace studio {

int nearestPoint(const QCustomPlot* plot, QPointF at, std::size_t count,
                 const std::function<QPointF(std::size_t)>& coords, double radius)
{
    int nearest = -1;
    double best = radius * radius;
    for (std::size_t i = 0; i < count; ++i) {
        const QPointF c = coords(i);
        const double dx = plot->xAxis->coordToPixel(c.x()) - at.x();
        const double dy = plot->yAxis->coordToPixel(c.y()) - at.y();
        if (dx * dx + dy * dy < best) {
            best = dx * dx + dy * dy;
            nearest = int(i);
        }
    }
    return nearest;
}

namespace {

// The first paint buffer, the one every logical layer draws into. QCustomPlot
// clears it to transparent before a replot; this one clears it to the plot's
// background when that is a solid, opaque colour, and then stays an opaque
// pixmap (no alpha channel to blend).
class OpaqueBuffer : public QCPPaintBufferPixmap {
public:
    OpaqueBuffer(const QSize& size, double ratio, std::function<QColor()> background)
        : QCPPaintBufferPixmap(size, ratio), background_(std::move(background))
    {}
    void clear(const QColor& color) override
    {
        const QColor bg = background_();
        opaque_ = bg.isValid();
        mBuffer.fill(opaque_ ? bg : color);
    }
    bool opaque() const { return opaque_; }

private:
    std::function<QColor()> background_;
    bool opaque_ = false;
};

}  // namespace

ChartPlot::ChartPlot(QWidget* parent) : QCustomPlot(parent)
{
    // Grids and axes are straight pixel lines: antialiasing them only costs.
    setAntialiasedElements(QCP::aeAll);
    setNotAntialiasedElements(QCP::aeGrid | QCP::aeSubGrid | QCP::aeAxes);
    // A replot schedules a paint with the window's others (QCustomPlot's
    // default repaints at once: each plot a paint and flush of its own),
    // into one buffer (no chart uses the overlay layer, which would get a
    // second buffer to clear and blit on every replot).
    setPlottingHint(QCP::phImmediateRefresh, false);
    layer(QStringLiteral("overlay"))->setMode(QCPLayer::lmLogical);
    // QCustomPlot makes its first buffer on the first replot and keeps it;
    // this one is made first, so it is kept instead.
    mPaintBuffers.clear();
    mPaintBuffers.append(QSharedPointer<QCPAbstractPaintBuffer>(
        new OpaqueBuffer(viewport().size(), bufferDevicePixelRatio(), [this]() -> QColor {
            const bool solid = mBackgroundBrush.style() == Qt::SolidPattern && mBackgroundBrush.color().alpha() == 255;
            return solid && mBackgroundPixmap.isNull() ? mBackgroundBrush.color() : QColor();
        })));
    // Emitted by every layout, the replot's and a report's (toPainter).
    connect(this, &QCustomPlot::afterLayout, this, [this] { fitAxisLabels(this); });
    // Nothing under an opaque plot needs painting before it.
    connect(this, &QCustomPlot::afterReplot, this, [this] { setAttribute(Qt::WA_OpaquePaintEvent, paintsOpaque()); });
}

bool ChartPlot::paintsOpaque() const
{
    const auto* first =
        mPaintBuffers.isEmpty() ? nullptr : dynamic_cast<const OpaqueBuffer*>(mPaintBuffers.front().data());
    return first && first->opaque();
}

void ChartPlot::resizeEvent(QResizeEvent* event)
{
    flowLegend(this);
    QCustomPlot::resizeEvent(event);
}

void ChartPlot::paintEvent(QPaintEvent* event)
{
    if (!paintsOpaque()) {
        QCustomPlot::paintEvent(event);
        return;
    }
    QCPPainter painter(this);
    if (!painter.isActive())
        return;
    for (const QSharedPointer<QCPAbstractPaintBuffer>& buffer : std::as_const(mPaintBuffers))
        buffer->draw(&painter);
}

}  // namespace studio
