#include "widgets/charts/plot_fingerprint.h"

#include <qcustomplot.h>

#include "widgets/charts/chart_view.h"

namespace studio {
namespace {

// FNV-1a over what a plot shows. Two draws that put the same into a plot
// give the same number, and then the replot would repaint the same pixels.
class Fingerprint {
public:
    void bytes(const void* data, std::size_t n)
    {
        const auto* b = static_cast<const unsigned char*>(data);
        for (std::size_t i = 0; i < n; ++i)
            h_ = (h_ ^ b[i]) * 1099511628211ull;
    }
    void number(double v) { bytes(&v, sizeof v); }
    void integer(qint64 v) { bytes(&v, sizeof v); }
    void pointer(const void* p) { bytes(&p, sizeof p); }
    void text(const QString& s)
    {
        integer(s.size());
        bytes(s.constData(), std::size_t(s.size()) * sizeof(QChar));
    }
    void color(const QColor& c) { integer(qint64(c.rgba())); }
    void pen(const QPen& p)
    {
        color(p.color());
        number(p.widthF());
        integer(p.style());
    }
    void brush(const QBrush& b)
    {
        color(b.color());
        integer(b.style());
    }
    void font(const QFont& f) { text(f.key()); }
    void margins(const QMargins& m)
    {
        integer(m.left());
        integer(m.top());
        integer(m.right());
        integer(m.bottom());
    }
    void ending(const QCPLineEnding& e)
    {
        integer(e.style());
        number(e.width());
        number(e.length());
        integer(e.inverted());
    }
    // Something of a kind not read here: the plot is drawn on every refresh.
    void unknown() { complete_ = false; }
    PlotFingerprint value() const { return {h_, complete_}; }

private:
    std::uint64_t h_ = 14695981039346656037ull;
    bool complete_ = true;
};

template <typename Container>
void foldData(Fingerprint& f, const Container& data)
{
    f.integer(data->size());
    for (auto it = data->constBegin(); it != data->constEnd(); ++it) {
        f.number(it->mainKey());
        f.number(it->mainValue());
    }
}

void foldTicker(Fingerprint& f, const QSharedPointer<QCPAxisTicker>& ticker)
{
    if (auto text = qSharedPointerDynamicCast<QCPAxisTickerText>(ticker)) {
        f.integer(1);
        for (auto it = text->ticks().constBegin(); it != text->ticks().constEnd(); ++it) {
            f.number(it.key());
            f.text(it.value());
        }
    } else if (auto log = qSharedPointerDynamicCast<QCPAxisTickerLog>(ticker)) {
        f.integer(2);
        f.number(log->logBase());
        f.integer(log->subTickCount());
    } else if (ticker && typeid(*ticker) == typeid(QCPAxisTicker)) {
        f.integer(3);
    } else {
        f.unknown();  // fixed, date, time or pi ticks: settings not read here
        return;
    }
    f.integer(ticker->tickCount());
}

void foldAxis(Fingerprint& f, const QCPAxis* axis)
{
    f.integer(axis->visible());
    f.number(axis->range().lower);
    f.number(axis->range().upper);
    f.integer(axis->scaleType());
    f.integer(axis->rangeReversed());
    f.text(axis->label());
    f.integer(axis->tickLabels());
    f.integer(axis->ticks());
    f.integer(axis->subTicks());
    f.number(axis->tickLabelRotation());
    f.text(axis->numberFormat());
    f.integer(axis->numberPrecision());
    f.integer(axis->grid()->visible());
    f.integer(axis->grid()->subGridVisible());
    foldTicker(f, axis->ticker());
}

void foldPlottable(Fingerprint& f, const QCPAbstractPlottable* p)
{
    f.pointer(p);
    f.integer(p->visible());
    f.text(p->name());
    f.pen(p->pen());
    f.brush(p->brush());
    f.pointer(p->keyAxis());
    f.pointer(p->valueAxis());
    if (auto* g = qobject_cast<const QCPGraph*>(p)) {
        foldData(f, g->data());
        f.integer(g->lineStyle());
        const QCPScatterStyle s = g->scatterStyle();
        f.integer(s.shape());
        f.number(s.size());
        f.pen(s.pen());
        f.brush(s.brush());
        f.integer(g->scatterSkip());
        f.pointer(g->channelFillGraph());
    } else if (auto* b = qobject_cast<const QCPBars*>(p)) {
        foldData(f, b->data());
        f.number(b->width());
        f.integer(b->widthType());
        f.number(b->baseValue());
        f.number(b->stackingGap());
        f.pointer(b->barBelow());
        f.pointer(b->barsGroup());
        if (const QCPBarsGroup* group = b->barsGroup()) {
            f.integer(group->spacingType());
            f.number(group->spacing());
        }
    } else {
        f.unknown();
    }
}

void foldItem(Fingerprint& f, QCPAbstractItem* item)
{
    f.pointer(item);
    auto* text = qobject_cast<QCPItemText*>(item);
    // A label placed after layout (ChartView::kPlacedAfterLayout) is where
    // the layout put it: its text is content, its place is not.
    if (item->property(ChartView::kPlacedAfterLayout).toBool()) {
        if (text)
            f.text(text->text());
        else
            f.unknown();
        return;
    }
    f.integer(item->visible());
    f.integer(item->clipToAxisRect());
    for (QCPItemPosition* pos : item->positions()) {
        f.number(pos->coords().x());
        f.number(pos->coords().y());
        f.integer(pos->typeX());
        f.integer(pos->typeY());
        f.pointer(pos->parentAnchor());
        f.pointer(pos->keyAxis());
        f.pointer(pos->valueAxis());
    }
    if (text) {
        f.text(text->text());
        f.color(text->color());
        f.font(text->font());
        f.number(text->rotation());
        f.integer(int(text->positionAlignment()));
        f.integer(int(text->textAlignment()));
        f.brush(text->brush());
        f.pen(text->pen());
        f.margins(text->padding());
    } else if (auto* l = qobject_cast<QCPItemStraightLine*>(item)) {
        f.pen(l->pen());
    } else if (auto* l = qobject_cast<QCPItemLine*>(item)) {
        f.pen(l->pen());
        f.ending(l->head());
        f.ending(l->tail());
    } else {
        f.unknown();
    }
}

void foldElement(Fingerprint& f, QCPLayoutElement* e)
{
    f.pointer(e);
    if (!e)
        return;  // an empty cell of a grid
    f.integer(e->visible());
    if (auto* rect = qobject_cast<QCPAxisRect*>(e)) {
        for (QCPAxis* axis : rect->axes())
            foldAxis(f, axis);
    } else if (auto* legend = qobject_cast<QCPLegend*>(e)) {
        f.integer(legend->itemCount());
        f.font(legend->font());
        f.color(legend->textColor());
        f.brush(legend->brush());
        f.pen(legend->borderPen());
    } else if (auto* item = qobject_cast<QCPPlottableLegendItem*>(e)) {
        f.pointer(item->plottable());
    } else if (auto* grid = qobject_cast<QCPLayoutGrid*>(e)) {
        f.integer(grid->rowCount());
        f.integer(grid->columnCount());
    } else if (auto* inset = qobject_cast<QCPLayoutInset*>(e)) {
        for (int i = 0; i < inset->elementCount(); ++i) {
            f.integer(inset->insetPlacement(i));
            f.integer(int(inset->insetAlignment(i)));
        }
    } else if (auto* title = qobject_cast<QCPTextElement*>(e)) {
        f.text(title->text());
        f.font(title->font());
        f.color(title->textColor());
    } else {
        f.unknown();
    }
}

}  // namespace

PlotFingerprint plotFingerprint(const QCustomPlot& constPlot)
{
    // QCustomPlot's getters are not const.
    auto& plot = const_cast<QCustomPlot&>(constPlot);
    Fingerprint f;
    foldElement(f, plot.plotLayout());
    for (QCPLayoutElement* e : plot.plotLayout()->elements(true))
        foldElement(f, e);
    for (int i = 0; i < plot.plottableCount(); ++i)
        foldPlottable(f, plot.plottable(i));
    for (int i = 0; i < plot.itemCount(); ++i)
        foldItem(f, plot.item(i));
    return f.value();
}

}  // namespace studio
