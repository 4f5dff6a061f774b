#include "widgets/charts/hierarchy_chart.h"

#include <QGridLayout>
#include <QLabel>

#include <algorithm>
#include <cmath>
#include <map>

#include <qcustomplot.h>

#include "core/model/analysis.h"
#include "core/text.h"
#include "widgets/charts/chart_text.h"
#include "widgets/charts/chart_view.h"
#include "widgets/charts/explain_html.h"
#include "widgets/common/qt_string.h"
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
    return us < 1 ? readable(us * 1000) + " ns" : readable(us) + " \u00b5s";
}

QString scopeText(std::int64_t gpus)
{
    return gpus == 1 ? QObject::tr("1 GPU") : QObject::tr("%1 GPUs").arg(q(formatCount(gpus)));
}

// The tip of a tier's bar: its bandwidth with the formula, its latency and
// scope, and the traffic it carries.
QString tierTip(const ChartView& view, std::size_t design, const Hierarchy& h, const Tier& tier)
{
    QString html = view.tip(design, q(tier.name), quantity(tier.gbPerSPerGpu, "GB/s per GPU"), "hierarchy." + tier.key);
    html += "<p>" +
        QObject::tr("Latency %1; scope %2 GPUs").arg(latencyText(tier.latencyUs), q(formatCount(tier.scopeGpus)));
    if (!tier.axes.empty())
        html += "<br>" + QObject::tr("Traffic here: %1").arg(axesText(tier.axes, h));
    return html + "</p>";
}

}  // namespace

void HierarchyChart::setUp(ChartView& view)
{
    view_ = &view;
    plot_ = view.addPlot("hierarchy");
    setLogAxis(plot_->yAxis);
    plot_->yAxis->setLabel(QObject::tr("Bandwidth per GPU (GB/s)"));
    setCategoryAxis(plot_->xAxis);
    plot_->legend->setVisible(false);
    bars_ = new QCPBars(plot_->xAxis, plot_->yAxis);
    bars_->setObjectName("tiers");
    bars_->setName(QObject::tr("tier"));
    flagged_ = new QCPBars(plot_->xAxis, plot_->yAxis);
    flagged_->setObjectName("tiers carrying a misplaced axis");
    flagged_->setName(QObject::tr("carries an axis too slow for it"));
    for (QCPBars* b : {bars_, flagged_}) {
        b->setWidth(0.62);
        b->removeFromLegend();  // the legend names designs when they are overlaid
        view.setTip(b, [this, b](int i) {
            const auto& designs = view_->designs();
            if (designs.empty() || i < 0 || i >= b->dataCount())
                return QString();
            const Hierarchy& h = designs.front().analysis->hierarchy;
            const std::size_t t = categoryOf(b, i);
            return t < h.tiers.size() ? tierTip(*view_, 0, h, h.tiers[t]) : QString();
        });
    }
    auto* note = new QLabel(QObject::tr("Link tiers are bidirectional per GPU, as vendors quote NVLink (H100: 900 GB/s "
                                        "= 2 x 450); collectives get one direction x the tier's efficiency. HBM is "
                                        "its total; storage is each GPU's share of the read bandwidth."),
                            &view);
    note->setObjectName("note");
    note->setWordWrap(true);
    note->setForegroundRole(QPalette::PlaceholderText);
    view.grid()->addWidget(plot_, 0, 0);
    view.grid()->addWidget(note, 1, 0);
    view.grid()->setColumnStretch(0, 4);
    view.grid()->setRowStretch(0, 1);
    if (FigureTable* table = view.figureTable()) {
        table->setMinimumWidth(290);
        table->setMaximumWidth(360);
        view.grid()->addWidget(table, 0, 1, 2, 1);
        view.grid()->setColumnStretch(1, 1);
    }
}

void HierarchyChart::draw(ChartView& view, const std::vector<ChartDesign>& designs)
{
    overlay_.clear(plot_);
    if (designs.size() == 1)
        return drawOne(view, *designs.front().analysis);
    for (QCPBars* b : {bars_, flagged_})
        b->setVisible(false);
    ChartView::hideFrom(valueLabels_, 0);
    ChartView::hideFrom(ratioLabels_, 0);
    drawOverlay(view, designs);
}

