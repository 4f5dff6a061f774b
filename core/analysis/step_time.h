#pragma once
// Step time and MFU, accounted as a profiler would (docs/model.md): every
// operation of a transformer block timed on the roofline of one GPU with
// size-dependent efficiency, each parallelism axis's communication on the
// tier its group spans, the pipeline bubble, the exposed data-parallel
// reduction, the optimizer step and stragglers. The breakdown sums to the
// step time.
#include <array>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/analysis/explanation.h"
#include "core/analysis/hardware_profile.h"
#include "core/analysis/hierarchy.h"
#include "core/analysis/step_parts.h"
#include "core/analysis/workload_shape.h"
#include "core/kernels/kernel_grid.h"

namespace studio {

// One operation of a block, forward, on one GPU for one micro-batch: a
// point on the roofline.
struct OpPoint {
    std::string_view name;  // literals: building a point allocates nothing
    std::string_view kind;  // gemm, attention, memory, optimizer
    double flops = 0, bytes = 0;
    double seconds = 0;                           // modelled time
    KernelTier tier = KernelTier::CatalogFactor;  // where its speed came from
    double m = 0, k = 0, n = 0, batch = 1;        // a GEMM's shape: (m x k) by (k x n), `batch` of them
    double intensity() const { return bytes > 0 ? flops / bytes : 0; }
    double achievedFlopsPerS() const { return seconds > 0 ? flops / seconds : 0; }
};

struct StepPart {
    StepPartId id = StepPartId::Gemm;
    double seconds = 0;
    std::string_view source = "step-time model (docs/model.md)";  // what its explanation cites
    // Kernels' time: the worst tier their speeds came from (the GPU's kernel
    // profile or the catalog's factors); none for waiting.
    std::optional<KernelTier> tier;
    std::string_view key() const { return stepPartInfo(id).key; }
    std::string_view name() const { return stepPartInfo(id).label; }  // for people only
    // Running kernels (the rest is waiting: communication, bubble, ...).
    bool compute() const { return stepPartInfo(id).compute; }
};

struct StepTime {
    bool valid = false;  // false without GPUs or a workload to run
    double stepS = 0;
    double tokensPerS = 0;
    double modelFlopsPerStep = 0, hardwareFlopsPerStep = 0;
    double tflopsPerGpuModel = 0, tflopsPerGpuHardware = 0;
    double mfu = 0, hfu = 0;
    double daysToTrain = 0;  // compute time for the workload's tokens, before goodput
    double microBatches = 0;
    double bubbleFraction = 0;  // bubble / pipeline time
    double slotS = 0;           // one micro-batch through the slowest stage, forward + backward
    double computeAtPeakS = 0;  // model FLOPs at peak: the step time at 100% MFU
    double stragglerFactor = 1;
    // Per step on one GPU: each axis's communication, hidden or not, and
    // the kernels' time (GEMMs, attention, memory-bound ops, output layer,
    // recompute). Their ratio is seed 002's rho (fleet::commComputeRatio).
    struct AxisSeconds {
        double tp = 0, cp = 0, ep = 0, pp = 0, dp = 0;
    } commS;
    double computeS = 0;
    std::vector<StepPart> breakdown;  // sums to stepS
    std::vector<OpPoint> ops;         // one block's forward operations plus the output layer and optimizer
    Explanation explainStep, explainMfu, explainTokens;
};

// The three GEMMs of a layer's (m x k) by (k x n) product, `batch` of them,
// as a kernel table is looked up (docs/kernel-profiles.md): rows (a batched
// or grouped GEMM's batches stacked), output columns and the reduction.
// Forward m x k by k x n; the data gradient m x n by n x k; the weight
// gradient k x m by m x n.
struct GemmPass {
    std::string_view pass;  // "forward", "backward data", "backward weight"
    double rows, n, k;
};
std::array<GemmPass, 3> gemmPasses(double m, double k, double n, double batch);

// GEMM efficiency by size, relative to the part's large-GEMM efficiency
// (Calculon's A100/H100 profile shape: 0.95 at >= 128 GFLOP, 0.9 at 16, 0.6
// at 1), log-linear between points.
double gemmSizeFactor(double flops);
// Memory-bound kernel efficiency by bytes moved (Calculon: 0.9 at >= 100 MB,
// 0.75 at 10 MB, 0.6 at 1 MB), relative to the part's HBM efficiency.
double memorySizeFactor(double bytes);

// Which attention FLOPs a count includes: the causal half a masked kernel
// runs (Megatron's num_floating_point_operations since March 2025, and the
// studio's model FLOPs), or the full s x s square (PaLM appendix B,
// Narayanan et al. 2021, Llama 3; what older published MFUs count).
enum class FlopConvention { CausalHalf, FullSquare };
// Forward FLOPs of one sequence through one transformer layer, and through
// the whole model with its output layer (docs/model.md section 5).
double forwardFlopsPerSequenceLayer(const WorkloadShape& w, FlopConvention convention);
double forwardFlopsPerSequence(const WorkloadShape& w, FlopConvention convention);

// Where a step part's kernel speeds came from, for its explanation: "measured:
// H100 kernel profile (...)" or "catalog factor: gemm_efficiency 0.65 (...)".
// `part` is a breakdown part's name; empty for a part with no tier.
std::string kernelTierSource(const AcceleratorProfile& gpu, const StepPart& part);

// `explain`: also fill the explanations (the studio shows them; a search
// over layouts does not need them).
StepTime modelStepTime(const HardwareProfile& hw, const Hierarchy& hierarchy, const WorkloadShape& w,
                       double stragglerCv, bool explain = true);

// A floor under modelStepTime shared by every ZeRO stage, recompute mode
// and sequence-parallel setting of this layout's tp, pp, cp, dp, ep,
// micro-batch and interleave: the GEMMs, attention and output layer of
// every micro-batch and of the bubble, stretched by stragglers. A layout
// search skips those settings when the floor is already slower than what
// it keeps (tst_layout_search checks the floor never exceeds a step).
double stepTimeFloor(const HardwareProfile& hw, const WorkloadShape& w, double stragglerCv);

}  // namespace studio
