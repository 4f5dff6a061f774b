#include "widgets/panels/hierarchy_panel.h"

#include <QGridLayout>

#include <algorithm>
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

// "TP, DP", an axis on a tier too slow for it marked: "TP \u2717, DP".
QString axesText(const std::vector<std::string>& axes, const Hierarchy& h)
{
    QStringList out;
    for (const auto& a : axes) {
        bool slow = false;
        for (const auto& x : h.axes)
            slow = slow || (x.axis == a && x.tooSlow);
        out << q(a).toUpper() + (slow ? QString::fromUtf8(" \u2717") : QString());
    }
    return out.join(", ");
}

QString latencyText(double us)
{
    return us < 1 ? QString::fromStdString(formatReadable(us * 1000)) + " ns"
                  : QString::fromStdString(formatReadable(us)) + " \u00b5s";
}

}  // namespace

HierarchyPanel::HierarchyPanel(AnalysisService* service, QWidget* parent)
    : PlotPanel(tr("Bandwidth hierarchy"), service, parent)
{
    plot_ = addPlot("hierarchy");
    setLogAxis(plot_->yAxis);
    plot_->yAxis->setLabel(tr("Bandwidth per GPU (GB/s)"));
    setCategoryAxis(plot_->xAxis);
    bars_ = new QCPBars(plot_->xAxis, plot_->yAxis);
    bars_->setObjectName("tiers");
    bars_->setName(tr("tier"));
    flagged_ = new QCPBars(plot_->xAxis, plot_->yAxis);
    flagged_->setObjectName("tiers carrying a misplaced axis");
    flagged_->setName(tr("carries an axis too slow for it"));
    for (QCPBars* b : {bars_, flagged_}) {
        b->setWidth(0.62);
        setTip(b, [this, b](int i) {
            const Analysis* a = analysis();
            if (!a)
                return QString();
            const double key = b->data()->at(i)->key;
            const std::size_t t = std::size_t(std::lround(key)) - 1;
            if (t >= a->hierarchy.tiers.size())
                return QString();
            const Tier& tier = a->hierarchy.tiers[t];
            QString html = tip(q(tier.name), quantity(tier.gbPerSPerGpu, "GB/s per GPU"), "hierarchy." + tier.key);
            html += "<p>" + tr("Latency %1; scope %2 GPUs").arg(latencyText(tier.latencyUs),
                                                                 q(formatCount(tier.scopeGpus)));
            if (!tier.axes.empty())
                html += "<br>" + tr("Traffic here: %1").arg(axesText(tier.axes, a->hierarchy));
            return html + "</p>";
        });
    }
    auto* note = new QLabel(tr("Link tiers are bidirectional per GPU, as vendors quote NVLink (H100: 900 GB/s = 2 x "
                               "450); collectives get one direction x the tier's efficiency. HBM is its total; "
                               "storage is each GPU's share of the read bandwidth."),
                            this);
    note->setWordWrap(true);
    note->setForegroundRole(QPalette::PlaceholderText);
    figures_ = addFigureTable();
    figures_->setMinimumWidth(290);
    figures_->setMaximumWidth(360);
    grid()->addWidget(plot_, 0, 0);
    grid()->addWidget(note, 1, 0);
    grid()->addWidget(figures_, 0, 1, 2, 1);
    grid()->setColumnStretch(0, 4);
    grid()->setColumnStretch(1, 1);
    grid()->setRowStretch(0, 1);
}

