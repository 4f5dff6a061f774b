#include "core/serving/serving.h"

#include <algorithm>
#include <cmath>

#include "core/analysis/collectives.h"
#include "core/analysis/fleet_formulas.h"
#include "core/analysis/hardware_profile.h"
#include "core/analysis/hierarchy.h"
#include "core/analysis/inventory.h"
#include "core/analysis/power.h"
#include "core/analysis/workload_shape.h"
#include "core/design/design_index.h"
#include "core/text.h"

namespace studio {
namespace {

// Bytes a weight or a KV-cache element takes at a precision.
double bytesAt(const std::string& precision)
{
    if (precision == "fp8")
        return 1;
    if (precision == "fp4")
        return 0.5;
    return 2;  // bf16, fp16
}

constexpr double kActivationBytes = 2;  // activations move between GPUs in 16 bits

std::string gb(double bytes)
{
    return formatReadable(bytes / 1e9) + " GB";
}

std::string seconds(double s)
{
    return formatValue(s, 3) + " s";  // "0.001 s", not "0.00100 s"
}

// How a prompt reaches its first token in an engine run, for messages.
std::string prefillStory(const EngineRun& e)
{
    std::string story = formatCount(std::int64_t(e.promptSteps)) + " step" + (e.promptSteps > 1 ? "s" : "") +
        " of " + formatCount(std::int64_t(std::round(e.prefillTokensPerMixStep))) + " prompt tokens, " +
        seconds(e.mixStepS) + " each";
    const double queuedS = e.ttftS - e.arrivalWaitS - e.promptSteps * e.mixStepS;  // behind the others' prompts
    if (e.arrivalWaitS > 0)
        story += ", after " + seconds(e.arrivalWaitS + std::max(0.0, queuedS)) + " waiting for the step in flight" +
            (queuedS > 0 ? " and the other users' prompts" : "");
    return story;
}

// What the other users' prompts add to a decode, for messages.
std::string decodeStory(const EngineRun& e)
{
    if (e.mixStepsPerCycle <= e.promptSteps)
        return "";
    return "; the other users' prompt chunks make " + formatValue(e.mixStepsPerCycle - e.promptSteps, 3) +
        " of its steps " + seconds(e.mixStepS) + " long";
}

// What one replica's GPUs have and the model needs: fixed for a design, so
// the curve and the batch search only vary the batch.
struct Replica {
    WorkloadShape shape;
    std::int64_t tp = 1, pp = 1, ep = 1, gpus = 1;
    double weightBytes = 0;  // bytes per weight
    double weightBytesPerGpu = 0;
    double expertParams = 0;  // every expert's weights (MoE)
    // The input embedding is a lookup: a step gathers one row per token of
    // it, no GEMM; the output projection (the LM head) is read and
    // multiplied in full.
    double lookupParams = 0;

    // Weights a token multiplies: 2 FLOPs each.
    double gemmParams() const { return shape.activeParamsPerToken - lookupParams; }
    // The rows `tokens` gather from the input embedding.
    double lookupBytes(double tokens) const { return tokens * double(shape.hidden) * weightBytes / double(gpus); }
    double kvBytesPerTokenPerGpu = 0;
    double hbmBytesPerS = 0;        // achievable: bandwidth x hbm_efficiency
    double linearFlopsPerS = 0;     // at the weight precision's peak x GEMM efficiency
    double attentionFlopsPerS = 0;  // 16-bit peak x attention efficiency
    double peakFlopsPerS = 0;
    const Tier* tpTier = nullptr;
    const Tier* epTier = nullptr;
    const Tier* ppTier = nullptr;
    std::int64_t prompt = 1, output = 1;
    // The GPU's measured kernels (docs/kernel-profiles.md): GEMMs at the
    // weight precision, prefill attention, decode attention at the KV
    // precision. A dense model's steps are timed kernel by kernel from
    // them; without a GEMM table (or for a mixture of experts, whose
    // grouped GEMMs the tables do not hold) the step is the roofline of the
    // catalog factors.
    const KernelGrid* gemmTable = nullptr;
    GemmRoofline measuredOn;  // the GPU the GEMM table was measured on
    // A served low-precision checkpoint carries calibrated activation
    // scales (TensorRT-LLM's and vLLM's FP8 checkpoints): its GEMMs skip
    // the dynamic scaling step the table's times include.
    const KernelGrid* activationScale = nullptr;
    const KernelGrid* prefillAttention = nullptr;
    const KernelGrid* decodeAttention = nullptr;
    double peak16FlopsPerS = 0;
    double hbmPeakBytesPerS = 0;  // the bandwidth decode attention's efficiency is a share of

