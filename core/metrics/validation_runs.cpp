#include "core/metrics/validation_runs.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>

#include "core/analysis/step_time.h"
#include "core/design/resize.h"
#include "core/format/design_reader.h"
#include "core/format/design_writer.h"
#include "core/format/json_pointer.h"
#include "core/format/json_reader.h"
#include "core/format/json_text.h"
#include "core/metrics/metrics.h"
#include "core/search/layout_search.h"
#include "core/text.h"

namespace studio {
namespace {

std::string percent(double fraction)
{
    char buf[32];
    std::snprintf(buf, sizeof buf, "%+.1f%%", fraction * 100);
    return buf;
}

}  // namespace

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
    double sum = 0, checkSum = 0;
    int calibration = 0, checks = 0;
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
        const auto designFile = r.string(run, ptr, "design", true);
        if (!designFile || !run.contains("workload"))
            continue;
        // The base design with the run's workload, read and checked like a file.
        const ParsedJson base = parseJsonText(readTextFile((dir / *designFile).string()).text);
        if (base.error) {
            report.problems.push_back(
                {Severity::Error, pointerAppend(ptr, "design"), *designFile + ": " + base.error->message});
            continue;
        }
        Json doc = base.doc;
        doc["workload"] = run["workload"];
        DesignLoad loaded = readDesignJson(doc, catalog);
        if (!loaded.ok()) {
            for (auto p : loaded.problems)
                if (p.severity == Severity::Error)
                    report.problems.push_back({Severity::Error, ptr + p.pointer, row.id + ": " + p.message});
            continue;
        }
        if (auto p = resizeToGpus(*loaded.design, *loaded.catalog, designGpus)) {
            report.problems.push_back({Severity::Error, pointerAppend(ptr, "gpus"), row.id + ": " + p->message});
            continue;
        }
        const Analysis analysis = analyzeDesign(*loaded.design, *loaded.catalog);
        const Json metrics = metricsJson(*loaded.design, analysis);
        // A published TFLOP/s counts FLOPs its own way: turn it back into the
        // step time it was measured as, by that count, and compare step times.
        if (const auto convention = r.choice(run, ptr, "flop_convention", {"causal_half", "full_square"}, false)) {
            const bool hardware = row.metric == "training.tflops_per_gpu_hardware";
            if (!hardware && row.metric != "training.tflops_per_gpu_model") {
                report.problems.push_back({Severity::Error, pointerAppend(ptr, "flop_convention"),
                                           row.id + ": a FLOP convention applies to a TFLOP/s metric only"});
                continue;
            }
            const auto& w = analysis.workload;
            const FlopConvention c =
                *convention == "full_square" ? FlopConvention::FullSquare : FlopConvention::CausalHalf;
            double perSeq = 3 * forwardFlopsPerSequence(w, c);
            if (hardware && w.fullRecompute)
                perSeq += double(w.layers) * forwardFlopsPerSequenceLayer(w, c);
            row.published = formatValue(row.measured, 4) + " TFLOP/s per GPU (" + (hardware ? "hardware" : "model") +
                ", " + (c == FlopConvention::FullSquare ? "full attention square" : "causal half") + ")";
            row.measured = double(w.globalBatch) * perSeq / (row.measured * 1e12 * double(w.gpusUsed));
            row.metric = "training.step_time_s";
        }
        const std::string pointer =
            "/" + row.metric.substr(0, row.metric.find('.')) + "/" + row.metric.substr(row.metric.find('.') + 1);
        const Json::json_pointer jp(pointer);
        if (!metrics.contains(jp) || !metrics.at(jp).is_number()) {
            const Json& why = metrics["unavailable"];
            report.problems.push_back(
                {Severity::Error, pointerAppend(ptr, "metric"),
                 row.id + ": " +
                     (why.contains(row.metric) ? inQuotes(row.metric) + " is " + why[row.metric].get<std::string>()
                                               : "no metric " + inQuotes(row.metric))});
            continue;
        }
        row.predicted = metrics.at(jp).get<double>();
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
        row.standing.rank = found.current.rank;
        row.standing.feasible = found.feasible;
        row.standing.gap = found.current.gap;
        if (!found.top.empty()) {
            row.standing.best = found.top.front().layout;
            row.standing.bestStepS = found.top.front().stepS;
        }
        const bool isCalibration = row.role == "calibration";
        (isCalibration ? sum : checkSum) += std::fabs(row.error());
        double& worst = isCalibration ? report.maxAbsError : report.checkMaxAbsError;
        worst = std::max(worst, std::fabs(row.error()));
        ++(isCalibration ? calibration : checks);
        report.rows.push_back(row);
    }
    report.meanAbsError = calibration > 0 ? sum / calibration : 0;
    report.checkMeanAbsError = checks > 0 ? checkSum / checks : 0;
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
    return "\nOver these " + std::to_string(runs) + " runs: mean absolute error **" + percent(mean).substr(1) +
        "**, worst **" + percent(worst).substr(1) + "** (" + target + ").\n";
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
                    formatValue(r.predicted, 4) + " | " + percent(r.error()) + " |\n";
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
        const auto within = std::count_if(report.rows.begin(), report.rows.end(), [](const ValidationRow& r) {
            return r.role == "check" && std::fabs(r.error()) <= 0.10;
        });
        md += "\n## Check runs (no factor fit on them)\n" + checks +
            summaryLine(nChecks, report.checkMeanAbsError, report.checkMaxAbsError,
                        "target: each within 10%, 5% mean; " + std::to_string(within) + " of " +
                            std::to_string(nChecks) + " are within 10%") +
            "\nWhat these runs say about the model, and what is still missing from it, is in docs/model.md, "
            "\"Validation status\".\n";
    }
    md += "\n## Where the published layouts rank in the layout search\n\n"
          "Each run's layout ranked among every feasible layout of its model on its GPUs by the layout search "
          "(`cluster-studio search`, docs/model.md \"Layout search\"), by step time, with tp kept inside the "
          "NVLink domain; the batch and the model stay the run's. The best layout is the model's: where it beats "
          "the published one, the gap is what the model says the run left, and docs/model.md \"Layout search\" "
          "says what the model does not weigh that the run's authors did.\n\n"
          "| run | GPUs | rank of the published layout | slower than the best | best layout the model finds | its "
          "step (s) | what it changes |\n|---|---|---|---|---|---|---|\n";
    for (const auto& r : report.rows) {
        const auto& s = r.standing;
        md += "| " + r.id + " | " + formatCount(r.gpus) + " | " +
            (s.whyNot.empty() ? "#" + formatCount(s.rank) + " of " + formatCount(s.feasible)
                              : "not ranked: " + s.whyNot) +
            " | " + (s.whyNot.empty() ? percent(s.gap).substr(1) : "-") + " | " +
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
    return md;
}

Json validationErrorsJson(const ValidationReport& report, const std::string& command)
{
    Json runs = Json::array();
    for (const auto& r : report.rows)
        runs.push_back({{"id", r.id},
                        {"role", r.role},
                        {"gpu_part", r.gpuPart},
                        {"gpus", r.gpus},
                        {"tp", r.tp},
                        {"pp", r.pp},
                        {"cp", r.cp},
                        {"dp", r.dp},
                        {"zero", r.zero},
                        {"precision", r.precision},
                        {"step_error", std::round(r.error() * 1e4) / 1e4}});
    return {{"about",
             "Generated by `" + command +
                 "`; do not edit by hand. The model's step-time error on each published run of "
                 "docs/validation.md, (predicted - measured) / measured, which the error bands of the headline "
                 "figures are drawn from (core/metrics/error_band.h)."},
            {"runs", std::move(runs)}};
}

}  // namespace studio
