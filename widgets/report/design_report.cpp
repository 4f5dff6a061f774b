#include "widgets/report/design_report.h"

#include <QApplication>
#include <QCoreApplication>
#include <QFileInfo>
#include <QLabel>
#include <QLocale>
#include <QPainter>
#include <QPicture>
#include <QSettings>
#include <QTableWidget>

#include <any>
#include <atomic>
#include <chrono>
#include <future>

#include <qcustomplot.h>

#include "core/catalog/catalog.h"
#include "core/compare/comparison.h"
#include "core/design/defaults.h"
#include "core/format/design_writer.h"
#include "core/metrics/explanations.h"
#include "core/metrics/metrics.h"
#include "core/metrics/serving_report.h"
#include "core/metrics/warning_rank.h"
#include "core/model/analysis.h"
#include "core/text.h"
#include "core/version.h"
#include "widgets/analysis/analysis_service.h"
#include "widgets/canvas/design_scene.h"
#include "widgets/charts/analysis_registry.h"
#include "widgets/charts/chart_plot.h"
#include "widgets/charts/chart_view.h"
#include "widgets/charts/figure_table.h"
#include "widgets/common/qt_string.h"
#include "widgets/common/settings_keys.h"
#include "widgets/document/design_document.h"
#include "widgets/panels/background_registry.h"
#include "widgets/report/report_document.h"
#include "widgets/style/theme.h"

