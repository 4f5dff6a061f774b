#include "widgets/charts/roofline_chart.h"

#include <QGridLayout>

#include <algorithm>
#include <cmath>
#include <optional>
#include <tuple>

#include <qcustomplot.h>

#include "core/analysis/fleet_formulas.h"
#include "core/model/analysis.h"
#include "core/text.h"
#include "widgets/charts/chart_style.h"
#include "widgets/charts/chart_text.h"
#include "widgets/charts/chart_view.h"
#include "widgets/charts/explain_html.h"
#include "widgets/common/qt_string.h"

namespace studio {
namespace {

// Attainable TFLOP/s of a slope at an intensity (the core's formula).
double onSlope(double intensity, double gbPerS, double peakTflops)
{
    return fleet::attainableFlopsPerS(intensity, peakTflops * 1e12, gbPerS * 1e9) / 1e12;
}

QString precisionName(const std::string& p)
{
    QString s = q(p).toUpper();
    return s.replace("_TENSOR", " tensor");
}

struct Marker {
    const char* kind;
    const char* label;
    QCPScatterStyle::ScatterShape shape;
};
constexpr Marker kMarkers[] = {{"gemm", "GEMM", QCPScatterStyle::ssDisc},
                               {"attention", "attention", QCPScatterStyle::ssDiamond},
                               {"memory", "memory-bound", QCPScatterStyle::ssSquare},
                               {"optimizer", "optimizer", QCPScatterStyle::ssTriangle},
                               {"decode", "decode (inference)", QCPScatterStyle::ssCrossCircle}};

std::string slopeKey(const Slope& s)
{
    return s.key == "nic" ? "hierarchy.leaf" : "hierarchy." + s.key;
}

bool hasRoof(const Roofline& rf)
{
    return rf.peakTflops > 0 && rf.hbm.gbPerS > 0;
}

}  // namespace

void RooflineChart::setUp(ChartView& view)
{
    view_ = &view;
    plot_ = view.addPlot("roofline");
    setLogLog(plot_, QObject::tr("Arithmetic intensity (FLOP/byte)"), QObject::tr("Throughput per GPU (TFLOP/s)"));
    // The legend in a row above the plot: inside, it would cover the slopes
    // or the ridge at some size.
    legendOutside(plot_, 5, true);
    for (const Marker& m : kMarkers) {
        QCPGraph* g = plot_->addGraph();
        g->setName(QObject::tr(m.label));
        g->setLineStyle(QCPGraph::lsNone);
        g->setObjectName(QString("ops ") + m.kind);
        ops_[m.kind] = g;
        const std::string kind = m.kind;
        view.setTip(g, [this, kind](int i) {
            const auto& designs = view_->designs();
            const auto& idx = opIndex_[kind];
            if (designs.empty() || i < 0 || i >= int(idx.size()))
                return QString();
            const Analysis& a = *designs.front().analysis;
            const int at = idx[std::size_t(i)];
            const RooflinePoint& p = a.roofline.points[std::size_t(at)];
            const bool decode = p.kind == "decode";
            QString html = "<p style='white-space:pre'><b>" + q(p.name).toHtmlEscaped() + "</b> (" +
                (decode ? QObject::tr("one decode step on one GPU")
                        : q(p.kind) + QObject::tr(", forward, one micro-batch")) +
                ")</p><table>";
            auto row = [&html](const QString& k, const QString& v) {
                html += "<tr><td>" + k + "</td><td align='right'><b>" + v + "</b></td></tr>";
            };
            row(QObject::tr("intensity"), quantity(p.intensity, "FLOP/byte"));
            row(QObject::tr("attainable, min(peak, I x HBM)"), quantity(p.attainableTflops, "TFLOP/s"));
            row(QObject::tr("achieved in the model"), quantity(p.achievedTflops, "TFLOP/s"));
            row(QObject::tr("bound"), q(p.bound));
            if (std::size_t(at) < a.step.ops.size()) {
                const OpPoint& op = a.step.ops[std::size_t(at)];
                row(QObject::tr("FLOPs"), quantity(op.flops, "FLOP"));
                row(QObject::tr("bytes moved"), quantity(op.bytes, "B"));
                row(QObject::tr("time"), quantity(op.seconds * 1e6, "us"));
            }
            return html + "</table><p><small>" +
                (decode ? QObject::tr("Intensity = the step's FLOPs / the weights and KV cache it reads; achieved = "
                                      "FLOPs / time per output token, or the roof for a training design's bound "
                                      "(docs/model.md section 19).")
                        : QObject::tr("Achieved = FLOPs / modelled time: the roofline bound times the size-dependent "
                                      "kernel efficiency (docs/model.md).")) +
                "</small></p>";
        });
    }
    ridge_ = plot_->addGraph();
    ridge_->setObjectName("ridge");
    ridge_->setLineStyle(QCPGraph::lsNone);
    ridge_->removeFromLegend();
    view.setTip(ridge_, [this](int) {
        const auto& designs = view_->designs();
        return designs.empty() ? QString()
                               : view_->tip(0, QObject::tr("Ridge point"),
                                            quantity(designs.front().analysis->roofline.ridgeFlopPerByte, "FLOP/byte"),
                                            "compute.ridge_flop_per_byte");
    });
    ridgeLabel_ = new ChartText(plot_);
    ridgeLabel_->setObjectName("ridge label");
    ridgeLabel_->position->setType(QCPItemPosition::ptPlotCoords);
    // Above the roof, left of the knee: the one corner no line or point uses.
    ridgeLabel_->setPositionAlignment(Qt::AlignRight | Qt::AlignBottom);
    ridgeLabel_->setPadding(QMargins(2, 2, 10, 8));
    ridgeLabel_->setClipToAxisRect(false);
    QObject::connect(plot_, &QCustomPlot::afterLayout, plot_, [this] { placeLabels(); });
    view.grid()->addWidget(plot_, 0, 0);
    view.grid()->setColumnStretch(0, 4);
    if (FigureTable* table = view.figureTable()) {
        view.grid()->addWidget(table, 0, 1);
        view.grid()->setColumnStretch(1, 1);
        table->setMinimumWidth(270);
        table->setMaximumWidth(360);
    }
}

QCPGraph* RooflineChart::line(std::vector<QCPGraph*>& pool, std::size_t i)
{
    while (pool.size() <= i) {
        QCPGraph* g = plot_->addGraph();
        g->removeFromLegend();
        pool.push_back(g);
    }
    pool[i]->setVisible(true);
    return pool[i];
}

void RooflineChart::draw(ChartView& view, const std::vector<ChartDesign>& designs)
{
    overlay_.clear(plot_);
    if (designs.size() == 1) {
        showOne(true);
        drawOne(view, *designs.front().analysis);
    } else {
        showOne(false);
        drawOverlay(view, designs);
    }
}

void RooflineChart::showOne(bool shown)
{
    one_ = shown;
    if (shown)
        return;  // drawOne shows what it uses
    for (auto* pool : {&ceilings_, &slopes_})
        for (QCPGraph* g : *pool)
            g->setVisible(false);
    for (auto& [kind, g] : ops_) {
        g->setVisible(false);
        g->removeFromLegend();
    }
    ridge_->setVisible(false);
    ridgeLabel_->setVisible(false);
    for (auto* pool : {&ceilingLabels_, &slopeLabels_, &opLabels_})
        ChartView::hideFrom(*pool, 0);
}

void RooflineChart::drawOne(ChartView& view, const Analysis& a)
{
    const Roofline& rf = a.roofline;
    const std::string& training = a.hardware.gpu.trainingPrecision;
    // Ranges: every ridge and point in view, whole decades.
    double lo = 0.5, hi = rf.ridgeFlopPerByte * 10, top = rf.peakTflops, bottom = rf.peakTflops / 1e3;
    for (const auto& c : rf.ceilings)
        top = std::max(top, c.tflops);
    for (const auto& s : rf.fleet)
        hi = std::max(hi, s.ridgeFlopPerByte * 3);
    for (const auto& p : rf.points) {
        if (p.intensity > 0)
            lo = std::min(lo, p.intensity / 3), hi = std::max(hi, p.intensity * 3);
        if (p.achievedTflops > 0)
            bottom = std::min(bottom, p.achievedTflops / 3);
    }
    xMin_ = decadeBelow(lo);
    xMax_ = decadeAbove(hi);
    plot_->xAxis->setRange(xMin_, xMax_);
    plot_->yAxis->setRange(decadeBelow(std::max(bottom, top / 1e6)), decadeAbove(top * 2));

    // Ceilings: one line per distinct peak, from its ridge against HBM to the
    // right edge; the training precision's drawn bold.
    struct Level {
        double tflops, ridge;
        QStringList names;
        bool training;
        std::vector<const Sourced*> sources;
    };
    std::vector<Level> levels;
    for (const auto& c : rf.ceilings) {
        auto it = std::find_if(levels.begin(), levels.end(), [&](const Level& l) { return l.tflops == c.tflops; });
        if (it == levels.end())
            it = levels.insert(levels.end(), Level{c.tflops, c.ridgeFlopPerByte, {}, false, {}});
        it->names << precisionName(c.precision);
        it->training = it->training || c.precision == training;
        const auto peak = a.hardware.gpu.peaksTflops.find(c.precision);
        if (peak != a.hardware.gpu.peaksTflops.end())
            it->sources.push_back(&peak->second);
    }
    const QColor fg = view.textColor(), muted = view.textColor(true);
    const QColor roof = seriesColor(0);
    for (std::size_t i = 0; i < levels.size(); ++i) {
        const Level& l = levels[i];
        QCPGraph* g = line(ceilings_, i);
        g->setObjectName("ceiling " + l.names.join('/'));
        g->setData({l.ridge, xMax_}, {l.tflops, l.tflops}, true);
        g->setPen(l.training ? QPen(roof, 2.5) : QPen(muted, 1.2, Qt::DashLine));
        QCPItemText* t = view.label(plot_, ceilingLabels_, i);
        t->setObjectName("ceiling label " + l.names.join('/'));
        t->position->setType(QCPItemPosition::ptPlotCoords);
        t->position->setCoords(xMax_, l.tflops);
        t->setPositionAlignment(Qt::AlignRight | Qt::AlignBottom);
        t->setClipToAxisRect(true);
        // The unit on the training precision's roof only: the others are
        // short enough to sit side by side where their peaks are close.
        t->setText(l.names.join(" / ") + "  " + readable(l.tflops) + (l.training ? " TFLOP/s" : ""));
        t->setColor(l.training ? fg : muted);
        const QString names = l.names.join(" / ");
        std::vector<std::pair<QString, std::string>> sources;
        for (std::size_t k = 0; k < l.sources.size(); ++k)
            sources.emplace_back(l.names.value(int(k)), l.sources[k]->source);
        const double tflops = l.tflops;
        view.setTip(g, [names, tflops, sources](int) {
            QString html = "<p style='white-space:pre'><b>" + names + " ceiling</b>: " + quantity(tflops, "TFLOP/s") +
                " dense, per GPU</p>";
            for (const auto& [n, src] : sources)
                html += "<p><small>" + n + ": " + q(src).toHtmlEscaped() + "</small></p>";
            return html;
        });
    }
    ceilingIsTraining_.clear();
    for (const Level& l : levels)
        ceilingIsTraining_.push_back(l.training);
    for (std::size_t i = levels.size(); i < ceilings_.size(); ++i)
        ceilings_[i]->setVisible(false);
    ChartView::hideFrom(ceilingLabels_, levels.size());

    // Slopes: HBM up to the highest ceiling; the fleet's up to the training
    // peak (an operation fed from that tier cannot beat the slope).
    struct SlopeLine {
        const Slope* slope;
        double peak;
        std::string explainKey;
    };
    std::vector<SlopeLine> lines{{&rf.hbm, top, "compute.ridge_flop_per_byte"}};
    for (const auto& s : rf.fleet)
        lines.push_back({&s, rf.peakTflops, slopeKey(s)});
    for (std::size_t i = 0; i < lines.size(); ++i) {
        const Slope& s = *lines[i].slope;
        QCPGraph* g = line(slopes_, i);
        g->setObjectName("slope " + q(s.key));
        const double end = fleet::ridgeFlopPerByte(lines[i].peak * 1e12, s.gbPerS * 1e9);
        g->setData({xMin_, end}, {onSlope(xMin_, s.gbPerS, lines[i].peak), lines[i].peak}, true);
        g->setPen(i == 0 ? QPen(roof, 2.5) : QPen(seriesColor(int(i) + 1), 1.6, Qt::DashLine));
        QCPItemText* t = view.label(plot_, slopeLabels_, i);
        t->setProperty(ChartView::kPlacedAfterLayout, true);
        t->setText(q(s.name) + "  " + readable(s.gbPerS) + " GB/s");
        t->setColor(i == 0 ? fg : seriesColor(int(i) + 1));
        t->setClipToAxisRect(true);
        const QString name = q(s.name);
        const double gb = s.gbPerS, ridge = s.ridgeFlopPerByte;
        const std::string key = lines[i].explainKey;
        view.setTip(g, [this, name, gb, ridge, key](int) {
            return view_->tip(0, name,
                              quantity(gb, "GB/s per GPU") + ", " +
                                  QObject::tr("ridge at %1").arg(quantity(ridge, "FLOP/byte")),
                              key);
        });
    }
    for (std::size_t i = lines.size(); i < slopes_.size(); ++i)
        slopes_[i]->setVisible(false);
    ChartView::hideFrom(slopeLabels_, lines.size());

    // The ridge of the training precision against HBM.
    ridge_->setVisible(true);
    ridge_->setData({rf.ridgeFlopPerByte}, {rf.peakTflops}, true);
    ridge_->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, fg, view.palette().color(QPalette::Base), 9));
    ridgeLabel_->setVisible(true);
    ridgeLabel_->position->setCoords(rf.ridgeFlopPerByte, rf.peakTflops);
    ridgeLabel_->setText(QObject::tr("ridge %1 FLOP/byte").arg(readable(rf.ridgeFlopPerByte, 4)));
    ridgeLabel_->setColor(fg);
    QFont bold = view.font();
    bold.setBold(true);
    ridgeLabel_->setFont(bold);

    // Operations, one graph per kind, sorted by intensity.
    std::map<std::string, std::vector<std::pair<double, int>>> byKind;
    for (std::size_t i = 0; i < rf.points.size(); ++i)
        byKind[std::string(rf.points[i].kind)].push_back({rf.points[i].intensity, int(i)});
    int colour = 0;
    for (const Marker& m : kMarkers) {
        QCPGraph* g = ops_[m.kind];
        auto& pts = byKind[m.kind];
        std::sort(pts.begin(), pts.end());
        QVector<double> x, y;
        auto& index = opIndex_[m.kind];
        index.clear();
        for (const auto& [intensity, i] : pts) {
            x << intensity;
            y << rf.points[std::size_t(i)].achievedTflops;
            index.push_back(i);
        }
        g->setData(x, y, true);
        const QColor c = seriesColor(3 + colour++);
        g->setScatterStyle(QCPScatterStyle(m.shape, c, c, 8));
        g->setPen(QPen(c));
        g->setVisible(!pts.empty());
        if (pts.empty())
            g->removeFromLegend();
        else
            g->addToLegend();
    }
    // Labels for the operations, placed after layout; the slowest first.
    std::vector<int> order(rf.points.size());
    for (std::size_t i = 0; i < order.size(); ++i)
        order[i] = int(i);
    std::stable_sort(order.begin(), order.end(), [&](int l, int r) {
        auto secs = [&](int i) {
            return std::size_t(i) < a.step.ops.size() ? a.step.ops[std::size_t(i)].seconds : 0.0;
        };
        return secs(l) > secs(r);
    });
    opLabelPoint_ = order;
    for (std::size_t i = 0; i < order.size(); ++i) {
        QCPItemText* t = view.label(plot_, opLabels_, i);
        t->setProperty(ChartView::kPlacedAfterLayout, true);
        t->setText(q(rf.points[std::size_t(order[i])].name));
        t->position->setType(QCPItemPosition::ptAbsolute);
        t->setPositionAlignment(Qt::AlignLeft | Qt::AlignTop);
        t->setColor(muted);
        t->setClipToAxisRect(true);
    }
    ChartView::hideFrom(opLabels_, order.size());
    setLegendColumns(plot_, 5);
}