void HierarchyChart::drawOne(ChartView& view, const Analysis& a)
{
    const auto& tiers = a.hierarchy.tiers;
    const SceneColors colors = sceneColors();
    styleBars(bars_, seriesColor(0), 170);
    styleBars(flagged_, colors.error, 190);
    hideLegend(plot_);

    double lo = 1e18, hi = 0;
    for (const auto& t : tiers)
        if (t.gbPerSPerGpu > 0)
            lo = std::min(lo, t.gbPerSPerGpu), hi = std::max(hi, t.gbPerSPerGpu);
    if (hi <= 0)
        lo = 1, hi = 10;
    const double bottom = decadeBelow(lo / 3);
    plot_->yAxis->setRange(bottom, decadeAbove(hi * 30));
    bars_->setBaseValue(bottom);
    flagged_->setBaseValue(bottom);
    plot_->xAxis->setRange(0.4, double(tiers.size()) + 0.6);

    QVector<double> okKeys, okValues, badKeys, badValues;
    auto ticker = categoryTicker(plot_->xAxis);
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
        ticker->addTick(key, twoLines(q(t.name), 13) + "\n" + scopeText(t.scopeGpus));

        QCPItemText* v = view.label(plot_, valueLabels_, i);
        v->position->setType(QCPItemPosition::ptPlotCoords);
        v->position->setCoords(key, std::max(t.gbPerSPerGpu, bottom));
        v->setPositionAlignment(Qt::AlignHCenter | Qt::AlignBottom);
        v->setTextAlignment(Qt::AlignHCenter);
        v->setRotation(0);
        QString text = quantity(t.gbPerSPerGpu, "GB/s") + "\n" + latencyText(t.latencyUs);
        if (!t.axes.empty())
            text += "\n" + axesText(t.axes, a.hierarchy);
        v->setText(text);
        v->setColor(misplaced ? colors.error : view.textColor());
        QFont f = view.font();
        f.setBold(misplaced);
        v->setFont(f);

        if (i > 0 && t.ratioToAbove > 0) {
            QCPItemText* r = view.label(plot_, ratioLabels_, ratios++);
            r->position->setType(QCPItemPosition::ptPlotCoords);
            // Along the foot of the plot, between the two bars: the space
            // above them holds their own labels.
            r->position->setCoords(key - 0.5, bottom);
            r->setPositionAlignment(Qt::AlignHCenter | Qt::AlignBottom);
            r->setText(QString::fromUtf8("\u00f7 ") + readable(t.ratioToAbove, 2));
            r->setColor(view.textColor(true));
        }
    }
    ChartView::hideFrom(valueLabels_, tiers.size());
    ChartView::hideFrom(ratioLabels_, ratios);
    bars_->setVisible(true);
    flagged_->setVisible(true);
    bars_->setData(okKeys, okValues, true);
    flagged_->setData(badKeys, badValues, true);
}

