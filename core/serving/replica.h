#pragma once
// One serving replica (or one worker of a disaggregated layout) on the
// design's GPUs (docs/model.md section 19): what its GPUs have and the model
// needs, and the times of its engine's steps. Shared by the serving analysis
// and the serving search; not part of the analyses' interface.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "core/analysis/collectives.h"
#include "core/analysis/hardware_profile.h"
#include "core/analysis/hierarchy.h"
#include "core/analysis/inventory.h"
#include "core/analysis/power.h"
#include "core/analysis/workload_shape.h"
#include "core/design/design.h"
#include "core/design/design_index.h"
#include "core/serving/serving.h"

namespace studio {

// Bytes a weight or a KV-cache element takes at a precision.
inline double bytesAt(const std::string& precision)
{
    if (precision == "fp8")
        return 1;
    if (precision == "fp4")
        return 0.5;
    return 2;  // bf16, fp16
}

inline constexpr double kActivationBytes = 2;  // activations move between GPUs in 16 bits

std::string gbText(double bytes);  // "12.5 GB"
Problem servingError(std::string pointer, std::string message, std::string code);

// A dense model's GEMMs on one GPU of a tp group (none for a mixture of experts).
std::vector<ServingGemm> servingGemms(const WorkloadShape& m, std::int64_t tp);

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

    // One decode step of `batch` sequences on its own: its roofline, its
    // kernels and collectives.
    DecodePoint decodeStep(std::int64_t batch) const
    {
        const double b = double(batch);
        DecodePoint p = roofline(b);
        const double comm = stageCommS(b);
        const double stage = stageS(p, b, 0, &p.gemmS, &p.attentionS);
        p.gemmS *= double(pp);
        p.attentionS *= double(pp);
        p.stepS = double(pp) * (stage + comm) + double(pp - 1) * hopS(b);
        p.commS = double(pp) * comm + double(pp - 1) * hopS(b);
        return p;
    }

    // Model FLOPs of a request's prompt and output (2 per active weight per
    // token) at `requestsPerS`, over `gpus` GPUs' peak.
    double mfuAt(double requestsPerS, double gpuCount) const
    {
        return requestsPerS * double(prompt + output) * 2 * gemmParams() / (gpuCount * peakFlopsPerS);
    }

    // A batch of `batch` users: its decode step on its own (the roofline's
    // point) and the batch as the engine serves it (EngineRun).
    DecodePoint decode(std::int64_t batch) const
    {
        const double b = double(batch);
        DecodePoint p = decodeStep(batch);
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
        p.mfu = mfuAt(p.tokensPerSPerReplica / double(output), double(gpus));
        return p;
    }

    // One prompt through the replica on its own (no other request).
    double prefillS() const { return stepS(0, double(prompt)); }
};

// What a serving analysis reads of the design beyond its workload: given
// by analyzeDesign, else worked out by the analysis (hardware and power
// only when the design can serve at all).
struct DesignFacts {
    const DesignIndex& index;
    const Inventory& inv;
    const HardwareProfile* hardware = nullptr;
    const Power* power = nullptr;
};

// Where a replica's layout is written: the workload's parallelism section,
// or a disaggregated layout's prefill or decode workers.
struct ReplicaLayout {
    std::int64_t tp = 1, pp = 1, ep = 1;
    std::string pointer = "/workload/parallelism";  // of its tp, pp and ep
    // Tokens of KV cache a sequence holds there: prompt and output, or (a
    // prefill worker) the prompt until it moves.
    double contextTokens = 0;
    std::int64_t askedBatch = 0;  // the design's batch (0: as many as fit)
};

// Sets up `r` for `layout` on the design's GPUs at the serving precisions
// and fills the replica's figures of `s` (tp, pp, ep, GPUs, weights and KV
// cache per GPU, the largest batch, the engine's limits). Problems go to
// s.errors, each at its pointer; false when the replica cannot serve.
// `h` is built on first use (its tiers do not depend on the layout).
bool prepareReplica(const Design& design, const DesignFacts& facts, const HardwareProfile& hw,
                    const ReplicaLayout& layout, std::optional<Hierarchy>& h, Serving& s, Replica& r);

// analyzeServing, which shows `visit` the finished analysis and the replica
// an aggregated layout is served on (not called for a disaggregated layout
// or a design that cannot be served). The replica points into the
// analysis's own hierarchy: it lives for the call only.
using ReplicaVisit = std::function<void(const Serving&, const Replica&)>;
Serving analyzeServing(const Design& design, const Catalog& catalog, const ReplicaVisit& visit);

}  // namespace studio
