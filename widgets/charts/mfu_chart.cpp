#include "widgets/charts/mfu_chart.h"

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

// A loss too small to see is left out of the waterfall (such losses are 0
// in the model, e.g. CP with cp = 1), unless some design has one.
constexpr double kVisibleLoss = 5e-5;

struct MemoryPart {
    const char* key;
    const char* name;
    double MemoryUse::*gb;
    const char* explainKey;
};
constexpr MemoryPart kMemoryParts[] = {
    {"weights", "weights", &MemoryUse::weightsGb, "training.memory_gb_per_gpu.total"},
    {"gradients", "gradients", &MemoryUse::gradientsGb, "training.memory_gb_per_gpu.total"},
    {"optimizer", "optimizer", &MemoryUse::optimizerGb, "training.memory_gb_per_gpu.total"},
    {"activations", "activations", &MemoryUse::activationsGb, "training.memory_gb_per_gpu.activations"},
    {"workspace", "workspace", &MemoryUse::workspaceGb, "training.memory_gb_per_gpu.total"}};

const WaterfallBar* findStep(const Analysis& a, const std::string& key)
{
    for (const auto& b : a.utilization.waterfall)
        if (b.key == key)
            return &b;
    return nullptr;
}

QString stepValue(const WaterfallBar& b)
{
    return (b.level ? QString() : QString::fromUtf8("\u2212")) + percent(b.fraction);
}

}  // namespace

void MfuChart::setUp(ChartView& view)
{
    view_ = &view;
    waterfall_ = view.addPlot("waterfall");
    waterfall_->xAxis->setLabel(QObject::tr("Share of peak FLOP/s (%)"));
    waterfall_->yAxis->setRangeReversed(true);
    setCategoryAxis(waterfall_->yAxis);
    base_ = new QCPBars(waterfall_->yAxis, waterfall_->xAxis);
    base_->setObjectName("base");
    base_->setPen(Qt::NoPen);
    base_->setBrush(Qt::NoBrush);
    base_->setSelectable(QCP::stNone);
    base_->removeFromLegend();
    loss_ = new QCPBars(waterfall_->yAxis, waterfall_->xAxis);
    loss_->setObjectName("losses");
    level_ = new QCPBars(waterfall_->yAxis, waterfall_->xAxis);
    level_->setObjectName("levels");
    for (QCPBars* b : {base_, loss_, level_}) {
        b->setWidth(0.7);
        b->setStackingGap(0);
        b->removeFromLegend();
    }
    loss_->moveAbove(base_);
    level_->moveAbove(loss_);
    for (QCPBars* b : {loss_, level_})
        view.setTip(b, [this, b](int i) {
            const auto& designs = view_->designs();
            const std::size_t k = categoryOf(b, i);
            if (designs.empty() || k >= steps_.size())
                return QString();
            const WaterfallBar* bar = findStep(*designs.front().analysis, steps_[k]);
            return bar ? view_->tip(0, capitalized(bar->name), stepValue(*bar) + QObject::tr(" of peak"),
                                    "training.waterfall." + steps_[k])
                       : QString();
        });

    // Memory per GPU: a stacked column (one per design) against HBM.
    memory_ = view.addPlot("memory");
    memory_->setMinimumHeight(200);
    memory_->yAxis->setLabel(QObject::tr("Memory per GPU (GB)"));
    setCategoryAxis(memory_->xAxis);
    legendOutside(memory_, 1);
    memoryParts_ =
        addStack(memory_->xAxis, memory_->yAxis, {"weights", "gradients", "optimizer", "activations", "workspace"});
    for (std::size_t p = 0; p < memoryParts_.size(); ++p) {
        QCPBars* b = memoryParts_[p];
        view.setTip(b, [this, b, p](int i) {
            const auto& designs = view_->designs();
            const std::size_t d = categoryOf(b, i);
            if (d >= designs.size())
                return QString();
            const MemoryPart& part = kMemoryParts[p];
            return view_->tip(d, capitalized(part.name), quantity(designs[d].analysis->memory.*part.gb, "GB per GPU"),
                              part.explainKey);
        });
    }
    capacity_ = new QCPItemStraightLine(memory_);
    capacity_->setObjectName("hbm capacity");
    capacityLabel_ = new ChartText(memory_);
    capacityLabel_->setObjectName("hbm capacity label");
    capacityLabel_->position->setType(QCPItemPosition::ptPlotCoords);
    capacityLabel_->setPositionAlignment(Qt::AlignHCenter | Qt::AlignBottom);
    capacityLabel_->setTextAlignment(Qt::AlignHCenter);
    capacityLabel_->setPadding(QMargins(2, 2, 2, 3));
    capacityLabel_->setFlipsAtEdge(true);  // under the line, over the stack's free room
    view.setTip(capacity_, [this] {
        const auto& designs = view_->designs();
        return designs.empty()
            ? QString()
            : view_->tip(0, QObject::tr("HBM capacity"), quantity(designs.front().analysis->memory.capacityGb, "GB"),
                         "training.memory_gb_per_gpu.total");
    });

    view.grid()->addWidget(waterfall_, 0, 0);
    view.grid()->setColumnStretch(0, 3);
    int column = 1;
    if (FigureTable* table = view.figureTable()) {
        table->setMinimumWidth(280);
        table->setMaximumWidth(380);
        view.grid()->addWidget(table, 0, column++);
        view.grid()->setColumnStretch(1, 1);
    }
    view.grid()->addWidget(memory_, 0, column);
}

