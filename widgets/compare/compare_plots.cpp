#include "widgets/compare/compare_plots.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <string>

#include <qcustomplot.h>

#include "core/analysis/analysis.h"
#include "core/analysis/fleet_formulas.h"
#include "core/compare/comparison.h"
#include "core/metrics/explanations.h"
#include "core/text.h"
#include "widgets/common/qt_string.h"
#include "widgets/panels/explain_html.h"
#include "widgets/panels/plot_panel.h"

namespace studio {
namespace {

// Plottables carry what their tip needs: the design (column) they draw,
// what they are, and for bars on a category axis the key of each category.
constexpr const char* kDesign = "compareDesign";
constexpr const char* kCategories = "compareCategories";
// The MFU panel leaves out losses too small to see; so does the overlay,
// unless some design has one.
constexpr double kVisibleLoss = 5e-5;

QString readable(double v, int significant = 3)
{
    return QString::fromStdString(formatReadable(v, significant));
}

QString capitalized(std::string_view s)
{
    QString t = q(s);
    if (!t.isEmpty())
        t[0] = t[0].toUpper();
    return t;
}

double decadeBelow(double v)
{
    return std::pow(10.0, std::floor(std::log10(v)));
}

double decadeAbove(double v)
{
    return std::pow(10.0, std::ceil(std::log10(v)));
}

// Lines of different designs can coincide (two designs on one GPU share a
// roof; one failure mix gives one MTBF curve): a dash per design keeps each
// colour visible where they overlap.
QPen designPen(int i, double width)
{
    static const Qt::PenStyle styles[] = {Qt::SolidLine, Qt::DashLine, Qt::DotLine, Qt::DashDotLine};
    QPen pen(designColor(i), width, styles[i % 4]);
    pen.setCapStyle(Qt::FlatCap);
    return pen;
}

void styleBars(QCPBars* bars, int i)
{
    const QColor fill = designColor(i);
    bars->setPen(QPen(fill.darker(125), 1));
    bars->setBrush(fill);
}

// Every category each design has, each design's order kept: a key a design
// has and earlier ones lack goes in right after that design's previous key.
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

QStringList qKeys(const std::vector<std::string>& keys)
{
    QStringList out;
    for (const auto& k : keys)
        out << QString::fromStdString(k);
    return out;
}

// Back to one axis rect with a hidden legend in it, linear axes, nothing
// drawn: the state a plot is in when a chart is drawn on it again, whatever
// the previous chart added (a second axis rect, a legend row, bar groups).
void resetPlot(QCustomPlot* plot)
{
    plot->clearPlottables();
    plot->clearItems();
    for (QCPBarsGroup* group : plot->findChildren<QCPBarsGroup*>(QString(), Qt::FindDirectChildrenOnly))
        delete group;
    QCPAxisRect* main = plot->xAxis->axisRect();
    QCPLegend* legend = plot->legend;
    if (legend->layout())
        legend->layout()->take(legend);
    if (main->layout())
        main->layout()->take(main);
    plot->plotLayout()->clear();
    plot->plotLayout()->addElement(0, 0, main);
    main->insetLayout()->addElement(legend, Qt::AlignRight | Qt::AlignTop);
    legend->setVisible(false);
    for (QCPAxis* axis : main->axes()) {
        axis->setScaleType(QCPAxis::stLinear);
        axis->setTicker(QSharedPointer<QCPAxisTicker>(new QCPAxisTicker));
        axis->setNumberFormat("gbd");
        axis->setNumberPrecision(6);
        axis->setRangeReversed(false);
        axis->setLabel(QString());
        axis->setTicks(true);
        axis->setTickLabels(true);
        axis->setSubTicks(true);
        axis->setTickLength(5, 0);
        axis->setSubTickLength(2, 0);
        axis->setTickLabelRotation(0);
        axis->grid()->setVisible(axis == plot->xAxis || axis == plot->yAxis);
        axis->grid()->setSubGridVisible(false);
    }
    plot->xAxis->setVisible(true);
    plot->yAxis->setVisible(true);
    plot->xAxis2->setVisible(false);
    plot->yAxis2->setVisible(false);
    // Grids and axes are straight pixel lines: antialiasing them only costs.
    plot->setAntialiasedElements(QCP::aeAll);
    plot->setNotAntialiasedElements(QCP::aeGrid | QCP::aeSubGrid | QCP::aeAxes);
}

QColor textColor(const QCustomPlot* plot, bool muted = false)
{
    return plot->palette().color(muted ? QPalette::PlaceholderText : QPalette::WindowText);
}

// Short labels fit side by side; longer ones two to a row.
void designLegend(QCustomPlot* plot, const QStringList& labels, bool above = false)
{
    int chars = 0;
    for (const QString& l : labels)
        chars += int(l.size()) + 4;
    legendOutside(plot, chars <= 90 ? std::max<int>(1, int(labels.size())) : 2, above);
}

QCPItemText* text(QCustomPlot* plot, const QString& s, Qt::Alignment alignment, const QColor& color)
{
    auto* t = new QCPItemText(plot);
    t->position->setType(QCPItemPosition::ptPlotCoords);
    t->setPositionAlignment(alignment);
    t->setText(s);
    t->setColor(color);
    t->setPadding(QMargins(2, 1, 2, 1));
    QFont f = plot->font();
    f.setPointSizeF(f.pointSizeF() * 0.85);
    t->setFont(f);
    return t;
}

// Grouped bars, one series per design, side by side within a category:
// the key offset of design i's bar from its category's centre, in the same
// plot coordinates the group lays them out in.
constexpr double kGroupWidth = 0.82, kGroupGap = 0.015;
double barWidth(std::size_t n)
{
    return (kGroupWidth - kGroupGap * double(n - 1)) / double(n);
}
double barOffset(std::size_t i, std::size_t n)
{
    const double w = barWidth(n);
    return -kGroupWidth / 2 + double(i) * (w + kGroupGap) + w / 2;
}

QCPBarsGroup* barsGroup(QCustomPlot* plot)
{
    auto* group = new QCPBarsGroup(plot);
    group->setSpacingType(QCPBarsGroup::stPlotCoords);
    group->setSpacing(kGroupGap);
    return group;
}

QCPBars* designBars(QCPAxis* keyAxis, QCPAxis* valueAxis, QCPBarsGroup* group, std::size_t i, std::size_t n,
                    const QString& label, const char* what)
{
    auto* bars = new QCPBars(keyAxis, valueAxis);
    bars->setObjectName(what);
    bars->setName(label);
    bars->setProperty(kDesign, int(i));
    bars->setWidth(barWidth(n));
    bars->setBarsGroup(group);
    styleBars(bars, int(i));
    return bars;
}

// A value written up the bar from its top, so narrow grouped bars keep
// readable labels.
void barLabel(QCustomPlot* plot, QCPAxisRect* rect, double key, double value, const QString& s)
{
    QCPItemText* t = text(plot, s, Qt::AlignLeft | Qt::AlignVCenter, textColor(plot));
    t->setClipAxisRect(rect);
    t->position->setAxes(rect->axis(QCPAxis::atBottom), rect->axis(QCPAxis::atLeft));
    t->position->setCoords(key, value);
    t->setRotation(-90);
}

std::vector<std::string> tierKeys(const Analysis& a)
{
    std::vector<std::string> keys;
    for (const auto& t : a.hierarchy.tiers)
        if (t.gbPerSPerGpu > 0)
            keys.push_back(t.key);
    return keys;
}

std::vector<std::string> stepNames(const Analysis& a)
{
    std::vector<std::string> names;
    for (const auto& b : a.utilization.waterfall)
        names.emplace_back(b.name);
    return names;
}

const WaterfallBar* findStep(const Analysis& a, const std::string& name)
{
    for (const auto& b : a.utilization.waterfall)
        if (b.name == name)
            return &b;
    return nullptr;
}

// The facility split: IT by category, IT in all, what the facility adds
// on top (cooling, power conversion), and the facility in all.
struct PowerPart {
    const char* key;
    const char* name;
    double Power::*kw;
};
constexpr PowerPart kPowerParts[] = {{"compute", "Compute", &Power::computeKw},
                                     {"network", "Network", &Power::networkKw},
                                     {"storage", "Storage", &Power::storageKw},
                                     {"other", "Other", &Power::otherKw},
                                     {"it", "IT load", &Power::itKw},
                                     {"overhead", "Facility overhead", &Power::overheadKw},
                                     {"facility", "Facility", &Power::facilityKw}};

const PowerPart* findPowerPart(const QString& key)
{
    for (const PowerPart& p : kPowerParts)
        if (key == QLatin1String(p.key))
            return &p;
    return nullptr;
}

} // namespace

const std::vector<CompareChart>& compareCharts()
{
    static const std::vector<CompareChart> charts{CompareChart::Roofline, CompareChart::Hierarchy, CompareChart::Mfu,
                                                  CompareChart::Power, CompareChart::Mtbf};
    return charts;
}

QString compareChartTitle(CompareChart chart)
{
    switch (chart) {
    case CompareChart::Roofline: return QObject::tr("Roofline");
    case CompareChart::Hierarchy: return QObject::tr("Bandwidth hierarchy");
    case CompareChart::Mfu: return QObject::tr("MFU breakdown");
    case CompareChart::Power: return QObject::tr("Power");
    case CompareChart::Mtbf: return QObject::tr("Cluster MTBF");
    }
    return {};
}

QString compareChartName(CompareChart chart)
{
    switch (chart) {
    case CompareChart::Roofline: return QStringLiteral("roofline");
    case CompareChart::Hierarchy: return QStringLiteral("hierarchy");
    case CompareChart::Mfu: return QStringLiteral("mfu");
    case CompareChart::Power: return QStringLiteral("power");
    case CompareChart::Mtbf: return QStringLiteral("mtbf");
    }
    return {};
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

void drawCompareRoofline(QCustomPlot* plot, const std::vector<const Analysis*>& analyses, const QStringList& labels)
{
    resetPlot(plot);
    setLogLog(plot, QObject::tr("Arithmetic intensity (FLOP/byte)"), QObject::tr("Throughput per GPU (TFLOP/s)"));

    double lo = 0.5, hi = 10, top = 1, bottom = 1e18;
    for (const Analysis* a : analyses) {
        const Roofline& rf = a->roofline;
        if (rf.peakTflops <= 0 || rf.hbm.gbPerS <= 0)
            continue;
        hi = std::max(hi, rf.ridgeFlopPerByte * 10);
        lo = std::min(lo, rf.ridgeFlopPerByte / 30);
        top = std::max(top, rf.peakTflops);
        bottom = std::min(bottom, rf.peakTflops / 1e3);
    }
    if (bottom > top)
        bottom = top / 1e3;
    const double xMin = decadeBelow(lo), xMax = decadeAbove(hi);
    plot->xAxis->setRange(xMin, xMax);
    plot->yAxis->setRange(decadeBelow(bottom), decadeAbove(top * 2));

    const QColor bg = plot->palette().color(QPalette::Base);
    for (std::size_t i = 0; i < analyses.size(); ++i) {
        const Roofline& rf = analyses[i]->roofline;
        QCPGraph* roof = plot->addGraph();
        roof->setObjectName("roof");
        roof->setName(labels.value(int(i)));
        roof->setProperty(kDesign, int(i));
        roof->setPen(designPen(int(i), 2.5));
        if (rf.peakTflops <= 0 || rf.hbm.gbPerS <= 0)
            continue;
        // The HBM slope up to the ridge, then the training precision's ceiling.
        const double slopeStart = fleet::attainableFlopsPerS(xMin, rf.peakTflops * 1e12, rf.hbm.gbPerS * 1e9) / 1e12;
        roof->setData({xMin, rf.ridgeFlopPerByte, xMax}, {slopeStart, rf.peakTflops, rf.peakTflops}, true);

        QCPGraph* ridge = plot->addGraph();
        ridge->setObjectName("ridge");
        ridge->setProperty(kDesign, int(i));
        ridge->removeFromLegend();
        ridge->setLineStyle(QCPGraph::lsNone);
        ridge->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, QPen(designColor(int(i)), 2), bg, 9));
        ridge->setData({rf.ridgeFlopPerByte}, {rf.peakTflops}, true);
    }
    // Each roof's numbers in a small table in the bottom-right corner, which
    // no roof reaches: labels on the ceilings would pile up where peaks are
    // close, and how close they land depends on the size drawn at.
    std::vector<std::size_t> order;
    for (std::size_t i = 0; i < analyses.size(); ++i)
        if (analyses[i]->roofline.peakTflops > 0 && analyses[i]->roofline.hbm.gbPerS > 0)
            order.push_back(i);
    std::stable_sort(order.begin(), order.end(), [&](std::size_t l, std::size_t r) {
        return analyses[l]->roofline.peakTflops < analyses[r]->roofline.peakTflops;
    });
    QCPItemText* below = nullptr;
    auto stackUp = [&](QCPItemText* t) {
        t->setPositionAlignment(Qt::AlignRight | Qt::AlignBottom);
        t->setBrush(bg);
        if (below) {
            t->position->setParentAnchor(below->topRight);
            t->position->setCoords(0, 0);
        } else {
            t->position->setType(QCPItemPosition::ptAxisRectRatio);
            t->position->setCoords(0.985, 0.96);  // clear of the axis and its ticks
        }
        below = t;
    };
    for (std::size_t i : order) {
        const Roofline& rf = analyses[i]->roofline;
        stackUp(text(plot,
                     QObject::tr("%1 TFLOP/s   %2 GB/s   %3")
                         .arg(readable(rf.peakTflops), readable(rf.hbm.gbPerS), readable(rf.ridgeFlopPerByte)),
                     Qt::AlignRight | Qt::AlignBottom, designColor(int(i))));
    }
    if (below)
        stackUp(text(plot, QObject::tr("peak, HBM, ridge (FLOP/byte) per GPU"), Qt::AlignRight | Qt::AlignBottom,
                     textColor(plot, true)));
    designLegend(plot, labels, true);
    stylePlot(plot, plot->palette());
}

