#include "widgets/charts/failure_chart.h"

#include <QGridLayout>

#include <cmath>
#include <map>

#include <qcustomplot.h>

#include "core/metrics/figure_names.h"
#include "core/model/analysis.h"
#include "core/text.h"
#include "widgets/charts/chart_text.h"
#include "widgets/charts/chart_view.h"
#include "widgets/charts/explain_html.h"
#include "widgets/common/qt_string.h"
#include "widgets/style/theme.h"

namespace studio {
namespace {

QString duration(double hours)
{
    return q(formatDuration(hours));
}

QCPGraph* pointGraph(QCustomPlot* plot, const char* name)
{
    QCPGraph* g = plot->addGraph();
    g->setObjectName(name);
    g->setLineStyle(QCPGraph::lsNone);
    g->removeFromLegend();
    return g;
}

ChartText* plotLabel(QCustomPlot* plot, const char* name, Qt::Alignment alignment)
{
    auto* t = new ChartText(plot);
    t->setObjectName(name);
    // Above the curves and the optimum's lines, on a patch of background.
    t->setLayer(QStringLiteral("legend"));
    t->position->setType(QCPItemPosition::ptPlotCoords);
    t->setPositionAlignment(alignment);
    t->setPadding(QMargins(6, 2, 6, 2));
    return t;
}

QString curveTip(const QString& who, double gpus, double hours)
{
    return QObject::tr("<p style='white-space:pre'><b>%1%2 GPUs</b>: a failure every %3</p><p><small>This design's "
                       "mix of GPUs, nodes and NICs per GPU, scaled; MTBF = 1 / sum of devices / MTTF.</small></p>")
        .arg(who.isEmpty() ? QString() : who.toHtmlEscaped() + ": ", q(formatCount(std::llround(gpus))),
             duration(hours));
}

QString goodputTip(const QString& who, double minutes, double goodput)
{
    return QObject::tr("<p style='white-space:pre'>%1Checkpoint every <b>%2</b>: goodput <b>%3</b></p><p><small>1 - "
                       "stall / (interval + stall) - ((interval + write) / 2 + restart) / MTBF - "
                       "maintenance</small></p>")
        .arg(who.isEmpty() ? QString() : "<b>" + who.toHtmlEscaped() + "</b>: ", quantity(minutes, "min"),
             percent(goodput / 100));
}

template <typename Curve>
void setCurve(QCPGraph* g, const Curve& curve, double scale)
{
    QVector<double> x, y;
    for (const auto& [key, value] : curve)
        if (key > 0 && value > 0)
            x << key, y << value * scale;
    g->setData(x, y, true);
}

// Design i's curve in an overlay, in its colour; hovered, `tip` names the
// design and the point.
template <typename Curve>
QCPGraph* overlayCurve(ChartView& view, Transient& overlay, QCustomPlot* plot, const char* name, std::size_t i,
                       const QString& label, const Curve& points, double scale,
                       QString (*tip)(const QString&, double, double))
{
    QCPGraph* curve = overlay.add(plot->addGraph());
    curve->setObjectName(name);
    curve->setName(label);
    curve->setPen(designPen(colorIndex(view.designs(), i), 2));
    setCurve(curve, points, scale);
    view.setTip(curve, [&view, curve, i, tip](int index) {
        const auto& designs = view.designs();
        if (i >= designs.size() || index < 0 || index >= curve->dataCount())
            return QString();
        return tip(designs[i].label, curve->data()->at(index)->key, curve->data()->at(index)->value);
    });
    return curve;
}

}  // namespace

void FailureChart::setUp(ChartView& view)
{
    view_ = &view;
    mtbf_ = view.addPlot("mtbf");
    setLogLog(mtbf_, QObject::tr("GPUs"), QObject::tr("Cluster MTBF (hours)"));
    mtbfCurve_ = mtbf_->addGraph();
    mtbfCurve_->setObjectName("mtbf curve");
    mtbfCurve_->removeFromLegend();
    design_ = pointGraph(mtbf_, "this design");
    // Beside the point, in one of the two corners the falling curve leaves
    // free: above and right of it, or below and left where that fits.
    ChartText* designLabel = plotLabel(mtbf_, "this design label", Qt::AlignLeft | Qt::AlignBottom);
    designLabel->setBesidePoint(true);
    designLabel_ = designLabel;
    view.setTip(mtbfCurve_, [this](int i) {
        return curveTip({}, mtbfCurve_->data()->at(i)->key, mtbfCurve_->data()->at(i)->value);
    });
    view.setTip(design_, [this](int) {
        const auto& designs = view_->designs();
        return designs.empty()
            ? QString()
            : view_->tip(0, QObject::tr("Cluster MTBF"), duration(designs.front().analysis->reliability.clusterMtbfH),
                         "reliability.cluster_mtbf_h");
    });

    classes_ = view.addPlot("failures by class");
    classes_->xAxis->setLabel(QObject::tr("Failures per day"));
    classes_->yAxis->setRangeReversed(true);
    setCategoryAxis(classes_->yAxis);
    perDay_ = new QCPBars(classes_->yAxis, classes_->xAxis);
    perDay_->setObjectName("per day");
    perDay_->setWidth(0.65);
    perDay_->removeFromLegend();
    view.setTip(perDay_, [this](int i) {
        const auto& designs = view_->designs();
        const std::size_t k = categoryOf(perDay_, i);
        if (designs.empty() || k >= designs.front().analysis->reliability.classes.size())
            return QString();
        const FailureClass& c = designs.front().analysis->reliability.classes[k];
        return view_->tip(0, q(c.name), quantity(c.perDay, "per day"), "reliability.by_class." + c.key);
    });

    goodput_ = view.addPlot("goodput");
    setLogAxis(goodput_->xAxis);
    goodput_->xAxis->setLabel(QObject::tr("Checkpoint interval (minutes)"));
    goodput_->yAxis->setLabel(QObject::tr("Goodput (%)"));
    goodputCurve_ = goodput_->addGraph();
    goodputCurve_->setObjectName("goodput curve");
    goodputCurve_->removeFromLegend();
    optimum_ = pointGraph(goodput_, "daly optimum");
    chosen_ = pointGraph(goodput_, "chosen interval");
    daly_ = new QCPItemStraightLine(goodput_);
    daly_->setObjectName("daly interval");
    young_ = new QCPItemStraightLine(goodput_);
    young_->setObjectName("young interval");
    optimumLabel_ = plotLabel(goodput_, "optimum label", Qt::AlignLeft | Qt::AlignBottom);
    optimumLabel_->position->setTypeY(QCPItemPosition::ptAxisRectRatio);
    chosenLabel_ = plotLabel(goodput_, "chosen label", Qt::AlignRight | Qt::AlignTop);
    noCheckpoints_ = new ChartText(goodput_);
    noCheckpoints_->setObjectName("no checkpoints");
    noCheckpoints_->position->setType(QCPItemPosition::ptAxisRectRatio);
    noCheckpoints_->position->setCoords(0.5, 0.5);
    view.setTip(goodputCurve_, [this](int i) {
        return goodputTip({}, goodputCurve_->data()->at(i)->key, goodputCurve_->data()->at(i)->value);
    });
    for (QCPGraph* p : {optimum_, chosen_})
        view.setTip(p, [this](int) {
            const auto& designs = view_->designs();
            if (designs.empty())
                return QString();
            const Reliability& r = designs.front().analysis->reliability;
            return view_->tip(0, QObject::tr("Checkpoint interval"), quantity(r.intervalMin, "min"),
                              "reliability.checkpoint_interval_min") +
                view_->tip(0, QObject::tr("Goodput"), percent(r.goodput), "reliability.goodput");
        });

    view.grid()->addWidget(mtbf_, 0, 0);
    view.grid()->addWidget(goodput_, 0, 1);
    view.grid()->addWidget(classes_, 1, 0, 1, 2);
    view.grid()->setColumnStretch(0, 1);
    view.grid()->setColumnStretch(1, 1);
    if (FigureTable* table = view.figureTable()) {
        table->setMinimumWidth(250);
        table->setMaximumWidth(340);
        view.grid()->addWidget(table, 0, 2, 2, 1);
    }
}

void FailureChart::draw(ChartView& view, const std::vector<ChartDesign>& designs)
{
    drawMtbf(view, designs);
    drawClasses(view, designs);
    drawGoodput(view, designs);
}

void FailureChart::drawMtbf(ChartView& view, const std::vector<ChartDesign>& designs)
{
    overlayMtbf_.clear(mtbf_);
    const bool one = designs.size() == 1;
    double xLo = 1e18, xHi = 0, yLo = 1e18, yHi = 0;
    for (const ChartDesign& d : designs) {
        const Reliability& r = d.analysis->reliability;
        for (const auto& [n, h] : r.mtbfCurve)
            if (n > 0 && h > 0)
                xLo = std::min(xLo, n), xHi = std::max(xHi, n), yLo = std::min(yLo, h), yHi = std::max(yHi, h);
        if (d.analysis->inventory.gpus > 0 && r.clusterMtbfH > 0) {
            xLo = std::min(xLo, double(d.analysis->inventory.gpus)),
            xHi = std::max(xHi, double(d.analysis->inventory.gpus));
            yLo = std::min(yLo, r.clusterMtbfH), yHi = std::max(yHi, r.clusterMtbfH);
        }
    }
    if (xHi <= 0)
        xLo = 1, xHi = 10, yLo = 1, yHi = 10;
    const QColor bg = view.palette().color(QPalette::Base);
    if (one) {
        const Analysis& a = *designs.front().analysis;
        const Reliability& r = a.reliability;
        const QColor mark = sceneColors().error;
        setCurve(mtbfCurve_, r.mtbfCurve, 1);
        mtbfCurve_->setPen(QPen(seriesColor(0), 2));
        mtbfCurve_->setVisible(true);
        if (!r.mtbfCurve.empty()) {
            xLo = r.mtbfCurve.front().first, xHi = r.mtbfCurve.back().first;
            yLo = decadeBelow(r.mtbfCurve.back().second), yHi = decadeAbove(r.mtbfCurve.front().second);
        }
        mtbf_->xAxis->setRange(xLo, xHi);
        mtbf_->yAxis->setRange(yLo, yHi);
        design_->setVisible(true);
        design_->setData({double(a.inventory.gpus)}, {r.clusterMtbfH}, true);
        design_->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, mark, mark, 10));
        designLabel_->position->setCoords(double(a.inventory.gpus), r.clusterMtbfH);
        // Short, to fit beside its point in a small plot: its GPUs are on
        // the axis, and the point's tip and the figures beside say the rest.
        designLabel_->setText(QObject::tr("this design:\nMTBF %1").arg(duration(r.clusterMtbfH)));
        designLabel_->setColor(mark);  // no halo: it would cover the point
        designLabel_->setVisible(r.clusterMtbfH > 0);
        hideLegend(mtbf_);
        return;
    }
    mtbfCurve_->setVisible(false);
    design_->setVisible(false);
    designLabel_->setVisible(false);
    mtbf_->xAxis->setRange(decadeBelow(xLo), decadeAbove(xHi * 1.01));
    mtbf_->yAxis->setRange(decadeBelow(yLo), decadeAbove(yHi * 1.01));
    for (std::size_t i = 0; i < designs.size(); ++i) {
        const Analysis& a = *designs[i].analysis;
        const Reliability& r = a.reliability;
        overlayCurve(view, overlayMtbf_, mtbf_, "mtbf curve", i, designs[i].label, r.mtbfCurve, 1, curveTip);
        if (a.inventory.gpus <= 0 || r.clusterMtbfH <= 0)
            continue;
        const double at = double(a.inventory.gpus);
        QCPGraph* point = overlayMtbf_.add(pointGraph(mtbf_, "design point"));
        point->setScatterStyle(
            QCPScatterStyle(QCPScatterStyle::ssCircle, QPen(bg, 1.5), designColor(colorIndex(designs, i)), 11));
        point->setData({at}, {r.clusterMtbfH}, true);
        view.setTip(point, [this, i](int) {
            const auto& designs = view_->designs();
            if (i >= designs.size())
                return QString();
            const Analysis& a = *designs[i].analysis;
            return view_->tip(i, QObject::tr("cluster MTBF at %1 GPUs").arg(q(formatCount(a.inventory.gpus))),
                              QObject::tr("a failure every %1").arg(duration(a.reliability.clusterMtbfH)),
                              "reliability.cluster_mtbf_h");
        });
        auto* t = overlayMtbf_.add(plotLabel(mtbf_, "design point label", Qt::AlignLeft | Qt::AlignBottom));
        t->setText(duration(r.clusterMtbfH));
        t->setColor(designColor(colorIndex(designs, i)));
        t->setPadding(QMargins(7, 1, 2, 5));
        t->position->setCoords(at, r.clusterMtbfH);
        QFont bold = view.font();
        bold.setPointSizeF(bold.pointSizeF() * 0.85);
        bold.setBold(true);
        t->setFont(bold);
    }
    legendOutside(mtbf_, int(designs.size()), true);
}