void RooflineChart::drawOverlay(ChartView& view, const std::vector<ChartDesign>& designs)
{
    double lo = 0.5, hi = 10, top = 1, bottom = 1e18;
    for (const ChartDesign& d : designs) {
        const Roofline& rf = d.analysis->roofline;
        if (!hasRoof(rf))
            continue;
        hi = std::max(hi, rf.ridgeFlopPerByte * 10);
        lo = std::min(lo, rf.ridgeFlopPerByte / 30);
        top = std::max(top, rf.peakTflops);
        bottom = std::min(bottom, rf.peakTflops / 1e3);
    }
    if (bottom > top)
        bottom = top / 1e3;
    const double xMin = decadeBelow(lo), xMax = decadeAbove(hi);
    plot_->xAxis->setRange(xMin, xMax);
    plot_->yAxis->setRange(decadeBelow(bottom), decadeAbove(top * 2));

    const QColor bg = view.palette().color(QPalette::Base);
    for (std::size_t i = 0; i < designs.size(); ++i) {
        const Roofline& rf = designs[i].analysis->roofline;
        QCPGraph* roof = overlay_.add(plot_->addGraph());
        roof->setObjectName("roof");
        // The ceiling is at the workload's precision: say which.
        roof->setName(QObject::tr("%1 (%2)").arg(designs[i].label,
                                                 precisionName(designs[i].analysis->hardware.gpu.trainingPrecision)));
        roof->setPen(designPen(int(i), 2.5));
        const auto tip = [this, i](int) {
            const Analysis& a = *view_->designs()[i].analysis;
            const Roofline& r = a.roofline;
            return view_->tip(i, QObject::tr("roofline of %1").arg(q(a.hardware.gpu.name)),
                              QObject::tr("peak %1, HBM %2, ridge at %3")
                                  .arg(quantity(r.peakTflops, "TFLOP/s"), quantity(r.hbm.gbPerS, "GB/s"),
                                       quantity(r.ridgeFlopPerByte, "FLOP/byte")),
                              "compute.ridge_flop_per_byte");
        };
        view.setTip(roof, tip);
        if (!hasRoof(rf))
            continue;
        // The HBM slope up to the ridge, then the training precision's ceiling.
        roof->setData({xMin, rf.ridgeFlopPerByte, xMax},
                      {onSlope(xMin, rf.hbm.gbPerS, rf.peakTflops), rf.peakTflops, rf.peakTflops}, true);
        QCPGraph* ridge = overlay_.add(plot_->addGraph());
        ridge->setObjectName("ridge");
        ridge->removeFromLegend();
        ridge->setLineStyle(QCPGraph::lsNone);
        ridge->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, QPen(designColor(int(i)), 2), bg, 9));
        ridge->setData({rf.ridgeFlopPerByte}, {rf.peakTflops}, true);
        view.setTip(ridge, tip);
    }
    // Each roof's numbers in a small table in the bottom-right corner, which
    // no roof reaches: labels on the ceilings would pile up where peaks are
    // close, and how close they land depends on the size drawn at.
    std::vector<std::size_t> order;
    for (std::size_t i = 0; i < designs.size(); ++i)
        if (hasRoof(designs[i].analysis->roofline))
            order.push_back(i);
    std::stable_sort(order.begin(), order.end(), [&](std::size_t l, std::size_t r) {
        return designs[l].analysis->roofline.peakTflops < designs[r].analysis->roofline.peakTflops;
    });
    QCPItemText* below = nullptr;
    auto stackUp = [&](const QString& s, const QColor& color) {
        auto* t = overlay_.add(new ChartText(plot_));
        t->setText(s);
        t->setColor(color);
        t->setPadding(QMargins(2, 1, 2, 1));
        QFont f = view.font();
        f.setPointSizeF(f.pointSizeF() * 0.85);
        t->setFont(f);
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
        const Roofline& rf = designs[i].analysis->roofline;
        stackUp(QObject::tr("%1 %2 TFLOP/s   %3 GB/s   %4")
                    .arg(precisionName(designs[i].analysis->hardware.gpu.trainingPrecision), readable(rf.peakTflops),
                         readable(rf.hbm.gbPerS), readable(rf.ridgeFlopPerByte)),
                designColor(int(i)));
    }
    if (below)
        stackUp(QObject::tr("peak, HBM, ridge (FLOP/byte) per GPU"), view.textColor(true));
    setLegendColumns(plot_, int(designs.size()));
}

