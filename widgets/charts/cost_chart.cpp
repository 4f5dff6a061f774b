#include "widgets/charts/cost_chart.h"

#include <QGridLayout>

#include <algorithm>

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

// "$57.8M-72.3M": a band in the unit of its high end.
QString bandText(const UsdBand& b)
{
    return usd(b.low) + QString::fromUtf8("\u2013") + usd(b.high).mid(1);
}

// The parts without a price, for a sentence: "Air-cooled rack (42U) x 64".
QString unpricedText(const Cost& c)
{
    QStringList parts;
    for (const UnpricedPart& u : c.unpriced)
        parts << QObject::tr("%1 x %2").arg(q(u.name), q(formatCount(u.count)));
    return parts.join(", ");
}

}  // namespace

void CostChart::setUp(ChartView& view)
{
    view_ = &view;
    capex_ = view.addPlot("capex");
    capex_->setMinimumHeight(150);
    setCategoryAxis(capex_->yAxis);  // a row per design
    legendOutside(capex_, 3);
    kinds_ = addStack(capex_->yAxis, capex_->xAxis, {"compute", "network", "storage", "racks", "facility"});
    for (std::size_t k = 0; k < kinds_.size(); ++k) {
        QCPBars* b = kinds_[k];
        b->setName(q(std::string(capexKindLabel(kCapexKinds[k]))));
        view.setTip(b, [this, b, k](int i) {
            const auto& designs = view_->designs();
            const std::size_t d = categoryOf(b, i);
            if (d >= designs.size())
                return QString();
            const UsdBand& band = designs[d].analysis->cost.capexByKind[k];
            return view_->tip(d, q(std::string(capexKindLabel(kCapexKinds[k]))), usd(band.typical),
                              "cost.capex_by_kind." + std::string(capexKindKey(kCapexKinds[k])));
        });
    }

    hour_ = view.addPlot("gpu hour");
    hour_->setMinimumHeight(130);
    setCategoryAxis(hour_->yAxis);
    hideLegend(hour_);
    hour_->xAxis->setLabel(QObject::tr("USD per GPU-hour"));
    owned_ = new QCPBars(hour_->yAxis, hour_->xAxis);
    owned_->setObjectName("owned");
    owned_->setWidth(0.5);
    view.setTip(owned_, [this](int i) {
        const auto& designs = view_->designs();
        const std::size_t d = categoryOf(owned_, i);
        if (d >= designs.size())
            return QString();
        return view_->tip(d, q(figureName("cost.usd_per_gpu_hour")),
                          usd(designs[d].analysis->cost.usdPerGpuHour.typical), "cost.usd_per_gpu_hour");
    });

    view.grid()->addWidget(capex_, 0, 0);
    view.grid()->addWidget(hour_, 1, 0);
    view.grid()->setColumnStretch(0, 3);
    view.grid()->setRowStretch(0, 3);
    view.grid()->setRowStretch(1, 2);
    if (FigureTable* table = view.figureTable()) {
        // Room for "Run cost, rented" beside a value and its band.
        table->setMinimumWidth(310);
        table->setMaximumWidth(400);
        view.grid()->addWidget(table, 0, 1, 2, 1);
        view.grid()->setColumnStretch(1, 1);
    }
}

void CostChart::draw(ChartView& view, const std::vector<ChartDesign>& designs)
{
    drawCapex(view, designs);
    drawGpuHour(view, designs);
}