    std::vector<ServingGemm> gemms;  // servingGemms(shape, tp)
    double engineStepTokens = 0;     // the engine's budget of tokens per step

    bool measured() const { return gemmTable && !shape.moe(); }

    // One stage's GEMMs for `tokens` rows, each at its shape on one GPU of
    // the tensor-parallel group (column-parallel QKV and MLP up split their
    // outputs, row-parallel attention output and MLP down their inputs);
    // the LM head, on the last stage, for `headTokens` rows.
    KernelValue stageGemmS(double tokens, double headTokens) const
    {
        KernelValue total{0, KernelTier::Measured};
        for (const ServingGemm& g : gemms) {
            // The LM head runs on the last stage only; the step time charges
            // every stage alike, so its share per stage.
            const double m = g.lmHead ? headTokens : tokens;
            const double times = g.lmHead ? 1 / double(pp) : layersPerStage();
            // Weights at their precision, activations in and out at 16 bits.
            const double bytes = g.k * g.n * weightBytes + m * (g.k + g.n) * kActivationBytes;
            const GemmRoofline runsOn{peakFlopsPerS, hbmPeakBytesPerS};
            KernelValue t = measuredGemm(*gemmTable, measuredOn, runsOn, m, g.n, g.k, bytes);
            if (activationScale)
                t = withStaticActivationScale(t, *activationScale, runsOn, m, g.n, g.k, bytes);
            total.value += times * t.value;
            total.tier = worseTier(total.tier, t.tier);
        }
        return total;
    }

    // One stage's decode attention over `batch` sequences of `context`
    // tokens: reading their KV cache at the measured share of HBM, or (no
    // table) at least the catalog's achievable bandwidth and the FLOPs at
    // the attention efficiency.
    KernelValue stageDecodeAttentionS(double batch, double context) const
    {
        const double kvRead = batch * context * kvBytesPerTokenPerGpu;
        const double flops = batch * 4 * layersPerStage() * context * double(shape.hidden) / double(tp);
        if (decodeAttention) {
            const KernelValue e = decodeAttention->at(batch, context);
            return {std::max(kvRead / (hbmPeakBytesPerS * e.value), flops / attentionFlopsPerS), e.tier};
        }
        return {std::max(kvRead / hbmBytesPerS, flops / attentionFlopsPerS), KernelTier::CatalogFactor};
    }

    // One prompt's causal attention on one stage.
    KernelValue stagePrefillAttentionS(double n) const
    {
        const double flops = 2 * layersPerStage() * n * n * double(shape.hidden) / double(tp);
        if (prefillAttention) {
            const KernelValue e = prefillAttention->at(shape.headDim, n);
            return {flops / (peak16FlopsPerS * e.value), e.tier};
        }
        return {flops / attentionFlopsPerS, KernelTier::CatalogFactor};
    }

    double layersPerStage() const { return double(shape.layers) / double(pp); }

    // Collectives per stage for `tokens` tokens in flight: two TP
    // all-reduces per layer (attention and MLP outputs), two EP all-to-alls
    // per MoE layer (dispatch and combine).
    double stageCommS(double tokens) const
    {
        double s = 0;
        const double buffer = tokens * double(shape.hidden) * kActivationBytes;
        if (tp > 1)
            s += 2 * layersPerStage() * engineAllReduceSeconds(*tpTier, buffer, tp).value;
        if (ep > 1 && shape.moe()) {
            const double routed = buffer * double(shape.expertsPerToken);
            s += 2 * layersPerStage() * collectiveSeconds(*epTier, Collective::AllToAll, routed, ep).value;
        }
        return s;
    }

