#include "widgets/scale/sensitivity_chart.h"

#include <QMouseEvent>
#include <QToolTip>
#include <QVBoxLayout>

#include <cmath>

#include "core/text.h"
#include "widgets/charts/chart_plot.h"
#include "widgets/charts/chart_style.h"
#include "widgets/common/qt_string.h"

namespace studio {
namespace {

// A change that leaves the run unable to complete is drawn to the axis's
// end, labelled in the tip.
constexpr double kNeverPercent = 1000;
// Inputs whose four changes all move the measure by less than this (in %)
// share the bottom row, so a short dock keeps room for the rows that
// matter; hovering it names them.
constexpr double kNoEffectPercent = 0.05;

}  // namespace

SensitivityChart::SensitivityChart(QWidget* parent) : QWidget(parent)
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    plot_ = new ChartPlot(this);
    plot_->setMinimumWidth(320);
    setCategoryAxis(plot_->yAxis);
    plot_->yAxis->setRangeReversed(true);  // the largest effect on top
    plot_->setMouseTracking(true);
    connect(plot_, &QCustomPlot::mouseMove, this, &SensitivityChart::showTip);
    auto* group = new QCPBarsGroup(plot_);
    group->setSpacingType(QCPBarsGroup::stAbsolute);
    group->setSpacing(1);
    const char* names[] = {"-50%", "-10%", "+10%", "+50%"};
    const QColor colors[] = {seriesColor(0), seriesColor(0), seriesColor(1), seriesColor(1)};
    for (int i = 0; i < 4; ++i) {
        bars_[i] = new QCPBars(plot_->yAxis, plot_->xAxis);
        bars_[i]->setName(tr("input %1").arg(names[i]));
        bars_[i]->setWidth(0.2);
        bars_[i]->setBarsGroup(group);
        styleBars(bars_[i], colors[i], i == 0 || i == 3 ? 255 : 110);
    }
    legendOutside(plot_, 4);
    layout->addWidget(plot_);
}

void SensitivityChart::changeEvent(QEvent* event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::PaletteChange)
        draw(shown_ ? &*shown_ : nullptr);
}

void SensitivityChart::setMeasure(SensitivityMeasure measure)
{
    if (measure == measure_)
        return;
    measure_ = measure;
    std::optional<SensitivityResult> shown = std::move(shown_);
    draw(shown ? &*shown : nullptr);
}

void SensitivityChart::draw(const SensitivityResult* r)
{
    if (r && r->error.empty())
        shown_ = *r;
    else
        shown_.reset();
    auto ticker = categoryTicker(plot_->yAxis);
    ticker->clear();
    for (QCPBars* b : bars_)
        b->data()->clear();
    plot_->xAxis->setLabel(tr("change in %1 (%)").arg(measureLabel(measure_)));
    order_.clear();
    noEffect_.clear();
    if (shown_) {
        const double today = measureToday(*shown_, measure_);
        double lo = 0, hi = 0;
        for (std::size_t index : inputsByEffect(*shown_, measure_)) {
            const SensitivityInput& in = shown_->inputs[index];
            double pct[4];
            bool moves = false;
            for (int i = 0; i < 4; ++i) {
                const double v = measureOf(in.at(kSensitivityChanges[i]), measure_);
                pct[i] = std::isfinite(v) && today > 0 ? 100 * (v / today - 1) : kNeverPercent;
                moves = moves || std::abs(pct[i]) >= kNoEffectPercent;
            }
            if (!moves) {
                noEffect_.push_back(index);
                continue;
            }
            order_.push_back(index);
            const double key = double(order_.size());
            ticker->addTick(key, q(in.label));
            for (int i = 0; i < 4; ++i) {
                bars_[i]->addData(key, pct[i]);
                lo = std::min(lo, pct[i]);
                hi = std::max(hi, std::min(pct[i], kNeverPercent));
            }
        }
        if (!noEffect_.empty())
            ticker->addTick(double(order_.size() + 1),
                            tr("%n more, each under %1%", "", int(noEffect_.size())).arg(kNoEffectPercent));
        const double pad = 0.08 * std::max(1.0, hi - lo);
        plot_->xAxis->setRange(lo - pad, hi + pad);
        plot_->yAxis->setRange(0.4, double(order_.size() + (noEffect_.empty() ? 0 : 1)) + 0.6);
    }
    stylePlot(plot_, palette());
    plot_->replot();
}

void SensitivityChart::showTip(QMouseEvent* event)
{
    if (!shown_ || shown_->inputs.empty())
        return;
    const SensitivityResult* r = &*shown_;
    const double key = plot_->yAxis->pixelToCoord(event->position().y());
    const int k = int(std::lround(key)) - 1;
    const int rows = int(order_.size()) + (noEffect_.empty() ? 0 : 1);
    if (k < 0 || k >= rows || std::abs(key - double(k + 1)) > 0.45) {
        QToolTip::hideText();
        return;
    }
    if (k == int(order_.size())) {
        QStringList names;
        for (std::size_t index : noEffect_)
            names << q(r->inputs[index].label);
        QToolTip::showText(event->globalPosition().toPoint(),
                           tr("Moving any of these by -50% to +50% changes %1 by less than %2%: %3")
                               .arg(measureLabel(measure_), QString::number(kNoEffectPercent), names.join(", ")),
                           plot_);
        return;
    }
    const SensitivityInput& in = r->inputs[order_[std::size_t(k)]];
    QString tip = tr("%1, today %2 %3").arg(q(in.label), q(formatReadable(in.value)), q(in.unit));
    for (const auto& c : in.changes) {
        tip += "\n" + q(formatChange(c.change)) + " (" + q(formatReadable(c.value)) + "): ";
        if (!std::isfinite(c.days)) {
            tip += tr("never completes") + (c.whyNot.empty() ? QString() : " - " + q(c.whyNot));
            continue;
        }
        tip += tr("%1 days (%2), electricity $%3, run %4, GPU-hour %5")
                   .arg(q(formatReadable(c.days)), q(formatChange(c.days / r->days - 1)), q(formatReadable(c.costUsd)),
                        q(std::isfinite(c.runCostUsd) ? formatUsd(c.runCostUsd) : std::string("-")),
                        q(formatUsd(c.usdPerGpuHour)));
        if (c.reSearched)
            tip += tr("; the layout no longer fits: charged what it costs the best layout");
        else if (c.bestLayout)
            tip += tr("; the best layout becomes %1").arg(q(describeLayout(*c.bestLayout)));
    }
    tip += tr("\n\ndays = wall-clock days to train with goodput (reliability.wall_days), electricity = the run's "
              "facility MWh x 1,000 x the electricity price, run = the run's cost with ownership "
              "(cost.run_cost_usd), GPU-hour = a GPU-hour owned (cost.usd_per_gpu_hour); each change made to the "
              "design alone and analysed (docs/model.md, section 17)");
    QToolTip::showText(event->globalPosition().toPoint(), tip, plot_);
}

}  // namespace studio
