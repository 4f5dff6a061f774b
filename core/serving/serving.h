#pragma once
// Serving a model (docs/model.md section 19): prefill, the decode step as
// the batch grows, the KV cache beside the weights, and the replicas an
// arrival rate needs within the latency targets (Little's law). A pure
// function of the design and its catalog, as every analysis is.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/analysis/hardware_profile.h"
#include "core/analysis/inventory.h"
#include "core/analysis/power.h"
#include "core/analysis/roofline.h"
#include "core/catalog/catalog.h"
#include "core/design/design.h"
#include "core/problem.h"
#include "core/serving/engine.h"

namespace studio {

// One GEMM of a layer as one GPU of a replica runs it: rows (the tokens in
// flight) by k, by n. Column-parallel layers (QKV, MLP up) split n over tp,
// row-parallel ones (attention output, MLP down) k; the LM head runs once
// per step, on the last stage.
struct ServingGemm {
    std::string_view name;
    double k = 0, n = 0;
    bool lmHead = false;
};

// A batch of users as an engine serves them (docs/model.md section 19, "The
// engine's scheduler"): each user sends its next request when the last
// ends, and every step carries the decodes and as many prompt tokens as
// its budget allows. The users' prompts come in cohorts that fill a step;
// the other cohorts' prompts share the steps of a user's decode.
struct EngineRun {
    double users = 0;
    double ttftS = 0;  // its prompt's chunks, after any wait for the steps the others' prompts take
    double tpotS = 0;  // mean step over its decode: the steps with others' prompt chunks and those without
    double mixStepS = 0, decodeStepS = 0;  // a step with a cohort's prompt tokens, a step of decodes alone
    double prefillTokensPerMixStep = 0;    // the budget less the decodes sharing the step, at most the whole cohort
    double decodesPerMixStep = 0;
    double mixStepsPerCycle = 0;      // every user's prompt once: users x prompt / tokens per mix step
    double promptSteps = 0;           // the steps one prompt's chunks take
    double arrivalWaitS = 0;          // the step in flight when a request comes
    double tokensPerSPerReplica = 0;  // users x output / (ttft + (output - 1) x tpot)
};

// One batch size of a replica's decode.
struct DecodePoint {
    std::int64_t batch = 0;
    double stepS = 0;                         // one decode step of the batch on its own
    EngineRun engine;                         // the batch's users as the engine serves them
    double tpotS = 0, ttftS = 0;              // as the engine serves them (engine.tpotS, engine.ttftS)
    double e2eS = 0;                          // ttft + (output - 1) x tpot
    double memoryS = 0;                       // of the step alone: reading weights and KV cache (per stage)
    double computeS = 0;                      // the step's FLOPs at the compute roof (per stage)
    double commS = 0;                         // TP all-reduces, EP all-to-alls and pipeline hops
    double gemmS = 0, attentionS = 0;         // measured kernels: the stages' GEMMs and attention (else 0)
    double flopsPerGpu = 0, bytesPerGpu = 0;  // one step's, on one GPU: the roofline's decode point
    // Output tokens per second of the engine run (prompts prefilled on the
    // same GPUs); per user: 1 / TPOT.
    double tokensPerSPerReplica = 0, tokensPerSPerGpu = 0, tokensPerSPerUser = 0;
    double prefillShare = 0;  // of a request's time, steps carrying prompt chunks
    double mfu = 0;           // model FLOPs (prompts and outputs) over the replica's peak at the weight precision
    bool bandwidthBound() const { return memoryS >= computeS; }
};

// A serving design at its arrival rate: the load over its replicas, each
// holding the requests Little's law gives at the latencies they cause.
struct ServingOperation {
    std::int64_t replicas = 0;      // the design's, or the replicas needed when it holds fewer
    bool designHoldsLoad = true;    // the design holds the replicas the load needs
    double arrivalPerReplica = 0;   // requests/s
    double inFlightPerReplica = 0;  // arrival per replica x e2e at that load
    DecodePoint at;                 // the engine serving that many users (at.batch: the fewest that keep up)
    double tokensPerSPerGpu = 0;    // delivered: arrival per replica x output / GPUs per replica
    bool set() const { return replicas > 0; }
};

// One kind of worker of a disaggregated layout.
struct ServingWorker {
    std::int64_t workers = 0;                       // in one copy of the layout
    std::int64_t tp = 1, pp = 1, ep = 1, gpus = 1;  // gpus: one worker's, tp x pp
    double weightsGbPerGpu = 0;
    std::int64_t maxBatch = 0;  // sequences whose KV cache fits beside the weights
    double requestsPerS = 0;    // one worker's most within the targets
    double utilization = 0;     // of that, at the layout's matched rate
};

// Prefill and decode on separate workers (docs/model.md section 19,
// "Disaggregated serving"): the prompts on the prefill workers, their KV
// cache moved over the tier each pair of workers spans, the output tokens
// on the decode workers; the layout's rate the slowest of the three.
struct Disaggregation {
    ServingWorker prefill, decode;
    std::int64_t copies = 0;                              // of the layout the design's GPUs hold
    std::int64_t gpusPerCopy = 0;                         // prefill and decode workers' GPUs
    double promptsPerStep = 0;                            // a prefill step's prompts at the matched rate
    std::int64_t promptsPerStepMax = 0;                   // the most the TTFT target (and the step budget) allow
    double prefillStepS = 0;                              // a prefill step of promptsPerStep prompts
    double kvBytesPerRequest = 0;                         // the prompt's KV cache, whole model
    double kvTransferS = 0;                               // mean over the copy's prefill-decode pairs, latency included
    double kvLinkShare = 0;                               // of the senders' and receivers' link time the moves take
    std::vector<std::pair<std::string, double>> kvTiers;  // tier key, share of the pairs that cross it
    double requestsPerS = 0;                              // one copy's: min(prefill, decode, links)
    std::string limitedBy;                                // "prefill", "decode" or "kv_links"
};

struct Serving {
    // Why the workload cannot be served as laid out ("a batch of 512 does not
    // fit ..."), with its pointer; the figures below are then not set.
    std::vector<Problem> errors;
    bool ok() const { return errors.empty(); }

