#include "core/metrics/validation_runs.h"

#include "core/metrics/serving_error_band.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <optional>

#include "core/analysis/step_time.h"
#include "core/design/resize.h"
#include "core/format/design_reader.h"
#include "core/format/design_writer.h"
#include "core/json/json_pointer.h"
#include "core/json/json_reader.h"
#include "core/json/json_text.h"
#include "core/metrics/error_band.h"
#include "core/metrics/metrics.h"
#include "core/metrics/serving_report.h"
#include "core/metrics/serving_samples.h"
#include "core/search/layout_search.h"
#include "core/serving/serving.h"
#include "core/text.h"

namespace studio {
namespace {

// The figure a dotted metric names in `metrics` ("training.step_time_s":
// /training/step_time_s), or a problem naming the run.
std::optional<double> figureOf(const Json& metrics, const std::string& metric, const std::string& id,
                               const std::string& ptr, std::vector<Problem>& problems)
{
    const auto dot = metric.find('.');
    const Json::json_pointer jp(dot == std::string::npos ? "/" + metric
                                                         : "/" + metric.substr(0, dot) + "/" + metric.substr(dot + 1));
    if (metrics.contains(jp) && metrics.at(jp).is_number())
        return metrics.at(jp).get<double>();
    const bool unavailable = metrics.contains("unavailable") && metrics["unavailable"].contains(metric);
    problems.push_back({Severity::Error, pointerAppend(ptr, "metric"),
                        id + ": " +
                            (unavailable ? inQuotes(metric) + " is " + metrics["unavailable"][metric].get<std::string>()
                                         : "no metric " + inQuotes(metric))});
    return std::nullopt;
}

// A training run: analyzeDesign's figure, and where the published layout
// ranks in the layout search. False (with problems) when it gives none.
bool evaluateTraining(ValidationRow& row, const Json& run, const std::string& ptr, const DesignLoad& loaded,
                      JsonReader& r, std::vector<Problem>& problems)
{
    const Analysis analysis = analyzeDesign(*loaded.design, *loaded.catalog);
    const Json metrics = metricsJson(*loaded.design, analysis);
    row.kernels = analysis.hardware.gpu.kernels ? "measured" : "catalog factors";
    // A published TFLOP/s counts FLOPs its own way: turn it back into the
    // step time it was measured as, by that count, and compare step times.
    if (const auto convention = r.choice(run, ptr, "flop_convention", {"causal_half", "full_square"}, false)) {
        const bool hardware = row.metric == "training.tflops_per_gpu_hardware";
        if (!hardware && row.metric != "training.tflops_per_gpu_model") {
            problems.push_back({Severity::Error, pointerAppend(ptr, "flop_convention"),
                                row.id + ": a FLOP convention applies to a TFLOP/s metric only"});
            return false;
        }
        const auto& w = analysis.workload;
        const FlopConvention c = *convention == "full_square" ? FlopConvention::FullSquare : FlopConvention::CausalHalf;
        double perSeq = 3 * forwardFlopsPerSequence(w, c);
        if (hardware && w.fullRecompute)
            perSeq += double(w.layers) * forwardFlopsPerSequenceLayer(w, c);
        row.published = formatValue(row.measured, 4) + " TFLOP/s per GPU (" + (hardware ? "hardware" : "model") + ", " +
            (c == FlopConvention::FullSquare ? "full attention square" : "causal half") + ")";
        row.measured = double(w.globalBatch) * perSeq / (row.measured * 1e12 * double(w.gpusUsed));
        row.metric = "training.step_time_s";
    }
    const auto predicted = figureOf(metrics, row.metric, row.id, ptr, problems);
    if (!predicted)
        return false;
    row.predicted = *predicted;
    const Catalog plain = withoutKernels(loaded);
    const auto factor =
        figureOf(metricsJson(*loaded.design, analyzeDesign(*loaded.design, plain)), row.metric, row.id, ptr, problems);
    if (!factor)
        return false;
    row.factorPredicted = *factor;
    const auto& w = analysis.workload;
    // A run may use part of the design (64 GPUs of a 72-GPU NVL72 rack).
    row.gpus = w.gpusUsed;
    row.system = loaded.design->name;
    row.gpuPart = analysis.inventory.gpuPart;
    row.precision = w.precision;
    row.tp = w.tp;
    row.pp = w.pp;
    row.cp = w.cp;
    row.ep = w.ep;
    row.dp = w.dp;
    row.zero = w.zero;
    SearchOptions search;
    search.gpus = w.gpusUsed;
    search.top = 1;
    const SearchResult found = searchLayouts(*loaded.design, *loaded.catalog, search);
    row.standing.published = found.current.layout;
    row.standing.whyNot = found.error.empty() ? found.current.whyNot : found.error;
    row.standing.software = found.softwareName;
    row.standing.rank = found.current.rank;
    row.standing.feasible = found.feasible;
    row.standing.gap = found.current.gap;
    if (!found.top.empty()) {
        row.standing.best = found.top.front().layout;
        row.standing.bestStepS = found.top.front().stepS;
    }
    return true;
}

// A serving run: one replica through analyzeServing, its figure read from
// the `serving` object metrics prints. Its errors (a replica that cannot be
// served) become problems naming the run.
bool evaluateServing(ServingValidationRow& row, const std::string& ptr, const DesignLoad& loaded,
                     std::vector<Problem>& problems)
{
    const Serving s = analyzeServing(*loaded.design, *loaded.catalog);
    for (const Problem& p : s.errors)
        problems.push_back({Severity::Error, ptr + p.pointer, row.id + ": " + p.message, p.code});
    if (!s.ok())
        return false;
    const auto predicted = figureOf(Json{{"serving", servingJson(s)}}, row.metric, row.id, ptr, problems);
    if (!predicted)
        return false;
    const Serving plain = analyzeServing(*loaded.design, withoutKernels(loaded));
    const auto factor = figureOf(Json{{"serving", servingJson(plain)}}, row.metric, row.id, ptr, problems);
    if (!factor)
        return false;
    row.factorPredicted = *factor;
    describeReplica(row, s);
    const ServingSpec& spec = *loaded.design->workload.serving;
    row.predicted = *predicted;
    row.system = loaded.design->name;
    row.batchChosen = spec.batch.value_or(0) == 0;
    row.promptTokens = spec.prompt_tokens;
    row.outputTokens = spec.output_tokens;
    return true;
}

// A published comparison: the run's design as it serves, and again with
// aggregated replicas of `versus`'s tp x pp; the ratio of their tokens/s
// per GPU of the design.
bool evaluateComparison(ServingComparisonRow& row, const Json& run, const std::string& ptr, const DesignLoad& loaded,
                        JsonReader& r, std::vector<Problem>& problems)
{
    const std::string vptr = pointerAppend(ptr, "versus");
    if (!run.contains("versus") || !r.isObject(run["versus"], vptr)) {
        if (!run.contains("versus"))
            problems.push_back({Severity::Error, vptr, row.id + ": missing (required)", "missing"});
        return false;
    }
    Design versus = *loaded.design;
    versus.workload.parallelism.tp = r.integer(run["versus"], vptr, "tp", true, 1, 1'000'000).value_or(1);
    versus.workload.parallelism.pp = r.integer(run["versus"], vptr, "pp", false, 1, 1'000'000).value_or(1);
    versus.workload.serving->disaggregated.reset();
    const Serving a = analyzeServing(*loaded.design, *loaded.catalog);
    const Serving b = analyzeServing(versus, *loaded.catalog);
    for (const Serving* s : {&a, &b})
        for (const Problem& p : s->errors)
            problems.push_back({Severity::Error, ptr + p.pointer, row.id + ": " + p.message, p.code});
    if (!a.ok() || !b.ok())
        return false;
    row.system = loaded.design->name;
    row.layout = describeServingLayout(a);
    row.versus = describeServingLayout(b);
    row.perGpu = a.tokensPerSPerDesignGpu(a.decode);
    row.versusPerGpu = b.tokensPerSPerDesignGpu(b.decode);
    row.predicted = row.perGpu / row.versusPerGpu;
    return true;
}

template <typename Rows, typename Keep>
ErrorSummary summarizeRows(const Rows& rows, Keep keep)
{
    std::vector<double> errors;
    for (const auto& row : rows)
        if (keep(row))
            errors.push_back(row.error());
    return summarizeErrors(errors);
}

}  // namespace

// The run's base design with the run's workload, read and checked like a
// file and resized to the run's GPUs.
std::optional<DesignLoad> loadValidationRun(const Json& run, const std::string& ptr, const std::string& id,
                                            std::int64_t gpus, const std::filesystem::path& dir,
                                            const Catalog& catalog, std::vector<Problem>& problems)
{
    JsonReader r(problems);
    const auto designFile = r.string(run, ptr, "design", true);
    if (!designFile || !run.contains("workload"))
        return std::nullopt;
    const ParsedJson base = parseJsonText(readTextFile((dir / *designFile).string()).text);
    if (base.error) {
        problems.push_back({Severity::Error, pointerAppend(ptr, "design"), *designFile + ": " + base.error->message});
        return std::nullopt;
    }
    Json doc = base.doc;
    doc["workload"] = run["workload"];
    DesignLoad loaded = readDesignJson(doc, catalog);
    if (!loaded.ok()) {
        for (const auto& p : loaded.problems)
            if (p.severity == Severity::Error)
                problems.push_back({Severity::Error, ptr + p.pointer, id + ": " + p.message});
        return std::nullopt;
    }
    if (auto p = resizeToGpus(*loaded.design, *loaded.catalog, gpus)) {
        problems.push_back({Severity::Error, pointerAppend(ptr, "gpus"), id + ": " + p->message});
        return std::nullopt;
    }
    return loaded;
}

// Every kernel at the catalog's factors: the model before kernel profiles.
Catalog withoutKernels(const DesignLoad& loaded)
{
    Catalog c = *loaded.catalog;
    c.clearKernels();
    return c;
}

void describeReplica(ServingValidationRow& row, const Serving& s)
{
    row.gpus = s.gpusPerReplica;
    row.tp = s.tp;
    row.pp = s.pp;
    row.ep = s.ep;
    row.weightPrecision = s.weightPrecision;
    row.kvPrecision = s.kvPrecision;
    row.batch = s.batch;
    row.kernels = s.kernelSource.empty() ? "catalog factors" : "measured";
}

ErrorSummary summarizeErrors(const std::vector<double>& errors)
{
    ErrorSummary s;
    double sum = 0;
    for (const double e : errors) {
        const double a = std::fabs(e);
        sum += a;
        s.maxAbs = std::max(s.maxAbs, a);
        s.within10 += a <= 0.10 ? 1 : 0;
        s.within15 += a <= 0.15 ? 1 : 0;
        s.within25 += a <= 0.25 ? 1 : 0;
    }
    s.runs = errors.size();
    s.meanAbs = s.runs > 0 ? sum / double(s.runs) : 0;
    return s;
}

LinkedFile::LinkedFile(std::string path, std::string ptr, std::vector<Problem>& problems)
    : path_(std::move(path)), name_(std::filesystem::path(path_).filename().string()), ptr_(std::move(ptr)),
      problems_(problems)
{}

std::optional<Json> LinkedFile::read()
{
    const FileText file = readTextFile(path_);
    if (file.error) {
        problems_.push_back({Severity::Error, ptr_, path_ + ": " + *file.error});
        return std::nullopt;
    }
    ParsedJson parsed = parseJsonText(file.text);
    if (parsed.error) {
        own_.push_back(*parsed.error);
        flush();
        return std::nullopt;
    }
    return std::move(parsed.doc);
}

void LinkedFile::flush()
{
    for (Problem& p : own_)
        if (p.severity == Severity::Error)
            problems_.push_back({Severity::Error, ptr_,
                                 name_ + " " + (p.pointer.empty() ? "/" : p.pointer) + ": " + p.message, p.code});
    own_.clear();
}

ValidationReport runValidation(const std::string& runsPath, const Catalog& catalog)
{
    ValidationReport report;
    const FileText file = readTextFile(runsPath);
    if (file.error) {
        report.problems.push_back({Severity::Error, "", *file.error});
        return report;
    }
    const ParsedJson parsed = parseJsonText(file.text);
    if (parsed.error) {
        report.problems.push_back(*parsed.error);
        return report;
    }
    JsonReader r(report.problems);
    if (!r.isObject(parsed.doc, "") || !parsed.doc.contains("runs") || !r.isArray(parsed.doc["runs"], "/runs"))
        return report;
    const std::filesystem::path dir = std::filesystem::path(runsPath).parent_path();
    for (std::size_t i = 0; i < parsed.doc["runs"].size(); ++i) {
        const Json& run = parsed.doc["runs"][i];
        const std::string ptr = pointerAppend("/runs", i);
        if (!r.isObject(run, ptr))
            continue;
        ValidationRow row;
        row.id = r.string(run, ptr, "id", true).value_or("");
        row.metric = r.string(run, ptr, "metric", true).value_or("");
        row.source = r.string(run, ptr, "source", true).value_or("");
        row.role = r.choice(run, ptr, "role", {"calibration", "check"}, true).value_or("check");
        const std::int64_t designGpus = r.integer(run, ptr, "gpus", true, 1, kMaxInstances).value_or(1);
        row.measured = r.number(run, ptr, "measured", true, 0, 1e12, true).value_or(1);
        const auto loaded = loadValidationRun(run, ptr, row.id, designGpus, dir, catalog, report.problems);
        if (!loaded)
            continue;
        if (loaded->design->workload.isServing()) {
            if (row.role != "check")
                report.problems.push_back({Severity::Error, pointerAppend(ptr, "role"),
                                           row.id + ": a serving run is a check (no factor is fit on serving)"});
            ServingValidationRow serving{row.id, row.metric, row.source};
            serving.measured = row.measured;
            if (evaluateServing(serving, ptr, *loaded, report.problems))
                report.serving.push_back(serving);
        } else if (evaluateTraining(row, run, ptr, *loaded, r, report.problems))
            report.rows.push_back(row);
    }
    if (parsed.doc.contains("not_modelled") && r.isArray(parsed.doc["not_modelled"], "/not_modelled"))
        for (std::size_t i = 0; i < parsed.doc["not_modelled"].size(); ++i) {
            const Json& entry = parsed.doc["not_modelled"][i];
            const std::string ptr = pointerAppend("/not_modelled", i);
            if (r.isObject(entry, ptr))
                report.notModelled.push_back(
                    {r.string(entry, ptr, "id", true).value_or(""), r.string(entry, ptr, "reason", true).value_or("")});
        }
    if (parsed.doc.contains("serving_comparisons") &&
        r.isArray(parsed.doc["serving_comparisons"], "/serving_comparisons"))
        for (std::size_t i = 0; i < parsed.doc["serving_comparisons"].size(); ++i) {
            const Json& run = parsed.doc["serving_comparisons"][i];
            const std::string ptr = pointerAppend("/serving_comparisons", i);
            if (!r.isObject(run, ptr))
                continue;
            ServingComparisonRow row;
            row.id = r.string(run, ptr, "id", true).value_or("");
            row.source = r.string(run, ptr, "source", true).value_or("");
            row.measured = r.number(run, ptr, "measured", true, 0, 1e6, true).value_or(1);
            const std::int64_t gpus = r.integer(run, ptr, "gpus", true, 1, kMaxInstances).value_or(1);
            const auto loaded = loadValidationRun(run, ptr, row.id, gpus, dir, catalog, report.problems);
            if (!loaded)
                continue;
            if (!loaded->design->workload.isServing())
                report.problems.push_back({Severity::Error, pointerAppend(ptr, "workload"),
                                           row.id + ": a serving comparison needs a serving workload", "not_serving"});
            else if (evaluateComparison(row, run, ptr, *loaded, r, report.problems))
                report.comparisons.push_back(row);
        }
    if (const auto samples = r.string(parsed.doc, "", "serving_samples", false))
        report.samples = readServingSamples((dir / *samples).string(), catalog, "/serving_samples", report.problems);
    if (const auto calculon = r.string(parsed.doc, "", "calculon_runs", false))
        report.calculon = readCalculonRuns((dir / *calculon).string(), catalog, "/calculon_runs", report.problems);
    const auto calibration =
        summarizeRows(report.rows, [](const ValidationRow& row) { return row.role == "calibration"; });
    const auto checks = summarizeRows(report.rows, [](const ValidationRow& row) { return row.role == "check"; });
    report.meanAbsError = calibration.meanAbs;
    report.maxAbsError = calibration.maxAbs;
    report.checkMeanAbsError = checks.meanAbs;
    report.checkMaxAbsError = checks.maxAbs;
    report.servingSummary = summarizeRows(report.serving, [](const ServingValidationRow&) { return true; });
    return report;
}

namespace {

std::string layoutOf(const ValidationRow& r)
{
    std::string s = "tp " + std::to_string(r.tp) + ", pp " + std::to_string(r.pp);
    if (r.cp > 1)
        s += ", cp " + std::to_string(r.cp);
    if (r.ep > 1)
        s += ", ep " + std::to_string(r.ep);
    s += ", dp " + std::to_string(r.dp);
    if (r.zero > 0)
        s += ", ZeRO-" + std::to_string(r.zero);
    return s + ", " + r.precision;
}

std::string summaryLine(std::size_t runs, double mean, double worst, const std::string& target)
{
    return "\nOver these " + std::to_string(runs) + " runs: mean absolute error **" + formatPercent(mean, false) +
        "**, worst **" + formatPercent(worst, false) + "** (" + target + ").\n";
}

// A measured or predicted serving figure: thousands grouped, small ones to
// four significant digits.
std::string figure(double v)
{
    return std::fabs(v) >= 1000 ? formatCount(std::llround(v)) : formatValue(v, 4);
}

// One serving replica as the table shows it: layout, precisions, batch and lengths.
std::string replicaOf(const ServingValidationRow& r)
{
    std::string s = "tp " + std::to_string(r.tp) + ", pp " + std::to_string(r.pp);
    if (r.ep > 1)
        s += ", ep " + std::to_string(r.ep);
    s += ", " + r.weightPrecision + " weights, " + r.kvPrecision + " KV, batch " + formatCount(r.batch);
    if (r.batchChosen)
        s += " (as many as fit)";
    return s + ", " + formatCount(r.promptTokens) + " in / " + formatCount(r.outputTokens) + " out";
}

// The training rows as the error bands read them (resources/validation-errors.json).
std::vector<ValidationPoint> pointsOf(const ValidationReport& report)
{
    std::vector<ValidationPoint> points;
    for (const auto& r : report.rows)
        points.push_back({r.id, r.role, r.gpuPart, r.precision, r.gpus, r.tp, r.pp, r.cp, r.dp, r.zero,
                          std::round(r.error() * 1e4) / 1e4});
    return points;
}

// Each set's errors with the kernel profiles and with the catalog factors
// alone, by where the kernels' speeds came from: what the measured tables
// changed.
std::string kernelsMarkdown(const ValidationReport& report)
{
    std::string md =
        "\n## Measured kernels against the catalog factors\n\n"
        "The same runs with every kernel at the catalog's one-number-per-GPU factors (`--kernels none`, the model "
        "before kernel profiles) and with the GPU's kernel profile (`resources/kernels/`, docs/kernel-profiles.md: "
        "GEMMs at each shape, attention, scale-up collectives measured; what a profile lacks stays at the catalog "
        "factor). \"Kernels\" says where the prediction's kernel speeds came from. No profile value was fit to any "
        "run: the tables are NVIDIA AIConfigurator's kernel measurements, converted.\n\n"
        "| set | kernels | runs | mean error, catalog factors | mean error, kernel profiles | worst, catalog factors | "
        "worst, kernel profiles |\n|---|---|---|---|---|---|---|\n";
    auto line = [&](const std::string& set, const std::string& kernels, const std::vector<double>& factors,
                    const std::vector<double>& profiles) {
        if (factors.empty())
            return;
        const ErrorSummary f = summarizeErrors(factors), p = summarizeErrors(profiles);
        md += "| " + set + " | " + kernels + " | " + std::to_string(f.runs) + " | " + formatPercent(f.meanAbs, false) +
            " | " + formatPercent(p.meanAbs, false) + " | " + formatPercent(f.maxAbs, false) + " | " +
            formatPercent(p.maxAbs, false) + " |\n";
    };
    for (const char* role : {"calibration", "check"})
        for (const char* kernels : {"measured", "catalog factors"}) {
            std::vector<double> f, p;
            for (const auto& r : report.rows)
                if (r.role == role && r.kernels == kernels) {
                    f.push_back(r.factorError());
                    p.push_back(r.error());
                }
            line(std::string("training, ") + role, kernels, f, p);
        }
    auto servingLines = [&](const std::string& set, const std::vector<ServingValidationRow>& rows) {
        for (const char* kernels : {"measured", "catalog factors"}) {
            std::vector<double> f, p;
            for (const auto& r : rows)
                if (r.kernels == kernels) {
                    f.push_back(r.factorError());
                    p.push_back(r.error());
                }
            line(set, kernels, f, p);
        }
    };
    servingLines("serving", report.serving);
    servingLines("serving, AIConfigurator's measured points", report.samples.rows);
    md += "\n| run | set | kernels | error, catalog factors | error, kernel profiles |\n|---|---|---|---|---|\n";
    for (const auto& r : report.rows)
        md += "| " + r.id + " | " + r.role + " | " + r.kernels + " | " + formatPercent(r.factorError()) + " | " +
            formatPercent(r.error()) + " |\n";
    for (const auto& r : report.serving)
        md += "| " + r.id + " | serving | " + r.kernels + " | " + formatPercent(r.factorError()) + " | " +
            formatPercent(r.error()) + " |\n";
    return md;
}

// Whether the error bands hold: each run's band drawn without it.
std::string bandsMarkdown(const ValidationReport& report)
{
    const std::vector<ValidationPoint> points = pointsOf(report);
    const BandCoverage c = leaveOneOutCoverage(points);
    std::string outside;
    for (const auto& id : c.outside)
        outside += (outside.empty() ? "" : "; ") + id;
    return "\n## Do the error bands hold?\n\n"
           "A figure's band (`explain.<key>.error_band`) is the model's error on the published runs nearest the "
           "configuration (same GPU, within 4x of its GPUs, the most similar layout kind), widened on both sides by "
           "1.645 x the check runs' root-mean-square error (" +
        formatPercent(checkRunSpread(points), false) +
        " today), a normal distribution's central 90%: no band is narrower than that spread. With the central "
        "80% (1.28 x) a run the band had not seen fell inside 78% of the time, short of the 80% a band must hold, "
        "as the errors' tails are heavier than a normal's. Tested leave-one-out: each training run's band drawn "
        "from the other runs alone (the spread too), and the run's own error inside or not.\n\n"
        "Of " +
        std::to_string(c.runs) + " runs, " + std::to_string(c.banded) +
        " have another run near enough to draw a band; " + std::to_string(c.inside) +
        " of those fall inside theirs: **" + formatPercent(c.share(), false) + "** coverage (target: at least 80%)." +
        (outside.empty() ? std::string() : " Outside: " + outside + ".") + "\n";
}

std::string servingMarkdown(const ValidationReport& report)
{
    const ErrorSummary& sum = report.servingSummary;
    std::string md =
        "\n## Serving runs (checks; no factor fit on them)\n\n"
        "Published serving measurements (docs/evidence/serving-measurements.md) against the serving model "
        "(docs/model.md section 19, `analyzeServing`). There is no calibration set for serving: the model uses "
        "only the per-GPU catalog factors (`hbm_efficiency`, `gemm_efficiency`, `fp8_gemm_efficiency`, "
        "`attention_efficiency`) set on the training runs above, and no factor or formula was fit to any row "
        "below, so every row is a check. These rows are kept out of the training figures above and out of the "
        "error bands (`resources/validation-errors.json` holds step-time errors of training). \"GPUs\" is the "
        "replica's, tp x pp: the base design is one 8-GPU node (designs grow by whole nodes) and the figures are "
        "the replica's. The measured value is as published, divided by the GPUs only where the source prints a "
        "whole system's figure (said in the source line). The model is optimistic where it predicts more "
        "tokens/s (a positive error) or a shorter latency (a negative one). What the errors say about the model is in "
        "docs/model.md section 19, \"Validation "
        "status\".\n\n"
        "| run | system | GPUs | replica | metric | measured | predicted | error |\n"
        "|---|---|---|---|---|---|---|---|\n";
    for (const auto& r : report.serving)
        md += "| " + r.id + " | " + r.system + " | " + formatCount(r.gpus) + " | " + replicaOf(r) + " | " + r.metric +
            " | " + figure(r.measured) + " | " + figure(r.predicted) + " | " + formatPercent(r.error()) + " |\n";
    md += summaryLine(sum.runs, sum.meanAbs, sum.maxAbs,
                      std::to_string(sum.within10) + " of " + std::to_string(sum.runs) + " within 10%, " +
                          std::to_string(sum.within25) + " within 25%; issue 35's target: at most 15% mean");
    if (!report.comparisons.empty()) {
        md += "\n### Disaggregated against aggregated (checks)\n\n"
              "Published comparisons of one workload served two ways on the same GPUs: split into prefill and "
              "decode workers (docs/model.md section 19, \"Disaggregated serving\") against aggregated replicas, as "
              "the ratio of their tokens/s per GPU of the design (above 1: the split serves more). Each ratio is the "
              "model's two analyses of the run's design, nothing fit to it.\n\n"
              "| comparison | system | split | against | tokens/s per GPU, split / against | measured ratio | "
              "predicted ratio | error |\n|---|---|---|---|---|---|---|---|\n";
        for (const auto& c : report.comparisons)
            md += "| " + c.id + " | " + c.system + " | " + c.layout + " | " + c.versus + " | " + figure(c.perGpu) +
                " / " + figure(c.versusPerGpu) + " | " + formatValue(c.measured, 3) + " | " +
                formatValue(c.predicted, 3) + " | " + formatPercent(c.error()) + " |\n";
        md += "\nSources:\n\n";
        for (const auto& c : report.comparisons)
            md += "- " + c.id + ": " + c.source + "\n";
    }
    if (!report.notModelled.empty()) {
        md += "\n### Published serving measurements not modelled\n\n";
        for (const auto& n : report.notModelled)
            md += "- " + n.id + ": " + n.reason + "\n";
    }
    md += "\n### Sources of the serving runs\n\n";
    for (const auto& r : report.serving)
        md += "- " + r.id + ": " + r.source + "\n";
    return md;
}

}  // namespace

std::string validationMarkdown(const ValidationReport& report, const std::string& command)
{
    std::string md = "# Validation: the performance model against published runs\n\n"
                     "Generated by `" +
        command +
        "`; do not edit by hand.\n\n"
        "Each run is a base design (`tests/data/published/`) resized to the run's GPUs, with the run's workload. "
        "The model has no per-run factors: every efficiency is a catalog figure of the part (one value per "
        "accelerator), set once for all runs. Step times are compared: a run published as TFLOP/s per GPU is "
        "turned back into its step time by the paper's own FLOP count (Narayanan et al. count the recompute pass "
        "and the full attention square; Llama 3 cites PaLM's model FLOPs, also the full square), so no figure "
        "depends on which half of attention a count includes. A negative error means the model is too fast "
        "(optimistic).\n\n"
        "The runs fall in two sets, reported apart. The calibration runs (`../shared/reference/published-runs.md`) "
        "are frozen: the factors docs/model.md marks \"calibration\" were set on them. The check runs were added "
        "after every factor was set and no factor was fit on them; they test the model where the calibration set "
        "does not reach (no tensor parallelism, FSDP, small clusters, FP8, long context, mixture of experts, "
        "Blackwell). The \"system\" column names the base design a run was modelled on: the Llama 3 runs are on "
        "RoCE, as Meta's cluster was. No AMD MI300X training run is published with enough of its layout to model "
        "(docs/evidence/check-runs.md, C6-f). The studio's error bands "
        "(`explain.<key>.error_band`) come from both sets, through `resources/validation-errors.json`.\n";
    auto table = [&](const std::string& role) {
        std::string t = "\n| run | system | GPUs | layout | published | measured step (s) | predicted (s) | error |\n"
                        "|---|---|---|---|---|---|---|---|\n";
        std::size_t n = 0;
        for (const auto& r : report.rows)
            if (r.role == role) {
                ++n;
                t += "| " + r.id + " | " + r.system + " | " + formatCount(r.gpus) + " | " + layoutOf(r) + " | " +
                    (r.published.empty() ? "step time" : r.published) + " | " + formatValue(r.measured, 4) + " | " +
                    formatValue(r.predicted, 4) + " | " + formatPercent(r.error()) + " |\n";
            }
        return std::make_pair(t, n);
    };
    const auto [calibration, nCalibration] = table("calibration");
    md += "\n## Calibration runs (frozen)\n" + calibration +
        summaryLine(nCalibration, report.meanAbsError, report.maxAbsError,
                    "target: at most 5% mean, 10% worst; NVIDIA's Calculon reports 3.7% mean / 8.9% worst on the "
                    "Korthikanti runs");
    const auto [checks, nChecks] = table("check");
    if (nChecks > 0) {
        const auto within = summarizeRows(report.rows, [](const ValidationRow& r) { return r.role == "check"; });
        md += "\n## Check runs (no factor fit on them)\n" + checks +
            summaryLine(nChecks, report.checkMeanAbsError, report.checkMaxAbsError,
                        "issue 35's target: each within 15%, 8% mean; " + std::to_string(within.within15) + " of " +
                            std::to_string(nChecks) + " are within 15%, " + std::to_string(within.within10) +
                            " within 10%") +
            "\nWhat these runs say about the model, and what is still missing from it, is in docs/model.md, "
            "\"Validation status\".\n";
    }
    md += kernelsMarkdown(report) + bandsMarkdown(report);
    md += "\n## Where the published layouts rank in the layout search\n\n"
          "Each run's layout ranked among every feasible layout of its model on its GPUs by the layout search "
          "(`cluster-studio search`, docs/model.md \"Layout search\"), by step time, with tp kept inside the "
          "NVLink domain and within what the run's software runs where the run names it (its workload's "
          "`software`, a catalog profile); the batch and the model stay the run's. The best layout is the model's: "
          "where it beats the published one, the gap is what the model says the run left, and docs/model.md "
          "\"Layout search\" says what the model does not weigh that the run's authors did.\n\n"
          "| run | GPUs | searched within | rank of the published layout | slower than the best | best layout the "
          "model finds | its step (s) | what it changes |\n|---|---|---|---|---|---|---|---|\n";
    for (const auto& r : report.rows) {
        const auto& s = r.standing;
        md += "| " + r.id + " | " + formatCount(r.gpus) + " | " + (s.software.empty() ? "-" : s.software) + " | " +
            (s.whyNot.empty() ? "#" + formatCount(s.rank) + " of " + formatCount(s.feasible)
                              : "not ranked: " + s.whyNot) +
            " | " + (s.whyNot.empty() ? formatPercent(s.gap, false) : "-") + " | " +
            (s.feasible > 0 ? describeLayout(s.best) : "none fits") + " | " +
            (s.feasible > 0 ? formatValue(s.bestStepS, 4) : "-") + " | " +
            (s.feasible == 0                       ? std::string("-")
                 : s.whyNot.empty() && s.rank == 1 ? std::string("nothing: the published layout is the best")
                                                   : describeChange(s.published, s.best)) +
            " |\n";
    }
    md += "\n## Sources\n\n";
    for (const auto& r : report.rows)
        md += "- " + r.id + ": " + r.source + "\n";
    if (!report.serving.empty() || !report.notModelled.empty() || !report.comparisons.empty())
        md += servingMarkdown(report);
    if (!report.samples.rows.empty() || !report.samples.notServed.empty())
        md += servingSamplesMarkdown(report.samples);
    if (!report.calculon.rows.empty())
        md += calculonSideBySideMarkdown(report.calculon);
    return md;
}

Json validationErrorsJson(const ValidationReport& report, const std::string& command)
{
    Json runs = Json::array();
    for (const ValidationPoint& p : pointsOf(report))
        runs.push_back({{"id", p.id},
                        {"role", p.role},
                        {"gpu_part", p.gpuPart},
                        {"gpus", p.gpus},
                        {"tp", p.tp},
                        {"pp", p.pp},
                        {"cp", p.cp},
                        {"dp", p.dp},
                        {"zero", p.zero},
                        {"precision", p.precision},
                        {"step_error", p.stepError}});
    return {{"about",
             "Generated by `" + command +
                 "`; do not edit by hand. The model's step-time error on each published run of "
                 "docs/validation.md, (predicted - measured) / measured, which the error bands of the headline "
                 "figures are drawn from (core/metrics/error_band.h); and, by GPU and engine, the measured serving "
                 "points' real TTFT, TPOT and tokens/s per GPU over the model's, 10th and 90th percentiles, which "
                 "the served figures' bands are (core/metrics/serving_error_band.h)."},
            {"runs", std::move(runs)},
            {"serving", servingBandsJson(servingBandGroups(report.samples.rows))}};
}

}  // namespace studio