void FailureChart::drawClasses(ChartView& view, const std::vector<ChartDesign>& designs)
{
    overlayClasses_.clear(classes_);
    auto ticker = categoryTicker(classes_->yAxis);
    ticker->clear();
    double most = 0;
    if (designs.size() == 1) {
        const Reliability& r = designs.front().analysis->reliability;
        QVector<double> keys, values;
        for (std::size_t i = 0; i < r.classes.size(); ++i) {
            const FailureClass& c = r.classes[i];
            keys << double(i + 1);
            values << c.perDay;
            most = std::max(most, c.perDay);
            ticker->addTick(double(i + 1), q(c.name));
            QCPItemText* t = view.label(classes_, classLabels_, i);
            t->position->setType(QCPItemPosition::ptPlotCoords);
            t->position->setCoords(c.perDay, double(i + 1));
            t->setPositionAlignment(Qt::AlignLeft | Qt::AlignVCenter);
            t->setText(readable(c.perDay));
        }
        ChartView::hideFrom(classLabels_, r.classes.size());
        perDay_->setVisible(true);
        perDay_->setData(keys, values, true);
        styleBars(perDay_, seriesColor(1), 170);
        classes_->yAxis->setRange(0.4, double(r.classes.size()) + 0.6);
        classes_->xAxis->setRange(0, std::max(most, 1e-6) * 1.25);
        hideLegend(classes_);
        return;
    }
    perDay_->setVisible(false);
    ChartView::hideFrom(classLabels_, 0);
    std::vector<std::vector<std::string>> sequences;
    std::map<std::string, QString> names;
    for (const ChartDesign& d : designs) {
        std::vector<std::string> keys;
        for (const FailureClass& c : d.analysis->reliability.classes) {
            keys.push_back(c.key);
            names.emplace(c.key, q(c.name));
        }
        sequences.push_back(std::move(keys));
    }
    const std::vector<std::string> keys = mergeOrder(sequences);
    for (std::size_t k = 0; k < keys.size(); ++k)
        ticker->addTick(double(k + 1), names[keys[k]]);
    QCPBarsGroup* group = overlayClasses_.add(newBarsGroup(classes_));
    for (std::size_t i = 0; i < designs.size(); ++i) {
        QCPBars* bars =
            overlayClasses_.add(designBars(classes_->yAxis, classes_->xAxis, group, std::size_t(colorIndex(designs, i)),
                                           designs.size(), designs[i].label, "per day"));
        for (const FailureClass& c : designs[i].analysis->reliability.classes) {
            const auto k = std::size_t(std::find(keys.begin(), keys.end(), c.key) - keys.begin());
            bars->addData(double(k + 1), c.perDay);
            most = std::max(most, c.perDay);
        }
        view.setTip(bars, [this, bars, i, keys](int index) {
            const auto& designs = view_->designs();
            const std::size_t k = categoryOf(bars, index);
            if (i >= designs.size() || k >= keys.size())
                return QString();
            for (const FailureClass& c : designs[i].analysis->reliability.classes)
                if (c.key == keys[k])
                    return view_->tip(i, q(c.name), quantity(c.perDay, "per day"), "reliability.by_class." + c.key);
            return QString();
        });
    }
    classes_->yAxis->setRange(0.4, double(keys.size()) + 0.6);
    classes_->xAxis->setRange(0, std::max(most, 1e-6) * 1.1);
    legendOutside(classes_, int(designs.size()));
}

