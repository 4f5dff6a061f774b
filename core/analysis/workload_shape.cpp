#include "core/analysis/workload_shape.h"

#include <algorithm>
#include <cmath>

#include "core/design/defaults.h"
#include "core/text.h"

namespace studio {
namespace {

void warn(std::vector<Problem>& out, const std::string& pointer, const std::string& code, const std::string& message,
          Severity severity = Severity::Warning)
{
    out.push_back({severity, pointer, message, code});
}

}  // namespace

WorkloadShape shapeWorkload(const Workload& w, std::int64_t gpus, std::vector<Problem>& warnings)
{
    WorkloadShape s;
    const auto& m = w.model;
    s.name = m.name;
    s.layers = m.layers;
    s.hidden = m.hidden;
    s.heads = m.heads;
    s.kvHeads = m.kv_heads.value_or(m.heads);
    s.ffn = m.ffn_hidden.value_or(4 * m.hidden);
    s.vocab = m.vocab;
    s.seq = m.seq_len;
    s.experts = m.experts.value_or(0);
    s.expertsPerToken = m.experts_per_token.value_or(0);
    s.swiglu = orDefault(m.ffn_type, defaults::kFfnType) == "swiglu";
    s.dropout = m.dropout.value_or(0);
    s.flash = orDefault(w.training.attention_kernel, defaults::kAttentionKernel) == "flash";
    s.globalBatch = w.training.global_batch;
    s.microBatch = w.training.micro_batch.value_or(1);
    s.tokens = w.training.tokens;
    s.precision = orDefault(w.training.precision, defaults::kPrecision);
    const auto& p = w.parallelism;
    s.tp = p.tp.value_or(1);
    s.pp = p.pp.value_or(1);
    s.cp = p.cp.value_or(1);
    s.ep = p.ep.value_or(1);
    s.interleave = p.interleave.value_or(1);
    s.zero = p.zero.value_or(1);
    s.sequenceParallel = p.sequence_parallel.value_or(true) && s.tp > 1;
    s.recompute = orDefault(p.recompute, defaults::kRecompute);
    s.cpComm = orDefault(p.cp_comm, defaults::kCpComm);
    s.tpCommOverlap = p.tp_comm_overlap.value_or(false) && s.tp > 1;
    s.fullRecompute = s.recompute == "full";
    s.selectiveRecompute = s.recompute == "selective";

    // Data parallelism: given, or what the GPUs leave after tp * pp * cp.
    const std::int64_t modelParallel = s.tp * s.pp * s.cp;
    const std::int64_t dpGiven = p.dp.value_or(0);
    if (dpGiven > 0) {
        s.dp = dpGiven;
        // Fewer than the design leaves GPUs idle; more cannot run on it.
        if (modelParallel * s.dp != gpus && gpus > 0)
            warn(warnings, "/workload/parallelism", "layout_mismatch",
                 "tp x pp x cp x dp = " + formatCount(s.tp) + " x " + formatCount(s.pp) + " x " + formatCount(s.cp) +
                     " x " + formatCount(s.dp) + " = " + formatCount(modelParallel * s.dp) +
                     " GPUs, but the design has " + formatCount(gpus) +
                     (modelParallel * s.dp > gpus
                          ? std::string()
                          : "; the analyses use the layout's " + formatCount(modelParallel * s.dp)),
                 modelParallel * s.dp > gpus ? Severity::Error : Severity::Warning);
    } else {
        s.dp = std::max<std::int64_t>(1, gpus / modelParallel);
        if (gpus > 0 && gpus % modelParallel != 0)
            warn(warnings, "/workload/parallelism", "layout_mismatch",
                 formatCount(gpus) + " GPUs do not divide into tp x pp x cp = " + formatCount(modelParallel) +
                     "; dp is taken as " + formatCount(s.dp) + " and " + formatCount(gpus - s.dp * modelParallel) +
                     " GPUs sit idle");
        if (gpus > 0 && gpus < modelParallel)
            warn(warnings, "/workload/parallelism", "layout_mismatch",
                 "tp x pp x cp = " + formatCount(modelParallel) + " needs more GPUs than the design's " +
                     formatCount(gpus),
                 Severity::Error);
    }
    const double perPipeline = double(s.globalBatch) / double(s.microBatch * s.dp);
    if (s.globalBatch % (s.microBatch * s.dp) != 0)
        warn(warnings, "/workload/training/global_batch", "batch_not_divisible",
             "global batch " + formatCount(s.globalBatch) + " is not a whole number of micro-batches (" +
                 formatCount(s.microBatch) + ") per data-parallel rank (" + formatCount(s.dp) +
                 "): " + formatValue(perPipeline, 4) + " per pipeline");
    if (perPipeline < 1)
        warn(warnings, "/workload/training/global_batch", "batch_too_small",
             "global batch " + formatCount(s.globalBatch) + " gives each of " + formatCount(s.dp) +
                 " data-parallel ranks less than one micro-batch",
             Severity::Error);

    // The errors below make a layout that cannot run (the analyses show it
    // as not runnable); the warnings one that runs unevenly.
    if (s.heads % s.tp != 0)
        warn(warnings, "/workload/parallelism/tp", "heads_not_divisible",
             formatCount(s.heads) + " attention heads do not split evenly over tp = " + formatCount(s.tp),
             Severity::Error);
    else if (!tpSplitsHeads(s.heads, s.kvHeads, s.tp))
        warn(warnings, "/workload/parallelism/tp", "kv_heads_not_divisible",
             formatCount(s.kvHeads) + " key/value heads neither split evenly over tp = " + formatCount(s.tp) +
                 " nor replicate evenly across it",
             Severity::Error);
    if (!pipelineFitsModel(s.layers, s.pp, s.interleave))
        warn(warnings, "/workload/parallelism/pp", "pipeline_deeper_than_model",
             "pp x interleave = " + formatCount(s.pp) + " x " + formatCount(s.interleave) + " = " +
                 formatCount(s.pp * s.interleave) + " pipeline chunks, but the model has only " +
                 formatCount(s.layers) + " layers (+ the embedding and the loss): some chunks would hold nothing",
             Severity::Error);
    else if (!pipelineSplitsEvenly(s.layers, s.pp, s.interleave))
        warn(warnings, "/workload/parallelism/pp", "uneven_pipeline",
             formatCount(s.layers) +
                 " layers do not split evenly into pp x interleave = " + formatCount(s.pp * s.interleave) +
                 " chunks; the slowest stage holds " + formatCount((s.layers + s.pp - 1) / s.pp) + " layers");
    if (s.seq % s.cp != 0)
        warn(warnings, "/workload/parallelism/cp", "sequence_not_divisible",
             "sequence of " + formatCount(s.seq) + " tokens does not split evenly over cp = " + formatCount(s.cp),
             Severity::Error);
    if (s.ep > 1 && (s.dp * s.cp) % s.ep != 0)
        warn(warnings, "/workload/parallelism/ep", "ep_not_divisible",
             "expert parallelism of " + formatCount(s.ep) + " does not divide dp x cp = " + formatCount(s.dp * s.cp) +
                 "; expert groups are carved out of the data-parallel ranks",
             Severity::Error);
    // Megatron asserts it: the userbuffer overlap splits the sequence-parallel
    // all-gathers and reduce-scatters, which plain all-reduces do not have.
    if (s.tpCommOverlap && !s.sequenceParallel)
        warn(warnings, "/workload/parallelism/tp_comm_overlap", "tp_comm_overlap_without_sequence_parallel",
             "TP communication overlap needs sequence parallelism (Megatron refuses --tp-comm-overlap without "
             "--sequence-parallel)",
             Severity::Error);
    if (p.tp_comm_overlap.value_or(false) && s.tp == 1)
        warn(warnings, "/workload/parallelism/tp_comm_overlap", "tp_comm_overlap_without_tp",
             "TP communication overlap has no effect without tensor parallelism (tp = 1)");
    if (s.pp == 1 && s.interleave > 1)
        warn(warnings, "/workload/parallelism/interleave", "interleave_without_pipeline",
             "interleave " + formatCount(s.interleave) + " has no effect without pipeline parallelism");

    s.headDim = double(s.hidden) / double(s.heads);
    s.kvDim = double(s.kvHeads) * s.headDim;
    const double h = double(s.hidden), f = double(s.ffn);
    // Q and output projections are h x h; K and V are h x kv_dim (GQA).
    s.attentionParamsPerLayer = h * (h + 2 * s.kvDim) + h * h;
    const double oneMlp = (s.swiglu ? 3.0 : 2.0) * h * f;
    s.mlpParamsPerLayer = s.moe() ? double(s.experts) * oneMlp : oneMlp;
    s.routerParamsPerLayer = s.moe() ? h * double(s.experts) : 0;
    s.embeddingParams = 2.0 * double(s.vocab) * h;
    const double perLayer = s.attentionParamsPerLayer + s.mlpParamsPerLayer + s.routerParamsPerLayer;
    s.params = double(s.layers) * perLayer + s.embeddingParams;
    const double activeMlp = s.moe() ? double(s.expertsPerToken) * oneMlp : oneMlp;
    s.activeParamsPerToken =
        double(s.layers) * (s.attentionParamsPerLayer + activeMlp + s.routerParamsPerLayer) + s.embeddingParams;
    deriveLayout(s);
    return s;
}

void deriveLayout(WorkloadShape& s)
{
    s.gpusUsed = s.tp * s.pp * s.cp * s.dp;
    s.microBatches = std::max(1.0, double(s.globalBatch) / double(s.microBatch * s.dp));
    s.layersPerStage = std::ceil(double(s.layers) / double(s.pp));
    s.tokensPerStep = double(s.globalBatch) * double(s.seq);
    // Attention and routers split over tp; experts over ep and tp; the
    // first and last stages each hold one of the two embedding matrices.
    const double t = double(s.tp);
    const double mlpHere = s.moe() ? s.mlpParamsPerLayer / (double(s.ep) * t) : s.mlpParamsPerLayer / t;
    s.paramsPerGpu = s.layersPerStage * ((s.attentionParamsPerLayer + s.routerParamsPerLayer) / t + mlpHere) +
        (s.pp == 1 ? s.embeddingParams : s.embeddingParams / 2) / t;
}

std::vector<Problem> unrunnableLayout(const Workload& workload, std::int64_t gpus)
{
    std::vector<Problem> all, out;
    shapeWorkload(workload, gpus, all);
    // The dock is stricter than the analyses: a layout that leaves GPUs idle
    // runs, but is refused as an edit.
    for (auto& p : all)
        if (p.severity == Severity::Error || p.code == "layout_mismatch")
            out.push_back(std::move(p));
    return out;
}

}  // namespace studio
