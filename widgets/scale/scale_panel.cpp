#include "widgets/scale/scale_panel.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QVBoxLayout>

#include "core/model/analysis.h"
#include "core/scale/sweep_report.h"
#include "core/search/layout.h"
#include "core/text.h"
#include "widgets/analysis/run_progress_bar.h"
#include "widgets/charts/chart_plot.h"
#include "widgets/common/qt_string.h"
#include "widgets/document/design_document.h"
#include "widgets/panels/message_stack.h"
#include "widgets/report/report_document.h"
#include "widgets/scale/scale_charts.h"
#include "widgets/scale/scale_sweep_service.h"

namespace studio {

QString scaleSummary(const SweepResult& r)
{
    QString text = "<b>" + q(r.stopsPaying).toHtmlEscaped() + "</b> ";
    text +=
        QObject::tr("%1 scaling by %2 (%3 GPUs each), the best layout at each size. Ideal linear runs from %4 "
                    "GPUs, the most productive per GPU.")
            .arg(r.scaling == Scaling::Weak ? QObject::tr("Weak") : QObject::tr("Strong"),
                 q(inQuotes(r.growthUnit)).toHtmlEscaped(), q(formatCount(r.growthGpus)), q(formatCount(r.baseGpus)));
    // Where time and money part: more GPUs past the cheapest buy days at a
    // higher price.
    const auto costAt = [&r](std::int64_t gpus) -> QString {
        for (const SweepPoint& p : r.points)
            if (p.gpus == gpus && p.best && p.best->ownedRunCostUsd)
                return q(formatUsd(*p.best->ownedRunCostUsd)) + (p.best->costComplete ? "" : "+");
        return {};
    };
    if (r.cheapestGpus > 0 && r.fastestGpus > 0)
        text += r.cheapestGpus == r.fastestGpus
            ? QObject::tr(" The fastest run, at %1 GPUs, is also the cheapest (%2).")
                  .arg(q(formatCount(r.fastestGpus)), costAt(r.fastestGpus))
            : QObject::tr(" The cheapest run is at %1 GPUs (%2); the fastest at %3 GPUs costs %4.")
                  .arg(q(formatCount(r.cheapestGpus)), costAt(r.cheapestGpus), q(formatCount(r.fastestGpus)),
                       costAt(r.fastestGpus));
    if (r.amdahlSerialFraction)
        text += QObject::tr(" Amdahl serial fraction %1 (Karp-Flatt, %2 to %3 GPUs).")
                    .arg(q(formatReadable(*r.amdahlSerialFraction, 3)), q(formatCount(r.baseGpus)),
                         q(formatCount(r.designGpus)));
    return text;
}

ScalePanel::ScalePanel(DesignDocument* document, AnalysisService* analyses, QWidget* parent)
    : BackgroundPanel(parent), doc_(document), sweep_(new ScaleSweepService(document, analyses, this))
{
    sweep_->setWanted(false);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(6, 6, 6, 6);
    auto* bar = new QHBoxLayout;
    bar->addWidget(new QLabel(tr("Scaling"), this));
    scaling_ = new QComboBox(this);
    scaling_->addItem(tr("Strong: the global batch and tokens stay"), int(Scaling::Strong));
    scaling_->addItem(tr("Weak: batch and tokens grow with the GPUs"), int(Scaling::Weak));
    scaling_->setToolTip(tr("Strong scaling keeps the workload's global batch and tokens to train at every size; "
                            "weak scaling grows both with the GPUs, so each GPU's share of the work stays "
                            "(docs/model.md, Scale sweep)."));
    bar->addWidget(scaling_);
    progress_ = new RunProgressBar(sweep_, this);
    bar->addWidget(progress_);
    bar->addStretch(1);
    layout->addLayout(bar);

    // The summary and charts, or a sentence saying why there are none.
    auto* content = new QWidget(this);
    auto* contentLayout = new QVBoxLayout(content);
    contentLayout->setContentsMargins(0, 0, 0, 0);
    summary_ = new QLabel(content);
    summary_->setWordWrap(true);
    summary_->setTextFormat(Qt::RichText);
    contentLayout->addWidget(summary_);
    charts_ = new ScaleCharts(content);
    contentLayout->addWidget(charts_, 1);
    stack_ = new MessageStack(content, this);
    layout->addWidget(stack_, 1);

    connect(scaling_, &QComboBox::currentIndexChanged, this,
            [this] { sweep_->setScaling(Scaling(scaling_->currentData().toInt())); });
    connect(sweep_, &ScaleSweepService::started, this, [this] {
        // The previous sweep stays, dimmed, until this one lands.
        summary_->setEnabled(false);
        charts_->setEnabled(false);
    });
    connect(sweep_, &ScaleSweepService::finished, this, &ScalePanel::refresh);
}

std::vector<BackgroundJob*> ScalePanel::jobs() const
{
    return {sweep_};
}

void ScalePanel::setShown(bool shown)
{
    sweep_->setWanted(shown);
    if (shown)
        refresh();
}

void ScalePanel::refresh()
{
    summary_->setEnabled(true);
    charts_->setEnabled(true);
    const SweepResult* r = sweep_->result();
    // Nothing to scale (a serving design, errors): the choice has no effect.
    scaling_->setEnabled((r && r->error.empty()) || sweep_->running());
    if (r && r->error.empty()) {
        stack_->showContent();
        summary_->setText(scaleSummary(*r));
    } else {
        summary_->clear();
        showWhyNone(*stack_, tr("No scale sweep"), r ? &r->error : nullptr, sweep_->running(), tr("Sweeping sizes..."),
                    doc_->design());
    }
    charts_->draw(r);
}

std::any ScalePanel::prepareReport(const Design& design, const Catalog& catalog, const std::atomic<bool>* cancel)
{
    SweepOptions options;
    options.cancel = cancel;
    return sweepScale(design, catalog, options);
}

void ScalePanel::report(ReportDocument& doc, const ReportInputs& in)
{
    if (!in.analysis.runnable())
        return;
    const SweepResult sweep = preparedOr<SweepResult>(in, [&] { return sweepScale(in.design, in.catalog); });
    if (!sweep.ok())
        return;
    doc.heading(QObject::tr("Scale sweep: how many GPUs are worth it"), 1, true);
    doc.paragraph(scaleSummary(sweep));
    ScaleCharts charts;
    forPaper(charts);
    charts.draw(&sweep);
    doc.panelPlots(charts, {charts.throughputPlot(), charts.figuresPlot()});
    std::vector<ReportRow> rows;
    for (std::size_t i = 0; i < sweep.points.size(); ++i) {
        const SweepPoint& p = sweep.points[i];
        QStringList notes;
        for (const std::string& n : sweepNotes(sweep, i))
            if (p.best || n != p.whyNoBest)  // that is in the layout's column, which has room for it
                notes << q(n);
        if (!p.best) {
            rows.push_back({{q(formatCount(p.gpus)), ReportCell::Normal, true},
                            {q(p.whyNoBest), ReportCell::Muted},
                            {},
                            {},
                            {},
                            {},
                            {},
                            {},
                            {notes.join("; "), ReportCell::Muted}});
            continue;
        }
        const ScaleFigures& f = *p.best;
        rows.push_back(
            {{q(formatCount(p.gpus)), ReportCell::Normal, true},
             {q(describeLayout(f.layout))},
             {q(formatReadable(f.tokensPerS)), ReportCell::Normal, true},
             {percentText(f.tokensPerS / idealTokensPerS(sweep, p.gpus)), ReportCell::Normal, true},
             {percentText(f.mfu), ReportCell::Normal, true},
             {f.goodput > 0 ? q(formatReadable(f.wallDays)) : QObject::tr("never"), ReportCell::Normal, true},
             {percentText(f.goodput), ReportCell::Normal, true},
             {q(formatPowerKw(f.facilityKw)), ReportCell::Normal, true},
             {notes.join("; "), ReportCell::Muted}});
    }
    doc.table({QObject::tr("GPUs"), QObject::tr("Best layout"), QObject::tr("Tokens/s"), QObject::tr("Of ideal"),
               QObject::tr("MFU"), QObject::tr("Wall days"), QObject::tr("Goodput"), QObject::tr("Facility"),
               QObject::tr("Notes")},
              rows, {7, 24, 10, 7, 7, 7, 9, 9, 20});
}

}  // namespace studio
