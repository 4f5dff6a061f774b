#include "widgets/panels/mfu_panel.h"

#include <QGridLayout>

#include <qcustomplot.h>

#include "core/analysis/analysis.h"
#include "core/text.h"
#include "widgets/common/qt_string.h"
#include "widgets/panels/explain_html.h"
#include "widgets/panels/figure_table.h"
#include "widgets/style/theme.h"

namespace studio {
namespace {

QString capitalized(std::string_view s)
{
    QString t = q(s);
    if (!t.isEmpty() && t != "MFU")
        t[0] = t[0].toUpper();
    return t;
}

// A loss too small to see is left out of the waterfall (its tip in the
// MFU bar lists nothing: such losses are 0 in the model, e.g. CP with cp = 1).
constexpr double kVisibleLoss = 5e-5;

}  // namespace

MfuPanel::MfuPanel(AnalysisService* service, QWidget* parent) : PlotPanel(tr("MFU breakdown"), service, parent)
{
    waterfall_ = addPlot("waterfall");
    waterfall_->xAxis->setLabel(tr("Share of peak FLOP/s (%)"));
    waterfall_->xAxis->setRange(0, 120);  // room for the values beside the bars
    waterfall_->yAxis->setRangeReversed(true);
    setCategoryAxis(waterfall_->yAxis);
    base_ = new QCPBars(waterfall_->yAxis, waterfall_->xAxis);
    base_->setObjectName("base");
    base_->setPen(Qt::NoPen);
    base_->setBrush(Qt::NoBrush);
    base_->setSelectable(QCP::stNone);
    loss_ = new QCPBars(waterfall_->yAxis, waterfall_->xAxis);
    loss_->setObjectName("losses");
    level_ = new QCPBars(waterfall_->yAxis, waterfall_->xAxis);
    level_->setObjectName("levels");
    for (QCPBars* b : {base_, loss_, level_}) {
        b->setWidth(0.7);
        b->setStackingGap(0);
    }
    loss_->moveAbove(base_);
    level_->moveAbove(loss_);
    for (QCPBars* b : {loss_, level_})
        setTip(b, [this, b](int i) {
            const Analysis* a = analysis();
            const std::size_t k = categoryOf(b, i);
            if (!a || k >= keys_.size())
                return QString();
            for (const auto& bar : a->utilization.waterfall)
                if (bar.name == keys_[k])
                    return tip(capitalized(bar.name), (bar.level ? "" : "-") + percent(bar.fraction) + tr(" of peak"),
                               "training.waterfall." + keys_[k]);
            return QString();
        });

    // Memory per GPU: one stacked column against the HBM line.
    memory_ = addPlot("memory");
    memory_->setMinimumWidth(170);
    memory_->setMaximumWidth(210);
    memory_->setMinimumHeight(200);
    memory_->yAxis->setLabel(tr("Memory per GPU (GB)"));
    memory_->xAxis->setTicks(false);
    memory_->xAxis->setTickLabels(false);
    memory_->xAxis->grid()->setVisible(false);
    memory_->xAxis->setRange(0.4, 1.6);
    legendOutside(memory_, 1);
    memoryParts_ = addStack(memory_->xAxis, memory_->yAxis, {"weights", "gradients", "optimizer", "activations", "workspace"});
    for (QCPBars* b : memoryParts_) {
        const std::string key = b->objectName().toStdString();
        setTip(b, [this, key](int) {
            const Analysis* a = analysis();
            if (!a)
                return QString();
            const auto& m = a->memory;
            const double gb = key == "weights" ? m.weightsGb : key == "gradients" ? m.gradientsGb
                              : key == "optimizer" ? m.optimizerGb : key == "activations" ? m.activationsGb
                                                                                          : m.workspaceGb;
            return tip(capitalized(key), quantity(gb, "GB per GPU"),
                       key == "activations" ? "training.memory_gb_per_gpu.activations"
                                            : "training.memory_gb_per_gpu.total");
        });
    }
    capacity_ = new QCPItemStraightLine(memory_);
    capacity_->setObjectName("hbm capacity");
    capacityLabel_ = new QCPItemText(memory_);
    capacityLabel_->position->setType(QCPItemPosition::ptPlotCoords);
    capacityLabel_->setPositionAlignment(Qt::AlignHCenter | Qt::AlignBottom);
    capacityLabel_->setTextAlignment(Qt::AlignHCenter);
    capacityLabel_->setPadding(QMargins(2, 2, 2, 3));
    setTip(capacity_, [this] {
        const Analysis* a = analysis();
        return a ? tip(tr("HBM capacity"), quantity(a->memory.capacityGb, "GB"), "training.memory_gb_per_gpu.total")
                 : QString();
    });

    figures_ = addFigureTable();
    figures_->setMinimumWidth(280);
    figures_->setMaximumWidth(380);
    grid()->addWidget(waterfall_, 0, 0);
    grid()->addWidget(figures_, 0, 1);
    grid()->addWidget(memory_, 0, 2);
    grid()->setColumnStretch(0, 3);
    grid()->setColumnStretch(1, 1);
}

void MfuPanel::refresh(const Analysis& a)
{
    const SceneColors colors = sceneColors();
    QColor lossColor = colors.error, levelColor = seriesColor(0);
    lossColor.setAlpha(170);
    levelColor.setAlpha(200);
    loss_->setBrush(lossColor);
    loss_->setPen(QPen(colors.error.darker(115)));
    level_->setBrush(levelColor);
    level_->setPen(QPen(seriesColor(0).darker(120)));

    QVector<double> baseKeys, baseValues, lossKeys, lossValues, levelKeys, levelValues;
    auto ticker = qSharedPointerCast<QCPAxisTickerText>(waterfall_->yAxis->ticker());
    ticker->clear();
    keys_.clear();
    std::size_t labels = 0;
    for (const auto& bar : a.utilization.waterfall) {
        if (!bar.level && bar.fraction < kVisibleLoss)
            continue;
        keys_.emplace_back(bar.name);
        const double key = double(keys_.size());
        ticker->addTick(key, capitalized(bar.name));
        baseKeys << key;
        baseValues << bar.from * 100;
        (bar.level ? levelKeys : lossKeys) << key;
        (bar.level ? levelValues : lossValues) << bar.fraction * 100;
        QCPItemText* t = label(waterfall_, valueLabels_, labels++);
        t->position->setType(QCPItemPosition::ptPlotCoords);
        t->position->setCoords(bar.to * 100, key);
        t->setPositionAlignment(Qt::AlignLeft | Qt::AlignVCenter);
        t->setText(bar.level ? percent(bar.fraction) : QString::fromUtf8("\u2212") + percent(bar.fraction));
        QFont f = font();
        f.setBold(bar.level);
        t->setFont(f);
    }
    hideFrom(valueLabels_, labels);
    base_->setData(baseKeys, baseValues, true);
    loss_->setData(lossKeys, lossValues, true);
    level_->setData(levelKeys, levelValues, true);
    waterfall_->yAxis->setRange(0.4, double(keys_.size()) + 0.6);

    // Memory per GPU against HBM.
    const auto& m = a.memory;
    const double parts[] = {m.weightsGb, m.gradientsGb, m.optimizerGb, m.activationsGb, m.workspaceGb};
    const char* names[] = {"weights", "gradients", "optimizer", "activations", "workspace"};
    for (std::size_t i = 0; i < memoryParts_.size(); ++i) {
        QCPBars* b = memoryParts_[i];
        b->setData({1.0}, {parts[i]}, true);
        const QColor c = seriesColor(int(i) + 2);
        b->setBrush(c);
        b->setPen(QPen(c.darker(130)));
        b->setName(tr("%1 %2").arg(tr(names[i]), quantity(parts[i], "GB")));
    }
    memory_->yAxis->setRange(0, std::max(m.totalGb, m.capacityGb) * 1.18);
    const QColor lineColor = m.fits ? textColor() : colors.error;
    capacity_->point1->setCoords(0, m.capacityGb);
    capacity_->point2->setCoords(1, m.capacityGb);
    capacity_->setPen(QPen(lineColor, 2, Qt::DashLine));
    capacityLabel_->position->setCoords(1.0, m.capacityGb);
    capacityLabel_->setColor(lineColor);
    capacityLabel_->setText(m.fits ? tr("HBM %1\n(%2 GiB)").arg(quantity(m.capacityGb, "GB"), q(formatReadable(m.hbmGb)))
                                   : tr("does not fit:\n%1 > %2").arg(quantity(m.totalGb, "GB"),
                                                                      quantity(m.capacityGb, "GB")));

    const auto& s = a.step;
    const auto& r = a.reliability;
    std::vector<FigureRow> rows;
    if (!s.valid) {
        rows.push_back({tr("No step time: the design needs GPUs and a workload"), {}, {}, FigureRow::Bad});
    } else {
        rows = {
            {tr("Step"), {}, {}, FigureRow::Heading},
            explained(tr("Step time"), quantity(s.stepS, "s"), "training.step_time_s"),
            explained(tr("Tokens per second"), quantity(s.tokensPerS, "tokens/s"), "training.tokens_per_s"),
            explained(tr("TFLOP/s/GPU (model)"), quantity(s.tflopsPerGpuModel, "TFLOP/s"), "training.tflops_per_gpu_model"),
            explained(tr("TFLOP/s/GPU (hardware)"), quantity(s.tflopsPerGpuHardware, "TFLOP/s"),
                "training.tflops_per_gpu_hardware"),
            explained(tr("MFU"), percent(s.mfu), "training.mfu", FigureRow::Good),
            explained(tr("HFU (with recompute)"), percent(s.hfu), "training.hfu"),
            explained(tr("Days to train (compute)"), quantity(s.daysToTrain, "days"), "training.days_to_train"),
            explained(tr("Days to train (wall clock)"), quantity(r.wallDays, "days"), "reliability.wall_days"),
            explained(tr("Memory per GPU"), tr("%1 of %2").arg(quantity(m.totalGb, "GB"), quantity(m.capacityGb, "GB")),
                "training.memory_gb_per_gpu.total", m.fits ? FigureRow::Normal : FigureRow::Bad),
        };
    }
    figures_->setFigures(rows);
}

}  // namespace studio