void drawCompareHierarchy(QCustomPlot* plot, const std::vector<const Analysis*>& analyses, const QStringList& labels)
{
    resetPlot(plot);
    setLogAxis(plot->yAxis);
    plot->yAxis->setLabel(QObject::tr("Bandwidth per GPU (GB/s)"));
    auto ticker = setCategoryAxis(plot->xAxis);

    std::vector<std::vector<std::string>> sequences;
    std::map<std::string, QString> names;
    double lo = 1e18, hi = 0;
    for (const Analysis* a : analyses) {
        sequences.push_back(tierKeys(*a));
        for (const auto& t : a->hierarchy.tiers) {
            names.emplace(t.key, QString::fromStdString(t.name));
            if (t.gbPerSPerGpu > 0)
                lo = std::min(lo, t.gbPerSPerGpu), hi = std::max(hi, t.gbPerSPerGpu);
        }
    }
    if (hi <= 0)
        lo = 1, hi = 10;
    const std::vector<std::string> keys = mergeOrder(sequences);
    // Room above the tallest bar for its value written upwards.
    const double bottom = decadeBelow(lo / 3);
    plot->yAxis->setRange(bottom, decadeAbove(hi * 60));
    plot->xAxis->setRange(0.4, double(std::max<std::size_t>(keys.size(), 1)) + 0.6);
    for (std::size_t k = 0; k < keys.size(); ++k)
        ticker->addTick(double(k + 1), twoLines(names[keys[k]], 14));

    QCPBarsGroup* group = barsGroup(plot);
    const std::size_t n = analyses.size();
    for (std::size_t i = 0; i < n; ++i) {
        QCPBars* bars = designBars(plot->xAxis, plot->yAxis, group, i, n, labels.value(int(i)), "tiers");
        bars->setBaseValue(bottom);
        bars->setProperty(kCategories, qKeys(keys));
        for (std::size_t k = 0; k < keys.size(); ++k) {
            const Tier* t = analyses[i]->hierarchy.tier(keys[k]);
            if (!t || t->gbPerSPerGpu <= 0)
                continue;
            const double key = double(k + 1), value = std::max(t->gbPerSPerGpu, bottom);
            bars->addData(key, value);
            barLabel(plot, plot->axisRect(), key + barOffset(i, n), value, readable(t->gbPerSPerGpu));
        }
    }
    designLegend(plot, labels);
    stylePlot(plot, plot->palette());
}