    std::string mode = "aggregated";               // or "disaggregated" (workload.serving.disaggregated)
    std::optional<Disaggregation> disaggregation;  // its workers and KV moves, when disaggregated
    std::string weightPrecision, kvPrecision;
    std::string gpuName;
    double peakTflops = 0;  // one GPU's, at the weight precision
    double hbmTbPerS = 0;   // one GPU's achievable: bandwidth x hbm_efficiency
    std::string hbmSource;  // where the bandwidth and its efficiency come from
    // Where the kernels' speeds come from: the GPU's kernel profile, tier by
    // kind of kernel ("GEMMs measured, decode attention interpolated: ..."),
    // or empty when the step is the roofline of the catalog factors.
    std::string kernelSource;
    std::int64_t promptTokens = 0, outputTokens = 0;
    double arrivalRatePerS = 0;
    double pricePerKwh = 0;
    double activeParams = 0;              // per token
    std::int64_t tp = 1, pp = 1, ep = 1;  // a replica's, or (disaggregated) a decode worker's
    std::int64_t gpusPerReplica = 1;      // disaggregated: one copy of the layout
    std::vector<ServingGemm> gemms;       // a dense layer's, on one GPU (none for a mixture of experts)
    std::int64_t replicasInDesign = 0;    // whole replicas (copies of the layout) the design's GPUs hold
    std::int64_t designGpus = 0;          // all of the design's, idle ones too
    double designFacilityKw = 0;          // the whole design's facility power (IT x PUE), idle GPUs too
    // What the design serves at point `p` (the served batch: `decode`), over
    // all its GPUs: the serving search's objective.
    double tokensPerSPerDesignGpu(const DecodePoint& p) const
    {
        return designGpus > 0 ? double(replicasInDesign) * p.tokensPerSPerReplica / double(designGpus) : 0;
    }
    // The same over the design's facility power. The power model draws each
    // part's rated power whatever it serves, so within one design this ranks
    // layouts as tokens/s per GPU does.
    double tokensPerSPerDesignKw(const DecodePoint& p) const
    {
        return designFacilityKw > 0 ? tokensPerSPerDesignGpu(p) * double(designGpus) / designFacilityKw : 0;
    }