void MfuChart::draw(ChartView& view, const std::vector<ChartDesign>& designs)
{
    drawWaterfall(view, designs);
    drawMemory(view, designs);
}

void MfuChart::drawWaterfall(ChartView& view, const std::vector<ChartDesign>& designs)
{
    overlayWaterfall_.clear(waterfall_);
    // The steps every design has, in order; a loss too small to see only
    // when some design has it.
    std::vector<std::vector<std::string>> sequences;
    for (const ChartDesign& d : designs) {
        std::vector<std::string> keys;
        for (const auto& b : d.analysis->utilization.waterfall)
            keys.emplace_back(b.key);
        sequences.push_back(std::move(keys));
    }
    steps_.clear();
    for (const auto& key : mergeOrder(sequences)) {
        bool shown = false;
        for (const ChartDesign& d : designs)
            if (const WaterfallBar* b = findStep(*d.analysis, key))
                shown = shown || b->level || b->fraction >= kVisibleLoss;
        if (shown)
            steps_.push_back(key);
    }
    auto ticker = categoryTicker(waterfall_->yAxis);
    ticker->clear();
    for (std::size_t k = 0; k < steps_.size(); ++k) {
        bool level = false;
        QString name;
        for (const ChartDesign& d : designs)
            if (const WaterfallBar* b = findStep(*d.analysis, steps_[k])) {
                level = b->level;
                name = capitalized(b->name);
            }
        // Overlaid, a loss reads as one: "- Communication" under "Peak".
        ticker->addTick(double(k + 1), level || designs.size() == 1 ? name : QString::fromUtf8("\u2212 ") + name);
    }
    waterfall_->yAxis->setRange(0.4, double(std::max<std::size_t>(steps_.size(), 1)) + 0.6);

    if (designs.size() == 1) {
        // Each loss hangs from what is left after the ones above it: an
        // invisible bar up to where it starts, the loss stacked on it.
        const Analysis& a = *designs.front().analysis;
        const SceneColors colors = sceneColors();
        QColor lossColor = colors.error, levelColor = seriesColor(0);
        lossColor.setAlpha(170);
        levelColor.setAlpha(200);
        loss_->setBrush(lossColor);
        loss_->setPen(QPen(colors.error.darker(115)));
        level_->setBrush(levelColor);
        level_->setPen(QPen(seriesColor(0).darker(120)));
        QVector<double> baseKeys, baseValues, lossKeys, lossValues, levelKeys, levelValues;
        for (std::size_t k = 0; k < steps_.size(); ++k) {
            const WaterfallBar& bar = *findStep(a, steps_[k]);
            const double key = double(k + 1);
            baseKeys << key;
            baseValues << bar.from * 100;
            (bar.level ? levelKeys : lossKeys) << key;
            (bar.level ? levelValues : lossValues) << bar.fraction * 100;
            QCPItemText* t = view.label(waterfall_, valueLabels_, k);
            t->position->setType(QCPItemPosition::ptPlotCoords);
            t->position->setCoords(bar.to * 100, key);
            t->setPositionAlignment(Qt::AlignLeft | Qt::AlignVCenter);
            t->setText(stepValue(bar));
            QFont f = view.font();
            f.setBold(bar.level);
            t->setFont(f);
        }
        ChartView::hideFrom(valueLabels_, steps_.size());
        for (QCPBars* b : {base_, loss_, level_})
            b->setVisible(true);
        base_->setData(baseKeys, baseValues, true);
        loss_->setData(lossKeys, lossValues, true);
        level_->setData(levelKeys, levelValues, true);
        waterfall_->xAxis->setRange(0, 120);  // room for the values beside the bars
        hideLegend(waterfall_);
        return;
    }

    for (QCPBars* b : {base_, loss_, level_})
        b->setVisible(false);
    ChartView::hideFrom(valueLabels_, 0);
    waterfall_->xAxis->setRange(0, 105);
    QCPBarsGroup* group = overlayWaterfall_.add(newBarsGroup(waterfall_));
    const std::size_t n = designs.size();
    for (std::size_t i = 0; i < n; ++i) {
        auto* offset = overlayWaterfall_.add(new QCPBars(waterfall_->yAxis, waterfall_->xAxis));
        offset->setObjectName("offset");
        offset->setWidth(groupedBarWidth(n));
        offset->setPen(Qt::NoPen);
        offset->setBrush(Qt::NoBrush);
        offset->setSelectable(QCP::stNone);
        offset->removeFromLegend();
        offset->setBarsGroup(group);
        offset->setStackingGap(0);
        QCPBars* bars =
            overlayWaterfall_.add(designBars(waterfall_->yAxis, waterfall_->xAxis, group,
                                             std::size_t(colorIndex(designs, i)), n, designs[i].label, "steps"));
        bars->setStackingGap(0);
        bars->moveAbove(offset);
        for (std::size_t k = 0; k < steps_.size(); ++k) {
            const WaterfallBar* b = findStep(*designs[i].analysis, steps_[k]);
            if (!b)
                continue;
            offset->addData(double(k + 1), b->from * 100);
            bars->addData(double(k + 1), b->fraction * 100);
        }
        const std::vector<std::string> steps = steps_;
        view.setTip(bars, [this, bars, i, steps](int index) {
            const auto& designs = view_->designs();
            const std::size_t k = categoryOf(bars, index);
            if (i >= designs.size() || k >= steps.size())
                return QString();
            const WaterfallBar* b = findStep(*designs[i].analysis, steps[k]);
            return b ? view_->tip(i, capitalized(b->name), stepValue(*b) + QObject::tr(" of peak"),
                                  "training.waterfall." + steps[k])
                     : QString();
        });
    }
    legendOutside(waterfall_, int(designs.size()));
}