void drawCompareMfu(QCustomPlot* plot, const std::vector<const Analysis*>& analyses, const QStringList& labels)
{
    resetPlot(plot);
    plot->xAxis->setLabel(QObject::tr("Share of peak FLOP/s (%)"));
    plot->xAxis->setRange(0, 105);
    plot->yAxis->setRangeReversed(true);
    auto ticker = setCategoryAxis(plot->yAxis);

    std::vector<std::vector<std::string>> sequences;
    for (const Analysis* a : analyses)
        sequences.push_back(stepNames(*a));
    std::vector<std::string> steps;
    for (const auto& name : mergeOrder(sequences)) {
        bool shown = false;
        for (const Analysis* a : analyses)
            if (const WaterfallBar* b = findStep(*a, name))
                shown = shown || b->level || b->fraction >= kVisibleLoss;
        if (shown)
            steps.push_back(name);
    }
    plot->yAxis->setRange(0.4, double(std::max<std::size_t>(steps.size(), 1)) + 0.6);
    for (std::size_t k = 0; k < steps.size(); ++k) {
        bool level = false;
        for (const Analysis* a : analyses)
            if (const WaterfallBar* b = findStep(*a, steps[k]))
                level = b->level;
        // A loss reads as one: "- Communication" under "Peak".
        ticker->addTick(double(k + 1),
                        level ? capitalized(steps[k]) : QString::fromUtf8("\u2212 ") + capitalized(steps[k]));
    }

    QCPBarsGroup* group = barsGroup(plot);
    const std::size_t n = analyses.size();
    for (std::size_t i = 0; i < n; ++i) {
        // Each loss hangs from what is left after the ones above it: an
        // invisible bar up to where it starts, the loss stacked on it.
        auto* offset = new QCPBars(plot->yAxis, plot->xAxis);
        offset->setObjectName("offset");
        offset->setProperty(kDesign, int(i));
        offset->setWidth(barWidth(n));
        offset->setPen(Qt::NoPen);
        offset->setBrush(Qt::NoBrush);
        offset->setSelectable(QCP::stNone);
        offset->removeFromLegend();
        offset->setBarsGroup(group);
        offset->setStackingGap(0);
        QCPBars* bars = designBars(plot->yAxis, plot->xAxis, group, i, n, labels.value(int(i)), "steps");
        bars->setStackingGap(0);
        bars->moveAbove(offset);
        bars->setProperty(kCategories, qKeys(steps));
        for (std::size_t k = 0; k < steps.size(); ++k) {
            const WaterfallBar* b = findStep(*analyses[i], steps[k]);
            if (!b)
                continue;
            offset->addData(double(k + 1), b->from * 100);
            bars->addData(double(k + 1), b->fraction * 100);
        }
    }
    designLegend(plot, labels);
    stylePlot(plot, plot->palette());
}

