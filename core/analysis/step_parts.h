#pragma once
// The parts a step's time is made of (docs/model.md section 5,
// "Breakdown") and the bars of the utilization waterfall (section 11): each
// with a key that code, the metrics JSON and explanation keys use, and a
// label that only people read. Everything that asks "is this the bubble?"
// or "is this communication?" asks here, never of the label.
#include <string_view>

namespace studio {

enum class StepPartId {
    Gemm,
    Attention,
    MemoryBound,
    OutputLayer,
    Recompute,
    TpComm,
    CpComm,
    EpComm,
    PpComm,
    PipelineBubble,
    DpComm,
    OverlapContention,
    Optimizer,
    Stragglers,
};

struct StepPartInfo {
    std::string_view key;    // "tp_comm": metrics' breakdown[].key, explain's training.waterfall.tp_comm
    std::string_view label;  // "TP communication"
    bool compute;            // running kernels (section 11 counts these as kernel time; the rest is a loss)
    bool communication;      // an axis's communication that compute does not hide
};

const StepPartInfo& stepPartInfo(StepPartId id);

// The waterfall's own bars around the step parts' losses.
namespace waterfall_key {
inline constexpr std::string_view kPeak = "peak";
inline constexpr std::string_view kKernelEfficiency = "kernel_efficiency";
inline constexpr std::string_view kMfu = "mfu";
inline constexpr std::string_view kCheckpointing = "checkpointing";
inline constexpr std::string_view kFailures = "failures";
inline constexpr std::string_view kMaintenance = "maintenance";
inline constexpr std::string_view kDelivered = "delivered";
}  // namespace waterfall_key

}  // namespace studio