void HierarchyPanel::refresh(const Analysis& a)
{
    const auto& tiers = a.hierarchy.tiers;
    const SceneColors colors = sceneColors();
    QColor ok = seriesColor(0), bad = colors.error;
    bars_->setPen(QPen(ok.darker(120)));
    ok.setAlpha(170);
    bars_->setBrush(ok);
    flagged_->setPen(QPen(bad.darker(120), 1.5));
    bad.setAlpha(190);
    flagged_->setBrush(bad);

    double lo = 1e18, hi = 0;
    for (const auto& t : tiers)
        if (t.gbPerSPerGpu > 0)
            lo = std::min(lo, t.gbPerSPerGpu), hi = std::max(hi, t.gbPerSPerGpu);
    if (hi <= 0)
        lo = 1, hi = 10;
    const double bottom = std::pow(10.0, std::floor(std::log10(lo / 3)));
    plot_->yAxis->setRange(bottom, std::pow(10.0, std::ceil(std::log10(hi * 30))));
    bars_->setBaseValue(bottom);
    flagged_->setBaseValue(bottom);
    plot_->xAxis->setRange(0.4, double(tiers.size()) + 0.6);

    QVector<double> okKeys, okValues, badKeys, badValues;
    auto ticker = qSharedPointerCast<QCPAxisTickerText>(plot_->xAxis->ticker());
    ticker->clear();
    std::size_t ratios = 0;
    for (std::size_t i = 0; i < tiers.size(); ++i) {
        const Tier& t = tiers[i];
        const double key = double(i + 1);
        bool misplaced = false;
        for (const auto& x : a.hierarchy.axes)
            misplaced = misplaced || (x.tier == t.key && x.tooSlow);
        (misplaced ? badKeys : okKeys) << key;
        (misplaced ? badValues : okValues) << std::max(t.gbPerSPerGpu, bottom);
        ticker->addTick(key, twoLines(q(t.name), 13) + "\n" +
                                 (t.scopeGpus == 1 ? tr("1 GPU") : tr("%1 GPUs").arg(q(formatCount(t.scopeGpus)))));

        QCPItemText* v = label(plot_, valueLabels_, i);
        v->position->setType(QCPItemPosition::ptPlotCoords);
        v->position->setCoords(key, std::max(t.gbPerSPerGpu, bottom));
        v->setPositionAlignment(Qt::AlignHCenter | Qt::AlignBottom);
        v->setTextAlignment(Qt::AlignHCenter);
        QString text = quantity(t.gbPerSPerGpu, "GB/s") + "\n" + latencyText(t.latencyUs);
        if (!t.axes.empty())
            text += "\n" + axesText(t.axes, a.hierarchy);
        v->setText(text);
        v->setColor(misplaced ? colors.error : textColor());
        QFont f = font();
        f.setBold(misplaced);
        v->setFont(f);

        if (i > 0 && t.ratioToAbove > 0) {
            QCPItemText* r = label(plot_, ratioLabels_, ratios++);
            r->position->setType(QCPItemPosition::ptPlotCoords);
            // Along the foot of the plot, between the two bars: the space
            // above them holds their own labels.
            r->position->setCoords(key - 0.5, bottom);
            r->setPositionAlignment(Qt::AlignHCenter | Qt::AlignBottom);
            r->setText(QString::fromUtf8("\u00f7 ") + q(formatReadable(t.ratioToAbove, 2)));
            r->setColor(textColor(true));
        }
    }
    hideFrom(valueLabels_, tiers.size());
    hideFrom(ratioLabels_, ratios);
    bars_->setData(okKeys, okValues, true);
    flagged_->setData(badKeys, badValues, true);

    std::vector<FigureRow> rows{{tr("Where each parallelism axis lands"), {}, {}, FigureRow::Heading}};
    if (a.hierarchy.axes.empty())
        rows.push_back({tr("(no parallelism beyond one GPU)"), {}, {}});
    for (const auto& x : a.hierarchy.axes) {
        const Tier* t = a.hierarchy.tier(x.tier);
        const QString name = tr("%1 = %2").arg(q(x.axis).toUpper(), q(formatCount(x.degree)));
        const QString where = t ? q(t->name) : q(x.tier);
        QString tipText = "<p><b>" + name.toHtmlEscaped() + "</b>: " + where.toHtmlEscaped() + "</p><p>" +
                          tr("Megatron rank order tp, cp, ep, dp, pp: a group covers %1 consecutive GPUs, so its "
                             "traffic crosses the fastest tier whose scope holds them: %2.")
                              .arg(q(formatCount(x.spanGpus)), where.toHtmlEscaped());
        if (x.tooSlow)
            tipText += "<br><b>" + tr("This axis needs a faster tier (TP wants NVLink; CP and EP want to stay "
                                      "inside a leaf).") +
                       "</b>";
        rows.push_back({name, where, tipText + "</p>", x.tooSlow ? FigureRow::Bad : FigureRow::Normal});
    }
    rows.push_back({tr("Tiers"), {}, {}, FigureRow::Heading});
    for (const auto& t : tiers)
        rows.push_back(explained(q(t.name), quantity(t.gbPerSPerGpu, "GB/s"), "hierarchy." + t.key));
    figures_->setFigures(rows);
}

}  // namespace studio
