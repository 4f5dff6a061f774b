#pragma once
// The workload with every default applied and every derived quantity the
// analyses share: data-parallel degree, micro-batches, parameter counts. Each
// inconsistency (a layout that does not match the GPUs, a batch that does not
// divide) is a warning with the numbers, never silently fixed.
#include <cstdint>
#include <string>
#include <vector>

#include "core/design/design.h"
#include "core/problem.h"

namespace studio {

struct WorkloadShape {
    std::string name;
    // model
    std::int64_t layers = 1, hidden = 1, heads = 1, kvHeads = 1, ffn = 4, vocab = 1, seq = 1;
    std::int64_t experts = 0, expertsPerToken = 0;
    bool swiglu = false;
    double dropout = 0;
    bool flash = true;
    // training
    std::int64_t globalBatch = 1, microBatch = 1;
    double tokens = 0;
    std::string precision = "bf16";
    // parallelism
    std::int64_t tp = 1, pp = 1, dp = 1, cp = 1, ep = 1, interleave = 1, zero = 1;
    bool sequenceParallel = true;
    std::string recompute = "selective";
    std::string cpComm = "p2p";  // p2p (ring, overlapped), all_gather or a2a (exposed)
    bool tpCommOverlap = false;  // TP collectives pipelined with their GEMMs (TE userbuffers)
    bool fullRecompute = false, selectiveRecompute = true;  // recompute, decoded once
    // derived
    double microBatches = 1;    // per pipeline per step: global / (micro * dp)
    std::int64_t gpusUsed = 1;  // tp * pp * cp * dp
    double layersPerStage = 1;  // ceil(layers / pp): the slowest stage
    double headDim = 1;
    double kvDim = 1;  // kv_heads * head_dim
    double attentionParamsPerLayer = 0, mlpParamsPerLayer = 0, routerParamsPerLayer = 0;
    double embeddingParams = 0;       // input embedding + output projection (untied)
    double params = 0;                // total
    double activeParamsPerToken = 0;  // params a token touches (MoE: k of E experts)
    double paramsPerGpu = 0;          // held by one GPU of the slowest stage (its layers and embeddings), before ZeRO
    double tokensPerStep = 0;
    bool moe() const { return experts > 0; }
};

// `gpus` is the design's GPU count, used to derive dp when the layout leaves
// it 0 and to check the layout.
WorkloadShape shapeWorkload(const Workload& workload, std::int64_t gpus, std::vector<Problem>& warnings);

// Recomputes what follows from the layout fields (tp, pp, cp, dp, ep,
// micro-batch, global batch): GPUs used, micro-batches, layers and
// parameters per GPU, tokens per step. A layout search changes those fields
// of one shape and calls this instead of shaping the workload again.
void deriveLayout(WorkloadShape& shape);

// The layout rules, one place for the analyses (shapeWorkload's errors and
// warnings) and the layout search (what it enumerates):
// tp splits the attention heads evenly, and the key/value groups evenly or
// replicates each on tp / groups ranks (Megatron's two assignments).
constexpr bool tpSplitsHeads(std::int64_t heads, std::int64_t kvHeads, std::int64_t tp)
{
    return heads % tp == 0 && (kvHeads % tp == 0 || tp % kvHeads == 0);
}
// pp x interleave chunks each hold something: Megatron may count the
// embedding and the loss as a layer each (--account-for-embedding/loss-in-
// pipeline-split; Llama 3 ran 126 layers as 16 x 8 chunks).
constexpr bool pipelineFitsModel(std::int64_t layers, std::int64_t pp, std::int64_t interleave)
{
    return pp * interleave <= layers + 2;
}
// ... and each the same number of layers, counting the embedding and the
// loss as layers when that evens them out (with a pipeline).
constexpr bool pipelineSplitsEvenly(std::int64_t layers, std::int64_t pp, std::int64_t interleave)
{
    const std::int64_t chunks = pp * interleave;
    return layers % chunks == 0 || (pp > 1 && (layers + 2) % chunks == 0);
}

// The warnings of shapeWorkload that say a layout cannot run as written on
// `gpus` GPUs (tp x pp x cp does not divide them, heads or the sequence do
// not split, expert groups do not fit, a rank gets no micro-batch), as
// opposed to one that runs unevenly. The workload dock refuses an edit that
// introduces one.
std::vector<Problem> unrunnableLayout(const Workload& workload, std::int64_t gpus);

}  // namespace studio