void CostChart::drawCapex(ChartView& view, const std::vector<ChartDesign>& designs)
{
    const std::size_t n = designs.size();
    double most = 0;
    for (const ChartDesign& d : designs)
        most = std::max(most, d.analysis->cost.capex.high);
    // Millions once a design reaches one, so the axis reads 65.6, not 65,645,591.
    scale_ = most >= 1e9 ? 1e-9 : most >= 1e6 ? 1e-6 : most >= 1e3 ? 1e-3 : 1;
    capex_->xAxis->setLabel(scale_ == 1e-9       ? QObject::tr("Capex (USD billions)")
                                : scale_ == 1e-6 ? QObject::tr("Capex (USD millions)")
                                : scale_ == 1e-3 ? QObject::tr("Capex (USD thousands)")
                                                 : QObject::tr("Capex (USD)"));
    // The facility, built, is the hatched last of the stack.
    fillStack(
        kinds_, n,
        [&](std::size_t k, std::size_t i) { return designs[i].analysis->cost.capexByKind[k].typical * scale_; },
        view.textColor(true));
    auto ticker = categoryTicker(capex_->yAxis);
    ticker->clear();
    const bool one = n == 1;
    capex_->yAxis->setVisible(!one);
    capex_->yAxis->setRangeReversed(true);
    capex_->yAxis->setRange(0.4, double(n) + 0.6);
    capex_->xAxis->setRange(0, std::max(most * scale_, 1e-9) * (one ? 1.15 : 1.6));
    capex_->setMinimumHeight(one ? 150 : 90 + 45 * int(n));
    const SceneColors colors = sceneColors();
    for (std::size_t i = 0; i < n; ++i) {
        const Cost& c = designs[i].analysis->cost;
        if (!one)
            ticker->addTick(double(i + 1), designTick(designs[i].label));
        // At the bar's end: the total, its band and what it lacks.
        QCPItemText* t = view.label(capex_, capexLabels_, i);
        t->position->setType(QCPItemPosition::ptPlotCoords);
        t->position->setCoords(c.capex.typical * scale_, double(i + 1));
        t->setPositionAlignment(Qt::AlignLeft | Qt::AlignVCenter);
        QString text = QObject::tr(" %1 (%2)").arg(usd(c.capex.typical), bandText(c.capex));
        if (!c.complete())
            text += one ? QObject::tr("\n incomplete, no price: %1").arg(unpricedText(c))
                        : QObject::tr("\n incomplete: %n part(s) unpriced", nullptr, int(c.unpriced.size()));
        t->setText(text);
        t->setColor(c.complete() ? (one ? view.textColor() : designColor(int(i)).darker(115)) : colors.error);
        if (one) {
            // Room for the label after the bar: the total and its band take
            // about a third of the width; what an incomplete design lacks,
            // a sentence more.
            t->position->setCoords(c.capex.typical * scale_, 1.0);
            capex_->xAxis->setRange(0, std::max(c.capex.high * scale_, 1e-9) * (c.complete() ? 1.5 : 1.9));
        }
    }
    ChartView::hideFrom(capexLabels_, n);
}

void CostChart::drawGpuHour(ChartView& view, const std::vector<ChartDesign>& designs)
{
    const std::size_t n = designs.size();
    const bool one = n == 1;
    QVector<double> keys, values;
    double most = 0;
    for (std::size_t i = 0; i < n; ++i) {
        const Cost& c = designs[i].analysis->cost;
        keys << double(i + 1);
        values << c.usdPerGpuHour.typical;
        most = std::max({most, c.usdPerGpuHour.high, c.cloudUsdPerGpuHour ? c.cloudUsdPerGpuHour->typical : 0.0});
    }
    // One design's bar in the chart's own colour; several, each in its own.
    overlayOwned_.clear(hour_);
    owned_->setVisible(one);
    owned_->setData(one ? keys : QVector<double>{}, one ? values : QVector<double>{}, true);
    styleBars(owned_, seriesColor(0), 190);
    for (std::size_t i = 0; !one && i < n; ++i) {
        QCPBars* b = overlayOwned_.add(new QCPBars(hour_->yAxis, hour_->xAxis));
        b->setObjectName("owned");
        b->setName(designs[i].label);
        b->setWidth(0.5);
        styleBars(b, designColor(int(i)));
        b->addData(keys[int(i)], values[int(i)]);
        view.setTip(b, [this, i](int) {
            const auto& designs = view_->designs();
            if (i >= designs.size())
                return QString();
            return view_->tip(i, q(figureName("cost.usd_per_gpu_hour")),
                              usd(designs[i].analysis->cost.usdPerGpuHour.typical), "cost.usd_per_gpu_hour");
        });
    }
    auto ticker = categoryTicker(hour_->yAxis);
    ticker->clear();
    hour_->yAxis->setVisible(true);
    hour_->yAxis->setRangeReversed(true);
    hour_->yAxis->setRange(0.4, double(n) + 0.6);
    hour_->xAxis->setRange(0, std::max(most, 1e-9) * 1.7);
    hour_->setMinimumHeight(one ? 110 : 70 + 40 * int(n));
    const QColor cloudColor = seriesColor(4);
    std::size_t lines = 0;
    for (std::size_t i = 0; i < n; ++i) {
        const Cost& c = designs[i].analysis->cost;
        ticker->addTick(double(i + 1),
                        one ? QObject::tr("owned, %1 of hours").arg(percent(c.utilization.value))
                            : designTick(designs[i].label));
        QString text = QObject::tr(" owned %1").arg(usd(c.usdPerGpuHour.typical));
        // The cloud's price for the GPU, a tick across the bar.
        if (c.cloudUsdPerGpuHour) {
            while (clouds_.size() <= lines) {
                clouds_.push_back(new QCPItemLine(hour_));
                view.setTip(clouds_.back(), [this, line = clouds_.size() - 1] {
                    const auto& designs = view_->designs();
                    std::size_t seen = 0;
                    for (std::size_t d = 0; d < designs.size(); ++d)
                        if (const auto& cloud = designs[d].analysis->cost.cloudUsdPerGpuHour; cloud && seen++ == line)
                            return view_->tip(d, q(figureName("cost.cloud_usd_per_gpu_hour")), usd(cloud->typical),
                                              "cost.cloud_usd_per_gpu_hour");
                    return QString();
                });
            }
            QCPItemLine* line = clouds_[lines++];
            line->setVisible(true);
            line->setObjectName("cloud price");
            line->start->setCoords(c.cloudUsdPerGpuHour->typical, double(i + 1) - 0.38);
            line->end->setCoords(c.cloudUsdPerGpuHour->typical, double(i + 1) + 0.38);
            line->setPen(QPen(cloudColor, 3));
            text += QObject::tr(", cloud %1").arg(usd(c.cloudUsdPerGpuHour->typical));
        }
        QCPItemText* t = view.label(hour_, hourLabels_, i);
        t->position->setType(QCPItemPosition::ptPlotCoords);
        t->position->setCoords(
            std::max(c.usdPerGpuHour.typical, c.cloudUsdPerGpuHour ? c.cloudUsdPerGpuHour->typical : 0.0),
            double(i + 1));
        t->setPositionAlignment(Qt::AlignLeft | Qt::AlignVCenter);
        t->setText(text);
        t->setColor(one ? view.textColor() : designColor(int(i)).darker(115));
    }
    for (std::size_t i = lines; i < clouds_.size(); ++i)
        clouds_[i]->setVisible(false);
    ChartView::hideFrom(hourLabels_, n);
}

