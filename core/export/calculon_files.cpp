#include "core/export/calculon_files.h"

#include <algorithm>
#include <cmath>

#include "core/analysis/step_time.h"
#include "core/design/design_index.h"
#include "core/model/analysis.h"
#include "core/text.h"

namespace studio {
namespace {

// Calculon's ring collectives as its shipped systems write them
// (network.py: bytes = size x scalar, plus size / n x offset): an
// all-reduce moves 2(n-1)/n of the buffer, a reduce-scatter or all-gather
// (n-1)/n, as the studio's rings do (core/analysis/collectives.h).
Json ringOps()
{
    return {
        {"p2p", {1.0, nullptr}}, {"reduce_scatter", {1.0, -1}}, {"all_gather", {1.0, -1}}, {"all_reduce", {2.0, -1}}};
}

// Calculon's compute-sharing while a collective overlaps compute: the studio
// models none, so its shipped H100 system's figures stand
// (systems/h100_80g_nvl8.json).
constexpr double kScaleupProcessorUsage = 0.15;
constexpr double kScaleoutProcessorUsage = 0.02;

struct ExportedTier {
    std::string key;  // the studio tier it stands for
    std::int64_t size = 0;
    bool mustBeFilled = false;
};

// One efficiency for every size: Calculon looks a size up in descending
// thresholds and the last row must be 0.
Json flatTable(double efficiency)
{
    return Json::array({Json::array({0, efficiency})});
}

// The studio's efficiency-by-size curve as Calculon's table: each row is
// the curve at its threshold (GFLOP per operation, MB per access), the last
// at the curve's smallest point; Calculon steps where the studio
// interpolates, so between thresholds it is the lower of the two.
Json sizeTable(double efficiency, double (*factor)(double), std::initializer_list<std::pair<double, double>> rows,
               double unit)
{
    Json t = Json::array();
    for (auto [threshold, at] : rows)
        t.push_back(Json::array({threshold, efficiency * factor(at * unit)}));
    return t;
}

}  // namespace

std::string calculonDatatype(const std::string& precision)
{
    if (precision == "bf16")
        return "bfloat16";
    if (precision == "fp16")
        return "float16";
    if (precision == "fp8")
        return "float8";
    return "";
}

std::string precisionOfCalculonDatatype(const std::string& datatype)
{
    for (const char* p : {"bf16", "fp16", "fp8"})
        if (calculonDatatype(p) == datatype)
            return p;
    return "";
}

std::string calculonCommand(const std::string& folder)
{
    const std::string at = folder.empty() ? "" : folder + "/";
    return "PYTHONPATH=. ./bin/calculon llm " + at + "model.json " + at + "execution.json " + at +
        "system.json stats.json";
}

CalculonFiles calculonFiles(const Design& design, const Catalog& catalog)
{
    CalculonFiles out;
    const Analysis a = analyzeDesign(design, catalog);
    if (a.serving) {
        out.error = "Calculon times training steps; this design's workload is serving";
        return out;
    }
    if (!a.runnable()) {
        out.error = "the layout does not run on this design (" + a.notRunnable.front().message + ")";
        return out;
    }
    const WorkloadShape& w = a.workload;
    const HardwareProfile& hw = a.hardware;
    const AcceleratorProfile& g = hw.gpu;
    auto note = [&out](std::string s) { out.notes.push_back(std::move(s)); };

    // Model: Calculon's blocks are GPT's (multi-head or multi-query
    // attention, a two-matrix MLP); the rest of a model is said in a note.
    std::int64_t feedforward = w.ffn;
    if (w.swiglu) {
        // Three matrices of hidden x ffn where Calculon has two: 1.5 x ffn
        // gives its MLP the same weights and FLOPs.
        feedforward = std::int64_t(std::llround(1.5 * double(w.ffn)));
        note("SwiGLU's three MLP matrices (ffn_hidden " + formatCount(w.ffn) +
             ") are written as Calculon's two with feedforward " + formatCount(feedforward) +
             ", the same weights and FLOPs");
    }
    if (w.experts > 0) {
        const std::int64_t k = std::max<std::int64_t>(1, w.expertsPerToken);
        feedforward *= k;
        note("a mixture of " + formatCount(w.experts) +
             " experts is written dense: Calculon has no experts, so each "
             "block's MLP is the " +
             formatCount(k) + " experts a token runs through (feedforward " + formatCount(feedforward) +
             "); the other experts' weights and expert parallelism are not in its memory "
             "or its step");
    }
    // Calculon splits the MLP across the tensor-parallel ranks evenly.
    if (const std::int64_t rem = feedforward % w.tp; rem != 0)
        feedforward += w.tp - rem;
    if (w.kvHeads > 1 && w.kvHeads < w.heads)
        note("grouped-query attention (" + formatCount(w.kvHeads) + " KV heads of " + formatCount(w.heads) +
             ") is written as multi-head: Calculon knows multi-head and multi-query only, so its K and V "
             "projections are larger than the model's");
    note("Calculon times the transformer blocks only: the embedding and output layer (vocab " + formatCount(w.vocab) +
         ") are not in its step");
    if (w.dropout > 0)
        note("dropout " + formatValue(w.dropout, 3) + " is not in Calculon's blocks");
    out.model = {{"hidden", w.hidden},
                 {"feedforward", feedforward},
                 {"seq_size", w.seq},
                 {"attn_heads", w.heads},
                 {"attn_size", std::int64_t(std::llround(w.headDim))},
                 {"num_blocks", w.layers}};

    // System: one processor at the training precision. Calculon's matrix
    // unit runs GEMMs and attention, its vector unit the element-wise work
    // and the optimizer; the studio times the latter by the bytes they move,
    // so the vector unit gets the matrix peak and its FLOPs stay negligible.
    const std::string datatype = calculonDatatype(g.trainingPrecision);
    if (datatype.empty()) {
        out.error = "Calculon has no datatype for " + g.trainingPrecision;
        return out;
    }
    const double peak = g.trainingPeakTflops.value;
    auto gemmTable = [](double efficiency) {
        return sizeTable(efficiency, gemmSizeFactor, {{128, 128}, {16, 16}, {1, 1}, {0, 0.01}}, 1e9);
    };
    out.system["matrix"] = {{datatype, {{"tflops", peak}, {"gflops_efficiency", gemmTable(g.gemmEfficiency.value)}}}};
    out.system["vector"] = {{datatype, {{"tflops", peak}, {"gflops_efficiency", flatTable(1.0)}}}};
    if (datatype != "bfloat16") {
        // The 16-bit peak too: the studio runs attention there, and an
        // import needs it.
        const DesignIndex index(design, catalog);
        const double efficiency = g.component
            ? index.figure(*g.component, "gemm_efficiency").value_or(kDefaultGemmEfficiency)
            : kDefaultGemmEfficiency;
        out.system["matrix"]["bfloat16"] = {{"tflops", g.bf16PeakTflops}, {"gflops_efficiency", gemmTable(efficiency)}};
        out.system["vector"]["bfloat16"] = {{"tflops", g.bf16PeakTflops}, {"gflops_efficiency", flatTable(1.0)}};
    }
    note("the GEMM and HBM efficiencies (" + formatValue(g.gemmEfficiency.value, 3) + " and " +
         formatValue(g.hbmEfficiency.value, 3) +
         " for large operations) follow the studio's size curves in Calculon's steps, which sit below the "
         "curves between thresholds; attention runs at the GEMM table, as Calculon has no attention efficiency "
         "(the studio's is " +
         formatValue(g.attentionEfficiency.value, 3) + ")");
    if (g.kernels)
        note("the GPU's measured kernel tables are not written: Calculon gets the catalog's efficiencies");
    note("the vector unit runs at the matrix peak: the studio times element-wise work and the optimizer by the bytes "
         "they move, not their FLOPs");
    out.system["mem1"] = {
        {"GiB", g.hbmGb.value},
        {"GBps", g.hbmTbPerS.value * 1000},
        {"MB_efficiency",
         sizeTable(g.hbmEfficiency.value, memorySizeFactor, {{100, 100}, {10, 10}, {1, 1}, {0, 0.01}}, 1e6)}};
    // No offload tier: with 0 GiB Calculon's search skips offloading.
    out.system["mem2"] = {{"GiB", 0}, {"GBps", 1}, {"MB_efficiency", flatTable(1.0)}};
    // A GEMM takes the slower of its FLOPs and its bytes, as the studio's do.
    out.system["processing_mode"] = "roofline";

    // A network per tier collectives cross, NVLink first: each GPU's one
    // direction, the share a collective sustains, the GPUs it reaches.
    std::vector<ExportedTier> tiers;
    Json networks = Json::array();
    for (const Tier& t : a.hierarchy.tiers) {
        if (!t.carriesCollectives || t.gbPerSPerGpu <= 0)
            continue;
        const bool scaleup = t.key == "nvlink";
        if (scaleup && hw.scaleupDomainGpus < 2)
            continue;
        const double oneWay = t.gbPerSPerGpu / 2;
        const std::int64_t size = scaleup ? hw.scaleupDomainGpus : t.scopeGpus;
        tiers.push_back({t.key, size, scaleup});
        networks.push_back({{"bandwidth", oneWay},
                            {"efficiency", std::min(1.0, t.collectiveBytesPerS / (oneWay * 1e9))},
                            {"size", size},
                            {"latency", t.alphaS},
                            {"ops", ringOps()},
                            {"must_be_filled", scaleup},
                            {"processor_usage", scaleup ? kScaleupProcessorUsage : kScaleoutProcessorUsage}});
    }
    if (tiers.empty()) {
        out.error = "the design has no network between its GPUs for Calculon's tiers";
        return out;
    }
    // The last scale-out tier reaches every GPU.
    for (auto it = tiers.rbegin(); it != tiers.rend(); ++it)
        if (!it->mustBeFilled) {
            it->size = hw.gpus;
            networks[std::size_t(tiers.rend() - it - 1)]["size"] = hw.gpus;
            break;
        }
    if (tiers.front().mustBeFilled)
        note("Calculon's scale-up tier has one bandwidth for every message; the studio's NVLink collectives reach "
             "less of it below a few hundred MB");
    out.system["networks"] = std::move(networks);

    // Execution: the layout, each axis on the tier the studio puts it on.
    if (w.cp > 1)
        note("context parallelism (cp " + formatCount(w.cp) + ") is not in Calculon: it runs tp x pp x dp = " +
             formatCount(w.tp * w.pp * w.dp) + " of the layout's " + formatCount(w.gpusUsed) + " GPUs");
    auto tierOf = [&](const std::string& axis) -> std::size_t {
        std::string key;
        for (const AxisPlacement& p : a.hierarchy.axes)
            if (p.axis == axis)
                key = p.tier;
        const std::size_t rank = a.hierarchy.rank(key);
        for (std::size_t i = 0; i < tiers.size(); ++i)
            if (a.hierarchy.rank(tiers[i].key) >= rank)
                return i;
        return tiers.size() - 1;
    };
    struct Axis {
        const char* name;
        std::int64_t degree;
        std::size_t tier;
    };
    Axis axes[] = {{"tp", w.tp, tierOf("tp")}, {"pp", w.pp, tierOf("pp")}, {"dp", w.dp, tierOf("dp")}};
    // Calculon multiplies the degrees that share a tier and wants the
    // product to fit it (and, on NVLink, to divide it): an axis that does
    // not fit goes up a tier, outermost first.
    for (std::size_t i = 0; i < tiers.size(); ++i) {
        auto product = [&] {
            std::int64_t p = 1;
            for (const Axis& x : axes)
                if (x.tier == i && x.degree > 1)
                    p *= x.degree;
            return p;
        };
        for (int outer = 2; outer >= 0 && i + 1 < tiers.size(); --outer) {
            const std::int64_t p = product();
            if (p <= tiers[i].size && (!tiers[i].mustBeFilled || tiers[i].size % p == 0))
                break;
            if (axes[outer].tier == i && axes[outer].degree > 1) {
                axes[outer].tier = i + 1;
                note(std::string(axes[outer].name) + " " + formatCount(axes[outer].degree) + " is written on " +
                     tiers[i + 1].key + " rather than " + tiers[i].key +
                     ": Calculon multiplies the degrees that share a tier");
            }
        }
    }
    std::int64_t batch = w.globalBatch;
    const std::int64_t perStep = w.microBatch * w.dp;
    if (batch % perStep != 0) {
        batch = (batch + perStep - 1) / perStep * perStep;
        note("the global batch " + formatCount(w.globalBatch) + " is written as " + formatCount(batch) +
             ": Calculon runs whole micro-batches of " + formatCount(w.microBatch) + " on each of " +
             formatCount(w.dp) + " data-parallel ranks");
    }
    const bool tensorParallel = w.tp > 1;
    out.execution = {{"num_procs", w.tp * w.pp * w.dp},
                     {"tensor_par", w.tp},
                     {"pipeline_par", w.pp},
                     {"data_par", w.dp},
                     {"tensor_par_net", axes[0].tier},
                     {"pipeline_par_net", axes[1].tier},
                     {"data_par_net", axes[2].tier},
                     {"batch_size", batch},
                     {"microbatch_size", w.microBatch},
                     {"datatype", datatype},
                     // The studio times the activation as its own kernel.
                     {"fused_activation", false},
                     {"attention_type", w.kvHeads == 1 && w.heads > 1 ? "multiquery" : "multihead"},
                     {"activation_recompute", w.fullRecompute ? "full" : (w.selectiveRecompute ? "attn_only" : "none")},
                     {"pipeline_interleaving", w.pp > 1 ? w.interleave : 1},
                     {"optimizer_sharding", w.zero >= 1 && w.dp > 1},
                     {"tensor_par_comm_type", w.sequenceParallel && tensorParallel ? "rs_ag" : "ar"},
                     {"tensor_par_overlap", w.tpCommOverlap && tensorParallel ? "ring" : "none"},
                     {"seq_par_ag_redo", false},
                     // The studio hides the data-parallel reduction behind the backward.
                     {"data_par_overlap", w.dp > 1},
                     {"weight_offload", false},
                     {"activations_offload", false},
                     {"optimizer_offload", false},
                     {"training", true}};
    if (w.zero > 1)
        note("ZeRO stage " + formatCount(w.zero) + " is written as Calculon's optimizer sharding (stage 1)");
    if (w.selectiveRecompute)
        note("selective recomputation is written as Calculon's attn_only");
    return out;
}

}  // namespace studio
