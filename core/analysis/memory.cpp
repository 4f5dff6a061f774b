#include "core/analysis/memory.h"

#include <algorithm>

#include "core/text.h"

namespace studio {

ActivationTerms activationTerms(const WorkloadShape& w)
{
    const double h = double(w.hidden), f = double(w.ffn), kv = w.kvDim;
    const bool dropout = w.dropout > 0;
    const double k = w.moe() ? double(w.expertsPerToken) : 1;
    ActivationTerms a;
    // 2 bytes each: both norm inputs, the QKV input and the MLP input; masks
    // are 1 byte each (after attention and after the MLP).
    a.unsplitPerToken = 2 * 2 * h + 2 * h + 2 * h + (dropout ? 2 * h : 0);
    // Q, K, V; the attention output (projection input); the MLP's inner
    // activations (GeLU: its input and output; SwiGLU: gate, up and product).
    a.splitPerToken = 2 * h + 2 * 2 * kv + 2 * h + k * (w.swiglu ? 6 * f : 4 * f);
    if (!w.flash)
        a.attentionCorePerToken = double(w.heads) * double(w.seq) * (dropout ? 5 : 2);
    return a;
}

MemoryUse modelMemory(const HardwareProfile& hw, const WorkloadShape& w, std::vector<Problem>& warnings, bool explain)
{
    MemoryUse mem;
    const double t = double(w.tp);
    const double dpRanks = double(w.dp * w.cp);
    const double p = w.paramsPerGpu;
    mem.weightsGb = 2 * p / (w.zero >= 3 ? dpRanks : 1) / 1e9;
    mem.gradientsGb = 4 * p / (w.zero >= 2 ? dpRanks : 1) / 1e9;
    mem.optimizerGb = 12 * p / (w.zero >= 1 ? dpRanks : 1) / 1e9;  // fp32 master + Adam moments

    const ActivationTerms a = activationTerms(w);
    const double tokens = double(w.microBatch) * double(w.seq) / double(w.cp);
    double perToken = 0;
    if (w.fullRecompute) {
        perToken = 2 * double(w.hidden) / (w.sequenceParallel ? t : 1);  // the layer's input only
    } else {
        perToken = (w.sequenceParallel ? a.unsplitPerToken / t : a.unsplitPerToken) + a.splitPerToken / t;
        if (w.recompute == "none")
            perToken += a.attentionCorePerToken / t;
    }
    mem.activationGbPerLayer = perToken * tokens / 1e9;
    // Megatron's (interleaved) 1F1B: at its peak rank r holds the forward
    // activations of min(m v, (p - r - 1) 2 + (v - 1) p + 1) chunks of L/(p v)
    // layers; v = 1: min(m, p - r) micro-batches. For rank 0 that is
    // Korthikanti's p (1 + (p - 1)/(p v)) stages (2022, section 4.2.3). When
    // p v exceeds the layers, rank 0's first chunk holds the embedding instead
    // (Llama 3: 126 layers in 16 x 8 chunks), so rank 1, with two chunks
    // fewer in flight but a full stage, can hold more.
    const double pp = double(w.pp), v = double(w.interleave), m = w.microBatches;
    auto inFlight = [&](double rank) {
        if (rank >= pp)
            return 0.0;
        return v > 1 ? std::min(m * v, (pp - rank - 1) * 2 + (v - 1) * pp + 1) / v : std::min(m, pp - rank);
    };
    const double rank0Layers = w.layersPerStage - (w.pp * w.interleave > w.layers ? w.layersPerStage / v : 0);
    mem.microBatchesInFlight = inFlight(0);
    const double firstStage =
        mem.activationGbPerLayer * std::max(rank0Layers * inFlight(0), w.pp > 2 ? w.layersPerStage * inFlight(1) : 0.0);
    // The last stage keeps one micro-batch in flight but also its fp32 logits.
    const double logits = 4 * tokens * double(w.vocab) / t / 1e9;
    const double lastStage = w.layersPerStage * mem.activationGbPerLayer + logits;
    mem.activationsGb = std::max(firstStage, lastStage);
    mem.workspaceGb = kWorkspaceGb;
    mem.totalGb = mem.weightsGb + mem.gradientsGb + mem.optimizerGb + mem.activationsGb + mem.workspaceGb;
    mem.hbmGb = hw.gpu.hbmGb.value;
    mem.capacityGb = hbmCapacityGb(mem.hbmGb);
    mem.fits = mem.totalGb <= mem.capacityGb || mem.hbmGb <= 0;
    if (!explain)
        return mem;
    if (!mem.fits)
        warnings.push_back({Severity::Error, "/workload/parallelism",
                            "needs " + formatValue(mem.totalGb, 3) + " GB per GPU but " + hw.gpu.name + " has " +
                                formatValue(mem.capacityGb, 3) + " GB (" + formatValue(mem.hbmGb, 3) +
                                " GiB): weights " + formatValue(mem.weightsGb, 3) + ", gradients " +
                                formatValue(mem.gradientsGb, 3) + ", optimizer " + formatValue(mem.optimizerGb, 3) +
                                ", activations " + formatValue(mem.activationsGb, 3) + " GB (" +
                                formatValue(mem.microBatchesInFlight, 3) +
                                (mem.microBatchesInFlight == 1 ? " micro-batch" : " micro-batches") +
                                " in flight); try more tp/pp, ZeRO, or recompute",
                            "memory_exceeds_hbm"});
    mem.explainActivations = {
        "layers per stage x per-layer activations x micro-batches in flight, on the fuller of the first two stages "
        "(Korthikanti: sbh(34 + 5as/h) / t "
        "with sequence parallelism; 34 sbh / t selective; 2 sbh / t full recompute)",
        {{"layers per stage", w.layersPerStage, "", "ceil(layers / pp)"},
         {"activations per layer per micro-batch", mem.activationGbPerLayer, "GB", "this formula"},
         {"micro-batches in flight on the first stage", mem.microBatchesInFlight, "",
          "min(m v, p v + p - 1) / v (Megatron's interleaved 1F1B warm-up); v = 1: min(m, p)"}}};
    mem.explainTotal = {"weights + gradients + optimizer + activations + workspace",
                        {{"weights", mem.weightsGb, "GB", "2 bytes/param"},
                         {"gradients", mem.gradientsGb, "GB", "4 bytes/param (fp32 main gradients)"},
                         {"optimizer", mem.optimizerGb, "GB", "12 bytes/param: fp32 master + Adam moments"},
                         {"activations", mem.activationsGb, "GB", "Korthikanti et al. 2022"},
                         {"workspace", mem.workspaceGb, "GB", "assumption: CUDA context, library workspaces"},
                         hw.gpu.hbmGb.as("HBM capacity", "GiB")}};
    return mem;
}

}  // namespace studio