std::vector<FigureRow> RooflineChart::figures(const Analysis& a)
{
    const Roofline& rf = a.roofline;
    const auto& g = a.hardware.gpu;
    std::vector<FigureRow> rows{
        {QObject::tr("%1, one GPU").arg(q(g.name)), {}, {}, FigureRow::Heading},
        explained(QObject::tr("Peak (%1)").arg(precisionName(g.trainingPrecision)), quantity(rf.peakTflops, "TFLOP/s"),
                  "compute.peak_tflops_per_gpu"),
        explained(QObject::tr("HBM bandwidth"), quantity(rf.hbm.gbPerS, "GB/s"), "hierarchy.hbm"),
        explained(QObject::tr("Ridge point"), quantity(rf.ridgeFlopPerByte, "FLOP/byte"),
                  "compute.ridge_flop_per_byte"),
        {QObject::tr("Fleet slopes per GPU"), {}, {}, FigureRow::Heading}};
    for (const auto& s : rf.fleet)
        rows.push_back(explained(q(s.name), quantity(s.gbPerS, "GB/s"), slopeKey(s)));
    // Decode reads the weights across the training layout's tp GPUs: say
    // so, since the heading above is about one GPU. The figure is seed 002's
    // bound (every weight read once per token at the full bandwidth), not a
    // prediction: the Serving panel's model adds the achievable bandwidth
    // share and the TP all-reduces.
    if (a.serving) {
        // Its decode steps are the points themselves, from the serving model.
        rows.push_back({QObject::tr("Decode (serving replica)"), {}, {}, FigureRow::Heading});
        if (!rf.points.empty())
            for (const RooflinePoint* p : {&rf.points.front(), &rf.points.back()})
                rows.push_back({q(p->name), quantity(p->intensity, "FLOP/byte"),
                                QObject::tr("%1 TFLOP/s per GPU achieved, %2-bound (the Serving panel's step)")
                                    .arg(q(formatReadable(p->achievedTflops)), q(p->bound))});
        return rows;
    }
    const std::int64_t tp = a.workload.tp;
    rows.push_back(
        {tp == 1 ? QObject::tr("Decode (inference), one GPU") : QObject::tr("Decode (inference), tp %1 GPUs").arg(tp),
         {},
         {},
         FigureRow::Heading});
    // A model too big for the group says "does not fit", its numbers in the tip.
    rows.push_back(explainedIf(rf.decodeUnavailable, QObject::tr("Decode bound, batch 1"),
                               quantity(rf.decodeTokensPerS, "tokens/s"), "roofline.decode_tokens_per_s"));
    rows.push_back(
        explained(QObject::tr("Batch at the ridge"), quantity(rf.ridgeBatch, "sequences"), "roofline.ridge_batch"));
    return rows;
}

