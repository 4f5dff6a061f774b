#include "widgets/scale/scale_charts.h"

#include <QFontMetrics>
#include <QHBoxLayout>
#include <QMouseEvent>
#include <QToolTip>

#include <algorithm>
#include <cmath>

#include "core/scale/sweep_report.h"
#include "core/text.h"
#include "widgets/charts/chart_plot.h"
#include "widgets/charts/chart_style.h"
#include "widgets/common/qt_string.h"

namespace studio {
namespace {

QCPGraph* lineGraph(QCustomPlot* plot, const QString& name, const QPen& pen, QCPScatterStyle::ScatterShape shape,
                    QCPAxis* valueAxis = nullptr)
{
    QCPGraph* g = plot->addGraph(plot->xAxis, valueAxis ? valueAxis : plot->yAxis);
    g->setName(name);
    g->setPen(pen);
    g->setScatterStyle(QCPScatterStyle(shape, pen.color(), shape == QCPScatterStyle::ssDisc ? pen.color() : Qt::white,
                                       shape == QCPScatterStyle::ssNone ? 0 : 6));
    return g;
}

QPen pen(const QColor& color, double width, Qt::PenStyle style = Qt::SolidLine)
{
    QPen p(color, width);
    p.setStyle(style);
    return p;
}

// A dashed vertical line at `gpus` with a label near the top of the axes,
// `row` lines down: markers a few sizes apart keep their labels on rows of
// their own however short the plot (a share of its height let them run
// into each other in a short dock).
void marker(QCustomPlot* plot, double gpus, const QString& text, const QColor& color, int row)
{
    auto* line = new QCPItemStraightLine(plot);
    line->point1->setTypeY(QCPItemPosition::ptAxisRectRatio);
    line->point2->setTypeY(QCPItemPosition::ptAxisRectRatio);
    line->point1->setCoords(gpus, 0);
    line->point2->setCoords(gpus, 1);
    line->setPen(pen(color, 1, Qt::DashLine));
    auto* label = new QCPItemText(plot);
    label->position->setParentAnchor(line->point1);  // the line's top, in pixels from there
    label->position->setCoords(0, 2 + row * QFontMetrics(label->font()).height());
    // Right of the line, or left of it near the axis's end (log position).
    const QCPRange r = plot->xAxis->range();
    const bool nearEnd = std::log(gpus / r.lower) / std::log(r.upper / r.lower) > 0.8;
    label->setPositionAlignment(Qt::AlignTop | (nearEnd ? Qt::AlignRight : Qt::AlignLeft));
    label->setPadding(nearEnd ? QMargins(0, 0, 3, 0) : QMargins(3, 0, 0, 0));
    label->setColor(color);
    // Goodput runs along the top of the right-hand plot, through the labels.
    label->setBrush(labelHalo(plot->palette()));
    label->setText(text);
}

QString percent(double fraction)
{
    return q(formatReadable(100 * fraction)) + "%";
}

}  // namespace

ScaleCharts::ScaleCharts(QWidget* parent) : QWidget(parent)
{
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    // Side by side in a plain layout (not a splitter): a report lays the
    // widget out without showing it, which a splitter does not follow.
    throughput_ = new ChartPlot(this);
    figures_ = new ChartPlot(this);
    for (ChartPlot* p : {throughput_, figures_}) {
        p->setMinimumWidth(280);
        setLogAxis(p->xAxis);
        p->xAxis->setLabel(tr("GPUs"));
        p->setMouseTracking(true);
        connect(p, &QCustomPlot::mouseMove, this, [this, p](QMouseEvent* e) { showTip(e, p); });
    }
    setLogAxis(throughput_->yAxis);
    throughput_->yAxis->setLabel(tr("tokens/s"));
    const QColor muted = palette().color(QPalette::PlaceholderText);
    ideal_ = lineGraph(throughput_, tr("ideal linear"), pen(muted, 1.2), QCPScatterStyle::ssNone);
    amdahl_ = lineGraph(throughput_, tr("Amdahl"), pen(seriesColor(2), 1.4, Qt::DotLine), QCPScatterStyle::ssNone);
    gustafson_ =
        lineGraph(throughput_, tr("Gustafson"), pen(seriesColor(3), 1.4, Qt::DashDotLine), QCPScatterStyle::ssNone);
    user_ = lineGraph(throughput_, tr("the workload's layout"), pen(designColor(1), 1.6, Qt::DashLine),
                      QCPScatterStyle::ssCircle);
    best_ = lineGraph(throughput_, tr("best layout"), pen(designColor(0), 2.2), QCPScatterStyle::ssDisc);
    design_ = lineGraph(throughput_, tr("this design"), pen(designColor(2), 2.5), QCPScatterStyle::ssStar);
    design_->setLineStyle(QCPGraph::lsNone);
    design_->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssStar, pen(designColor(2), 2.5), Qt::NoBrush, 16));
    legendOutside(throughput_, 3);

    figures_->yAxis->setLabel(tr("MFU, goodput (%)"));
    figures_->yAxis->setRange(0, 100);
    figures_->yAxis2->setVisible(true);
    setLogAxis(figures_->yAxis2);
    figures_->yAxis2->setLabel(tr("days to train (wall clock)"));
    mfu_ = lineGraph(figures_, tr("MFU"), pen(designColor(0), 2), QCPScatterStyle::ssDisc);
    goodput_ = lineGraph(figures_, tr("goodput"), pen(seriesColor(4), 2), QCPScatterStyle::ssDiamond);
    days_ = lineGraph(figures_, tr("wall days"), pen(seriesColor(5), 2, Qt::DashLine), QCPScatterStyle::ssSquare,
                      figures_->yAxis2);
    legendOutside(figures_, 3);
    layout->addWidget(throughput_, 1);
    layout->addWidget(figures_, 1);
}