    double hopS(double tokens) const
    {
        return pp > 1
            ? sendSeconds(tokens * double(shape.hidden) * kActivationBytes, ppTier->collectiveBytesPerS, ppTier->alphaS)
            : 0;
    }

    // The average context a decode attends over during the generation.
    double decodeContext() const { return double(prompt) + double(output) / 2; }

    // A step's reads and FLOPs and their times at the catalog's achievable
    // bandwidth and compute: `decodes` requests' next tokens and `prefill`
    // prompt tokens (chunks) in one batch. Whether the step is bandwidth-
    // or compute-bound, without the measured kernels' times.
    DecodePoint roofline(double decodes, double prefill = 0) const
    {
        DecodePoint p;
        p.batch = std::int64_t(decodes);
        const double rows = decodes + prefill;
        const double context = decodeContext();
        // MoE: the step's tokens route to k of E experts each; the experts
        // at least one token picks are read, E (1 - (1 - k/E)^B) per layer.
        double touched = 1;
        if (shape.moe())
            touched = 1 - std::pow(1 - double(shape.expertsPerToken) / double(shape.experts), rows);
        const double weightRead =
            (shape.params - lookupParams - expertParams + expertParams * touched) * weightBytes / double(gpus) +
            lookupBytes(rows);
        const double kvRead = decodes * context * kvBytesPerTokenPerGpu;
        p.bytesPerGpu = weightRead + kvRead;
        p.memoryS = p.bytesPerGpu / hbmBytesPerS;
        // 2 FLOPs per active weight per token; attention, QK^T and AV: a
        // decode 4 x context x hidden per layer, a prompt token 2 x prompt
        // x hidden (causal: half the prompt on average).
        const double linear = rows * 2 * gemmParams() / double(gpus);
        const double attention = (decodes * 4 * context + prefill * 2 * double(prompt)) * double(shape.layers) *
            double(shape.hidden) / double(gpus);
        p.flopsPerGpu = linear + attention;
        p.computeS = linear / linearFlopsPerS + attention / attentionFlopsPerS;
        return p;
    }

    // The step's time on one stage, its compute and reads as `roof` has
    // them. Measured: its kernels one after another, each at the speed
    // measured for its shape (a GEMM's time holds its weight reads); the
    // LM head runs for the decodes and the prompts a chunk completes. Else
    // the slower of the step's reads and its FLOPs.
    double stageS(const DecodePoint& roof, double decodes, double prefill, double* gemmS = nullptr,
                  double* attentionS = nullptr) const
    {
        if (!measured())
            return std::max(roof.memoryS, roof.computeS);
        const double rows = decodes + prefill;
        const double prompts = prefill / double(prompt);
        const double gemm = stageGemmS(rows, decodes + prompts).value;
        const double attention = (decodes > 0 ? stageDecodeAttentionS(decodes, decodeContext()).value : 0) +
            (prefill > 0 ? prompts * stagePrefillAttentionS(double(prompt)).value : 0);
        if (gemmS)
            *gemmS = gemm;
        if (attentionS)
            *attentionS = attention;
        return gemm + attention + lookupBytes(rows) / hbmBytesPerS;
    }

    // One engine step through every stage: the stages' kernels and
    // collectives, and the hops between stages.
    double stepS(double decodes, double prefill) const
    {
        const double rows = decodes + prefill;
        return double(pp) * (stageS(roofline(decodes, prefill), decodes, prefill) + stageCommS(rows)) +
            double(pp - 1) * hopS(rows);
    }

