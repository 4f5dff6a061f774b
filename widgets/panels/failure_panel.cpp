#include "widgets/panels/failure_panel.h"

#include <QGridLayout>

#include <cmath>

#include <qcustomplot.h>

#include "core/analysis/analysis.h"
#include "core/text.h"
#include "widgets/common/qt_string.h"
#include "widgets/panels/explain_html.h"
#include "widgets/panels/figure_table.h"
#include "widgets/style/theme.h"

namespace studio {
namespace {

QString duration(double hours)
{
    return QString::fromStdString(formatDuration(hours));
}

QCPGraph* pointGraph(QCustomPlot* plot, const char* name)
{
    QCPGraph* g = plot->addGraph();
    g->setObjectName(name);
    g->setLineStyle(QCPGraph::lsNone);
    return g;
}

QCPItemText* plotLabel(QCustomPlot* plot, Qt::Alignment alignment)
{
    auto* t = new QCPItemText(plot);
    t->position->setType(QCPItemPosition::ptPlotCoords);
    t->setPositionAlignment(alignment);
    t->setPadding(QMargins(6, 2, 6, 2));
    return t;
}

}  // namespace

FailurePanel::FailurePanel(AnalysisService* service, QWidget* parent)
    : PlotPanel(tr("Failure cadence"), service, parent)
{
    mtbf_ = addLogLogPlot("mtbf", tr("GPUs"), tr("Cluster MTBF (hours)"));
    mtbfCurve_ = mtbf_->addGraph();
    mtbfCurve_->setObjectName("mtbf curve");
    design_ = pointGraph(mtbf_, "this design");
    // In the empty upper-right corner: the curve falls from the top left.
    designLabel_ = plotLabel(mtbf_, Qt::AlignRight | Qt::AlignTop);
    designLabel_->position->setType(QCPItemPosition::ptAxisRectRatio);
    designLabel_->position->setCoords(1, 0);
    designLabel_->setTextAlignment(Qt::AlignRight);
    setTip(mtbfCurve_, [this](int i) {
        return tr("<p style='white-space:pre'><b>%1 GPUs</b>: a failure every %2</p><p><small>This design's mix of "
                  "GPUs, nodes and NICs per GPU, scaled; MTBF = 1 / sum of devices / MTTF.</small></p>")
            .arg(q(formatCount(std::llround(mtbfCurve_->data()->at(i)->key))),
                 duration(mtbfCurve_->data()->at(i)->value));
    });
    setTip(design_, [this](int) {
        const Analysis* a = analysis();
        return a ? tip(tr("Cluster MTBF"), duration(a->reliability.clusterMtbfH), "reliability.cluster_mtbf_h")
                 : QString();
    });

    classes_ = addPlot("failures by class");
    classes_->xAxis->setLabel(tr("Failures per day"));
    classes_->yAxis->setRangeReversed(true);
    setCategoryAxis(classes_->yAxis);
    perDay_ = new QCPBars(classes_->yAxis, classes_->xAxis);
    perDay_->setObjectName("per day");
    perDay_->setWidth(0.65);
    setTip(perDay_, [this](int i) {
        const Analysis* a = analysis();
        const std::size_t k = categoryOf(perDay_, i);
        if (!a || k >= a->reliability.classes.size())
            return QString();
        const FailureClass& c = a->reliability.classes[k];
        return tip(q(c.name), quantity(c.perDay, "per day"), "reliability.by_class." + c.key);
    });

    goodput_ = addPlot("goodput");
    setLogAxis(goodput_->xAxis);
    goodput_->xAxis->setLabel(tr("Checkpoint interval (minutes)"));
    goodput_->yAxis->setLabel(tr("Goodput (%)"));
    goodputCurve_ = goodput_->addGraph();
    goodputCurve_->setObjectName("goodput curve");
    optimum_ = pointGraph(goodput_, "daly optimum");
    chosen_ = pointGraph(goodput_, "chosen interval");
    daly_ = new QCPItemStraightLine(goodput_);
    young_ = new QCPItemStraightLine(goodput_);
    optimumLabel_ = plotLabel(goodput_, Qt::AlignLeft | Qt::AlignBottom);
    optimumLabel_->position->setTypeY(QCPItemPosition::ptAxisRectRatio);
    chosenLabel_ = plotLabel(goodput_, Qt::AlignRight | Qt::AlignTop);
    noCheckpoints_ = new QCPItemText(goodput_);
    noCheckpoints_->position->setType(QCPItemPosition::ptAxisRectRatio);
    noCheckpoints_->position->setCoords(0.5, 0.5);
    noCheckpoints_->setText(tr("No storage to write checkpoints to:\nevery failure restarts the run."));
    setTip(goodputCurve_, [this](int i) {
        return tr("<p style='white-space:pre'>Checkpoint every <b>%1</b>: goodput <b>%2</b></p><p><small>1 - stall / "
                  "(interval + stall) - ((interval + write) / 2 + restart) / MTBF - maintenance</small></p>")
            .arg(quantity(goodputCurve_->data()->at(i)->key, "min"), percent(goodputCurve_->data()->at(i)->value / 100));
    });
    for (QCPAbstractPlottable* p : {static_cast<QCPAbstractPlottable*>(optimum_), static_cast<QCPAbstractPlottable*>(chosen_)})
        setTip(p, [this](int) {
            const Analysis* a = analysis();
            return a ? tip(tr("Checkpoint interval"), quantity(a->reliability.intervalMin, "min"),
                           "reliability.checkpoint_interval_min") +
                           tip(tr("Goodput"), percent(a->reliability.goodput), "reliability.goodput")
                     : QString();
        });

    figures_ = addFigureTable();
    figures_->setMinimumWidth(250);
    figures_->setMaximumWidth(340);
    grid()->addWidget(mtbf_, 0, 0);
    grid()->addWidget(goodput_, 0, 1);
    grid()->addWidget(classes_, 1, 0, 1, 2);
    grid()->addWidget(figures_, 0, 2, 2, 1);
    grid()->setColumnStretch(0, 1);
    grid()->setColumnStretch(1, 1);
}

void FailurePanel::refresh(const Analysis& a)
{
    const Reliability& r = a.reliability;
    const SceneColors colors = sceneColors();
    const QColor curve = seriesColor(0), mark = colors.error, fg = textColor();

    // MTBF against cluster size.
    QVector<double> n, h;
    for (const auto& [gpus, hours] : r.mtbfCurve)
        n << gpus, h << hours;
    mtbfCurve_->setData(n, h, true);
    mtbfCurve_->setPen(QPen(curve, 2));
    if (!n.isEmpty()) {
        mtbf_->xAxis->setRange(n.front(), n.back());
        mtbf_->yAxis->setRange(std::pow(10.0, std::floor(std::log10(h.back()))),
                               std::pow(10.0, std::ceil(std::log10(h.front()))));
    }
    design_->setData({double(a.inventory.gpus)}, {r.clusterMtbfH}, true);
    design_->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, mark, mark, 10));
    designLabel_->setText(tr("\u25cf this design: %1 GPUs,\na failure every %2")
                              .arg(q(formatCount(a.inventory.gpus)), duration(r.clusterMtbfH)));
    designLabel_->setColor(mark);
    designLabel_->setVisible(r.clusterMtbfH > 0);

    // Failures per day by class.
    QVector<double> keys, values;
    auto ticker = qSharedPointerCast<QCPAxisTickerText>(classes_->yAxis->ticker());
    ticker->clear();
    double most = 0;
    for (std::size_t i = 0; i < r.classes.size(); ++i) {
        const FailureClass& c = r.classes[i];
        keys << double(i + 1);
        values << c.perDay;
        most = std::max(most, c.perDay);
        ticker->addTick(double(i + 1), q(c.name));
        QCPItemText* t = label(classes_, classLabels_, i);
        t->position->setType(QCPItemPosition::ptPlotCoords);
        t->position->setCoords(c.perDay, double(i + 1));
        t->setPositionAlignment(Qt::AlignLeft | Qt::AlignVCenter);
        t->setText(q(formatReadable(c.perDay)));
    }
    hideFrom(classLabels_, r.classes.size());
    perDay_->setData(keys, values, true);
    QColor bar = seriesColor(1);
    perDay_->setPen(QPen(bar.darker(120)));
    bar.setAlpha(170);
    perDay_->setBrush(bar);
    classes_->yAxis->setRange(0.4, double(r.classes.size()) + 0.6);
    classes_->xAxis->setRange(0, std::max(most, 1e-6) * 1.25);

    // Goodput against the checkpoint interval.
    QVector<double> tau, g;
    for (const auto& [minutes, value] : r.goodputCurve)
        tau << minutes, g << value * 100;
    goodputCurve_->setData(tau, g, true);
    goodputCurve_->setPen(QPen(curve, 2));
    const bool curveShown = !tau.isEmpty();
    noCheckpoints_->setVisible(!curveShown);
    noCheckpoints_->setColor(textColor(true));
    for (QCPAbstractItem* item : {static_cast<QCPAbstractItem*>(daly_), static_cast<QCPAbstractItem*>(young_),
                                  static_cast<QCPAbstractItem*>(optimumLabel_)})
        item->setVisible(curveShown);
    optimum_->setVisible(curveShown);
    const bool chosenShown = curveShown && !r.intervalIsOptimum;
    chosen_->setVisible(chosenShown);
    chosenLabel_->setVisible(chosenShown);
    if (curveShown) {
        goodput_->xAxis->setRange(tau.front(), tau.back());
        double low = 100;
        for (double v : g)
            low = std::min(low, v);
        goodput_->yAxis->setRange(std::max(0.0, std::floor(low / 10) * 10), 100);
        daly_->point1->setCoords(r.dalyIntervalMin, 0);
        daly_->point2->setCoords(r.dalyIntervalMin, 1);
        daly_->setPen(QPen(mark, 1.5, Qt::DashLine));
        young_->point1->setCoords(r.youngIntervalMin, 0);
        young_->point2->setCoords(r.youngIntervalMin, 1);
        young_->setPen(QPen(textColor(true), 1, Qt::DotLine));
        optimum_->setData({r.dalyIntervalMin}, {r.dalyGoodput * 100}, true);
        optimum_->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, mark, mark, 9));
        // At the foot of the optimum's line, on the side with more room.
        optimumLabel_->position->setCoords(r.dalyIntervalMin, 0.97);
        const bool rightHalf = std::log(r.dalyIntervalMin / tau.front()) > std::log(tau.back() / r.dalyIntervalMin);
        optimumLabel_->setPositionAlignment((rightHalf ? Qt::AlignRight : Qt::AlignLeft) | Qt::AlignBottom);
        optimumLabel_->setTextAlignment(rightHalf ? Qt::AlignRight : Qt::AlignLeft);
        optimumLabel_->setText(tr("Daly %1: %2\nYoung %3 (dotted)")
                                   .arg(quantity(r.dalyIntervalMin, "min"), percent(r.dalyGoodput),
                                        quantity(r.youngIntervalMin, "min")));
        optimumLabel_->setColor(fg);
        if (chosenShown) {
            chosen_->setData({r.intervalMin}, {r.goodput * 100}, true);
            chosen_->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDiamond, fg, fg, 10));
            chosenLabel_->position->setCoords(r.intervalMin, r.goodput * 100);
            chosenLabel_->setText(tr("this design: %1, %2").arg(quantity(r.intervalMin, "min"), percent(r.goodput)));
            chosenLabel_->setColor(fg);
        }
    }

    std::vector<FigureRow> rows{
        {tr("Failures"), {}, {}, FigureRow::Heading},
        explained(tr("Cluster MTBF"), duration(r.clusterMtbfH), "reliability.cluster_mtbf_h", FigureRow::Good),
        explained(tr("Failures per day"), q(formatReadable(r.failuresPerDay)), "reliability.failures_per_day"),
        explained(tr("P(failure within 24 h)"), percent(r.pFailure24h), "reliability.p_failure_24h"),
        {tr("Checkpoints"), {}, {}, FigureRow::Heading}};
    if (r.canCheckpoint) {
        rows.push_back(explained(tr("Checkpoint size"), quantity(a.data.checkpointGb, "GB"), "storage.checkpoint_write_s"));
        rows.push_back(explained(tr("Write time"), quantity(r.checkpointWriteS, "s"), "storage.checkpoint_write_s"));
        rows.push_back(explained(r.intervalIsOptimum ? tr("Interval (Daly optimum)") : tr("Interval (set)"),
                           quantity(r.intervalMin, "min"), "reliability.checkpoint_interval_min"));
    } else {
        rows.push_back({tr("No storage: a failure restarts the run"), {}, {}, FigureRow::Bad});
    }
    rows.push_back(explained(tr("Goodput"), percent(r.goodput), "reliability.goodput", FigureRow::Good));
    rows.push_back({tr("Training run"), {}, {}, FigureRow::Heading});
    rows.push_back(explained(tr("Wall-clock days"), quantity(r.wallDays, "days"), "reliability.wall_days"));
    rows.push_back(explained(tr("Expected interruptions"), q(formatReadable(r.expectedInterruptions)),
                       "reliability.expected_interruptions"));
    figures_->setFigures(rows);
}

}  // namespace studio