void drawComparePower(QCustomPlot* plot, const std::vector<const Analysis*>& analyses, const QStringList& labels)
{
    resetPlot(plot);
    const std::size_t n = analyses.size();
    // "Other" only when some design draws power outside the named categories.
    std::vector<const PowerPart*> parts;
    double most = 0, densest = 0, air = 0;
    bool racks = false;
    for (const PowerPart& p : kPowerParts) {
        bool any = std::string_view(p.key) != "other";
        for (const Analysis* a : analyses)
            any = any || a->power.*p.kw > 0;
        if (any)
            parts.push_back(&p);
    }
    for (const Analysis* a : analyses) {
        most = std::max(most, a->power.facilityKw);
        densest = std::max(densest, a->power.maxRackKw);
        air = std::max(air, a->power.airCoolingLimitKw.value);
        racks = racks || !a->power.racks.empty();
    }
    // MW once any design reaches a megawatt, so the axis reads 1.5, not 1,500.
    const bool mw = most >= 1000;
    const double scale = mw ? 1e-3 : 1;

    QCPAxisRect* split = plot->axisRect();
    plot->yAxis->setLabel(mw ? QObject::tr("Power (MW)") : QObject::tr("Power (kW)"));
    // Headroom for the values written up from the bars' tops.
    plot->yAxis->setRange(0, std::max(most * scale, 1e-9) * 1.45);
    auto ticker = setCategoryAxis(plot->xAxis);
    plot->xAxis->setRange(0.4, double(parts.size()) + 0.6);
    QStringList keys;
    for (std::size_t k = 0; k < parts.size(); ++k) {
        ticker->addTick(double(k + 1), twoLines(QObject::tr(parts[k]->name), 14));
        keys << parts[k]->key;
    }
    QCPBarsGroup* group = barsGroup(plot);
    for (std::size_t i = 0; i < n; ++i) {
        QCPBars* bars = designBars(plot->xAxis, plot->yAxis, group, i, n, labels.value(int(i)), "power");
        bars->setProperty(kCategories, keys);
        for (std::size_t k = 0; k < parts.size(); ++k) {
            const double kw = analyses[i]->power.*parts[k]->kw;
            bars->addData(double(k + 1), kw * scale);
            if (kw > 0)
                barLabel(plot, split, double(k + 1) + barOffset(i, n), kw * scale, power(kw));
        }
    }

    // The densest rack of each design beside the split, against the
    // air-cooling limit: its own axis, kW per rack against MW for the site.
    if (racks) {
        auto* rackRect = new QCPAxisRect(plot);
        QCPAxis* rx = rackRect->axis(QCPAxis::atBottom);
        QCPAxis* ry = rackRect->axis(QCPAxis::atLeft);
        rackRect->axis(QCPAxis::atTop)->setVisible(false);
        rackRect->axis(QCPAxis::atRight)->setVisible(false);
        plot->plotLayout()->take(split);
        plot->plotLayout()->simplify();
        auto* row = new QCPLayoutGrid;
        plot->plotLayout()->addElement(0, 0, row);
        row->addElement(0, 0, split);
        row->addElement(0, 1, rackRect);
        row->setColumnStretchFactors({3.2, 1});
        ry->setLabel(QObject::tr("Power per rack (kW)"));
        ry->setRange(0, std::max(densest, air) * 1.45);
        auto rackTicker = setCategoryAxis(rx);
        rx->setRange(0.4, 1.6);
        QCPBarsGroup* rackGroup = barsGroup(plot);
        for (std::size_t i = 0; i < n; ++i) {
            const Power& p = analyses[i]->power;
            QCPBars* bars = designBars(rx, ry, rackGroup, i, n, labels.value(int(i)), "rack");
            bars->removeFromLegend();
            if (p.racks.empty())
                continue;
            bars->addData(1, p.maxRackKw);
            barLabel(plot, rackRect, 1 + barOffset(i, n), p.maxRackKw, power(p.maxRackKw));
        }
        // The limit is named under the axis: a label beside the line would
        // sit on the bars' values in so narrow a rect.
        rackTicker->clear();
        rackTicker->addTick(1, QObject::tr("densest rack\n\u2013 \u2013 air limit %1").arg(power(air)));
        auto* line = new QCPItemStraightLine(plot);
        line->setObjectName("air-cooling limit");
        line->setClipAxisRect(rackRect);
        for (QCPItemPosition* pos : {line->point1, line->point2})
            pos->setAxes(rx, ry);
        line->point1->setCoords(0, air);
        line->point2->setCoords(1, air);
        line->setPen(QPen(textColor(plot), 1.5, Qt::DashLine));
    }
    designLegend(plot, labels);
    stylePlot(plot, plot->palette());
}