void FailureChart::drawGoodput(ChartView& view, const std::vector<ChartDesign>& designs)
{
    overlayGoodput_.clear(goodput_);
    const QColor mark = sceneColors().error, fg = view.textColor();
    if (designs.size() == 1) {
        const Reliability& r = designs.front().analysis->reliability;
        setCurve(goodputCurve_, r.goodputCurve, 100);
        goodputCurve_->setPen(QPen(seriesColor(0), 2));
        const bool curveShown = !r.goodputCurve.empty();
        goodputCurve_->setVisible(curveShown);
        noCheckpoints_->setVisible(!curveShown);
        noCheckpoints_->setText(QObject::tr("No storage to write checkpoints to:\nevery failure restarts the run."));
        noCheckpoints_->setColor(view.textColor(true));
        for (QCPAbstractItem* item : {static_cast<QCPAbstractItem*>(daly_), static_cast<QCPAbstractItem*>(young_),
                                      static_cast<QCPAbstractItem*>(optimumLabel_)})
            item->setVisible(curveShown);
        optimum_->setVisible(curveShown);
        const bool chosenShown = curveShown && !r.intervalIsOptimum;
        chosen_->setVisible(chosenShown);
        chosenLabel_->setVisible(chosenShown);
        hideLegend(goodput_);
        if (!curveShown)
            return;
        const double first = r.goodputCurve.front().first, last = r.goodputCurve.back().first;
        goodput_->xAxis->setRange(first, last);
        double low = 100;
        for (const auto& [minutes, value] : r.goodputCurve)
            low = std::min(low, value * 100);
        goodput_->yAxis->setRange(std::max(0.0, std::floor(low / 10) * 10), 100);
        daly_->point1->setCoords(r.dalyIntervalMin, 0);
        daly_->point2->setCoords(r.dalyIntervalMin, 1);
        daly_->setPen(QPen(mark, 1.5, Qt::DashLine));
        young_->point1->setCoords(r.youngIntervalMin, 0);
        young_->point2->setCoords(r.youngIntervalMin, 1);
        young_->setPen(QPen(view.textColor(true), 1, Qt::DotLine));
        optimum_->setData({r.dalyIntervalMin}, {r.dalyGoodput * 100}, true);
        optimum_->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, mark, mark, 9));
        // Beside the optimum's line: over the hump where its top leaves a
        // third of the plot free, on the side with more room; else at the
        // line's foot, on the side whose tail stays higher (the tails fall
        // away from the line into the foot's corners).
        const double bottom = goodput_->yAxis->range().lower;
        const bool overHump = (100 - r.dalyGoodput * 100) >= (100 - bottom) / 3;
        optimumLabel_->position->setCoords(r.dalyIntervalMin, overHump ? 0.03 : 0.97);
        const bool rightHalf = overHump ? std::log(r.dalyIntervalMin / first) > std::log(last / r.dalyIntervalMin)
                                        : r.goodputCurve.front().second > r.goodputCurve.back().second;
        optimumLabel_->setPositionAlignment((rightHalf ? Qt::AlignRight : Qt::AlignLeft) |
                                            (overHump ? Qt::AlignTop : Qt::AlignBottom));
        optimumLabel_->setTextAlignment(rightHalf ? Qt::AlignRight : Qt::AlignLeft);
        optimumLabel_->setText(
            QObject::tr("Daly %1: %2\nYoung %3 (dotted)")
                .arg(quantity(r.dalyIntervalMin, "min"), percent(r.dalyGoodput), quantity(r.youngIntervalMin, "min")));
        optimumLabel_->setColor(fg);
        optimumLabel_->setBrush(labelHalo(view.palette()));
        if (chosenShown) {
            chosen_->setData({r.intervalMin}, {r.goodput * 100}, true);
            chosen_->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDiamond, fg, fg, 10));
            chosenLabel_->position->setCoords(r.intervalMin, r.goodput * 100);
            chosenLabel_->setText(
                QObject::tr("this design: %1, %2").arg(quantity(r.intervalMin, "min"), percent(r.goodput)));
            chosenLabel_->setColor(fg);
            chosenLabel_->setBrush(labelHalo(view.palette()));
        }
        return;
    }
    for (QCPLayerable* l : std::initializer_list<QCPLayerable*>{goodputCurve_, optimum_, chosen_, daly_, young_,
                                                                optimumLabel_, chosenLabel_})
        l->setVisible(false);
    // Each design's curve with its Daly optimum on it.
    double first = 1e18, last = 0, low = 100;
    bool any = false;
    for (std::size_t i = 0; i < designs.size(); ++i) {
        const Reliability& r = designs[i].analysis->reliability;
        overlayCurve(view, overlayGoodput_, goodput_, "goodput curve", i, designs[i].label, r.goodputCurve, 100,
                     goodputTip);
        if (r.goodputCurve.empty())
            continue;
        any = true;
        first = std::min(first, r.goodputCurve.front().first);
        last = std::max(last, r.goodputCurve.back().first);
        for (const auto& [minutes, value] : r.goodputCurve)
            low = std::min(low, value * 100);
        QCPGraph* point = overlayGoodput_.add(pointGraph(goodput_, "daly optimum"));
        point->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle,
                                               QPen(view.palette().color(QPalette::Base), 1.5),
                                               designColor(colorIndex(designs, i)), 10));
        point->setData({r.dalyIntervalMin}, {r.dalyGoodput * 100}, true);
        view.setTip(point, [this, i](int) {
            const auto& designs = view_->designs();
            if (i >= designs.size())
                return QString();
            const Reliability& r = designs[i].analysis->reliability;
            return view_->tip(i, QObject::tr("Daly optimum"), quantity(r.dalyIntervalMin, "min"),
                              "reliability.checkpoint_interval_min");
        });
    }
    noCheckpoints_->setVisible(!any);
    noCheckpoints_->setText(QObject::tr("No design has storage to write checkpoints to."));
    noCheckpoints_->setColor(view.textColor(true));
    if (any) {
        goodput_->xAxis->setRange(first, last);
        goodput_->yAxis->setRange(std::max(0.0, std::floor(low / 10) * 10), 100);
    }
    legendOutside(goodput_, int(designs.size()), true);
}