std::vector<FigureRow> CostChart::figures(const Analysis& a)
{
    const Cost& c = a.cost;
    const auto row = [](const char* key, const QString& value, FigureRow::Tone tone = FigureRow::Normal) {
        return explained(q(figureName(key)), value, key, tone);
    };
    const auto banded = [](const UsdBand& b) { return usd(b.typical) + "  (" + bandText(b) + ")"; };
    std::vector<FigureRow> rows{
        {QObject::tr("To buy"), {}, {}, FigureRow::Heading},
        row("cost.capex_usd", banded(c.capex), c.complete() ? FigureRow::Good : FigureRow::Bad)};
    for (CapexKind k : kCapexKinds)
        if (c.capexByKind[std::size_t(k)].high > 0)
            rows.push_back(explained(q(std::string(capexKindLabel(k))), usd(c.capexByKind[std::size_t(k)].typical),
                                     "cost.capex_by_kind." + std::string(capexKindKey(k))));
    for (const UnpricedPart& u : c.unpriced)
        rows.push_back({QObject::tr("No price: %1").arg(q(u.name)), QObject::tr("x %1").arg(q(formatCount(u.count))),
                        QObject::tr("The catalog has no price for %1 (%2): every total leaves it out and is "
                                    "incomplete. Add one in a user catalog (docs/file-format.md, price).")
                            .arg(q(u.name), q(u.part)),
                        FigureRow::Bad});
    rows.push_back({QObject::tr("To own, a year"), {}, {}, FigureRow::Heading});
    rows.push_back(row("cost.annual_tco_usd", banded(c.annualTco)));
    rows.push_back(row("cost.usd_per_gpu_hour", usd(c.usdPerGpuHour.typical)));
    if (c.cloudUsdPerGpuHour)
        rows.push_back(row("cost.cloud_usd_per_gpu_hour", usd(c.cloudUsdPerGpuHour->typical)));
    if (a.serving) {
        rows.push_back({QObject::tr("Served tokens"), {}, {}, FigureRow::Heading});
        if (c.servingUsdPerMillionTokens)
            rows.push_back(row("cost.usd_per_million_tokens", usd(c.servingUsdPerMillionTokens->typical)));
        return rows;
    }
    rows.push_back({QObject::tr("Training run"), {}, {}, FigureRow::Heading});
    const std::string why = runUnavailable(a);
    rows.push_back(explainedIf(why, q(figureName("cost.run_cost_usd")), c.runCost ? banded(*c.runCost) : QString(),
                               "cost.run_cost_usd"));
    rows.push_back(explainedIf(why, q(figureName("cost.usd_per_million_tokens")),
                               c.usdPerMillionTokens ? usd(c.usdPerMillionTokens->typical) : QString(),
                               "cost.usd_per_million_tokens"));
    if (c.cloudUsdPerGpuHour)
        rows.push_back(explainedIf(why, q(figureName("cost.cloud_run_cost_usd")),
                                   c.cloudRunCost ? banded(*c.cloudRunCost) : QString(), "cost.cloud_run_cost_usd"));
    return rows;
}

}  // namespace studio