void MfuChart::drawMemory(ChartView& view, const std::vector<ChartDesign>& designs)
{
    overlayMemory_.clear(memory_);
    const std::size_t n = designs.size();
    const bool one = n == 1;
    // One column is a narrow strip beside the table; several need room each.
    memory_->setMinimumWidth(one ? 170 : 110 + 65 * int(n));
    memory_->setMaximumWidth(one ? 210 : 130 + 85 * int(n));
    auto ticker = categoryTicker(memory_->xAxis);
    ticker->clear();
    memory_->xAxis->setTickLabels(!one);
    memory_->xAxis->setTicks(!one);
    double top = 0;
    for (std::size_t p = 0; p < memoryParts_.size(); ++p) {
        QCPBars* b = memoryParts_[p];
        QVector<double> keys, values;
        for (std::size_t i = 0; i < n; ++i) {
            keys << double(i + 1);
            values << designs[i].analysis->memory.*kMemoryParts[p].gb;
        }
        b->setData(keys, values, true);
        b->setWidth(one ? 0.6 : 0.55);
        const QColor c = seriesColor(int(p) + 2);
        b->setBrush(c);
        b->setPen(QPen(c.darker(130)));
        b->setName(one ? QObject::tr("%1 %2").arg(QObject::tr(kMemoryParts[p].name), quantity(values.front(), "GB"))
                       : QObject::tr(kMemoryParts[p].name));
    }
    const SceneColors colors = sceneColors();
    for (std::size_t i = 0; i < n; ++i) {
        const MemoryUse& m = designs[i].analysis->memory;
        top = std::max({top, m.totalGb, m.capacityGb});
        if (!one)
            ticker->addTick(double(i + 1), designTick(designs[i].label));
    }
    memory_->xAxis->setRange(0.4, double(n) + 0.6);
    memory_->yAxis->setRange(0, std::max(top, 1e-9) * 1.18);
    if (one) {
        const MemoryUse& m = designs.front().analysis->memory;
        const QColor lineColor = m.fits ? view.textColor() : colors.error;
        capacity_->setVisible(true);
        capacityLabel_->setVisible(true);
        capacity_->point1->setCoords(0, m.capacityGb);
        capacity_->point2->setCoords(1, m.capacityGb);
        capacity_->setPen(QPen(lineColor, 2, Qt::DashLine));
        capacityLabel_->position->setCoords(1.0, m.capacityGb);
        capacityLabel_->setColor(lineColor);
        capacityLabel_->setText(
            m.fits
                ? QObject::tr("HBM %1\n(%2 GiB)").arg(quantity(m.capacityGb, "GB"), readable(m.hbmGb))
                : QObject::tr("does not fit:\n%1 > %2").arg(quantity(m.totalGb, "GB"), quantity(m.capacityGb, "GB")));
        return;
    }
    // Each design's HBM across its own column, in its colour.
    capacity_->setVisible(false);
    capacityLabel_->setVisible(false);
    for (std::size_t i = 0; i < n; ++i) {
        const MemoryUse& m = designs[i].analysis->memory;
        auto* line = overlayMemory_.add(new QCPItemLine(memory_));
        line->setObjectName("hbm capacity");
        line->start->setCoords(double(i + 1) - 0.38, m.capacityGb);
        line->end->setCoords(double(i + 1) + 0.38, m.capacityGb);
        line->setPen(QPen(m.fits ? designColor(colorIndex(designs, i)) : colors.error, 2.5, Qt::DashLine));
        view.setTip(line, [this, i] {
            const auto& designs = view_->designs();
            if (i >= designs.size())
                return QString();
            const MemoryUse& m = designs[i].analysis->memory;
            return view_->tip(i, QObject::tr("HBM capacity"),
                              QObject::tr("%1 of %2").arg(quantity(m.totalGb, "GB"), quantity(m.capacityGb, "GB")),
                              "training.memory_gb_per_gpu.total");
        });
        auto* label = overlayMemory_.add(new ChartText(memory_));
        label->position->setType(QCPItemPosition::ptPlotCoords);
        label->position->setCoords(double(i + 1), m.capacityGb);
        label->setPositionAlignment(Qt::AlignHCenter | Qt::AlignBottom);
        label->setPadding(QMargins(2, 2, 2, 3));
        label->setText(m.fits ? QObject::tr("HBM %1").arg(quantity(m.capacityGb, "GB")) : QObject::tr("does not fit"));
        label->setColor(m.fits ? view.textColor() : colors.error);
    }
}