void drawCompareMtbf(QCustomPlot* plot, const std::vector<const Analysis*>& analyses, const QStringList& labels)
{
    resetPlot(plot);
    setLogLog(plot, QObject::tr("GPUs"), QObject::tr("Cluster MTBF (hours)"));
    double xLo = 1e18, xHi = 0, yLo = 1e18, yHi = 0;
    const QColor bg = plot->palette().color(QPalette::Base);
    for (std::size_t i = 0; i < analyses.size(); ++i) {
        const Analysis& a = *analyses[i];
        const Reliability& r = a.reliability;
        QVector<double> gpus, hours;
        for (const auto& [n, h] : r.mtbfCurve)
            if (n > 0 && h > 0) {
                gpus << n, hours << h;
                xLo = std::min(xLo, n), xHi = std::max(xHi, n);
                yLo = std::min(yLo, h), yHi = std::max(yHi, h);
            }
        QCPGraph* curve = plot->addGraph();
        curve->setObjectName("mtbf curve");
        curve->setName(labels.value(int(i)));
        curve->setProperty(kDesign, int(i));
        curve->setPen(designPen(int(i), 2));
        curve->setData(gpus, hours, true);

        if (a.inventory.gpus <= 0 || r.clusterMtbfH <= 0)
            continue;
        const double at = double(a.inventory.gpus);
        xLo = std::min(xLo, at), xHi = std::max(xHi, at);
        yLo = std::min(yLo, r.clusterMtbfH), yHi = std::max(yHi, r.clusterMtbfH);
        QCPGraph* point = plot->addGraph();
        point->setObjectName("design point");
        point->setProperty(kDesign, int(i));
        point->removeFromLegend();
        point->setLineStyle(QCPGraph::lsNone);
        point->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, QPen(bg, 1.5), designColor(int(i)), 11));
        point->setData({at}, {r.clusterMtbfH}, true);
        QCPItemText* t = text(plot, QString::fromStdString(formatDuration(r.clusterMtbfH)),
                              Qt::AlignLeft | Qt::AlignBottom, designColor(int(i)));
        t->setPadding(QMargins(7, 1, 2, 5));
        t->position->setCoords(at, r.clusterMtbfH);
        QFont bold = t->font();
        bold.setBold(true);
        t->setFont(bold);
    }
    if (xHi <= 0)
        xLo = 1, xHi = 10, yLo = 1, yHi = 10;
    plot->xAxis->setRange(decadeBelow(xLo), decadeAbove(xHi * 1.01));
    plot->yAxis->setRange(decadeBelow(yLo), decadeAbove(yHi * 1.01));
    designLegend(plot, labels, true);
    stylePlot(plot, plot->palette());
}