namespace studio {
namespace {

// Steps the progress reports: building (the cover, the canvas, a page per
// analysis and per background analysis, the assumptions), then pages.
int buildSteps()
{
    return 3 + int(analysisRegistry().size() + backgroundRegistry().size());
}

QPicture scenePicture(DesignScene& scene, QSizeF* size)
{
    const QRectF source = scene.itemsBoundingRect().adjusted(-12, -12, 12, 12);
    *size = source.size();
    QPicture picture;
    QPainter painter(&picture);
    painter.setRenderHint(QPainter::Antialiasing);
    scene.clearSelection();
    scene.render(&painter, QRectF(QPointF(0, 0), source.size()), source);
    painter.end();
    return picture;
}

void cover(ReportDocument& doc, const Design& design, const Analysis& a, const Serving* serving, const Json& metrics,
           const ReportOptions& options)
{
    doc.heading(QObject::tr("Design review: %1").arg(q(design.name.empty() ? "Untitled design" : design.name)));
    if (!design.description.empty())
        doc.paragraph(q(design.description).toHtmlEscaped());
    doc.paragraph(QObject::tr("Generated %1 by Cluster Studio %2 from %3 (format %4). Figures are the studio's "
                              "analytic model of the design; appendix B shows how each is computed.")
                      .arg(options.date.toString("yyyy-MM-dd HH:mm"), q(std::string(kAppVersion)),
                           options.source.isEmpty() ? QObject::tr("an unsaved design")
                                                    : QFileInfo(options.source).fileName().toHtmlEscaped(),
                           q(design.format_version)),
                  true);
    doc.heading(QObject::tr("Key figures"), 2);
    // Two figures per row keeps the cover to one page.
    // The figures of the design's own workload and of the cluster.
    std::vector<KeyFigure> figures;
    for (const KeyFigure& f : keyFigures())
        if (!f.workload || f.workload == a.workloadKind())
            figures.push_back(f);
    const std::size_t half = (figures.size() + 1) / 2;
    std::vector<ReportRow> rows;
    auto cellsOf = [&](const KeyFigure& f) -> ReportRow {
        FigureCell cell;
        cell.value = figureValue(metrics, f);
        cell.unavailable = figureUnavailable(metrics, f);
        // A figure at a precision says which, as in the compare view.
        const QString label =
            f.namesItsPrecision() ? q(f.label) + ", " + q(figurePrecision(metrics)).toUpper() : q(f.label);
        return {{label}, {q(cell.text(f)), cell.value ? ReportCell::Normal : ReportCell::Bad, true}};
    };
    for (std::size_t i = 0; i < half; ++i) {
        ReportRow row = cellsOf(figures[i]);
        if (i + half < figures.size()) {
            const ReportRow right = cellsOf(figures[i + half]);
            row.insert(row.end(), right.begin(), right.end());
        } else {
            row.insert(row.end(), {{""}, {""}});
        }
        rows.push_back(std::move(row));
    }
    doc.table({QObject::tr("Figure"), QObject::tr("Value"), QObject::tr("Figure"), QObject::tr("Value")}, rows,
              {30, 20, 30, 20});
    if (serving && serving->ok())
        doc.paragraph(
            QObject::tr("Serving %1 (%2 B parameters), %3 weights and %4 KV cache, %5, %6 GPUs each: %7 of them on "
                        "this design's %8 GPUs%9.")
                .arg(q(a.workload.name).toHtmlEscaped(), q(formatReadable(a.workload.params / 1e9)),
                     q(serving->weightPrecision), q(serving->kvPrecision), q(describeServingLayout(*serving)))
                .arg(serving->gpusPerReplica)
                .arg(q(formatCount(serving->replicasInDesign)), q(formatCount(a.inventory.gpus)),
                     serving->disaggregation
                         ? QObject::tr("; a prompt's KV cache moves to its decode worker in %1 s")
                               .arg(q(formatValue(serving->disaggregation->kvTransferS, 3)))
                         : QString()),
            true);
    else if (!a.serving)
        doc.paragraph(QObject::tr("Training %1 (%2 B parameters) on %3 GPUs at %4: tp %5, pp %6, dp %7.")
                          .arg(q(a.workload.name).toHtmlEscaped(), q(formatReadable(a.workload.params / 1e9)),
                               q(formatCount(a.workload.gpusUsed)), q(a.hardware.gpu.trainingPrecision))
                          .arg(a.workload.tp)
                          .arg(a.workload.pp)
                          .arg(a.workload.dp),
                      true);
    // How far to trust the step time and every figure that follows from it.
    const Json::json_pointer band("/explain/training.step_time_s/error_band/text");
    if (metrics.contains(band))
        doc.paragraph(QObject::tr("<b>Expected error.</b> %1 The same holds for tokens/s, TFLOP/s, MFU and days, "
                                  "inversely for the rates; docs/validation.md lists the runs.")
                          .arg(q(metrics.at(band).get<std::string>()).toHtmlEscaped()),
                      true);
    doc.heading(QObject::tr("Most important warnings"), 2);
    const auto top = mostImportantWarnings(a.warnings, 3);
    if (top.empty())
        doc.paragraph(QObject::tr("None: the analyses found nothing to warn about."));
    std::vector<ReportRow> warningRows;
    for (const auto& p : top)
        warningRows.push_back({{p.severity == Severity::Error ? QObject::tr("error") : QObject::tr("warning"),
                                p.severity == Severity::Error ? ReportCell::Bad : ReportCell::Normal},
                               {q(p.message)},
                               {q(p.pointer.empty() ? "/" : p.pointer), ReportCell::Muted}});
    if (!warningRows.empty())
        doc.table({QObject::tr("Severity"), QObject::tr("Warning"), QObject::tr("Where")}, warningRows, {12, 68, 20});
    if (a.warnings.size() > top.size())
        doc.paragraph(QObject::tr("%n more in appendix A.", nullptr, int(a.warnings.size() - top.size())), true);
    doc.heading(QObject::tr("Contents"), 2);
    doc.contentsHere();
}

void canvasAndInventory(ReportDocument& doc, DesignScene& scene, const Analysis& a)
{
    doc.heading(QObject::tr("Canvas"), 1, true);
    QSizeF logical;
    const QPicture picture = scenePicture(scene, &logical);
    if (scene.items().isEmpty())
        doc.paragraph(QObject::tr("The canvas is empty: drop parts from the palette to start the design."));
    else if (!logical.isEmpty()) {
        // As wide as the page allows, no taller than half of it.
        const double scale =
            std::min(doc.contentWidth() / logical.width(), doc.contentHeight() * 0.5 / logical.height());
        doc.picture(picture, logical, logical.width() * scale, logical.height() * scale);
    }
    const Inventory& inv = a.inventory;
    doc.heading(QObject::tr("Bill of materials"), 2);
    std::vector<ReportRow> summary = {
        {{QObject::tr("GPUs")}, {q(formatCount(inv.gpus)), ReportCell::Normal, true}, {q(a.hardware.gpu.name)}},
        {{QObject::tr("Nodes")}, {q(formatCount(inv.nodes)), ReportCell::Normal, true}, {""}},
        {{QObject::tr("NICs")}, {q(formatCount(inv.nics)), ReportCell::Normal, true}, {""}},
    };
    for (const char* tier : {"leaf", "spine", "core", "other"})
        if (const auto n = inv.switchesByTier.at(tier); n > 0 || std::string_view(tier) != "other")
            summary.push_back({{QObject::tr("Switches, %1").arg(QLatin1String(tier))},
                               {q(formatCount(n)), ReportCell::Normal, true},
                               {""}});
    summary.push_back(
        {{QObject::tr("Cables and optics")}, {q(formatCount(inv.cables)), ReportCell::Normal, true}, {""}});
    for (const auto& [part, n] : inv.cablesByPart)
        summary.push_back({{QStringLiteral("    ") + q(part), ReportCell::Muted},
                           {q(formatCount(n)), ReportCell::Muted, true},
                           {""}});
    summary.push_back({{QObject::tr("Racks")}, {q(formatCount(inv.racks)), ReportCell::Normal, true}, {""}});
    summary.push_back(
        {{QObject::tr("Storage systems")}, {q(formatCount(inv.storageSystems)), ReportCell::Normal, true}, {""}});
    summary.push_back(
        {{QObject::tr("Node-local drives")}, {q(formatCount(inv.localDrives)), ReportCell::Normal, true}, {""}});
    doc.table({QObject::tr("Item"), QObject::tr("Count"), QObject::tr("Part")}, summary, {40, 20, 40});
    std::vector<ReportRow> parts;
    for (const auto& line : inv.bom)
        parts.push_back({{q(line.name)},
                         {q(std::string(partKindName(line.kind))), ReportCell::Muted},
                         {q(line.part), ReportCell::Muted},
                         {q(formatCount(line.count)), ReportCell::Normal, true}});
    doc.heading(QObject::tr("Parts by catalog entry"), 3);
    if (parts.empty())
        doc.paragraph(QObject::tr("None yet."));
    else
        doc.table({QObject::tr("Part"), QObject::tr("Kind"), QObject::tr("Catalog id"), QObject::tr("Count")}, parts,
                  {42, 16, 30, 12});
    if (!inv.fabrics.empty()) {
        doc.heading(QObject::tr("Fabrics"), 3);
        std::vector<ReportRow> fabrics;
        for (const auto& f : inv.fabrics)
            fabrics.push_back(
                {{q(f.name)},
                 {q(f.switchPart), ReportCell::Muted},
                 {QString::number(f.tree.tiers), ReportCell::Normal, true},
                 {q(formatCount(f.tree.endpoints)), ReportCell::Normal, true},
                 {QStringLiteral("%1 / %2 / %3")
                      .arg(q(formatCount(f.tree.leaf)), q(formatCount(f.tree.spine)), q(formatCount(f.tree.core))),
                  ReportCell::Normal, true},
                 {q(formatReadable(f.oversubscription)) + ":1", ReportCell::Normal, true}});
        doc.table({QObject::tr("Fabric"), QObject::tr("Switch"), QObject::tr("Tiers"), QObject::tr("Endpoints"),
                   QObject::tr("Leaf / spine / core"), QObject::tr("Leaf oversub.")},
                  fabrics, {22, 26, 8, 13, 19, 12});
    }
}

ReportRow sourcedRow(const QString& name, const Sourced& s, const QString& unit)
{
    return {{name},
            {q(formatReadable(s.value)) + (unit.isEmpty() ? "" : " " + unit), ReportCell::Normal, true},
            {q(s.source) + (s.uncertain ? QObject::tr(" (uncertain)") : QString()),
             s.uncertain ? ReportCell::Bad : ReportCell::Muted}};
}

void assumptions(ReportDocument& doc, const Design& design, const Catalog& catalog, const Analysis& a)
{
    doc.heading(QObject::tr("Assumptions"), 1, true);
    doc.paragraph(QObject::tr("Rows marked <i>uncertain</i> have a source that hedges or are estimates: check them "
                              "before relying on the figures that use them."),
                  true);
    const Workload& w = design.workload;
    const WorkloadShape& s = a.workload;
    doc.heading(QObject::tr("Workload"), 2);
    // Left-aligned: the values mix names, numbers and layouts.
    auto count = [](std::int64_t n) { return ReportCell{q(formatCount(n))}; };
    std::vector<ReportRow> workload = {
        {{QObject::tr("Model")}, {q(w.model.name)}},
        {{QObject::tr("Parameters")}, {q(formatReadable(s.params / 1e9)) + " B"}},
        {{QObject::tr("Layers, hidden, heads")},
         {QStringLiteral("%1, %2, %3")
              .arg(q(formatCount(w.model.layers)), q(formatCount(w.model.hidden)), q(formatCount(w.model.heads)))}},
    };
    if (w.model.experts.value_or(0) > 0)
        workload.push_back({{QObject::tr("Experts, per token")},
                            {QStringLiteral("%1, %2").arg(q(formatCount(*w.model.experts)),
                                                          q(formatCount(w.model.experts_per_token.value_or(0))))}});
    auto seconds = [](const std::optional<double>& t) {
        return ReportCell{t ? q(formatQuantity(*t, "s")) : QObject::tr("none")};
    };
    if (a.serving && w.serving) {
        const ServingSpec& v = *w.serving;
        const std::vector<ReportRow> serving = {
            {{QObject::tr("Key/value heads")}, count(w.model.kv_heads.value_or(w.model.heads))},
            {{QObject::tr("Prompt, output tokens")},
             {QStringLiteral("%1, %2").arg(q(formatCount(v.prompt_tokens)), q(formatCount(v.output_tokens)))}},
            {{QObject::tr("Batch per replica")},
             {v.batch.value_or(0) > 0 ? q(formatCount(*v.batch)) : QObject::tr("0: as many as the targets allow")}},
            {{QObject::tr("Arrival rate")}, {q(formatQuantity(v.arrival_rate_per_s.value_or(0), "requests/s"))}},
            {{QObject::tr("Targets: first token, per output token, end to end")},
             {QStringLiteral("%1, %2, %3")
                  .arg(seconds(v.ttft_target_s).text, seconds(v.tpot_target_s).text, seconds(v.e2e_target_s).text)}},
            {{QObject::tr("Weights, KV cache precision")},
             {QStringLiteral("%1, %2").arg(q(orDefault(v.weight_precision, defaults::kServingPrecision)),
                                           q(orDefault(v.kv_precision, defaults::kServingPrecision)))}},
            {{QObject::tr("Replica layout")}, {QStringLiteral("tp %1, pp %2, ep %3").arg(s.tp).arg(s.pp).arg(s.ep)}},
        };
        workload.insert(workload.end(), serving.begin(), serving.end());
        doc.table({QObject::tr("Input"), QObject::tr("Value")}, workload, {40, 60});
    }
    const std::vector<ReportRow> training = {
        {{QObject::tr("Sequence length")}, count(w.model.seq_len)},
        {{QObject::tr("Global batch (sequences)")}, count(w.training.global_batch)},
        {{QObject::tr("Micro batch")}, count(w.training.micro_batch.value_or(1))},
        {{QObject::tr("Tokens to train")}, {q(formatQuantity(w.training.tokens, "tokens"))}},
        {{QObject::tr("Precision")}, {q(a.hardware.gpu.trainingPrecision)}},
        {{QObject::tr("Layout")},
         {QStringLiteral("tp %1, pp %2, dp %3, cp %4, ep %5, ZeRO %6")
              .arg(s.tp)
              .arg(s.pp)
              .arg(s.dp)
              .arg(s.cp)
              .arg(s.ep)
              .arg(s.zero)}},
        {{QObject::tr("Activation recompute")}, {q(orDefault(w.parallelism.recompute, defaults::kRecompute))}},
    };
    if (!a.serving) {
        workload.insert(workload.end(), training.begin(), training.end());
        doc.table({QObject::tr("Input"), QObject::tr("Value")}, workload, {40, 60});
    }

    doc.heading(QObject::tr("Efficiencies"), 2);
    const auto& g = a.hardware.gpu;
    doc.table({QObject::tr("Efficiency"), QObject::tr("Value"), QObject::tr("Source")},
              {sourcedRow(QObject::tr("GEMM (of peak)"), g.gemmEfficiency, ""),
               sourcedRow(QObject::tr("Attention (of peak)"), g.attentionEfficiency, ""),
               sourcedRow(QObject::tr("HBM (of bandwidth)"), g.hbmEfficiency, ""),
               sourcedRow(QObject::tr("Scale-up collectives"), g.scaleupEfficiency, ""),
               sourcedRow(QObject::tr("Scale-out NIC"), a.hardware.scaleOut.efficiency, "")},
              {30, 14, 56});
    // Where the GPU's kernels ran at measured speeds, the factors above are
    // only the fallback: say which applies.
    if (const KernelProfile* k = g.kernels.get())
        doc.paragraph(QObject::tr("Kernel speeds: %1's GEMMs, attention and scale-up collectives run at the speeds "
                                  "measured for each shape in the %2; the factors above apply only to what it has "
                                  "no table for (docs/kernel-profiles.md).")
                          .arg(q(g.name), q(k->citation()).toHtmlEscaped()),
                      true);
    else
        doc.paragraph(QObject::tr("Kernel speeds: no kernel profile for %1; every kernel runs at the factors above.")
                          .arg(q(g.name)),
                      true);

    doc.heading(QObject::tr("Failure rates"), 2);
    std::vector<ReportRow> failures;
    for (const auto& c : a.reliability.classes)
        failures.push_back(
            sourcedRow(q(c.name) + QObject::tr(" (per %1, x %2)").arg(q(c.per), q(formatValue(c.devices))), c.mttfH,
                       QStringLiteral("h MTTF")));
    doc.table({QObject::tr("Failure class"), QObject::tr("MTTF"), QObject::tr("Source")}, failures, {30, 16, 54});

    doc.heading(QObject::tr("Facility and operations"), 2);
    // Each optional input: the design's value, or the default and its origin.
    const Json file = designToJson(design);
    std::vector<ReportRow> inputs;
    for (const auto& d : defaults::kAll) {
        if (std::string_view(d.pointer).starts_with("/operations/failure_mttf_h"))
            continue;  // in the failure table
        const Json::json_pointer pointer{std::string(d.pointer)};
        const bool fromDesign = file.contains(pointer) && file[pointer].is_number();
        const double value = fromDesign ? file[pointer].get<double>() : d.value;
        inputs.push_back(
            {{q(std::string(d.pointer)), ReportCell::Muted},
             {q(formatValue(value)) + " " + q(std::string(d.unit)), ReportCell::Normal, true},
             {fromDesign ? QObject::tr("set in the design") : q(std::string(d.source)), ReportCell::Muted}});
    }
    // An input without a default: none means no limit.
    inputs.push_back({{QStringLiteral("/facility/site_mw"), ReportCell::Muted},
                      {design.facility.site_mw ? q(formatValue(*design.facility.site_mw)) + " MW" : QObject::tr("none"),
                       ReportCell::Normal, true},
                      {design.facility.site_mw ? QObject::tr("set in the design")
                                               : QObject::tr("no site power budget: nothing is checked against one"),
                       ReportCell::Muted}});
    doc.table({QObject::tr("Input"), QObject::tr("Value"), QObject::tr("Source")}, inputs, {30, 16, 54});

    doc.heading(QObject::tr("Catalog figures used"), 2);
    std::vector<ReportRow> figures;
    for (const auto& line : a.inventory.bom) {
        const Part* part = catalog.find(line.part);
        if (!part || part->figures.empty())
            continue;
        figures.push_back(
            {{q(part->name), ReportCell::Heading}, {q(part->origin), ReportCell::Heading}, {"", ReportCell::Heading}});
        for (const auto& [key, f] : part->figures)
            figures.push_back({{QStringLiteral("    ") + q(key)},
                               {q(formatValue(f.value)), ReportCell::Normal, true},  // as the catalog has it
                               {q(f.source) + (f.uncertain ? QObject::tr(" (uncertain)") : QString()) +
                                    (f.note.empty() ? QString() : QStringLiteral("; ") + q(f.note)),
                                f.uncertain ? ReportCell::Bad : ReportCell::Muted}});
    }
    doc.table({QObject::tr("Part, figure"), QObject::tr("Value"), QObject::tr("Source")}, figures, {30, 14, 56});
}

void appendices(ReportDocument& doc, const Analysis& a, const std::vector<ExplainedMetric>& explained)
{
    doc.heading(QObject::tr("Appendix A: all warnings"), 1, true);
    if (a.warnings.empty())
        doc.paragraph(QObject::tr("None."));
    std::vector<ReportRow> warnings;
    for (const auto& p : a.warnings)
        warnings.push_back({{p.severity == Severity::Error ? QObject::tr("error") : QObject::tr("warning")},
                            {q(p.message)},
                            {q(p.pointer.empty() ? "/" : p.pointer), ReportCell::Muted}});
    if (!warnings.empty())
        doc.table({QObject::tr("Severity"), QObject::tr("Warning"), QObject::tr("Where")}, warnings, {12, 68, 20});

    doc.heading(QObject::tr("Appendix B: how each number is computed"), 1, true);
    std::vector<ReportRow> rows;
    for (const auto& [key, e] : explained) {
        // A figure the analysis cannot give has a formula but no numbers to
        // show in it.
        if (!e.unavailable.empty()) {
            rows.push_back(
                {{q(key), ReportCell::Muted},
                 {q(e.formula), ReportCell::Normal, false, QObject::tr("not available: %1").arg(q(e.unavailable))}});
            continue;
        }
        QStringList inputs;
        for (const auto& in : e.inputs)
            inputs
                << QStringLiteral("%1 = %2 (%3)").arg(q(in.name), q(formatQuantity(in.value, in.unit)), q(in.source));
        if (e.errorBand)
            inputs << q(e.errorBand->text);
        rows.push_back({{q(key), ReportCell::Muted}, {q(e.formula), ReportCell::Normal, false, inputs.join("; ")}});
    }
    doc.table({QObject::tr("Metric"), QObject::tr("Formula and inputs")}, rows, {26, 74});
}

}  // namespace

bool pageSizeFromName(const QString& name, QPageSize::PageSizeId* id)
{
    const QString n = name.toLower();
    if (n == "a4")
        *id = QPageSize::A4;
    else if (n == "letter")
        *id = QPageSize::Letter;
    else
        return false;
    return true;
}

QString preferredPageSizeName()
{
    const QString fallback = QLocale::system().measurementSystem() == QLocale::ImperialUSSystem
        ? QStringLiteral("letter")
        : QStringLiteral("a4");
    const QString name = QSettings().value(settings::kReportPageSize, fallback).toString().toLower();
    QPageSize::PageSizeId id;
    return pageSizeFromName(name, &id) ? name : fallback;
}

QPageSize::PageSizeId preferredPageSize()
{
    QPageSize::PageSizeId id = QPageSize::A4;
    pageSizeFromName(preferredPageSizeName(), &id);
    return id;
}

void setPreferredPageSize(const QString& name)
{
    QSettings().setValue(settings::kReportPageSize, name.toLower());
}

bool writeDesignReport(const Design& design, std::shared_ptr<const Catalog> catalog, const QString& path,
                       const ReportOptions& options, QString* error, const ReportProgress& progress)
{
    int step = 0;
    const int steps = buildSteps() + 20;  // the pages built, then printing as 20
    // Tells where the report is at `done`; false (and "Cancelled") once the
    // user cancels.
    auto at = [&](int done) {
        if (!progress || progress(done, steps))
            return true;
        if (error)
            *error = QObject::tr("Cancelled");
        return false;
    };
    auto advance = [&] { return at(step++); };
    PrintColors paper;
    // The report's own document and views, so a report from the GUI is the
    // same as one from the command line, whatever the canvas shows.
    DesignDocument document;
    AnalysisService service(&document);
    DesignScene scene(&document, &service);
    document.reset(design, catalog, options.source);
    service.recomputeNow();
    // The scene routes its links on the next turn of the event loop; user
    // input waits, so nothing reaches the window behind the report.
    QCoreApplication::processEvents(QEventLoop::ExcludeUserInputEvents);
    const Analysis* a = service.analysis();
    if (!a) {
        if (error)
            *error = QObject::tr("The design has errors; fix them (see the Warnings dock or `cluster-studio validate`) "
                                 "before writing a report.");
        return false;
    }
    Json metrics = metricsJson(design, *a);
    addServingMetrics(metrics, design, *catalog);
    auto explained = explainMetrics(*a);
    const Serving* serving = a->serving ? service.serving() : nullptr;
    if (serving && serving->ok())
        for (auto& e : explainServing(*serving))
            explained.push_back(std::move(e));
    // The background pages' core work (the sweep, the tornado: most of a
    // large design's report) runs on a thread of its own while this one lays
    // out the pages before them, and the progress dialog keeps answering
    // while it finishes. Every way out of here stops it and waits for it.
    std::vector<const BackgroundEntry*> pages;
    for (const BackgroundEntry& entry : backgroundRegistry())
        if (entry.report && entry.appliesTo(a->workloadKind()))
            pages.push_back(&entry);
    std::vector<std::any> prepared(pages.size());
    std::atomic<bool> cancel{false};
    std::future<void> preparing;
    // The report's own copy of the design, which nothing edits meanwhile.
    if (a->runnable())
        preparing = std::async(std::launch::async, [&, own = &document.design(), parts = catalog] {
            for (std::size_t i = 0; i < pages.size() && !cancel; ++i)
                if (pages[i]->prepare)
                    prepared[i] = pages[i]->prepare(*own, *parts, &cancel);
        });
    struct StopPreparing {
        std::atomic<bool>& cancel;
        std::future<void>& preparing;
        ~StopPreparing()
        {
            cancel = true;
            if (preparing.valid())
                preparing.wait();
        }
    } stop{cancel, preparing};
    const QString name = q(design.name.empty() ? "Untitled design" : design.name);
    ReportDocument doc(QObject::tr("Design review: %1").arg(name),
                       QObject::tr("Cluster Studio %1").arg(q(std::string(kAppVersion))), options.pageSize);
    if (!advance())
        return false;
    cover(doc, design, *a, serving, metrics, options);
    if (!advance())
        return false;
    canvasAndInventory(doc, scene, *a);

    for (const AnalysisEntry& entry : analysisRegistry()) {
        if (!entry.appliesTo(a->workloadKind()))
            continue;
        if (!advance())
            return false;
        ChartView view(entry, false);
        view.setAttribute(Qt::WA_DontShowOnScreen);
        view.setPalette(PrintColors::palette());
        view.setDesigns({{a, QString()}});
        doc.heading(entry.title, 1, true);
        // Drawn at a screen panel's width and scaled to the page, so legends
        // and labels lay out as they do in the studio.
        const QSizeF size(ReportDocument::kPanelWidth,
                          ReportDocument::kPanelWidth * ReportDocument::kPanelHeight / doc.contentWidth());
        doc.chart(view, size, doc.contentWidth(), ReportDocument::kPanelHeight);
        doc.table({QObject::tr("Figure"), QObject::tr("Value"), QObject::tr("How it is computed")},
                  figureRows(entry.figures(*a), explained), {34, 18, 48});
    }
    // What the background panels show (how many GPUs pay off, what limits
    // the design, serving), from what their services compute.
    if (preparing.valid()) {
        while (preparing.wait_for(std::chrono::milliseconds(40)) != std::future_status::ready)
            if (!at(step))
                return false;
        preparing.get();
    }
    for (std::size_t i = 0; i < pages.size(); ++i) {
        if (!advance())
            return false;
        pages[i]->report(doc, {design, *catalog, *a, service, &prepared[i]});
    }
    if (!advance())
        return false;
    assumptions(doc, design, *catalog, *a);
    appendices(doc, *a, explained);
    const int built = step;
    return doc.print(path, error, [&](int page, int pages) {
        return !progress || progress(built + page * 20 / std::max(1, pages), steps);
    });
}

}  // namespace studio
