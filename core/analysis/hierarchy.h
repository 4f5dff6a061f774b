#pragma once
// The bandwidth hierarchy (seed 001): HBM, the NVLink domain, the scale-out
// fabric inside a leaf, across the spine, across the core, and storage, each
// with its per-GPU bandwidth, latency and scope; and which parallelism axes
// land on which tier for this layout (Megatron rank order tp, cp, ep, dp, pp).
//
// Convention (seed-numbers B1): link tiers are shown as bidirectional per GPU,
// as vendors quote NVLink (900 GB/s on H100), so NDR is 2 x 50 = 100 GB/s and
// the ratio is 9. Collectives use one direction (half) times the tier's
// achievable efficiency. HBM is its total bandwidth; storage its read share.
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/analysis/explanation.h"
#include "core/analysis/hardware_profile.h"
#include "core/analysis/workload_shape.h"

namespace studio {

struct Tier {
    std::string key;  // hbm, nvlink, leaf, spine, core, storage
    std::string name;
    double gbPerSPerGpu = 0;
    double latencyUs = 0;
    std::int64_t scopeGpus = 0;
    double ratioToAbove = 0;          // bandwidth of the tier above / this one; 0 for the first
    std::vector<std::string> axes;    // parallelism axes whose traffic lands here
    double collectiveBytesPerS = 0;   // one direction, achievable, per GPU
    double alphaS = 0;                // per-step latency of a collective on this tier
    bool carriesCollectives = false;  // NVLink and scale-out tiers; not HBM or storage
    // The scale-up tier's measured collectives (the GPU's kernel profile),
    // or none.
    std::shared_ptr<const KernelProfile> kernels;
    Explanation explain;
    // What one collective of `messageBytes` (its whole buffer, as nccl-tests
    // counts size) sustains per GPU: on the scale-up tier, smaller messages
    // reach less of the bus bandwidth (scaleupMessageFactor).
    double collectiveBytesPerSAt(double messageBytes) const;
};

// Share of its large-message bus bandwidth a scale-up collective reaches
// at `messageBytes`: measured all-reduce sweeps on 8 GPUs (nccl-tests on
// DGX A100; torch.distributed on 8 H200 with NVLS), log-linear between
// 1 MB 0.08, 4 MB 0.25, 16 MB 0.45, 64 MB 0.72, 256 MB 0.85, 1 GB 0.97
// and 4 GB 1 (docs/model.md section 4).
double scaleupMessageFactor(double messageBytes);

enum class Collective { AllReduce, AllGather, ReduceScatter, AllToAll };

// One collective of `bufferBytes` (the whole buffer, as nccl-tests counts
// size) over `n` GPUs on `tier`, sent as messages of `messageBytes`
// (buckets; the buffer when 0). On a scale-up tier whose GPU's kernel
// profile measured that collective: the bus bandwidth measured at that
// group and message size, as a share of the link it was measured on, times
// this design's link; the measurement holds the latency. Else the ring
// formula at the tier's bandwidth at that message size, and its latency.
KernelValue collectiveSeconds(const Tier& tier, Collective op, double bufferBytes, std::int64_t n,
                              double messageBytes = 0);
// A serving engine's all-reduce for tensor parallelism: its own kernels
// (TensorRT-LLM's, vLLM's custom all-reduce, under CUDA graphs) where the
// tier's profile measured them ("engine_all_reduce"), else NCCL's as
// collectiveSeconds gives it.
KernelValue engineAllReduceSeconds(const Tier& tier, double bufferBytes, std::int64_t n);

struct AxisPlacement {
    std::string axis;  // tp, cp, ep, dp, pp
    std::int64_t degree = 1;
    std::int64_t spanGpus = 1;  // consecutive GPUs one group covers
    std::string tier;           // key of the tier its traffic crosses
    bool tooSlow = false;       // lands on a slower tier than it needs
    bool noPath = false;        // moves data inside a scale-up domain that has no bandwidth
};

struct Hierarchy {
    std::vector<Tier> tiers;
    std::vector<AxisPlacement> axes;
    const Tier* tier(const std::string& key) const;
    const Tier& nvlink() const { return tiers[1]; }        // always second, after HBM
    const Tier& tierForSpan(std::int64_t spanGpus) const;  // the fastest tier whose scope covers the span
    std::size_t rank(std::string_view key) const;          // position from HBM down; tiers.size() if absent
};

// Where each parallelism axis of `w` lands (Megatron rank order tp, cp, ep,
// dp, pp), using only the tiers of `h`: the tiers do not depend on the
// layout, so a layout search builds them once and places each candidate.
std::vector<AxisPlacement> placeAxes(const Hierarchy& h, const HardwareProfile& hw, const WorkloadShape& w);

Hierarchy buildHierarchy(const HardwareProfile& hw, const WorkloadShape& w, std::vector<Problem>& warnings);

// The error for traffic (`what`: "tp = 4", a KV cache's move) between GPUs
// of one scale-up domain whose bandwidth is zero: the collective models
// price a link of no bandwidth at no time, so every caller that places
// traffic on such a tier refuses the layout with this.
Problem noScaleupPath(const std::string& what, const HardwareProfile& hw);

}  // namespace studio
