#include "widgets/scale/sensitivity_panel.h"

#include <QComboBox>

#include <QHBoxLayout>
#include <QLabel>
#include <QVBoxLayout>

#include <cmath>

#include "core/model/analysis.h"
#include "core/scale/upgrades.h"
#include "core/text.h"
#include "widgets/analysis/run_progress_bar.h"
#include "widgets/charts/chart_plot.h"
#include "widgets/common/qt_string.h"
#include "widgets/document/design_document.h"
#include "widgets/panels/message_stack.h"
#include "widgets/report/report_document.h"
#include "widgets/scale/sensitivity_chart.h"
#include "widgets/scale/sensitivity_service.h"
#include "widgets/scale/upgrades_service.h"
#include "widgets/scale/upgrades_table.h"

namespace studio {

QString sensitivitySummary(const SensitivityResult& r)
{
    return "<b>" + q(r.binding).toHtmlEscaped() + "</b> " +
        QObject::tr("Today: %1 days to train (wall clock), run electricity $%2, the run %3 with ownership%4.")
            .arg(q(formatReadable(r.days)), q(formatReadable(r.costUsd)),
                 q(std::isfinite(r.runCostUsd) ? formatUsd(r.runCostUsd) : std::string("-")),
                 r.costComplete ? QString() : QObject::tr(" (priced parts only)"));
}

SensitivityPanel::SensitivityPanel(DesignDocument* document, AnalysisService* analyses, QWidget* parent)
    : BackgroundPanel(parent), doc_(document), service_(new SensitivityService(document, analyses, this)),
      upgrades_(new UpgradesService(document, analyses, this))
{
    service_->setWanted(false);
    upgrades_->setWanted(false);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(6, 6, 6, 6);
    auto* bar = new QHBoxLayout;
    summary_ = new QLabel(this);
    summary_->setWordWrap(true);
    summary_->setTextFormat(Qt::RichText);
    bar->addWidget(summary_, 1);
    auto* measure = measure_ = new QComboBox(this);
    measure->setObjectName("measure");
    for (SensitivityMeasure m : kSensitivityMeasures)
        measure->addItem(tr("Effect on %1").arg(measureLabel(m)), int(m));
    measure->setToolTip(tr("What the tornado shows each input's effect on: prices, cost of capital and "
                           "utilisation move what the run and a GPU-hour cost, never the days"));
    bar->addWidget(measure, 0, Qt::AlignTop);
    progress_ = new RunProgressBar(service_, this);
    bar->addWidget(progress_, 0, Qt::AlignTop);
    layout->addLayout(bar);
    // The tornado and the upgrades, or a sentence saying why there are none.
    auto* content = new QWidget(this);
    auto* row = new QHBoxLayout(content);
    row->setContentsMargins(0, 0, 0, 0);
    chart_ = new SensitivityChart(content);
    row->addWidget(chart_, 4);
    connect(measure, &QComboBox::activated, this,
            [this, measure] { chart_->setMeasure(SensitivityMeasure(measure->currentData().toInt())); });
    upgradesTable_ = new UpgradesTable(document, upgrades_, content);
    row->addWidget(upgradesTable_, 5);
    stack_ = new MessageStack(content, this);
    layout->addWidget(stack_, 1);
    connect(service_, &SensitivityService::finished, this, &SensitivityPanel::refresh);
    connect(upgradesTable_, &UpgradesTable::message, this, &BackgroundPanel::message);
}

std::vector<BackgroundJob*> SensitivityPanel::jobs() const
{
    return {service_, upgrades_};
}

void SensitivityPanel::setShown(bool shown)
{
    service_->setWanted(shown);
    upgrades_->setWanted(shown);
    if (shown)
        refresh();
}

void SensitivityPanel::refresh()
{
    const SensitivityResult* r = service_->result();
    const bool shown = r && r->error.empty();
    measure_->setVisible(shown);
    if (shown) {
        stack_->showContent();
        summary_->setText(sensitivitySummary(*r));
    } else {
        summary_->clear();
        showWhyNone(*stack_, tr("No sensitivity"), r ? &r->error : nullptr, service_->running(),
                    tr("Changing each input..."), doc_->design());
    }
    chart_->draw(r);
}

namespace {

// The Sensitivity pages' core work: the tornado, then the upgrades.
struct SensitivityPages {
    SensitivityResult tornado;
    UpgradesResult upgrades;
};

SensitivityPages sensitivityPages(const Design& design, const Catalog& catalog, const std::atomic<bool>* cancel)
{
    return {analyzeSensitivity(design, catalog, cancel), analyzeUpgrades(design, catalog, cancel)};
}

}  // namespace

std::any SensitivityPanel::prepareReport(const Design& design, const Catalog& catalog, const std::atomic<bool>* cancel)
{
    return sensitivityPages(design, catalog, cancel);
}

void SensitivityPanel::report(ReportDocument& doc, const ReportInputs& in)
{
    if (!in.analysis.runnable())
        return;
    const SensitivityPages pages =
        preparedOr<SensitivityPages>(in, [&] { return sensitivityPages(in.design, in.catalog, nullptr); });
    const SensitivityResult& tornado = pages.tornado;
    if (!tornado.ok())
        return;
    doc.heading(QObject::tr("Sensitivity: what limits this design"), 1, true);
    doc.paragraph(sensitivitySummary(tornado));
    SensitivityChart chart;
    forPaper(chart);
    chart.draw(&tornado);
    doc.panelPlots(chart, {chart.plot()});
    // A change as a share of today's figure: more days or cost is worse.
    auto percent = [](double now, double today) -> ReportCell {
        if (!std::isfinite(now) || !(today > 0))
            return {std::isfinite(now) ? QStringLiteral("-") : QObject::tr("never"), ReportCell::Bad, true};
        const double d = now / today - 1;
        return {q(formatChange(d)),
                d > 1e-9        ? ReportCell::Bad
                    : d < -1e-9 ? ReportCell::Good
                                : ReportCell::Normal,
                true};
    };
    auto change = [&](const SensitivityChange& c) { return percent(c.days, tornado.days); };
    auto runCost = [&](const SensitivityChange& c) { return percent(c.runCostUsd, tornado.runCostUsd); };
    std::vector<ReportRow> rows;
    for (const auto& in : tornado.inputs)
        rows.push_back(
            {{q(in.label)},
             {q(formatReadable(in.value) + (in.unit.empty() ? "" : " " + in.unit)), ReportCell::Normal, true},
             change(in.at(-0.5)),
             change(in.at(-0.1)),
             change(in.at(0.1)),
             change(in.at(0.5)),
             runCost(in.at(-0.5)),
             runCost(in.at(0.5))});
    doc.table({QObject::tr("Input"), QObject::tr("Today"), QObject::tr("Days -50%"), QObject::tr("-10%"),
               QObject::tr("+10%"), QObject::tr("+50%"), QObject::tr("Run cost -50%"), QObject::tr("+50%")},
              rows, {24, 18, 10, 9, 9, 9, 12, 9});
    const UpgradesResult& upgrades = pages.upgrades;
    if (!upgrades.ok())
        return;
    // docs/model.md section 18: each upgrade against today, what it changes
    // under its name.
    doc.heading(QObject::tr("What-if upgrades"), 2);
    auto delta = [](double after, double today, const QString& text, bool lessIsBetter) -> ReportCell {
        const double d = today != 0 ? after / today - 1 : 0;
        const bool same = std::abs(d) < 5e-4;
        return {text + (same ? "" : " (" + QString(d > 0 ? "+" : "") + percentText(d) + ")"),
                same                          ? ReportCell::Normal
                    : (d < 0) == lessIsBetter ? ReportCell::Good
                                              : ReportCell::Bad,
                true};
    };
    const ScaleFigures& t = upgrades.today;
    std::vector<ReportRow> upgradeRows = {{{QObject::tr("Today"), ReportCell::Heading},
                                           {q(formatCount(upgrades.gpus)), ReportCell::Normal, true},
                                           {q(formatReadable(t.tokensPerS)), ReportCell::Normal, true},
                                           {q(formatReadable(t.wallDays)), ReportCell::Normal, true},
                                           {"$" + q(formatReadable(t.runCostUsd)), ReportCell::Normal, true},
                                           {q(formatPowerKw(t.facilityKw)), ReportCell::Normal, true}}};
    for (const auto& o : upgrades.upgrades) {
        QStringList what;
        for (const auto& c : o.proposal.changes)
            what << q(c);
        ReportCell name{upgradeTitle(o.proposal.kind), ReportCell::Normal, false,
                        o.proposal.ok() ? what.join("; ") : q(o.proposal.unavailable)};
        if (!o.after) {
            upgradeRows.push_back({name,
                                   {"-", ReportCell::Muted, true},
                                   {"-", ReportCell::Muted, true},
                                   {"-", ReportCell::Muted, true},
                                   {"-", ReportCell::Muted, true},
                                   {"-", ReportCell::Muted, true}});
            continue;
        }
        const ScaleFigures& a = *o.after;
        upgradeRows.push_back({name,
                               {q(formatCount(o.gpus)), ReportCell::Normal, true},
                               delta(a.tokensPerS, t.tokensPerS, q(formatReadable(a.tokensPerS)), false),
                               delta(a.wallDays, t.wallDays, q(formatReadable(a.wallDays)), true),
                               delta(a.runCostUsd, t.runCostUsd, "$" + q(formatReadable(a.runCostUsd)), true),
                               delta(a.facilityKw, t.facilityKw, q(formatPowerKw(a.facilityKw)), true)});
    }
    doc.table({QObject::tr("Upgrade"), QObject::tr("GPUs"), QObject::tr("Tokens/s"), QObject::tr("Wall days"),
               QObject::tr("Electricity"), QObject::tr("Facility")},
              upgradeRows, {34, 8, 16, 14, 14, 14});
}

}  // namespace studio