    double weightsGbPerGpu = 0;
    double kvBytesPerToken = 0;      // whole model: 2 x layers x kv_heads x head_dim x bytes
    double kvGbPerSequence = 0;      // per replica, a full prompt + output
    double kvCacheGbPerReplica = 0;  // at the batch served
    EngineMemory memory;             // one GPU's HBM as the engine divides it (bytes)
    std::int64_t maxBatch = 0;       // sequences the engine's KV cache budget holds
    std::int64_t ridgeBatch = 0;     // the first batch whose decode is compute-bound; 0 if none fits

    double prefillS = 0;  // one prompt on one replica, no other request
    EngineLimits engine;
    std::int64_t batch = 0;
    DecodePoint decode;  // at `batch`
    double ttftS = 0;    // decode.ttftS: as the engine serves the batch
    double e2eS = 0;     // decode.e2eS

    double concurrentRequests = 0;  // Little: arrival rate x e2e
    std::int64_t replicasNeeded = 0, gpusNeeded = 0;
    double tpotTargetS = 0;  // the workload's, 0 when it sets none
    bool meetsLatencyTargets = true;
    std::string whyNotMet;  // the first target missed, and why

    ServingOperation operation;  // at the arrival rate; not set without one

    double kwPerReplica = 0;  // facility power of its GPUs' share of the design
    double kwhPerMillionTokens = 0, usdPerMillionTokens = 0;

    std::vector<DecodePoint> curve;  // batch 1, 2, 4, ... up to maxBatch
};

// The serving analysis of a design whose workload is serving (errors when
// it is not). The design must be valid (validateDesign) against `catalog`.
Serving analyzeServing(const Design& design, const Catalog& catalog);

// The same from what analyzeDesign has already worked out for the design:
// its index and inventory, its power, and its hardware profiled at the
// serving weights' precision.
Serving analyzeServing(const Design& design, const DesignIndex& index, const Inventory& inventory,
                       const HardwareProfile& hardware, const Power& power);

// What stops a design that reads from being served, each at its pointer:
// analyzeServing's errors for a serving design, none for a training one.
// `validate` reports them beside the reader's problems and `metrics`
// refuses the design for them, so the two verbs accept the same files.
std::vector<Problem> servingProblems(const Design& design, const Catalog& catalog);

// How the design serves, in words: "replicas of tp 8 x pp 1 (ep 8)" or
// "split: 7 prefill workers of tp 4 + 1 decode worker of tp 4, copies of 32
// GPUs" (the compare view, reports).
std::string describeServingLayout(const Serving& serving);

// Of `count` GPUs from the design's GPU `first` (in design order), those a
// disaggregated layout puts in prefill and in decode workers: each copy of
// the layout takes the next gpusPerCopy GPUs, prefill workers first; GPUs
// past the last whole copy serve nothing.
struct GpuRoles {
    std::int64_t prefill = 0, decode = 0;
};
GpuRoles servingRoles(const Disaggregation& layout, std::int64_t first, std::int64_t count);

// The decode step at each batch of the curve as a roofline point of one GPU:
// its FLOPs over the bytes it reads, at the throughput the step reaches.
std::vector<RooflinePoint> decodeRooflinePoints(const Serving& serving, double hbmTbPerS);

}  // namespace studio
