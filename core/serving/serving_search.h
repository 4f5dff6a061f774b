#pragma once
// The best way to serve a design's model on its GPUs (docs/model.md section
// 19, "The serving search"): aggregated replicas (tp, pp, ep, batch, weight
// and KV precision) and disaggregated layouts (prefill and decode workers,
// each with its own parallelism and count, the KV cache moved between
// them), each modelled by the serving analysis itself and ranked by the
// tokens/s per GPU of the design the latency targets allow.
#include <atomic>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "core/catalog/catalog.h"
#include "core/design/design.h"

namespace studio {

struct ServingSearchOptions {
    int top = 10;                 // candidates kept of each kind, best first
    bool varyPrecision = true;    // false: the design's weight and KV precision only
    bool aggregated = true, disaggregated = true;
    const std::atomic<bool>* cancel = nullptr;
    std::function<void(double done)> progress;  // 0..1, from the searching thread
};

struct ServingCandidate {
    std::string mode;  // "aggregated" | "disaggregated"
    std::string weightPrecision, kvPrecision;
    std::int64_t tp = 1, pp = 1, ep = 1;   // a replica's (aggregated)
    ServingWorkers prefill, decode;        // the workers (disaggregated)
    std::int64_t batch = 0;                // per replica, or per decode worker
    std::int64_t gpusPerReplica = 0;       // a replica's, or one copy of the layout's
    std::int64_t replicas = 0;             // replicas (copies) the design holds
    double ttftS = 0, tpotS = 0, e2eS = 0, kvTransferS = 0;
    double tokensPerSPerUser = 0;
    // The objective: the design's output tokens/s at the targets over all
    // its GPUs (a GPU no replica uses counts too).
    double tokensPerSPerGpu = 0;
    // The same over the design's facility power (IT x PUE): the figure per
    // kW the issue asks beside it. Rated power does not depend on the
    // layout, so it ranks candidates as tokens/s per GPU does.
    double tokensPerSPerKw = 0;
};

struct ServingSearchResult {
    std::string error;  // the search could not run (not serving, no GPUs)
    bool cancelled = false;
    std::int64_t gpus = 0;
    std::int64_t space = 0;      // layouts and precisions tried, each kind's counts included
    std::int64_t modelled = 0;   // serving analyses run
    std::int64_t feasible = 0;   // fit, and meet the targets (of those modelled)
    std::int64_t pruned = 0;     // disaggregated configurations whose rate bound cannot enter the top K
    std::int64_t unfit = 0;      // do not fit or do not split (the analysis's errors)
    std::int64_t missTargets = 0;
    std::vector<ServingCandidate> aggregated, disaggregated;  // best first
    ServingCandidate current;
    bool currentFeasible = false;
    std::string currentWhyNot;
    std::string verdict;  // which kind wins here, and why
    // The best of each kind as its batch grows (its analysis's curve, batch
    // 1, 2, 4, ...): tokens/s per user against tokens/s per GPU of the
    // design, the frontier each kind's best traces.
    struct FrontierPoint {
        std::int64_t batch = 0;
        double tokensPerSPerUser = 0, tokensPerSPerGpu = 0;
    };
    std::vector<FrontierPoint> aggregatedFrontier, disaggregatedFrontier;
    bool ok() const { return error.empty() && !cancelled; }
};

// Both kinds' kept candidates in one list, best first (ties to the simpler).
std::vector<ServingCandidate> rankedCandidates(const ServingSearchResult& result);

ServingSearchResult searchServing(const Design& design, const Catalog& catalog, const ServingSearchOptions& options);

// Writes a candidate's layout and precisions into a serving workload (the
// batch only where the workload fixes one): what Apply does.
void applyServingCandidate(Workload& workload, const ServingCandidate& candidate);

// "tp 8 · fp8/fp8" or "2 prefill tp 4 + 1 decode tp 8 · fp8/fp8"
std::string describeServingCandidate(const ServingCandidate& candidate);

}  // namespace studio