void HierarchyChart::drawOverlay(ChartView& view, const std::vector<ChartDesign>& designs)
{
    std::vector<std::vector<std::string>> sequences;
    std::map<std::string, QString> names;
    double lo = 1e18, hi = 0;
    for (const ChartDesign& d : designs) {
        std::vector<std::string> keys;
        for (const auto& t : d.analysis->hierarchy.tiers) {
            names.emplace(t.key, q(t.name));
            if (t.gbPerSPerGpu > 0) {
                keys.push_back(t.key);
                lo = std::min(lo, t.gbPerSPerGpu), hi = std::max(hi, t.gbPerSPerGpu);
            }
        }
        sequences.push_back(std::move(keys));
    }
    if (hi <= 0)
        lo = 1, hi = 10;
    const std::vector<std::string> keys = mergeOrder(sequences);
    // Room above the tallest bar for its value written upwards.
    const double bottom = decadeBelow(lo / 3);
    plot_->yAxis->setRange(bottom, decadeAbove(hi * 60));
    plot_->xAxis->setRange(0.4, double(std::max<std::size_t>(keys.size(), 1)) + 0.6);
    auto ticker = categoryTicker(plot_->xAxis);
    ticker->clear();
    for (std::size_t k = 0; k < keys.size(); ++k)
        ticker->addTick(double(k + 1), twoLines(names[keys[k]], 14));

    QCPBarsGroup* group = overlay_.add(newBarsGroup(plot_));
    const std::size_t n = designs.size();
    for (std::size_t i = 0; i < n; ++i) {
        QCPBars* bars = overlay_.add(designBars(plot_->xAxis, plot_->yAxis, group, i, n, designs[i].label, "tiers"));
        bars->setBaseValue(bottom);
        for (std::size_t k = 0; k < keys.size(); ++k) {
            const Tier* t = designs[i].analysis->hierarchy.tier(keys[k]);
            if (!t || t->gbPerSPerGpu <= 0)
                continue;
            const double key = double(k + 1), value = std::max(t->gbPerSPerGpu, bottom);
            bars->addData(key, value);
            // The value up the bar from its top: narrow grouped bars keep it readable.
            auto* label = overlay_.add(new ChartText(plot_));
            label->setText(readable(t->gbPerSPerGpu));
            label->setColor(view.textColor());
            QFont f = view.font();
            f.setPointSizeF(f.pointSizeF() * 0.85);
            label->setFont(f);
            label->setPadding(QMargins(2, 1, 2, 1));
            label->position->setType(QCPItemPosition::ptPlotCoords);
            label->position->setCoords(key + groupedBarOffset(i, n), value);
            label->setPositionAlignment(Qt::AlignLeft | Qt::AlignVCenter);
            label->setRotation(-90);
            label->setClipToAxisRect(true);
        }
        const std::vector<std::string> tierKeys = keys;
        view.setTip(bars, [this, bars, i, tierKeys](int index) {
            const auto& designs = view_->designs();
            if (i >= designs.size() || index < 0 || index >= bars->dataCount())
                return QString();
            const std::size_t k = categoryOf(bars, index);
            const Hierarchy& h = designs[i].analysis->hierarchy;
            const Tier* t = k < tierKeys.size() ? h.tier(tierKeys[k]) : nullptr;
            return t ? tierTip(*view_, i, h, *t) : QString();
        });
    }
    legendOutside(plot_, int(designs.size()));
}

std::vector<FigureRow> HierarchyChart::figures(const Analysis& a)
{
    std::vector<FigureRow> rows{{QObject::tr("Where each parallelism axis lands"), {}, {}, FigureRow::Heading}};
    if (a.hierarchy.axes.empty())
        rows.push_back({QObject::tr("(no parallelism beyond one GPU)"), {}, {}});
    for (const auto& x : a.hierarchy.axes) {
        const Tier* t = a.hierarchy.tier(x.tier);
        const QString name = QObject::tr("%1 = %2").arg(q(x.axis).toUpper(), q(formatCount(x.degree)));
        const QString where = t ? q(t->name) : q(x.tier);
        // Plain text: the design review prints a row's tip as it is.
        QString tipText = QObject::tr("Megatron rank order tp, cp, ep, dp, pp: a group covers %1 consecutive GPUs, "
                                      "so its traffic crosses the fastest tier whose scope holds them: %2.")
                              .arg(q(formatCount(x.spanGpus)), where);
        if (x.tooSlow)
            tipText += " " +
                QObject::tr("This axis needs a faster tier (TP wants NVLink; CP and EP want to stay "
                            "inside a leaf).");
        rows.push_back({name, where, tipText, x.tooSlow ? FigureRow::Bad : FigureRow::Normal});
    }
    rows.push_back({QObject::tr("Tiers"), {}, {}, FigureRow::Heading});
    for (const auto& t : a.hierarchy.tiers)
        rows.push_back(explained(q(t.name), quantity(t.gbPerSPerGpu, "GB/s"), "hierarchy." + t.key));
    return rows;
}

}  // namespace studio
