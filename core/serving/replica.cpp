#include "core/serving/replica.h"

#include <algorithm>

#include "core/design/defaults.h"
#include "core/text.h"

namespace studio {

std::string gbText(double bytes)
{
    return formatReadable(bytes / 1e9) + " GB";
}

Problem servingError(std::string pointer, std::string message, std::string code)
{
    return {Severity::Error, std::move(pointer), std::move(message), std::move(code)};
}

std::vector<ServingGemm> servingGemms(const WorkloadShape& m, std::int64_t tp)
{
    if (m.moe())
        return {};
    const double h = double(m.hidden), f = double(m.ffn), t = double(tp);
    return {{"QKV projection", h, (h + 2 * m.kvDim) / t},
            {"attention output projection", h / t, h},
            {m.swiglu ? "MLP gate and up projection" : "MLP up projection", h, (m.swiglu ? 2 : 1) * f / t},
            {"MLP down projection", f / t, h},
            {"LM head", h, double(m.vocab) / t, true}};
}

bool prepareReplica(const Design& design, const DesignFacts& facts, const HardwareProfile& hw,
                    const ReplicaLayout& layout, std::optional<Hierarchy>& h, Serving& s, Replica& r)
{
    const Workload& w = design.workload;
    const ServingSpec& spec = *w.serving;
    const Inventory& inv = facts.inv;
    const std::string tpPointer = layout.pointer + "/tp";
    r.tp = s.tp = layout.tp;
    r.pp = s.pp = layout.pp;
    r.ep = s.ep = layout.ep;
    r.gpus = s.gpusPerReplica = s.tp * s.pp;
    r.prompt = spec.prompt_tokens;
    r.output = spec.output_tokens;
    s.replicasInDesign = inv.gpus / s.gpusPerReplica;
    const std::size_t before = s.errors.size();
    if (s.gpusPerReplica > inv.gpus)
        s.errors.push_back(servingError(tpPointer,
                                        "a replica of tp x pp = " + formatCount(s.gpusPerReplica) +
                                            " GPUs is more than the " + formatCount(inv.gpus) + " the design has",
                                        "too_many"));
    if (s.ep > 1 && s.gpusPerReplica % s.ep != 0)
        s.errors.push_back(
            servingError(layout.pointer + "/ep",
                         "expert parallelism of " + formatCount(s.ep) +
                             " does not divide the replica's tp x pp = " + formatCount(s.gpusPerReplica) + " GPUs",
                         "indivisible"));
    // One replica's layout: the shape's checks (heads over tp, layers over
    // pp, experts over ep) with a single sequence standing in for the batch.
    Workload replica = w;
    replica.training = TrainingSpec{};
    replica.training.global_batch = 1;
    replica.training.tokens = 1;
    replica.training.precision = "bf16";
    replica.parallelism.tp = layout.tp;
    replica.parallelism.pp = layout.pp;
    replica.parallelism.dp = 1;
    replica.parallelism.cp = 1;
    replica.parallelism.interleave = 1;
    // Serving spreads the experts over the replica's own GPUs (the
    // validator checks they divide; ep within tp x pp is checked above):
    // training's rule that expert groups come out of the data-parallel ranks
    // does not apply to one replica.
    replica.parallelism.ep = 1;
    constexpr std::string_view kParallelism = "/workload/parallelism";
    for (Problem& p : unrunnableLayout(replica, s.gpusPerReplica)) {
        // A worker's layout is its own section's.
        if (p.pointer.starts_with(kParallelism))
            p.pointer = layout.pointer + p.pointer.substr(kParallelism.size());
        s.errors.push_back(std::move(p));
    }
    std::vector<Problem> warnings;
    r.shape = shapeWorkload(replica, s.gpusPerReplica, warnings);
    if (s.errors.size() > before)
        return false;

    const WorkloadShape& m = r.shape;
    s.peakTflops = hw.gpu.trainingPeakTflops.value;
    s.gpuName = hw.gpu.name;
    s.hbmTbPerS = hw.gpu.hbmTbPerS.value * hw.gpu.hbmEfficiency.value;
    s.hbmSource = hw.gpu.hbmTbPerS.source + "; x hbm_efficiency " + formatReadable(hw.gpu.hbmEfficiency.value) + " (" +
        hw.gpu.hbmEfficiency.source + ")";
    s.promptTokens = spec.prompt_tokens;
    s.outputTokens = spec.output_tokens;
    r.lookupParams = double(m.vocab) * double(m.hidden);
    s.activeParams = m.activeParamsPerToken - r.lookupParams;
    r.peakFlopsPerS = s.peakTflops * 1e12;
    r.linearFlopsPerS = r.peakFlopsPerS * hw.gpu.gemmEfficiency.value;
    r.attentionFlopsPerS = hw.gpu.bf16PeakTflops * 1e12 * hw.gpu.attentionEfficiency.value;
    r.hbmBytesPerS = hw.gpu.hbmTbPerS.value * 1e12 * hw.gpu.hbmEfficiency.value;
    r.hbmPeakBytesPerS = hw.gpu.hbmTbPerS.value * 1e12;
    r.gemms = s.gemms = servingGemms(m, s.tp);
    r.peak16FlopsPerS = hw.gpu.bf16PeakTflops * 1e12;
    if (const KernelProfile* k = hw.gpu.kernels.get()) {
        r.gemmTable = k->gemmTable(s.weightPrecision);
        r.measuredOn = k->measuredOn(s.weightPrecision);
        const auto scale = k->activationScale.find(s.weightPrecision);
        r.activationScale = scale == k->activationScale.end() ? nullptr : &scale->second;
        r.prefillAttention = k->attentionForward ? &*k->attentionForward : nullptr;
        const auto d = k->decodeAttention.find(s.kvPrecision);
        r.decodeAttention = d == k->decodeAttention.end() ? nullptr : &d->second;
    }
    r.weightBytes = bytesAt(s.weightPrecision);
    r.weightBytesPerGpu = m.params * r.weightBytes / double(r.gpus);
    r.expertParams = m.moe() ? double(m.layers) * m.mlpParamsPerLayer : 0;
    // KV cache (seed 002): 2 (K and V) x layers x kv_heads x head_dim x
    // bytes per token; TP splits the KV heads (a rank beyond kv_heads keeps
    // a copy), PP the layers.
    s.kvBytesPerToken = 2 * double(m.layers) * m.kvDim * bytesAt(s.kvPrecision);
    r.kvBytesPerTokenPerGpu = s.kvBytesPerToken / double(s.pp * std::min(s.tp, m.kvHeads));
    if (!h)
        h = buildHierarchy(hw, m, warnings);
    // The replica's own groups (its hierarchy may be another worker's); a
    // disaggregated layout's two workers may say the same once.
    for (const AxisPlacement& a : placeAxes(*h, hw, m))
        if (a.noPath) {
            Problem p = noScaleupPath(a.axis + " = " + formatCount(a.degree), hw);
            if (std::none_of(s.errors.begin(), s.errors.end(),
                             [&](const Problem& e) { return e.pointer == p.pointer && e.message == p.message; }))
                s.errors.push_back(std::move(p));
            return false;
        }
    r.tpTier = &h->tierForSpan(s.tp);
    r.epTier = &h->tierForSpan(s.ep);
    r.ppTier = &h->tierForSpan(s.gpusPerReplica);

    // The engine: its step budget, the requests it keeps in flight and its
    // memory share, its defaults unless the design sets them.
    s.engine = engineDefaults(orDefault(spec.engine, defaults::kServingEngine), hw.gpu.hbmGb.value,
                              inv.gpuPart.find("a100") != std::string::npos);
    if (spec.step_tokens) {
        s.engine.stepTokens = double(*spec.step_tokens);
        s.engine.stepTokensSource = "workload.serving.step_tokens";
    }
    if (spec.max_requests) {
        s.engine.maxRequests = *spec.max_requests;
        s.engine.maxRequestsSource = "workload.serving.max_requests";
    }
    if (spec.memory_fraction) {
        s.engine.memoryFraction = *spec.memory_fraction;
        s.engine.memoryFractionSource = "workload.serving.memory_fraction";
    }

    // What fits: the weights and the engine's own buffers, then whole
    // sequences of KV cache in what the engine's share leaves.
    s.weightsGbPerGpu = r.weightBytesPerGpu / 1e9;
    s.memory = engineMemory(s.engine, hw.gpu.hbmGb.value, r.weightBytesPerGpu, m, s.tp, s.pp);
    const double freeBytes = s.memory.kvBudget;
    const double kvPerSequence = layout.contextTokens * r.kvBytesPerTokenPerGpu;
    s.kvGbPerSequence = kvPerSequence * double(r.gpus) / 1e9;
    if (freeBytes <= 0) {
        s.errors.push_back(servingError(
            tpPointer,
            "the weights need " + gbText(r.weightBytesPerGpu) + " per GPU in " + s.weightPrecision + " (" +
                formatReadable(m.params / 1e9) + "B parameters over tp x pp = " + formatCount(r.gpus) +
                " GPUs), more than the " + gbText(std::max(0.0, s.memory.weightRoom)) + " " +
                engineDisplayName(s.engine.engine) + " leaves them (" + weightRoomText(s.memory, s.engine.engine) +
                "): raise tp or pp, or serve in a smaller precision",
            "out_of_memory"));
        return false;
    }
    s.maxBatch = std::int64_t(std::floor(freeBytes / kvPerSequence));
    const std::string tokens = formatCount(std::int64_t(layout.contextTokens));
    if (s.maxBatch < 1) {
        s.errors.push_back(servingError("/workload/serving/prompt_tokens",
                                        "one sequence of " + tokens + " tokens needs " + gbText(kvPerSequence) +
                                            " of KV cache per GPU, more than the " + gbText(freeBytes) +
                                            " the engine leaves it",
                                        "out_of_memory"));
        return false;
    }
    const std::int64_t asked = layout.askedBatch;
    if (asked > s.maxBatch) {
        s.errors.push_back(servingError("/workload/serving/batch",
                                        "a batch of " + formatCount(asked) + " does not fit: at most " +
                                            formatCount(s.maxBatch) + " sequences of " + tokens + " tokens fit in " +
                                            engineDisplayName(s.engine.engine) + "'s KV cache budget (" +
                                            gbText(kvPerSequence) + " of KV cache each per GPU, " + gbText(freeBytes) +
                                            " in the budget)",
                                        "out_of_memory"));
        return false;
    }
    if (s.engine.maxRequests > 0 && asked > s.engine.maxRequests) {
        s.errors.push_back(servingError("/workload/serving/batch",
                                        "a batch of " + formatCount(asked) + " is more than the " +
                                            formatCount(s.engine.maxRequests) +
                                            " requests the engine keeps in flight (" + s.engine.maxRequestsSource +
                                            "): lower the batch or raise max_requests",
                                        "too_many"));
        return false;
    }
    if (s.engine.maxRequests > 0)
        s.maxBatch = std::min(s.maxBatch, s.engine.maxRequests);
    r.engineStepTokens = s.engine.stepTokens;
    return true;
}

}  // namespace studio
