#include "widgets/charts/chart_style.h"

#include <QFontMetrics>
#include <QPalette>
#include <QRegularExpression>

#include <algorithm>
#include <cmath>

#include <qcustomplot.h>

#include "core/contract.h"
#include "core/text.h"
#include "widgets/common/qt_string.h"
#include "widgets/style/theme.h"

namespace studio {

QColor seriesColor(int i)
{
    static const QColor light[] = {QColor(0x1f, 0x77, 0xb4), QColor(0xd6, 0x27, 0x28), QColor(0x2c, 0xa0, 0x2c),
                                   QColor(0x94, 0x67, 0xbd), QColor(0xff, 0x7f, 0x0e), QColor(0x8c, 0x56, 0x4b),
                                   QColor(0xe3, 0x77, 0xc2), QColor(0x17, 0xbe, 0xcf)};
    static const QColor dark[] = {QColor(0x6c, 0xb4, 0xf0), QColor(0xff, 0x7a, 0x70), QColor(0x74, 0xd6, 0x80),
                                  QColor(0xc3, 0xa1, 0xf0), QColor(0xff, 0xb2, 0x57), QColor(0xd4, 0xa0, 0x86),
                                  QColor(0xf4, 0xa6, 0xd8), QColor(0x6e, 0xe0, 0xee)};
    const QColor* colors = currentTheme() == Theme::Dark ? dark : light;
    return colors[std::max(i, 0) % 8];
}

QColor designColor(int i)
{
    // Mid-tone blue, orange, bluish green and reddish purple (after Okabe and
    // Ito): each at least 3:1 against white paper and against the dark
    // theme's base, and told apart without red-green vision.
    static const QColor colors[] = {QColor(0x2e, 0x86, 0xde), QColor(0xe8, 0x71, 0x0a), QColor(0x00, 0x9e, 0x73),
                                    QColor(0xcc, 0x79, 0xa7)};
    return colors[std::max(i, 0) % 4];
}

QPen designPen(int i, double width)
{
    static const Qt::PenStyle styles[] = {Qt::SolidLine, Qt::DashLine, Qt::DotLine, Qt::DashDotLine};
    QPen pen(designColor(i), width, styles[std::max(i, 0) % 4]);
    pen.setCapStyle(Qt::FlatCap);
    return pen;
}

void setLogAxis(QCPAxis* axis)
{
    axis->setScaleType(QCPAxis::stLogarithmic);
    QSharedPointer<QCPAxisTickerLog> ticker(new QCPAxisTickerLog);
    ticker->setLogBase(10);
    ticker->setSubTickCount(8);
    axis->setTicker(ticker);
    axis->setNumberFormat("gb");  // 1, 10, 100, 1000, then 10 with a superscript power
    axis->setNumberPrecision(0);
}

void setLogLog(QCustomPlot* plot, const QString& xLabel, const QString& yLabel)
{
    setLogAxis(plot->xAxis);
    setLogAxis(plot->yAxis);
    plot->xAxis->setLabel(xLabel);
    plot->yAxis->setLabel(yLabel);
}

namespace {

constexpr const char* kFullLabel = "studioFullLabel";

// Whether the axis's label changed: the whole label where it fits along the
// axis, else on two lines.
bool fitAxisLabel(QCPAxis* axis)
{
    const QString now = axis->label();
    QString full = axis->property(kFullLabel).toString();
    if (now != full && now != twoLines(full, 0)) {  // the chart set a new one
        full = now;
        axis->setProperty(kFullLabel, full);
    }
    if (full.isEmpty() || !axis->visible())
        return false;
    const QRect box = axis->axisRect()->rect();
    const int length = axis->orientation() == Qt::Vertical ? box.height() : box.width();
    const QString fitted = QFontMetrics(axis->labelFont()).horizontalAdvance(full) <= length ? full : twoLines(full, 0);
    if (fitted == now)
        return false;
    axis->setLabel(fitted);
    return true;
}

// Whether a category tick label under the axis changed: a line wider than
// the room between neighbouring categories is broken at its spaces (the
// memory columns of four designs in a narrow plot ran into each other).
// The charts refill their ticks on every draw, so nothing is kept.
bool fitCategoryTicks(QCPAxis* axis)
{
    const auto ticker = qSharedPointerDynamicCast<QCPAxisTickerText>(axis->ticker());
    if (!ticker || axis->orientation() != Qt::Horizontal || !axis->visible() || !axis->tickLabels())
        return false;
    const QMap<double, QString> ticks = ticker->ticks();
    double room = axis->axisRect()->width(), last = NAN;
    for (auto it = ticks.begin(); it != ticks.end(); ++it) {
        if (!axis->range().contains(it.key()))
            continue;
        const double at = axis->coordToPixel(it.key());
        if (std::isfinite(last))
            room = std::min(room, std::abs(at - last));
        last = at;
    }
    const QFontMetrics metrics(axis->tickLabelFont());
    const double fits = room - metrics.averageCharWidth();  // a gap between neighbours
    bool changed = false;
    for (auto it = ticks.begin(); it != ticks.end(); ++it) {
        const QString fitted = wrapLines(it.value(), metrics, fits);
        if (fitted != it.value()) {
            ticker->addTick(it.key(), fitted);
            changed = true;
        }
    }
    return changed;
}

// Whether a numeric axis under a plot changed its tick count: as many ticks
// as their labels have room for side by side, up to the count the chart
// asked for (the MFU chart's narrow share axis ran "0 25 50 75 100" into
// "0 255075100").
bool fitTickCount(QCPAxis* axis)
{
    // What the chart asked of the ticker it set (a ticker is not a QObject:
    // the axis keeps the count, with the ticker it was asked of).
    constexpr const char* kAskedTicks = "studioAskedTicks";
    constexpr const char* kAskedOf = "studioAskedTicksOf";
    const QSharedPointer<QCPAxisTicker> ticker = axis->ticker();
    // Linear axes only: a log axis's decades are typeset powers, which the
    // label strings do not measure.
    if (!ticker || qSharedPointerDynamicCast<QCPAxisTickerText>(ticker) || axis->orientation() != Qt::Horizontal ||
        axis->scaleType() != QCPAxis::stLinear || !axis->visible() || !axis->tickLabels())
        return false;
    const auto of = quintptr(ticker.data());
    if (axis->property(kAskedOf).value<quintptr>() != of) {
        axis->setProperty(kAskedOf, QVariant::fromValue(of));
        axis->setProperty(kAskedTicks, ticker->tickCount());
    }
    const int asked = axis->property(kAskedTicks).toInt();
    const QFontMetrics metrics(axis->tickLabelFont());
    int widest = 0;
    for (const QString& label : axis->tickVectorLabels())
        widest = std::max(widest, metrics.horizontalAdvance(label));
    if (widest == 0)
        return false;
    const int fits = axis->axisRect()->width() / (widest + 2 * metrics.averageCharWidth()) + 1;
    const int count = std::clamp(fits, 2, asked);
    if (count == ticker->tickCount())
        return false;
    ticker->setTickCount(count);
    return true;
}

}  // namespace

void fitAxisLabels(QCustomPlot* plot)
{
    bool changed = false;
    for (QCPAxisRect* rect : plot->axisRects())
        for (QCPAxis* axis : rect->axes()) {
            changed = fitAxisLabel(axis) || changed;
            changed = fitCategoryTicks(axis) || changed;
            changed = fitTickCount(axis) || changed;
        }
    if (!changed)
        return;
    // A label's new line widens the margin beside its axis; lay out again
    // so the ticks and the plot make room for it.
    for (auto phase : {QCPLayoutElement::upPreparation, QCPLayoutElement::upMargins, QCPLayoutElement::upLayout})
        plot->plotLayout()->update(phase);
}

QSharedPointer<QCPAxisTickerText> setCategoryAxis(QCPAxis* axis)
{
    QSharedPointer<QCPAxisTickerText> ticker(new QCPAxisTickerText);
    axis->setTicker(ticker);
    axis->grid()->setVisible(false);
    axis->setSubTicks(false);
    axis->setTickLength(0, 3);
    return ticker;
}

QSharedPointer<QCPAxisTickerText> categoryTicker(QCPAxis* axis)
{
    auto ticker = qSharedPointerDynamicCast<QCPAxisTickerText>(axis->ticker());
    STUDIO_EXPECTS(ticker);  // setCategoryAxis made it one
    return ticker;
}

double decadeBelow(double v)
{
    return std::pow(10.0, std::floor(std::log10(v)));
}

double decadeAbove(double v)
{
    return std::pow(10.0, std::ceil(std::log10(v)));
}

QBrush labelHalo(const QPalette& palette)
{
    QColor halo = palette.color(QPalette::Base);
    halo.setAlpha(150);
    return halo;
}

void stylePlot(QCustomPlot* plot, const QPalette& pal)
{
    const QColor bg = pal.color(QPalette::Base), fg = pal.color(QPalette::WindowText);
    // Solid, faint grid lines: a dotted log grid is thousands of dashes to
    // stroke on every replot.
    QColor grid = pal.color(QPalette::Mid);
    grid.setAlpha(70);
    QColor subGrid = grid;
    subGrid.setAlpha(28);
    plot->setBackground(bg);
    for (QCPAxisRect* rect : plot->axisRects())
        for (QCPAxis* axis : rect->axes()) {
            axis->setBasePen(QPen(fg, 1));
            axis->setTickPen(QPen(fg, 1));
            axis->setSubTickPen(QPen(fg, 1));
            axis->setTickLabelColor(fg);
            axis->setLabelColor(fg);
            axis->grid()->setPen(QPen(grid, 1));
            axis->grid()->setSubGridPen(QPen(subGrid, 1));
            axis->grid()->setZeroLinePen(Qt::NoPen);
        }
    // Legends sit outside the axes (legendOutside), on the plot's own background.
    plot->legend->setBrush(QBrush(bg));
    plot->legend->setTextColor(fg);
    plot->legend->setBorderPen(Qt::NoPen);
}

namespace {
// The most columns a chart asked its legend for; flowLegend() sets as many
// of them as the plot's width holds.
constexpr char kLegendColumns[] = "studio_legend_columns";
}  // namespace

void legendOutside(QCustomPlot* plot, int columns, bool above)
{
    plot->legend->setVisible(true);
    // Wrap first: setting the fill order re-arranges items already in the
    // legend by the wrap it has then.
    plot->setProperty(kLegendColumns, columns);
    plot->legend->setWrap(columns);
    plot->legend->setFillOrder(QCPLegend::foColumnsFirst);
    flowLegend(plot);
    plot->legend->setBorderPen(Qt::NoPen);
    if (plot->legend->layout())
        plot->legend->layout()->take(plot->legend);
    plot->plotLayout()->simplify();
    if (above) {
        plot->plotLayout()->insertRow(0);
        plot->plotLayout()->addElement(0, 0, plot->legend);
        plot->plotLayout()->setRowStretchFactor(0, 0.001);
    } else {
        const int row = plot->plotLayout()->rowCount();
        plot->plotLayout()->addElement(row, 0, plot->legend);
        plot->plotLayout()->setRowStretchFactor(row, 0.001);
    }
}

void hideLegend(QCustomPlot* plot)
{
    plot->legend->setVisible(false);
    if (plot->legend->layout() == plot->plotLayout()) {
        plot->plotLayout()->take(plot->legend);
        plot->plotLayout()->simplify();
        plot->axisRect()->insetLayout()->addElement(plot->legend, Qt::AlignRight | Qt::AlignTop);
    }
}

int legendColumnsFor(QCustomPlot* plot, const std::vector<QString>& names)
{
    const QFontMetrics metrics(plot->legend->font());
    // An item is its icon, the gap after it, its text and the legend's
    // padding; a column is as wide as its widest item. Entries fill a row,
    // then the next (foColumnsFirst), so entry i is in column i % columns.
    const int chrome = plot->legend->iconSize().width() + plot->legend->iconTextPadding() + 24;
    const int room = plot->width() - 16;
    for (int columns = int(names.size()); columns > 1; --columns) {
        std::vector<int> widest(std::size_t(columns), 0);
        for (std::size_t i = 0; i < names.size(); ++i)
            widest[i % std::size_t(columns)] =
                std::max(widest[i % std::size_t(columns)], metrics.horizontalAdvance(names[i]));
        int total = 0;
        for (int w : widest)
            total += chrome + w;
        if (total <= room)
            return columns;
    }
    return 1;
}

void setLegendColumns(QCustomPlot* plot, int columns)
{
    plot->setProperty(kLegendColumns, columns);
    flowLegend(plot);
}

void flowLegend(QCustomPlot* plot)
{
    const int wanted = plot->property(kLegendColumns).toInt();
    if (wanted <= 0 || plot->width() <= 0)
        return;
    std::vector<QString> names;
    for (int i = 0; i < plot->legend->itemCount(); ++i)
        if (auto* item = qobject_cast<QCPPlottableLegendItem*>(plot->legend->item(i)))
            names.push_back(item->plottable()->name());
    const int columns = names.empty() ? wanted : std::min(wanted, legendColumnsFor(plot, names));
    if (columns != plot->legend->wrap()) {
        plot->legend->setWrap(columns);
        plot->legend->setFillOrder(QCPLegend::foColumnsFirst, true);  // true: re-flow what is there
    }
}

QString designTick(const QString& label)
{
    const qsizetype details = label.indexOf(" (");
    return twoLines(details > 0 ? label.left(details) : label, 14);
}

QString wrapLines(const QString& text, const QFontMetrics& metrics, double width)
{
    QStringList lines;
    for (const QString& line : text.split('\n')) {
        if (metrics.horizontalAdvance(line) <= width) {
            lines << line;
            continue;
        }
        // A number keeps its unit where the two fit on a line: "64 GPUs"
        // and "2.05 days" are one word (a name with digits, "NVL72", is not
        // a number).
        static const QRegularExpression number("^[-+]?[0-9][0-9.,]*$");
        QStringList words;
        for (const QString& word : line.split(' ', Qt::SkipEmptyParts))
            if (!words.isEmpty() && number.match(words.back()).hasMatch() &&
                metrics.horizontalAdvance(words.back() + ' ' + word) <= width)
                words.back() += ' ' + word;
            else
                words << word;
        QString current;
        for (const QString& word : words) {
            if (!current.isEmpty() && metrics.horizontalAdvance(current + ' ' + word) > width) {
                lines << current;
                current.clear();
            }
            current += (current.isEmpty() ? "" : " ") + word;
        }
        lines << current;
    }
    return lines.join('\n');
}

QString twoLines(const QString& name, int maxOneLine)
{
    if (name.size() <= maxOneLine)
        return name;
    qsizetype best = -1;
    for (qsizetype i = name.indexOf(' '); i >= 0; i = name.indexOf(' ', i + 1))
        if (best < 0 || std::abs(i - name.size() / 2) < std::abs(best - name.size() / 2))
            best = i;
    return best < 0 ? name : name.left(best) + "\n" + name.mid(best + 1);
}

QString capitalized(std::string_view s)
{
    QString t = q(s);
    if (!t.isEmpty() && t != "MFU")
        t[0] = t[0].toUpper();
    return t;
}

QString readable(double v, int significant)
{
    return q(formatReadable(v, significant));
}

std::size_t categoryOf(const QCPBars* bars, int dataIndex)
{
    return std::size_t(std::max(0L, std::lround(bars->data()->at(dataIndex)->key) - 1));
}

std::vector<QCPBars*> addStack(QCPAxis* keyAxis, QCPAxis* valueAxis, std::initializer_list<const char*> names)
{
    std::vector<QCPBars*> stack;
    for (const char* name : names) {
        auto* b = new QCPBars(keyAxis, valueAxis);
        b->setObjectName(name);
        b->setWidth(0.6);
        b->setStackingGap(0);
        if (!stack.empty())
            b->moveAbove(stack.back());
        stack.push_back(b);
    }
    return stack;
}

void fillStack(const std::vector<QCPBars*>& stack, std::size_t designs,
               const std::function<double(std::size_t bar, std::size_t design)>& value, const QColor& last)
{
    for (std::size_t l = 0; l < stack.size(); ++l) {
        QCPBars* b = stack[l];
        QVector<double> keys, values;
        bool any = false;
        for (std::size_t i = 0; i < designs; ++i) {
            keys << double(i + 1);
            values << value(l, i);
            any = any || values.back() > 0;
        }
        b->setData(keys, values, true);
        const bool hatched = l + 1 == stack.size();
        const QColor c = hatched ? last : seriesColor(int(l));
        b->setBrush(hatched ? QBrush(c, Qt::BDiagPattern) : QBrush(c));
        b->setPen(QPen(c.darker(120)));
        if (any)
            b->addToLegend();
        else
            b->removeFromLegend();
    }
}

namespace {
constexpr double kGroupWidth = 0.82, kGroupGap = 0.015;
}  // namespace

double groupedBarWidth(std::size_t n)
{
    return (kGroupWidth - kGroupGap * double(n - 1)) / double(n);
}

double groupedBarOffset(std::size_t i, std::size_t n)
{
    const double w = groupedBarWidth(n);
    return -kGroupWidth / 2 + double(i) * (w + kGroupGap) + w / 2;
}

QCPBarsGroup* newBarsGroup(QCustomPlot* plot)
{
    auto* group = new QCPBarsGroup(plot);
    group->setSpacingType(QCPBarsGroup::stPlotCoords);
    group->setSpacing(kGroupGap);
    return group;
}

void styleBars(QCPBars* bars, const QColor& color, int alpha)
{
    bars->setPen(QPen(color.darker(125), 1));
    QColor fill = color;
    fill.setAlpha(alpha);
    bars->setBrush(fill);
}

QCPBars* designBars(QCPAxis* keyAxis, QCPAxis* valueAxis, QCPBarsGroup* group, std::size_t i, std::size_t n,
                    const QString& label, const char* what)
{
    auto* bars = new QCPBars(keyAxis, valueAxis);
    bars->setObjectName(what);
    bars->setName(label);
    bars->setWidth(groupedBarWidth(n));
    bars->setBarsGroup(group);
    styleBars(bars, designColor(int(i)));
    return bars;
}

std::vector<std::string> mergeOrder(const std::vector<std::vector<std::string>>& sequences)
{
    std::vector<std::string> merged;
    for (const auto& seq : sequences) {
        std::size_t insertAt = 0;
        for (const auto& key : seq) {
            const auto it = std::find(merged.begin(), merged.end(), key);
            if (it != merged.end()) {
                insertAt = std::size_t(it - merged.begin()) + 1;
                continue;
            }
            merged.insert(merged.begin() + std::ptrdiff_t(insertAt), key);
            ++insertAt;
        }
    }
    return merged;
}

void Transient::clear(QCustomPlot* plot)
{
    // Plottables and items first: they sit on the axes of any axis rect
    // that goes after them.
    for (const QPointer<QObject>& o : objects_) {
        if (auto* p = qobject_cast<QCPAbstractPlottable*>(o))
            plot->removePlottable(p);
        else if (auto* item = qobject_cast<QCPAbstractItem*>(o))
            plot->removeItem(item);
    }
    for (const QPointer<QObject>& o : objects_) {
        if (!o)
            continue;
        if (auto* element = qobject_cast<QCPLayoutElement*>(o); element && element->layout())
            element->layout()->remove(element);
        else
            delete o.data();
    }
    objects_.clear();
    plot->plotLayout()->simplify();
}

}  // namespace studio