    // `users` requests in a closed loop as an engine with a budget of
    // engineStepTokens per step serves them (EngineRun), `decodeStepS`
    // the step of their decodes alone. The prompts of a
    // cohort fill a step's budget less the decodes sharing it; every user's
    // prompt once is the cycle's prefill, spread over that many mix steps.
    // A prompt longer than the budget takes several steps. When the mix
    // steps outnumber a user's own decode steps, the engine is all mix
    // steps and a new prompt waits for the others'.
    EngineRun closedLoop(double users, double decodeStepS) const
    {
        EngineRun r;
        r.users = users;
        const double n = double(prompt);
        const double cohortTokens = users * n;
        double decodes = std::max(0.0, users - std::ceil(std::min(engineStepTokens, cohortTokens) / n));
        const double chunk = std::min(std::max(1.0, engineStepTokens - decodes), cohortTokens);
        decodes = std::max(0.0, users - std::ceil(chunk / n));
        r.prefillTokensPerMixStep = chunk;
        r.decodesPerMixStep = decodes;
        r.mixStepsPerCycle = cohortTokens / chunk;
        r.promptSteps = std::ceil(n / chunk);
        r.mixStepS = stepS(decodes, chunk);
        r.decodeStepS = decodeStepS;
        const double decodeSteps = std::max(0.0, double(output) - 1);
        const double others = std::max(0.0, r.mixStepsPerCycle - r.promptSteps);
        const double mixed = std::min(decodeSteps, others);
        // A single output token has no TPOT of its own: the decode step it would take.
        r.tpotS = decodeSteps > 0 ? (mixed * r.mixStepS + (decodeSteps - mixed) * r.decodeStepS) / decodeSteps
                                  : r.decodeStepS;
        // A new request comes as a step has begun (the engine schedules the
        // next step while one runs): when other users' prompts have steps
        // of their own (not one lockstep cohort), it waits for that step,
        // an average one of a user's output.
        r.arrivalWaitS = others > 0 ? (decodeSteps > 0 ? r.tpotS : r.mixStepS) : 0;
        r.ttftS = r.arrivalWaitS + (std::max(0.0, others - decodeSteps) + r.promptSteps) * r.mixStepS;
        r.tokensPerSPerReplica = users * double(output) / (r.ttftS + decodeSteps * r.tpotS);
        return r;
    }

    // A batch of `batch` users: its decode step on its own (the roofline's
    // point) and the batch as the engine serves it (EngineRun).
    DecodePoint decode(std::int64_t batch) const
    {
        const double b = double(batch);
        DecodePoint p = roofline(b);
        const double comm = stageCommS(b);
        const double stage = stageS(p, b, 0, &p.gemmS, &p.attentionS);
        p.gemmS *= double(pp);
        p.attentionS *= double(pp);
        p.stepS = double(pp) * (stage + comm) + double(pp - 1) * hopS(b);
        p.commS = double(pp) * comm + double(pp - 1) * hopS(b);
        p.engine = closedLoop(b, p.stepS);
        p.tpotS = p.engine.tpotS;
        p.ttftS = p.engine.ttftS;
        p.e2eS = p.ttftS + std::max(0.0, double(output) - 1) * p.tpotS;
        // Of a user's request, the time the engine spends in steps that
        // carry prompt chunks.
        p.prefillShare = std::min(1.0, p.engine.mixStepsPerCycle * p.engine.mixStepS / p.e2eS);
        p.tokensPerSPerReplica = p.engine.tokensPerSPerReplica;
        p.tokensPerSPerGpu = p.tokensPerSPerReplica / double(gpus);
        p.tokensPerSPerUser = 1 / p.tpotS;
        // Model FLOPs of prompts and outputs alike (2 per active weight per token).
        p.mfu = p.tokensPerSPerReplica * (1 + double(prompt) / double(output)) * 2 * gemmParams() /
            (double(gpus) * peakFlopsPerS);
        return p;
    }

