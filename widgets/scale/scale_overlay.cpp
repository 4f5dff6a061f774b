#include "widgets/scale/scale_overlay.h"

#include <QHBoxLayout>
#include <QMouseEvent>
#include <QToolTip>

#include <cmath>

#include "core/scale/sweep_report.h"
#include "core/text.h"
#include "widgets/charts/chart_plot.h"
#include "widgets/charts/chart_style.h"
#include "widgets/common/qt_string.h"

namespace studio {
namespace {

// A sweep point's figure drawn on a plot; NaN where the best layout has none.
using PointValue = double (*)(const ScaleFigures&);

double tokensOf(const ScaleFigures& f)
{
    return f.tokensPerS;
}

double wallDaysOf(const ScaleFigures& f)
{
    return f.goodput > 0 ? f.wallDays : NAN;
}

// The smallest and largest positive value drawn (a log axis's range).
struct Span {
    double lower = INFINITY, upper = 0;
    void widen(double v)
    {
        if (std::isfinite(v) && v > 0) {
            lower = std::min(lower, v);
            upper = std::max(upper, v);
        }
    }
};

}  // namespace

QString scaleOverlaySummary(const std::vector<LabelledSweep>& sweeps)
{
    QStringList lines;
    for (std::size_t i = 0; i < sweeps.size(); ++i) {
        const LabelledSweep& s = sweeps[i];
        const QString what = s.sweep.error.empty() ? q(s.sweep.stopsPaying) : q(s.sweep.error);
        lines << QString("<span style=\"color:%1\">&#9632;</span> <b>%2</b>: %3")
                     .arg(designColor(int(i)).name(), s.label.toHtmlEscaped(), what.toHtmlEscaped());
    }
    return lines.join("<br>");
}

ScaleOverlay::ScaleOverlay(QWidget* parent) : QWidget(parent)
{
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    throughput_ = new ChartPlot(this);
    days_ = new ChartPlot(this);
    for (ChartPlot* p : {throughput_, days_}) {
        p->setMinimumWidth(320);
        setLogLog(p, tr("GPUs"), p == throughput_ ? tr("tokens/s (best layout)") : tr("days to train (wall clock)"));
        p->setMouseTracking(true);
        connect(p, &QCustomPlot::mouseMove, this, [this, p](QMouseEvent* e) { showTip(e, p); });
        layout->addWidget(p, 1);
    }
}

void ScaleOverlay::changeEvent(QEvent* event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::PaletteChange)
        plot();
}

void ScaleOverlay::draw(std::vector<LabelledSweep> sweeps)
{
    shown_ = std::move(sweeps);
    plot();
}

void ScaleOverlay::plot()
{
    const std::pair<ChartPlot*, PointValue> plots[] = {{throughput_, &tokensOf}, {days_, &wallDaysOf}};
    for (const auto& [p, figure] : plots) {
        p->clearGraphs();
        p->clearItems();
        Span x, y;
        for (std::size_t i = 0; i < shown_.size(); ++i) {
            const SweepResult& r = shown_[i].sweep;
            if (!r.error.empty())
                continue;
            QVector<double> gx, gy;
            QCPGraph* line = p->addGraph();
            line->setName(shown_[i].label);
            line->setPen(designPen(int(i), 2.2));
            line->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, designColor(int(i)), 5));
            QCPGraph* star = p->addGraph();
            star->setLineStyle(QCPGraph::lsNone);
            star->setScatterStyle(
                QCPScatterStyle(QCPScatterStyle::ssStar, QPen(designColor(int(i)), 2.5), Qt::NoBrush, 16));
            star->removeFromLegend();
            for (const SweepPoint& pt : r.points) {
                const double v = pt.best ? figure(*pt.best) : NAN;
                gx.push_back(double(pt.gpus));
                gy.push_back(v);
                x.widen(double(pt.gpus));
                y.widen(v);
                if (pt.isDesign && std::isfinite(v))
                    star->addData(double(pt.gpus), v);
            }
            line->setData(gx, gy, true);
        }
        if (x.upper > 0) {
            p->xAxis->setRange(x.lower / 1.3, x.upper * 1.3);
            p->yAxis->setRange(decadeBelow(y.lower), decadeAbove(y.upper));
        }
        legendOutside(p, 2);
        stylePlot(p, palette());
        p->replot();
    }
}