std::vector<FigureRow> MfuChart::figures(const Analysis& a)
{
    const auto& s = a.step;
    const auto& r = a.reliability;
    const auto& m = a.memory;
    if (!s.valid)
        return {{QObject::tr("No step time: the design needs GPUs and a workload"), {}, {}, FigureRow::Bad}};
    const std::string step = stepUnavailable(a), run = runUnavailable(a);
    return {
        {QObject::tr("Step"), {}, {}, FigureRow::Heading},
        explainedIf(step, q(figureName("training.step_time_s")), quantity(s.stepS, "s"), "training.step_time_s"),
        explainedIf(step, q(figureName("training.tokens_per_s")), quantity(s.tokensPerS, "tokens/s"),
                    "training.tokens_per_s"),
        explainedIf(step, q(figureName("training.tflops_per_gpu_model")), quantity(s.tflopsPerGpuModel, "TFLOP/s"),
                    "training.tflops_per_gpu_model"),
        explainedIf(step, q(figureName("training.tflops_per_gpu_hardware")),
                    quantity(s.tflopsPerGpuHardware, "TFLOP/s"), "training.tflops_per_gpu_hardware"),
        explainedIf(step, q(figureName("training.mfu")), percent(s.mfu), "training.mfu", FigureRow::Good),
        explainedIf(step, q(figureName("training.hfu")), percent(s.hfu), "training.hfu"),
        explainedIf(step, q(figureName("training.days_to_train")), quantity(s.daysToTrain, "days"),
                    "training.days_to_train"),
        explainedIf(run, q(figureName("reliability.wall_days")), quantity(r.wallDays, "days"), "reliability.wall_days"),
        explained(q(figureName("training.memory_gb_per_gpu.total")),
                  QObject::tr("%1 of %2").arg(quantity(m.totalGb, "GB"), quantity(m.capacityGb, "GB")),
                  "training.memory_gb_per_gpu.total", m.fits ? FigureRow::Normal : FigureRow::Bad),
    };
}

}  // namespace studio