    // One prompt through the replica on its own (no other request).
    double prefillS() const { return stepS(0, double(prompt)); }
};

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

Problem error(std::string pointer, std::string message, std::string code)
{
    return {Severity::Error, std::move(pointer), std::move(message), std::move(code)};
}

// What a serving analysis reads of the design beyond its workload: given
// by analyzeDesign, else worked out here (hardware and power only when
// the design can serve at all).
struct DesignFacts {
    const DesignIndex& index;
    const Inventory& inv;
    const HardwareProfile* hardware = nullptr;
    const Power* power = nullptr;
};

Serving serve(const Design& design, const DesignFacts& facts)
{
    Serving s;
    const Workload& w = design.workload;
    if (!w.isServing() || !w.serving) {
        s.errors.push_back(error("/workload/kind", "the workload is not serving (workload.kind)", "not_serving"));
        return s;
    }
    const ServingSpec& spec = *w.serving;
    const DesignIndex& index = facts.index;
    const Inventory& inv = facts.inv;
    if (inv.gpus == 0) {
        s.errors.push_back(error("/components", "the design has no GPUs: add accelerators inside nodes", "no_gpus"));
        return s;
    }
    s.weightPrecision = spec.weight_precision.value_or("bf16");
    s.kvPrecision = spec.kv_precision.value_or("bf16");

    Replica r;
    r.tp = s.tp = w.parallelism.tp.value_or(1);
    r.pp = s.pp = w.parallelism.pp.value_or(1);
    r.ep = s.ep = w.parallelism.ep.value_or(1);
    r.gpus = s.gpusPerReplica = s.tp * s.pp;
    r.prompt = spec.prompt_tokens;
    r.output = spec.output_tokens;
    s.replicasInDesign = inv.gpus / s.gpusPerReplica;
    if (s.gpusPerReplica > inv.gpus)
        s.errors.push_back(error("/workload/parallelism/tp",
                                 "a replica of tp x pp = " + formatCount(s.gpusPerReplica) + " GPUs is more than the " +
                                     formatCount(inv.gpus) + " the design has",
                                 "too_many"));
    if (s.ep > 1 && s.gpusPerReplica % s.ep != 0)
        s.errors.push_back(error("/workload/parallelism/ep",
                                 "expert parallelism of " + formatCount(s.ep) +
                                     " does not divide the replica's tp x pp = " + formatCount(s.gpusPerReplica) +
                                     " GPUs",
                                 "indivisible"));
    // One replica's layout: the shape's checks (heads over tp, layers over
    // pp, experts over ep) with a single sequence standing in for the batch.
    Workload replica = w;
    replica.training = TrainingSpec{};
    replica.training.global_batch = 1;
    replica.training.tokens = 1;
    replica.training.precision = "bf16";
    replica.parallelism.dp = 1;
    replica.parallelism.cp = 1;
    replica.parallelism.interleave = 1;
    // Serving spreads the experts over the replica's own GPUs (the
    // validator checks they divide; ep within tp x pp is checked above):
    // training's rule that expert groups come out of the data-parallel ranks
    // does not apply to one replica.
    replica.parallelism.ep = 1;
    for (Problem& p : unrunnableLayout(replica, s.gpusPerReplica))
        s.errors.push_back(std::move(p));
    std::vector<Problem> warnings;
    r.shape = shapeWorkload(replica, s.gpusPerReplica, warnings);
    std::optional<HardwareProfile> profiled;
    if (!facts.hardware)
        profiled = profileHardware(index, inv, s.weightPrecision, warnings);
    const HardwareProfile& hw = facts.hardware ? *facts.hardware : *profiled;
    if (hw.gpu.trainingPrecision != s.weightPrecision)
        s.errors.push_back(error("/workload/serving/weight_precision",
                                 inQuotes(hw.gpu.name) + " has no " + s.weightPrecision +
                                     " peak in the catalog: serve its weights in a precision it has",
                                 "precision_unsupported"));
    if (!s.ok())
        return s;

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
    const Hierarchy h = buildHierarchy(hw, m, warnings);
    r.tpTier = &h.tierForSpan(s.tp);
    r.epTier = &h.tierForSpan(s.ep);
    r.ppTier = &h.tierForSpan(s.gpusPerReplica);

    // What fits: the weights, then whole sequences of KV cache.
    s.weightsGbPerGpu = r.weightBytesPerGpu / 1e9;
    s.usableHbmGbPerGpu = hw.gpu.hbmGb.value * kServingHbmShare;
    const double freeBytes = s.usableHbmGbPerGpu * 1e9 - r.weightBytesPerGpu;
    const double context = double(spec.prompt_tokens + spec.output_tokens);
    const double kvPerSequence = context * r.kvBytesPerTokenPerGpu;
    s.kvGbPerSequence = kvPerSequence * double(r.gpus) / 1e9;
    if (freeBytes <= 0) {
        s.errors.push_back(error("/workload/parallelism/tp",
                                 "the weights need " + gb(r.weightBytesPerGpu) + " per GPU in " + s.weightPrecision +
                                     " (" + formatReadable(m.params / 1e9) +
                                     "B parameters over tp x pp = " + formatCount(r.gpus) + " GPUs), more than the " +
                                     gb(s.usableHbmGbPerGpu * 1e9) + " a serving engine gives them (" +
                                     formatReadable(100 * kServingHbmShare) + "% of " + gb(hw.gpu.hbmGb.value * 1e9) +
                                     "): raise tp or pp, or serve in a smaller precision",
                                 "out_of_memory"));
        return s;
    }
    s.maxBatch = std::int64_t(std::floor(freeBytes / kvPerSequence));
    if (s.maxBatch < 1) {
        s.errors.push_back(error("/workload/serving/prompt_tokens",
                                 "one sequence of " + formatCount(spec.prompt_tokens + spec.output_tokens) +
                                     " tokens needs " + gb(kvPerSequence) + " of KV cache per GPU, more than the " +
                                     gb(freeBytes) + " the weights leave",
                                 "out_of_memory"));
        return s;
    }
    // The engine: its step budget and the requests it keeps in flight,
    // its defaults unless the design sets them.
    s.engine = engineDefaults(spec.engine.value_or(std::string(kDefaultServingEngine)), hw.gpu.hbmGb.value,
                              inv.gpuPart.find("a100") != std::string::npos);
    if (spec.step_tokens) {
        s.engine.stepTokens = double(*spec.step_tokens);
        s.engine.stepTokensSource = "workload.serving.step_tokens";
    }
    if (spec.max_requests) {
        s.engine.maxRequests = *spec.max_requests;
        s.engine.maxRequestsSource = "workload.serving.max_requests";
    }
    const std::int64_t asked = spec.batch.value_or(0);
    if (asked > s.maxBatch) {
        s.errors.push_back(error("/workload/serving/batch",
                                 "a batch of " + formatCount(asked) + " does not fit: at most " +
                                     formatCount(s.maxBatch) + " sequences of " +
                                     formatCount(spec.prompt_tokens + spec.output_tokens) +
                                     " tokens fit beside the weights (" + gb(kvPerSequence) +
                                     " of KV cache each per GPU, " + gb(freeBytes) + " free)",
                                 "out_of_memory"));
        return s;
    }
    if (s.engine.maxRequests > 0 && asked > s.engine.maxRequests) {
        s.errors.push_back(error("/workload/serving/batch",
                                 "a batch of " + formatCount(asked) + " is more than the " +
                                     formatCount(s.engine.maxRequests) + " requests the engine keeps in flight (" +
                                     s.engine.maxRequestsSource + "): lower the batch or raise max_requests",
                                 "too_many"));
        return s;
    }
    if (s.engine.maxRequests > 0)
        s.maxBatch = std::min(s.maxBatch, s.engine.maxRequests);

    r.engineStepTokens = s.engine.stepTokens;
    s.prefillS = r.prefillS();
    auto meets = [&](const DecodePoint& p) {
        return (!spec.ttft_target_s || p.ttftS <= *spec.ttft_target_s) &&
            (!spec.tpot_target_s || p.tpotS <= *spec.tpot_target_s) &&
            (!spec.e2e_target_s || p.e2eS <= *spec.e2e_target_s);
    };
    // The largest batch in [lo, hi] where `ok` holds, by bisection: `ok`
    // holds from batch 1 up to some largest (the latencies grow with the
    // batch) and is known to hold at lo (lo 0: nothing known).
    auto largest = [&](auto ok, std::int64_t lo, std::int64_t hi) {
        while (lo < hi) {
            const std::int64_t mid = lo + (hi - lo + 1) / 2;
            if (ok(mid))
                lo = mid;
            else
                hi = mid - 1;
        }
        return lo;
    };
    // The curve: batch 1, 2, 4, ... up to the largest the engine holds. Its
    // batches bracket where the targets stop being met and where the load
    // settles, so each search below bisects one octave of it.
    for (std::int64_t b = 1;; b *= 2) {
        s.curve.push_back(r.decode(std::min(b, s.maxBatch)));
        if (b >= s.maxBatch)
            break;
    }
    if (asked > 0) {
        s.batch = asked;
    } else {
        std::int64_t lo = 0, hi = s.maxBatch;
        for (const DecodePoint& p : s.curve) {
            if (!meets(p)) {
                hi = p.batch - 1;
                break;
            }
            lo = p.batch;
        }
        s.batch = std::max<std::int64_t>(1, largest([&](std::int64_t b) { return meets(r.decode(b)); }, lo, hi));
    }
    s.decode = r.decode(s.batch);
    s.ttftS = s.decode.ttftS;
    s.e2eS = s.decode.e2eS;
    if (r.measured()) {
        const double context = double(spec.prompt_tokens) + double(spec.output_tokens) / 2;
        const auto tier = [](KernelValue v) { return std::string(kernelTierName(v.tier)); };
        s.kernelSource = "GEMMs at each shape " + tier(r.stageGemmS(double(s.batch), double(s.batch))) +
            (r.activationScale ? " (static activation scales: the table's dynamic scaling step taken off)" : "") +
            ", prefill attention " + tier(r.stagePrefillAttentionS(double(spec.prompt_tokens))) +
            ", decode attention " + tier(r.stageDecodeAttentionS(double(s.batch), context)) + ": " +
            hw.gpu.kernels->citation();
    }
    // The first batch whose step is compute-bound (compute grows faster
    // with the batch than the reads do, or never catches up).
    const std::int64_t bound =
        largest([&](std::int64_t b) { return r.roofline(double(b)).bandwidthBound(); }, 0, s.maxBatch);
    s.ridgeBatch = bound < s.maxBatch ? bound + 1 : 0;
    s.kvCacheGbPerReplica = double(s.batch) * s.kvGbPerSequence;

    // The targets, the first one missed said with its cause.
    const DecodePoint& d = s.decode;
    const std::string bottleneck = d.bandwidthBound()
        ? "bandwidth-bound: " + gb((d.memoryS) * r.hbmBytesPerS) + " of weights and KV cache read per GPU per step"
        : "compute-bound at batch " + formatCount(d.batch);
    const std::string atBatch = asked == 0 ? "even at batch 1 " : "at batch " + formatCount(d.batch) + " ";
    if (spec.ttft_target_s && s.ttftS > *spec.ttft_target_s)
        s.whyNotMet = "the time-to-first-token target of " + seconds(*spec.ttft_target_s) + " is missed: " + atBatch +
            "a prompt of " + formatCount(spec.prompt_tokens) + " tokens reaches its first token after " +
            seconds(s.ttftS) + " on " + formatCount(r.gpus) + " GPUs (" + prefillStory(d.engine) + ")";
    else if (spec.tpot_target_s && d.tpotS > *spec.tpot_target_s)
        s.whyNotMet = "the time-per-output-token target of " + seconds(*spec.tpot_target_s) + " is missed: " +
            atBatch + "an output token takes " + seconds(d.tpotS) + ": a decode step alone " + seconds(d.stepS) +
            " (" + bottleneck + ")" + decodeStory(d.engine);
    else if (spec.e2e_target_s && s.e2eS > *spec.e2e_target_s)
        s.whyNotMet = "the end-to-end target of " + seconds(*spec.e2e_target_s) +
            " is missed: " + formatCount(spec.output_tokens) + " tokens take " + seconds(s.e2eS) + " at batch " +
            formatCount(d.batch);
    s.meetsLatencyTargets = s.whyNotMet.empty();
    s.tpotTargetS = spec.tpot_target_s.value_or(0);

    // Little's law (seed 002): requests in flight = arrival rate x latency;
    // a replica holds `batch` of them.
    const double arrival = s.arrivalRatePerS = spec.arrival_rate_per_s.value_or(0);
    s.concurrentRequests = fleet::littleConcurrency(arrival, s.e2eS);
    const double replicas = arrival > 0 ? std::ceil(s.concurrentRequests / double(s.batch)) : 0;
    // No design holds more GPUs than kMaxInstances, and past it the counts
    // overflowed (fuzz_set: a millionth of the HBM bandwidth at 10^9
    // requests/s needed 10^20 replicas).
    if (replicas * double(r.gpus) > double(kMaxInstances)) {
        s.errors.push_back(error("/workload/serving/arrival_rate_per_s",
                                 formatReadable(arrival) + " requests/s, each " + seconds(s.e2eS) +
                                     " end to end, keep " + formatValue(s.concurrentRequests, 3) +
                                     " requests in flight: " + formatValue(replicas * double(r.gpus), 3) +
                                     " GPUs in replicas of batch " + formatCount(s.batch) + ", more than the " +
                                     formatCount(kMaxInstances) + " a design can hold",
                                 "too_many"));
        return s;
    }
    s.replicasNeeded = std::int64_t(replicas);
    s.gpusNeeded = s.replicasNeeded * r.gpus;

    // Operation at the arrival rate: the load spread over the design's
    // replicas (over the replicas it needs, when it holds fewer), each
    // holding the requests Little's law gives at the latencies they cause:
    // the fewest N with arrival per replica x e2e(N) <= N. The batch the
    // replicas were sized at holds its share (replicas needed rounds up),
    // so N is found between 1 and it.
    if (arrival > 0) {
        ServingOperation& o = s.operation;
        o.replicas = std::max(s.replicasInDesign, s.replicasNeeded);
        o.designHoldsLoad = s.replicasInDesign >= s.replicasNeeded;
        o.arrivalPerReplica = arrival / double(o.replicas);
        const auto settles = [&](const DecodePoint& p) { return o.arrivalPerReplica * p.e2eS <= double(p.batch); };
        std::int64_t lo = 0, hi = s.batch;  // settles at hi, not at lo
        for (const DecodePoint& p : s.curve) {
            if (p.batch >= hi)
                break;
            if (settles(p)) {
                hi = p.batch;
                break;
            }
            lo = p.batch;
        }
        while (hi - lo > 1) {
            const std::int64_t mid = lo + (hi - lo) / 2;
            (settles(r.decode(mid)) ? hi : lo) = mid;
        }
        o.at = r.decode(hi);
        o.inFlightPerReplica = o.arrivalPerReplica * o.at.e2eS;
        o.tokensPerSPerGpu = o.arrivalPerReplica * double(spec.output_tokens) / double(r.gpus);
    }

    // Energy: the replica's GPUs' share of the design's facility power.
    std::optional<Power> modelled;
    if (!facts.power)
        modelled = modelPower(index, inv, design.facility, warnings);
    const Power& power = facts.power ? *facts.power : *modelled;
    s.kwPerReplica = power.facilityKw / double(inv.gpus) * double(r.gpus);
    s.kwhPerMillionTokens = s.kwPerReplica / (d.tokensPerSPerReplica * 3600) * 1e6;
    s.pricePerKwh = power.pricePerKwh.value;
    s.usdPerMillionTokens = s.kwhPerMillionTokens * s.pricePerKwh;

    return s;
}

}  // namespace

Serving analyzeServing(const Design& design, const Catalog& catalog)
{
    const DesignIndex index(design, catalog);
    const Inventory inv = takeInventory(index);
    return serve(design, {index, inv});
}

Serving analyzeServing(const Design& design, const DesignIndex& index, const Inventory& inventory,
                       const HardwareProfile& hardware, const Power& power)
{
    return serve(design, {index, inventory, &hardware, &power});
}

std::vector<Problem> servingProblems(const Design& design, const Catalog& catalog)
{
    if (!design.workload.isServing())
        return {};
    return analyzeServing(design, catalog).errors;
}

std::vector<RooflinePoint> decodeRooflinePoints(const Serving& s, double hbmTbPerS)
{
    std::vector<RooflinePoint> points;
    if (!s.ok())
        return points;
    for (const DecodePoint& d : s.curve) {
        RooflinePoint p{"decode, batch " + formatCount(d.batch), "decode", d.flopsPerGpu / d.bytesPerGpu};
        p.attainableTflops = fleet::attainableFlopsPerS(p.intensity, s.peakTflops * 1e12, hbmTbPerS * 1e12) / 1e12;
        p.achievedTflops = d.flopsPerGpu / d.stepS / 1e12;
        p.bound = d.bandwidthBound() ? "memory" : "compute";
        points.push_back(std::move(p));
    }
    return points;
}

}  // namespace studio