void ScaleCharts::changeEvent(QEvent* event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::PaletteChange && shown_)
        plot(*shown_);
}

void ScaleCharts::draw(const SweepResult* r)
{
    if (r && r->error.empty()) {
        shown_ = *r;
        plot(*shown_);
        return;
    }
    shown_.reset();
    for (ChartPlot* p : {throughput_, figures_}) {
        for (int i = 0; i < p->graphCount(); ++i)
            p->graph(i)->data()->clear();
        p->clearItems();
        stylePlot(p, palette());
        p->replot();
    }
}

void ScaleCharts::plot(const SweepResult& r)
{
    QVector<double> gx, best, ux, user, ideal, amdahl, gustafson, mfu, goodput, days;
    double lo = INFINITY, hi = 0;
    for (const auto& p : r.points) {
        const double x = double(p.gpus);
        gx.push_back(x);
        ideal.push_back(idealTokensPerS(r, p.gpus));
        if (r.amdahlSerialFraction) {
            amdahl.push_back(amdahlTokensPerS(r, p.gpus));
            gustafson.push_back(gustafsonTokensPerS(r, p.gpus));
        }
        best.push_back(p.best ? p.best->tokensPerS : qQNaN());
        mfu.push_back(p.best ? 100 * p.best->mfu : qQNaN());
        goodput.push_back(p.best ? 100 * p.best->goodput : qQNaN());
        days.push_back(p.best && p.best->goodput > 0 ? p.best->wallDays : qQNaN());
        if (p.user) {
            ux.push_back(x);
            user.push_back(p.user->tokensPerS);
        }
        for (const auto* f : {p.best ? &*p.best : nullptr, p.user ? &*p.user : nullptr})
            if (f) {
                lo = std::min(lo, f->tokensPerS);
                hi = std::max(hi, f->tokensPerS);
            }
        hi = std::max(hi, ideal.back());
    }
    best_->setData(gx, best, true);
    ideal_->setData(gx, ideal, true);
    amdahl_->setData(r.amdahlSerialFraction ? gx : QVector<double>(), amdahl, true);
    gustafson_->setData(r.amdahlSerialFraction ? gx : QVector<double>(), gustafson, true);
    user_->setData(ux, user, true);
    design_->data()->clear();
    if (const SweepPoint* d = r.designPoint(); d && d->user)
        design_->addData(double(d->gpus), d->user->tokensPerS);
    mfu_->setData(gx, mfu, true);
    goodput_->setData(gx, goodput, true);
    days_->setData(gx, days, true);

    const double x0 = gx.isEmpty() ? 1 : gx.front() / 1.3, x1 = gx.isEmpty() ? 2 : gx.back() * 1.3;
    for (ChartPlot* p : {throughput_, figures_}) {
        p->clearItems();
        p->xAxis->setRange(x0, x1);
    }
    if (std::isfinite(lo) && hi > 0)
        throughput_->yAxis->setRange(decadeBelow(lo), decadeAbove(hi));
    double dMin = INFINITY, dMax = 0;
    for (double d : days)
        if (std::isfinite(d)) {
            dMin = std::min(dMin, d);
            dMax = std::max(dMax, d);
        }
    if (dMax > 0)
        figures_->yAxis2->setRange(decadeBelow(dMin), decadeAbove(dMax));

    // Where the fabric adds a tier and where the batch runs out of
    // sequences, on both plots; the design's size.
    const QColor note = palette().color(QPalette::PlaceholderText);
    // A label row per kind of marker the sweep has, in this order.
    enum Kind { Tier, BelowOne, Design, OverSite, Cheapest, Kinds };
    const auto cheapest = [&](const SweepPoint& p) {
        return p.gpus == r.cheapestGpus && p.best && p.best->ownedRunCostUsd;
    };
    bool has[Kinds] = {};
    for (const auto& p : r.points) {
        has[Tier] = has[Tier] || p.tierAdded;
        has[BelowOne] = has[BelowOne] || p.belowOneSequence;
        has[Design] = has[Design] || p.isDesign;
        has[OverSite] = has[OverSite] || p.overSiteBudget;
        has[Cheapest] = has[Cheapest] || cheapest(p);
    }
    const auto row = [&](Kind k) { return int(std::count(has, has + k, true)); };
    bool below = false, over = false;
    for (const auto& p : r.points) {
        for (ChartPlot* plot : {throughput_, figures_}) {
            if (p.tierAdded)
                marker(plot, double(p.gpus), tr("+ tier (%1)").arg(p.fabricTiers), note, row(Tier));
            if (p.belowOneSequence && !below)
                marker(plot, double(p.gpus), tr("< 1 sequence/GPU"), note, row(BelowOne));
            if (p.isDesign)
                marker(plot, double(p.gpus), tr("this design"), designColor(2), row(Design));
            if (cheapest(p))
                marker(plot, double(p.gpus),
                       tr("cheapest run %1%2")
                           .arg(q(formatUsd(*p.best->ownedRunCostUsd)), p.best->costComplete ? "" : "+"),
                       designColor(3), row(Cheapest));
            if (p.overSiteBudget && !over)
                marker(plot, double(p.gpus), tr("> site's %1").arg(q(formatPowerKw(*r.siteMw * 1000))),
                       QColor(0xd6, 0x27, 0x28), row(OverSite));
        }
        below = p.belowOneSequence;
        over = p.overSiteBudget;
    }
    for (ChartPlot* p : {throughput_, figures_}) {
        stylePlot(p, palette());
        p->replot();
    }
}