void drawCompareChart(QCustomPlot* plot, CompareChart chart, const std::vector<const Analysis*>& analyses,
                      const QStringList& labels)
{
    switch (chart) {
    case CompareChart::Roofline: drawCompareRoofline(plot, analyses, labels); return;
    case CompareChart::Hierarchy: drawCompareHierarchy(plot, analyses, labels); return;
    case CompareChart::Mfu: drawCompareMfu(plot, analyses, labels); return;
    case CompareChart::Power: drawComparePower(plot, analyses, labels); return;
    case CompareChart::Mtbf: drawCompareMtbf(plot, analyses, labels); return;
    }
}

void drawCompareChart(QCustomPlot* plot, CompareChart chart, const Comparison& comparison)
{
    std::vector<const Analysis*> analyses;
    QStringList labels;
    for (const auto& d : comparison.designs) {
        analyses.push_back(&d.analysis);
        labels << QString::fromStdString(d.label);
    }
    drawCompareChart(plot, chart, analyses, labels);
}

QString compareChartTip(QCustomPlot* plot, const std::vector<const Analysis*>& analyses, const QStringList& labels,
                        const QPointF& pixel)
{
    // The nearest data point within a few pixels; a marker beats the line
    // it sits on.
    constexpr double kReach = 8;
    double best = kReach;
    QCPAbstractPlottable* hit = nullptr;
    int index = -1;
    for (int i = 0; i < plot->plottableCount(); ++i) {
        QCPAbstractPlottable* p = plot->plottable(i);
        if (!p->visible() || p->objectName() == QLatin1String("offset") || !p->property(kDesign).isValid())
            continue;
        QVariant details;
        double d = p->selectTest(pixel, false, &details);
        if (auto* g = qobject_cast<QCPGraph*>(p); g && g->lineStyle() != QCPGraph::lsNone && d >= 0)
            d += 4;
        const QCPDataSelection sel = details.value<QCPDataSelection>();
        if (d < 0 || d > best || sel.isEmpty())
            continue;
        best = d;
        hit = p;
        index = sel.dataRange().begin();
    }
    if (!hit)
        return {};
    const int design = hit->property(kDesign).toInt();
    if (design < 0 || std::size_t(design) >= analyses.size())
        return {};
    const Analysis& a = *analyses[std::size_t(design)];
    const QString who = labels.value(design);
    const auto explained = explainMetrics(a);
    auto tip = [&](const QString& title, const QString& value, const std::string& key) {
        return explainHtml(who + ": " + title, value, findExplanation(explained, key));
    };
    QString category;
    if (auto* bars = qobject_cast<QCPBars*>(hit)) {
        const QStringList keys = bars->property(kCategories).toStringList();
        category = keys.value(int(categoryOf(bars, index)));
    }
    const QString what = hit->objectName();
    if (what == QLatin1String("roof") || what == QLatin1String("ridge")) {
        const Roofline& rf = a.roofline;
        return tip(QObject::tr("roofline of %1").arg(QString::fromStdString(a.hardware.gpu.name)),
                   QObject::tr("peak %1, HBM %2, ridge at %3")
                       .arg(quantity(rf.peakTflops, "TFLOP/s"), quantity(rf.hbm.gbPerS, "GB/s"),
                            quantity(rf.ridgeFlopPerByte, "FLOP/byte")),
                   "compute.ridge_flop_per_byte");
    }
    if (what == QLatin1String("tiers")) {
        const Tier* t = a.hierarchy.tier(category.toStdString());
        if (!t)
            return {};
        return tip(QString::fromStdString(t->name), quantity(t->gbPerSPerGpu, "GB/s per GPU"), "hierarchy." + t->key);
    }
    if (what == QLatin1String("steps")) {
        const WaterfallBar* b = findStep(a, category.toStdString());
        if (!b)
            return {};
        return tip(capitalized(b->name),
                   (b->level ? QString() : QString::fromUtf8("\u2212")) + percent(b->fraction) +
                       QObject::tr(" of peak"),
                   "training.waterfall." + std::string(b->name));
    }
    if (what == QLatin1String("power")) {
        const PowerPart* part = findPowerPart(category);
        if (!part)
            return {};
        const bool facility = category == QLatin1String("facility") || category == QLatin1String("overhead");
        return tip(QObject::tr(part->name), power(a.power.*part->kw), facility ? "power.facility_kw" : "power.it_kw");
    }
    if (what == QLatin1String("rack")) {
        if (a.power.racks.empty())
            return {};
        const RackLoad& r = a.power.racks[a.power.maxRack];
        return tip(QObject::tr("densest rack, %1").arg(QString::fromStdString(r.name)),
                   QObject::tr("%1 (limit %2)").arg(power(r.kwEach), power(r.limitKw)), "power.max_rack_kw");
    }
    if (what == QLatin1String("design point"))
        return tip(
            QObject::tr("cluster MTBF at %1 GPUs").arg(QString::fromStdString(formatCount(a.inventory.gpus))),
            QObject::tr("a failure every %1").arg(QString::fromStdString(formatDuration(a.reliability.clusterMtbfH))),
            "reliability.cluster_mtbf_h");
    if (what == QLatin1String("mtbf curve")) {
        auto* g = static_cast<QCPGraph*>(hit);
        if (index < 0 || index >= g->dataCount())
            return {};
        const double gpus = g->data()->at(index)->key, hours = g->data()->at(index)->value;
        return QObject::tr("<p style='white-space:pre'><b>%1: %2 GPUs</b>: a failure every %3</p><p><small>This "
                           "design's mix of GPUs, nodes and NICs per GPU, scaled; MTBF = 1 / sum of devices / "
                           "MTTF.</small></p>")
            .arg(who.toHtmlEscaped(), QString::fromStdString(formatCount(std::llround(gpus))),
                 QString::fromStdString(formatDuration(hours)));
    }
    return {};
}

} // namespace studio