void RooflineChart::placeLabels()
{
    // After a layout with what was last drawn only: a resize before a new
    // analysis is drawn must not place labels from points it no longer has.
    if (!one_ || view_->isDirty() || view_->designs().size() != 1)
        return;
    const Analysis& a = *view_->designs().front().analysis;
    const QRect area = plot_->axisRect()->rect();
    std::vector<QRectF> taken;
    // Sizes are measured once per text and font: this runs on every layout.
    if (textSizes_.size() > 512)
        textSizes_.clear();
    auto textRect = [this](const QCPItemText* t, QPointF topLeft) {
        const QString key = t->font().key() + QChar(0x1f) + t->text();
        auto it = textSizes_.find(key);
        if (it == textSizes_.end())
            it = textSizes_.insert(key, QFontMetricsF(t->font()).size(0, t->text()));
        const QSizeF size =
            *it + QSizeF(t->padding().left() + t->padding().right(), t->padding().top() + t->padding().bottom());
        return QRectF(topLeft, size);
    };
    // Fixed labels first: the ridge label, and the slope labels along their
    // lines, a third of the way up from where each enters the plot (kept as
    // their turned outlines: a box about a slanted label would rule out
    // half the plot).
    const QPointF knee = ridgeLabel_->position->pixelPosition();
    const QRectF ridgeRect = textRect(ridgeLabel_, knee);
    taken.push_back(ridgeRect.translated(-ridgeRect.width(), -ridgeRect.height()));
    std::vector<QPolygonF> slanted;
    const Roofline& rf = a.roofline;
    const double yBottom = plot_->yAxis->range().lower;
    for (std::size_t i = 0; i < slopeLabels_.size() && i < slopes_.size(); ++i) {
        QCPItemText* t = slopeLabels_[i];
        if (!t->visible())
            continue;
        const auto data = slopes_[i]->data();
        if (data->size() < 2)
            continue;
        const double x0 = data->at(0)->key, y0 = data->at(0)->value;
        const double x1 = data->at(1)->key, y1 = data->at(1)->value;
        // Where the line enters the plot (above the bottom edge), in log space.
        const double enter = y0 >= yBottom ? x0 : x0 * (yBottom / y0);
        const double fx = std::exp(std::log(enter) + (std::log(x1) - std::log(enter)) * (i == 0 ? 0.45 : 0.35));
        const double fy =
            std::exp(std::log(y0) + (std::log(y1) - std::log(y0)) * (std::log(fx / x0) / std::log(x1 / x0)));
        const QPointF p0(plot_->xAxis->coordToPixel(x0), plot_->yAxis->coordToPixel(y0));
        const QPointF p1(plot_->xAxis->coordToPixel(x1), plot_->yAxis->coordToPixel(y1));
        const double angle = std::atan2(p1.y() - p0.y(), p1.x() - p0.x()) * 180 / M_PI;
        t->position->setType(QCPItemPosition::ptPlotCoords);
        t->position->setCoords(fx, fy);
        t->setRotation(angle);
        t->setPositionAlignment(Qt::AlignHCenter | Qt::AlignBottom);
        const QPointF at(plot_->xAxis->coordToPixel(fx), plot_->yAxis->coordToPixel(fy));
        const QSizeF size = textRect(t, {}).size();
        slanted.push_back(QTransform()
                              .translate(at.x(), at.y())
                              .rotate(angle)
                              .map(QPolygonF(QRectF(-size.width() / 2, -size.height(), size.width(), size.height()))));
    }
    // Every marker is taken before any label is placed.
    for (const auto& [kind, graph] : ops_)
        for (auto it = graph->data()->constBegin(); it != graph->data()->constEnd(); ++it)
            taken.push_back(
                QRectF(plot_->xAxis->coordToPixel(it->key) - 5, plot_->yAxis->coordToPixel(it->value) - 5, 10, 10));
    // Cheap tests first: this runs after every layout, and a polygon test
    // clips paths.
    const auto free = [&](const QRectF& r) {
        return QRectF(area).contains(r) &&
            std::none_of(taken.begin(), taken.end(), [&](const QRectF& o) { return o.intersects(r); }) &&
            std::none_of(slanted.begin(), slanted.end(), [&](const QPolygonF& o) {
                   return o.boundingRect().intersects(r) && o.intersects(QPolygonF(r));
               });
    };
    // Ceiling labels, the training precision's first, then highest first:
    // each over its line at the plot's right edge, else further left along
    // the line, else under it, wherever nothing placed before lies; else
    // none, the line's tip naming it (FP8, BF16 and TF32 peaks a factor of
    // two apart, ten pixels in a short plot, ran into each other).
    std::vector<std::tuple<bool, double, std::size_t>> ceilingOrder;  // not training, line's pixel row, label
    for (std::size_t i = 0; i < ceilingLabels_.size() && i < ceilingIsTraining_.size(); ++i)
        if (ceilings_[i]->visible() && ceilings_[i]->data()->size() > 0)
            ceilingOrder.emplace_back(!ceilingIsTraining_[i],
                                      plot_->yAxis->coordToPixel(ceilings_[i]->data()->at(0)->value), i);
    std::sort(ceilingOrder.begin(), ceilingOrder.end());
    for (const auto& [other, y, i] : ceilingOrder) {
        QCPItemText* t = ceilingLabels_[i];
        const QSizeF size = textRect(t, {}).size();
        const double start =
            std::max(double(area.left()), plot_->xAxis->coordToPixel(ceilings_[i]->data()->at(0)->key));
        const std::optional<QRectF> spot = [&]() -> std::optional<QRectF> {
            for (bool over : {true, false})
                for (double right = area.right(); right - size.width() >= start; right -= 4) {
                    const QRectF r(right - size.width(), over ? y - size.height() : y, size.width(), size.height());
                    if (free(r))
                        return r;
                }
            return std::nullopt;
        }();
        t->setVisible(spot.has_value());
        if (!spot)
            continue;
        taken.push_back(*spot);
        t->setPositionAlignment(Qt::AlignLeft | Qt::AlignTop);
        t->position->setPixelPosition(spot->topLeft());
    }
    // Operation labels: the first free spot around each point, else none
    // (the point's tip still names it). Not across a roof either: a label's
    // halo lightened the roof under it.
    for (const QCPGraph* g : ceilings_)
        if (g->visible() && g->data()->size() > 0) {
            const double y = plot_->yAxis->coordToPixel(g->data()->at(0)->value);
            const double left = plot_->xAxis->coordToPixel(g->data()->at(0)->key);
            taken.emplace_back(left, y - 1.5, area.right() - left, 3);
        }
    for (std::size_t i = 0; i < opLabelPoint_.size() && i < opLabels_.size(); ++i) {
        QCPItemText* t = opLabels_[i];
        const RooflinePoint& p = rf.points[std::size_t(opLabelPoint_[i])];
        if (p.intensity <= 0 || p.achievedTflops <= 0) {
            t->setVisible(false);
            continue;
        }
        const QPointF at(plot_->xAxis->coordToPixel(p.intensity), plot_->yAxis->coordToPixel(p.achievedTflops));
        const QSizeF size = textRect(t, {}).size();
        const QPointF candidates[] = {{at.x() + 6, at.y() - size.height() / 2},
                                      {at.x() - 6 - size.width(), at.y() - size.height() / 2},
                                      {at.x() - size.width() / 2, at.y() + 5},
                                      {at.x() - size.width() / 2, at.y() - 5 - size.height()},
                                      {at.x() + 5, at.y() + 2},
                                      {at.x() + 5, at.y() - 2 - size.height()},
                                      {at.x() - 5 - size.width(), at.y() + 2},
                                      {at.x() - 5 - size.width(), at.y() - 2 - size.height()}};
        bool placed = false;
        for (const QPointF& c : candidates) {
            const QRectF r(c, size);
            if (!free(r))
                continue;
            taken.push_back(r);
            t->position->setPixelPosition(c);
            placed = true;
            break;
        }
        t->setVisible(placed);
    }
}

}  // namespace studio