std::vector<FigureRow> FailureChart::figures(const Analysis& a)
{
    const Reliability& r = a.reliability;
    std::vector<FigureRow> rows{
        {QObject::tr("Failures"), {}, {}, FigureRow::Heading},
        explained(q(figureName("reliability.cluster_mtbf_h")), duration(r.clusterMtbfH), "reliability.cluster_mtbf_h",
                  FigureRow::Good),
        explained(QObject::tr("Failures per day"), readable(r.failuresPerDay), "reliability.failures_per_day"),
        explained(q(figureName("reliability.p_failure_24h")), percent(r.pFailure24h), "reliability.p_failure_24h"),
        {QObject::tr("Checkpoints"), {}, {}, FigureRow::Heading}};
    if (r.canCheckpoint) {
        rows.push_back(explained(QObject::tr("Checkpoint size"), quantity(a.data.checkpointGb, "GB"),
                                 "storage.checkpoint_write_s"));
        rows.push_back(
            explained(QObject::tr("Write time"), quantity(r.checkpointWriteS, "s"), "storage.checkpoint_write_s"));
        rows.push_back(explained(q(figureName("reliability.checkpoint_interval_min")),
                                 quantity(r.intervalMin, "min") +
                                     (r.intervalIsOptimum ? QObject::tr(" (Daly)") : QObject::tr(" (set)")),  // short: the table is narrow
                                 "reliability.checkpoint_interval_min"));
    } else {
        rows.push_back({QObject::tr("No storage: a failure restarts the run"), {}, {}, FigureRow::Bad});
    }
    rows.push_back(
        explained(q(figureName("reliability.goodput")), percent(r.goodput), "reliability.goodput", FigureRow::Good));
    rows.push_back({QObject::tr("Training run"), {}, {}, FigureRow::Heading});
    const std::string run = runUnavailable(a);
    rows.push_back(explainedIf(run, q(figureName("reliability.wall_days")), quantity(r.wallDays, "days"),
                               "reliability.wall_days"));
    rows.push_back(explainedIf(run, q(figureName("reliability.expected_interruptions")),
                               readable(r.expectedInterruptions), "reliability.expected_interruptions"));
    return rows;
}

}  // namespace studio