void ScaleOverlay::showTip(QMouseEvent* event, ChartPlot* plot)
{
    const PointValue figure = plot == throughput_ ? &tokensOf : &wallDaysOf;
    // The point nearest the pointer, of any design, within a few pixels.
    const LabelledSweep* design = nullptr;
    const SweepPoint* nearest = nullptr;
    double best = 18 * 18;
    for (const LabelledSweep& s : shown_)
        for (const SweepPoint& p : s.sweep.points) {
            if (!p.best || !std::isfinite(figure(*p.best)))
                continue;
            const double dx = plot->xAxis->coordToPixel(double(p.gpus)) - event->position().x();
            const double dy = plot->yAxis->coordToPixel(figure(*p.best)) - event->position().y();
            if (dx * dx + dy * dy < best) {
                best = dx * dx + dy * dy;
                design = &s;
                nearest = &p;
            }
        }
    if (!nearest) {
        QToolTip::hideText();
        return;
    }
    const ScaleFigures& f = *nearest->best;
    std::string notes = spareGpusNote(*nearest);
    if (const std::string slower = slowerThanNote(*nearest); !slower.empty())
        notes += (notes.empty() ? "" : "; ") + slower;
    const QString tip =
        tr("%1 at %2 GPUs%3\nbest layout: %4\ntokens/s %5, MFU %6, step %7 s\ndays %8 compute, %9 wall clock "
           "(goodput %10)\nfacility %11, run %12 MWh\n\nThe design resized along its %13 (docs/model.md, section 16).")
            .arg(design->label, q(formatCount(nearest->gpus)), nearest->isDesign ? tr(" (its own size)") : "",
                 q(describeLayout(f.layout) + (notes.empty() ? "" : " (" + notes + ")")),
                 q(formatReadable(f.tokensPerS)), q(formatReadable(100 * f.mfu)) + "%", q(formatReadable(f.stepS, 4)),
                 q(formatReadable(f.daysToTrain)), f.goodput > 0 ? q(formatReadable(f.wallDays)) : tr("never"))
            .arg(q(formatReadable(100 * f.goodput)) + "%", q(formatPowerKw(f.facilityKw)),
                 q(formatReadable(f.trainingRunMwh)), q(inQuotes(design->sweep.growthUnit)));
    QToolTip::showText(event->globalPosition().toPoint(), tip, plot);
}

ScaleCompareTab::ScaleCompareTab(QWidget* parent)
    : CompareRunTab(tr("Strong scaling: each design resized along its growth unit with the workload it runs in this "
                       "comparison (see above) and its global batch, at the best layout for each size."),
                    parent),
      overlay_(new ScaleOverlay(this))
{
    setBody(overlay_);
}

QString ScaleCompareTab::runningText(std::size_t designs) const
{
    return tr("Sweeping %1 designs from their smallest runnable size to %2 GPUs...")
        .arg(designs)
        .arg(q(formatCount(kSweepMaxGpus)));
}

BackgroundJob::Task ScaleCompareTab::task(std::vector<ComparedRun> designs)
{
    return [this, designs = std::move(designs)](const BackgroundJob::Context& context) -> BackgroundJob::Publish {
        auto sweeps = std::make_shared<std::vector<LabelledSweep>>();
        const double n = double(designs.size());
        for (std::size_t i = 0; i < designs.size(); ++i) {
            SweepOptions options;
            options.cancel = context.cancel;
            options.progress = [&context, i, n](double done) { context.progress((double(i) + done) / n); };
            SweepResult r = sweepScale(designs[i].design, *designs[i].catalog, options);
            if (r.cancelled)
                return {};
            sweeps->push_back({designs[i].label, std::move(r)});
        }
        return [this, sweeps] {
            landed(scaleOverlaySummary(*sweeps));
            overlay_->draw(std::move(*sweeps));
        };
    };
}

}  // namespace studio
