#include "widgets/panels/kpi_strip.h"

#include <QEvent>
#include <QHelpEvent>
#include <QPainter>
#include <QToolTip>

#include "core/metrics/figure_names.h"
#include "core/serving/serving.h"
#include "core/text.h"
#include "widgets/analysis/analysis_service.h"
#include "widgets/charts/explain_html.h"
#include "widgets/common/qt_string.h"

namespace studio {
namespace {

constexpr int kGap = 4;       // between a figure's name and its value
constexpr int kSpacing = 21;  // between figures, a rule in the middle

QFont boldOf(QFont f)
{
    f.setBold(true);
    return f;
}

}  // namespace

KpiStrip::KpiStrip(AnalysisService* service, QWidget* parent) : QWidget(parent), service_(service)
{
    for (const char* key : {"gpus", "peak", "mfu", "days", "facility", "cost", "mtbf"})
        figures_.push_back({key, {}, {}, {}, {}, {}, {}, 0});
    connect(service_, &AnalysisService::updated, this, &KpiStrip::refresh);
    refresh();
}

const KpiStrip::Figure* KpiStrip::figure(const QString& key) const
{
    for (const Figure& f : figures_)
        if (f.key == key)
            return &f;
    return nullptr;
}

QString KpiStrip::text(const QString& key) const
{
    const Figure* f = figure(key);
    if (!f)
        return {};
    return f->name.isEmpty() ? f->value : f->name + " " + f->value;
}

QString KpiStrip::tip(const QString& key) const
{
    const Figure* f = figure(key);
    if (!f || !service_->analysis())
        return {};
    if (!f->how.isEmpty())
        return "<b>" + f->name.toHtmlEscaped() + " " + f->value.toHtmlEscaped() + "</b><br>" + f->how.toHtmlEscaped();
    return explainHtml(f->name, f->value, service_->explanation(f->explainKey));
}

void KpiStrip::measure(Figure& f) const
{
    f.nameText = QStaticText(f.name);
    f.valueText = QStaticText(f.value);
    for (QStaticText* t : {&f.nameText, &f.valueText})
        t->setTextFormat(Qt::PlainText);
    const QFontMetrics normal(font()), bold(boldOf(font()));
    f.width = (f.name.isEmpty() ? 0 : normal.horizontalAdvance(f.name) + kGap) + bold.horizontalAdvance(f.value);
}

void KpiStrip::refresh()
{
    const Analysis* a = service_->analysis();
    auto set = [this](const char* key, const QString& name, const QString& value, std::string explainKey,
                      const QString& how = {}) {
        for (Figure& f : figures_)
            if (f.key == QLatin1String(key)) {
                f.explainKey = std::move(explainKey);
                f.how = how;
                if (f.name == name && f.value == value)
                    return;
                f.name = name;
                f.value = value;
                measure(f);
            }
    };
    if (!a || a->inventory.gpus == 0) {
        for (Figure& f : figures_) {
            f.name.clear();
            f.value = QStringLiteral("\u2014");
            f.explainKey.clear();
            f.how.clear();
            measure(f);
        }
        // Where no number can exist yet, say so instead of printing zeros.
        if (a)
            set("gpus", q(figureName("inventory.gpus")), tr("none yet"), "",
                tr("Drag an accelerator or a node platform from the Parts palette onto the canvas, or open a "
                   "preset (File > Open)."));
    } else {
        set("gpus", q(figureName("inventory.gpus")), q(formatCount(a->inventory.gpus)), "compute.cluster_peak_pflops");
        // The peak is at the workload's precision: say which, as the compare
        // view and the roofline do.
        set("peak",
            q(figureName("compute.cluster_peak_pflops")) + ", " + q(a->hardware.gpu.trainingPrecision).toUpper(),
            quantity(a->clusterPeakPflops, "PFLOP/s"), "compute.cluster_peak_pflops");
        const std::string step = stepUnavailable(*a), run = runUnavailable(*a);
        set("mfu", q(figureName("training.mfu")),
            step.empty() ? q(formatReadable(a->step.mfu * 100)) + "%" : unavailableLabel(step), "training.mfu");
        set("days", q(figureName("reliability.wall_days")),
            run.empty() ? quantity(a->reliability.wallDays, "") : unavailableLabel(run), "reliability.wall_days");
        set("facility", q(figureName("power.facility_kw")), q(formatPowerKw(a->power.facilityKw)), "power.facility_kw");
        set("mtbf", q(figureName("reliability.cluster_mtbf_h")), q(formatDuration(a->reliability.clusterMtbfH)),
            "reliability.cluster_mtbf_h");
        // What the run costs; a "+" where parts without a price are left out
        // (its explanation says how many).
        const Cost& c = a->cost;
        const QString more = c.complete() ? QString() : QStringLiteral("+");
        set("cost", q(figureName("cost.run_cost_usd")),
            c.runCost && run.empty() ? usd(c.runCost->typical) + more : unavailableLabel(run), "cost.run_cost_usd");
        // A serving design has no training run: its serving figures instead.
        if (const Serving* s = service_->serving(); s && s->ok()) {
            const DecodePoint& d = s->decode;
            set("mfu", q(figureName("serving.tokens_per_s_per_gpu")), q(formatReadable(d.tokensPerSPerGpu)),
                "serving.tokens_per_s_per_gpu",
                tr("batch %1 x output tokens / (its prompts' prefill + output tokens x time per output token) / %2 "
                   "GPUs "
                   "per replica (docs/model.md, section 19)")
                    .arg(q(formatCount(s->batch)))
                    .arg(s->gpusPerReplica));
            set("days", q(figureName("serving.tpot_s")), quantity(1000 * d.tpotS, "ms"), "serving.tpot_s",
                tr("one decode step at batch %1: pp x (max(weights and KV read, compute) + communication)")
                    .arg(q(formatCount(s->batch))));
            if (a->cost.servingUsdPerMillionTokens)
                set("cost", q(figureName("cost.usd_per_million_tokens")),
                    usd(a->cost.servingUsdPerMillionTokens->typical) + (a->cost.complete() ? "" : "+"),
                    "cost.usd_per_million_tokens");
            set("mtbf", q(figureName("serving.replicas_needed")),
                tr("%1 (%2 GPUs)").arg(q(formatCount(s->replicasNeeded)), q(formatCount(s->gpusNeeded))),
                "serving.replicas_needed",
                tr("requests in flight (arrival rate x end-to-end latency, Little's law) / "
                   "batch, rounded up"));
        } else if (s) {
            set("mfu", tr("Serving"), unavailableLabel("not servable: " + s->errors.front().message), "serving",
                q(s->errors.front().message));
            set("days", q(figureName("serving.tpot_s")), QStringLiteral("\u2014"), "serving.tpot_s",
                q(s->errors.front().message));
        }
    }
    int needed = 0;
    for (const Figure& f : figures_)
        needed += f.width + kSpacing;
    if (needed > width_) {
        width_ = needed;
        updateGeometry();  // the only time the status bar lays out again
    }
    update();
}

QSize KpiStrip::sizeHint() const
{
    return {width_, fontMetrics().height() + 4};
}

QSize KpiStrip::minimumSizeHint() const
{
    return {figures_.empty() ? 0 : figures_.back().width + kSpacing, sizeHint().height()};
}

std::size_t KpiStrip::firstShown() const
{
    int needed = 0;
    for (const Figure& f : figures_)
        needed += f.width + kSpacing;
    std::size_t first = 0;
    while (first + 1 < figures_.size() && needed > width())
        needed -= figures_[first++].width + kSpacing;
    return first;
}

int KpiStrip::firstX() const
{
    int needed = 0;
    for (std::size_t i = firstShown(); i < figures_.size(); ++i)
        needed += figures_[i].width + kSpacing;
    // Right-aligned, as the status bar's permanent widgets are, in the room
    // asked for (which only grows, so a shorter number leaves space at the
    // end rather than moving every figure); left-aligned once that room is
    // more than the strip was given.
    return width() - std::max(needed, std::min(width_, width())) + kSpacing / 2;
}

void KpiStrip::paintEvent(QPaintEvent*)
{
    QPainter p(this);
    const QFont normal = font(), bold = boldOf(font());
    const int y = (height() - fontMetrics().height()) / 2;
    int x = firstX();
    const QColor rule = palette().color(QPalette::Mid);
    const std::size_t first = firstShown();
    for (std::size_t i = first; i < figures_.size(); ++i) {
        const Figure& f = figures_[i];
        if (i > first) {
            p.setPen(rule);
            p.drawLine(x - kSpacing / 2, 3, x - kSpacing / 2, height() - 4);
        }
        p.setPen(palette().color(QPalette::WindowText));
        int at = x;
        if (!f.name.isEmpty()) {
            p.setFont(normal);
            p.drawStaticText(at, y, f.nameText);
            at += QFontMetrics(normal).horizontalAdvance(f.name) + kGap;
        }
        p.setFont(bold);
        p.drawStaticText(at, y, f.valueText);
        x += f.width + kSpacing;
    }
}

int KpiStrip::figureAt(int px) const
{
    int x = firstX();
    for (std::size_t i = firstShown(); i < figures_.size(); ++i) {
        if (px >= x - kSpacing / 2 && px < x + figures_[i].width + kSpacing / 2)
            return int(i);
        x += figures_[i].width + kSpacing;
    }
    return -1;
}

bool KpiStrip::event(QEvent* event)
{
    if (event->type() == QEvent::ToolTip) {
        auto* help = static_cast<QHelpEvent*>(event);
        const int i = figureAt(help->pos().x());
        const QString text = !service_->analysis() ? tr("The design has errors: see the Warnings dock")
            : i >= 0                               ? tip(figures_[std::size_t(i)].key)
                                                   : QString();
        if (text.isEmpty())
            QToolTip::hideText();
        else
            QToolTip::showText(help->globalPos(), text, this);
        return true;
    }
    return QWidget::event(event);
}

void KpiStrip::changeEvent(QEvent* event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::FontChange) {
        for (Figure& f : figures_)
            measure(f);
        width_ = 0;
        refresh();
    }
}

}  // namespace studio