void ScaleCharts::showTip(QMouseEvent* event, ChartPlot* plot)
{
    if (!shown_ || shown_->points.empty())
        return;
    const SweepResult* r = &*shown_;
    // The size nearest the pointer along the GPU axis.
    const SweepPoint* nearest = nullptr;
    double best = 24;
    for (const auto& p : r->points) {
        const double dx = std::abs(plot->xAxis->coordToPixel(double(p.gpus)) - event->position().x());
        if (dx < best) {
            best = dx;
            nearest = &p;
        }
    }
    if (!nearest) {
        QToolTip::hideText();
        return;
    }
    const SweepPoint& p = *nearest;
    QString tip =
        tr("%1 GPUs%2, global batch %3")
            .arg(q(formatCount(p.gpus)), p.isDesign ? tr(" (this design)") : "", q(formatCount(p.globalBatch)));
    if (!p.best) {
        tip += "\n" + q(p.whyNoBest);
    } else {
        const ScaleFigures& f = *p.best;
        tip += tr("\nbest layout: %1\ntokens/s %2 (%3 of ideal %4)\nMFU %5, step %6 s\ndays %7 compute, %8 wall clock"
                  "\ncluster MTBF %9, goodput %10")
                   .arg(q(describeLayout(f.layout)), q(formatReadable(f.tokensPerS)),
                        percent(f.tokensPerS / idealTokensPerS(*r, p.gpus)),
                        q(formatReadable(idealTokensPerS(*r, p.gpus))), percent(f.mfu), q(formatReadable(f.stepS, 4)),
                        q(formatReadable(f.daysToTrain)), f.goodput > 0 ? q(formatReadable(f.wallDays)) : tr("never"),
                        q(formatDuration(f.clusterMtbfH)), percent(f.goodput));
        if (f.ownedRunCostUsd)
            tip += tr("\ncost of the run %1%2 (ownership for its hours and its energy%3)")
                       .arg(q(formatUsd(*f.ownedRunCostUsd)), f.costComplete ? "" : "+",
                            f.costComplete ? "" : tr("; parts without a price left out"));
        for (const std::string& n : {spareGpusNote(p), slowerThanNote(p)})
            if (!n.empty())
                tip += "\n" + q(n);
        tip += tr("\nrho (comm / compute): DP %1, TP %2, PP %3, CP %4, EP %5")
                   .arg(q(formatReadable(f.rho.dp)), q(formatReadable(f.rho.tp)), q(formatReadable(f.rho.pp)),
                        q(formatReadable(f.rho.cp)), q(formatReadable(f.rho.ep)));
        tip += tr("\nfacility %1, run %2 MWh, electricity $%3")
                   .arg(q(formatPowerKw(f.facilityKw)), q(formatReadable(f.trainingRunMwh)),
                        q(formatReadable(f.runCostUsd)));
    }
    tip += p.user ? tr("\nthe workload's layout: %1 tokens/s").arg(q(formatReadable(p.user->tokensPerS)))
                  : tr("\nthe workload's layout: %1").arg(q(p.whyNoUser));
    if (p.tierAdded)
        tip += tr("\nthe fabric adds a tier here (%1)").arg(p.fabricTiers);
    if (p.overSiteBudget)
        tip += tr("\nfacility %1, over the site's %2")
                   .arg(q(formatPowerKw(p.facilityKw)), q(formatPowerKw(*r->siteMw * 1000)));
    tip += tr("\n\nideal = tokens/s at %1 GPUs (the most productive per GPU) x N / %1; Amdahl = that x 1 / (e + "
              "(1 - e) / n), Gustafson = that x (n - e (n - 1)), n = N / %1, e = Karp-Flatt's serial fraction; rho = "
              "an axis's communication per step / one GPU's compute per step (seed 002, eq. 5); every figure is "
              "analyzeDesign's at that size with that layout (docs/model.md, section 16)")
               .arg(q(formatCount(r->baseGpus)));
    QToolTip::showText(event->globalPosition().toPoint(), tip, plot);
}

}  // namespace studio
