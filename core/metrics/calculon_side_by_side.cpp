#include "core/metrics/calculon_side_by_side.h"

#include <filesystem>

#include "core/analysis/step_parts.h"
#include "core/format/design_reader.h"
#include "core/json/json_pointer.h"
#include "core/json/json_reader.h"
#include "core/metrics/validation_runs.h"
#include "core/model/analysis.h"
#include "core/text.h"

namespace studio {
namespace {

// The studio's step parts in Calculon's groups: what the kernels take
// (Calculon's fw, bw, optimizer and recompute), and each axis's exposed
// communication (the pipeline's with its bubble, as Calculon's bubble holds
// its share of the slowest stage).
void studioParts(CalculonSideBySideRow& row, const Analysis& a)
{
    for (const StepPart& p : a.step.breakdown) {
        const StepPartInfo& info = stepPartInfo(p.id);
        if (info.compute)
            row.computeS += p.seconds;
        else if (p.id == StepPartId::TpComm)
            row.tpS += p.seconds;
        else if (p.id == StepPartId::PpComm || p.id == StepPartId::PipelineBubble)
            row.ppS += p.seconds;
        else if (p.id == StepPartId::DpComm)
            row.dpS += p.seconds;
    }
}

std::string seconds(double s)
{
    return formatValue(s, 3);
}

}  // namespace

CalculonSideBySide readCalculonRuns(const std::string& path, const Catalog& catalog, const std::string& ptr,
                                    std::vector<Problem>& problems)
{
    CalculonSideBySide side;
    LinkedFile linked(path, ptr, problems);
    std::vector<Problem>& own = linked.problems();
    const std::optional<Json> parsed = linked.read();
    if (!parsed)
        return side;
    const Json& doc = *parsed;
    JsonReader r(own);
    if (!r.isObject(doc, "") || !doc.contains("runs") || !r.isArray(doc["runs"], "/runs")) {
        if (own.empty())
            own.push_back({Severity::Error, "/runs", "missing: the Calculon runs"});
        return side;
    }
    side.commit = r.string(doc, "", "commit", true).value_or("");
    side.command = r.string(doc, "", "command", true).value_or("");
    const std::filesystem::path dir = std::filesystem::path(path).parent_path();
    for (std::size_t i = 0; i < doc["runs"].size(); ++i) {
        const Json& run = doc["runs"][i];
        const std::string at = pointerAppend("/runs", i);
        if (!r.isObject(run, at))
            continue;
        const auto design = r.string(run, at, "design", true);
        if (!design)
            continue;
        const DesignLoad loaded = loadDesignFile((dir / *design).string(), catalog);
        if (!loaded.ok()) {
            own.push_back({Severity::Error, pointerAppend(at, "design"), *design + " does not load"});
            continue;
        }
        const Analysis a = analyzeDesign(*loaded.design, *loaded.catalog);
        CalculonSideBySideRow row;
        row.design = loaded.design->name;
        row.gpus = a.workload.gpusUsed;
        row.sequence = a.workload.seq;
        row.stepS = a.step.stepS;
        row.mfu = a.step.mfu;
        studioParts(row, a);
        if (run.contains("error")) {
            row.error = r.string(run, at, "error", true).value_or("");
        } else if (run.contains("stats") && r.isObject(run["stats"], pointerAppend(at, "stats"))) {
            const Json& s = run["stats"];
            const std::string sp = pointerAppend(at, "stats");
            auto t = [&](const char* key) { return r.number(s, sp, key, true, 0, 1e9).value_or(0); };
            row.calculonStepS = t("total_time");
            row.calculonEfficiency = t("total_efficiency");
            row.calculonComputeS = t("fw_time") + t("bw_time") + t("optim_step_time") + t("recompute_time");
            row.calculonTpS = t("tp_comm_exposed_time") + t("recomm_exposed_time");
            row.calculonPpS = t("pp_comm_exposed_time") + t("bubble_time");
            row.calculonDpS = t("dp_comm_exposed_time");
            row.calculonHbmGiB = r.number(s, sp, "proc_mem_tier1_cap_req", true, 0, 1e18).value_or(0) / (1u << 30);
        } else {
            own.push_back({Severity::Error, at, "expected \"stats\" (Calculon's output) or \"error\""});
            continue;
        }
        side.rows.push_back(std::move(row));
    }
    return side;
}

std::string calculonSideBySideMarkdown(const CalculonSideBySide& side)
{
    std::string md =
        "\n## Calculon on the same designs (side by side)\n\n"
        "Each shipped training preset, exported with `cluster-studio export FILE --to calculon -o DIR` and run in "
        "Calculon (github.com/calculon-ai/calculon, commit " +
        side.commit.substr(0, 7) + ") with `" + side.command +
        "` from DIR (tools/calculon-side-by-side.py runs them all and writes "
        "tests/data/published/calculon-runs.json). Seconds per step (one global batch); Calculon's are its "
        "first stage's. Compute is the kernels' time (Calculon: forward, backward, optimizer and recompute); "
        "TP, PP and DP are the exposed communication (PP with the pipeline bubble; Calculon's TP with its "
        "recompute's). Neither model is fit to the other, and the README.md of each export lists what "
        "Calculon cannot represent.\n\n"
        "| design | GPUs | sequence | step, studio | step, Calculon | Calculon / studio | compute, studio | Calculon | "
        "TP, studio | Calculon | PP, studio | Calculon | DP, studio | Calculon | MFU, studio | "
        "Calculon's total efficiency | Calculon's HBM per GPU |\n"
        "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n";
    for (const CalculonSideBySideRow& r : side.rows) {
        md += "| " + r.design + " | " + formatCount(r.gpus) + " | " + formatCount(r.sequence) + " | " +
            seconds(r.stepS) + " | ";
        if (!r.error.empty()) {
            md += "does not run: " + r.error + " | - | " + seconds(r.computeS) + " | - | " + seconds(r.tpS) +
                " | - | " + seconds(r.ppS) + " | - | " + seconds(r.dpS) + " | - | " + formatPercent(r.mfu, false) +
                " | - | - |\n";
            continue;
        }
        md += seconds(r.calculonStepS) + " | " + formatValue(r.calculonStepS / r.stepS, 3) + "x | " +
            seconds(r.computeS) + " | " + seconds(r.calculonComputeS) + " | " + seconds(r.tpS) + " | " +
            seconds(r.calculonTpS) + " | " + seconds(r.ppS) + " | " + seconds(r.calculonPpS) + " | " + seconds(r.dpS) +
            " | " + seconds(r.calculonDpS) + " | " + formatPercent(r.mfu, false) + " | " +
            formatPercent(r.calculonEfficiency, false) + " | " + formatValue(r.calculonHbmGiB, 3) + " GiB |\n";
    }
    md += "\nWhere they part, by design of the two models rather than by a factor: Calculon has no fused "
          "(flash) attention, so it moves and stores the sequence-by-sequence score matrix through HBM, and its "
          "attn_only recomputation runs that again; the cost grows with the square of the sequence, so the "
          "longer a design's sequences (the table's third column), the more the two part. Calculon knows "
          "multi-head attention only (grouped-query K and V projections are written full size), has no "
          "embedding or output layer, no stragglers and no overlap contention; it hides the data-parallel "
          "reduction behind the backward of only as many micro-batches as there are pipeline stages (one without "
          "a pipeline), so a design without a pipeline exposes more of it there. Its MFU-like total efficiency "
          "counts the blocks' FLOPs only.\n";
    return md;
}

}  // namespace studio
