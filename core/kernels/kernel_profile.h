#pragma once
// What one GPU measurably does with a transformer's kernels
// (docs/kernel-profiles.md): GEMM efficiency by precision over (m, n, k),
// fused attention by head size and sequence length, decode attention,
// scale-up collectives by message size, memory-bound kernels by bytes. The
// step time and serving read it in place of the catalog's one-number
// efficiencies wherever it has a table.
#include <algorithm>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/kernels/kernel_grid.h"
#include "core/problem.h"

namespace studio {

inline constexpr std::string_view kKernelProfileFormat = "cluster-studio.kernels";
inline constexpr int kKernelProfileFormatVersion = 1;

// The GEMM precisions a profile may hold (each a key of "gemm").
inline constexpr std::string_view kKernelGemmPrecisions[] = {"bf16", "fp16", "fp8", "fp8_block", "fp4", "tf32"};
// The collectives a profile may hold (each a key of "collectives"): NCCL's,
// and the all-reduce serving engines run for tensor parallelism with their
// own kernels.
inline constexpr std::string_view kKernelCollectives[] = {"all_reduce", "all_gather", "reduce_scatter", "all_to_all",
                                                          "engine_all_reduce"};
// Named memory-bound kernels ("ops", "ops_compiled").
inline constexpr std::string_view kKernelOps[] = {
    "rmsnorm_forward",       "rmsnorm_backward",       "layernorm_forward", "layernorm_backward", "swiglu_forward",
    "swiglu_backward",       "gelu_forward",           "gelu_backward",     "rotary_forward",     "rotary_backward",
    "cross_entropy_forward", "cross_entropy_backward", "adamw_step"};

// A GPU's roofline for one GEMM: its peak at the GEMM's precision and its
// HBM bandwidth.
struct GemmRoofline {
    double flopsPerS = 0, bytesPerS = 0;
    double seconds(double flops, double bytes) const { return std::max(flops / flopsPerS, bytes / bytesPerS); }
};

struct KernelProfile {
    std::string origin;  // the file, or "built-in (resources/kernels/NAME.json)"
    std::string gpu;     // the device the tables were measured on
    std::vector<std::string> parts;
    std::string source, dataVersion, license, date;
    std::map<std::string, double, std::less<>> peaksTflops;  // the peaks the efficiencies are shares of
    double hbmTbPerS = 0;
    double scaleupGbPerS = 0;  // the measured system's scale-up link, both directions (with collectives)

    std::map<std::string, KernelGrid, std::less<>> gemm;  // efficiency over (m, n, k)
    // By GEMM precision: the dynamic per-tensor scale of the GEMM's 16-bit
    // input (an amax over the m x k activation) that the GEMM table's times
    // include, as HBM efficiency over (m, k) of its 2 m k bytes. A deployed
    // checkpoint with calibrated (static) activation scales skips it.
    std::map<std::string, KernelGrid, std::less<>> activationScale;
    // GEMM, decode-attention and collective cells sped up so that no kernel
    // takes longer than one with a larger coordinate (more rows, a longer
    // context, a larger message), which it could run padded: the tables'
    // noise, which would otherwise shorten a serving step as its batch grows.
    std::size_t cellsSped = 0;
    std::optional<KernelGrid> attentionForward;  // efficiency over (head_dim, seq)
    std::optional<KernelGrid> attentionBackward;
    std::map<std::string, KernelGrid, std::less<>>
        decodeAttention;  // HBM efficiency over (batch, context), by KV precision
    std::map<std::string, KernelGrid, std::less<>> collectives;       // bus GB/s over (gpus, bytes)
    std::optional<KernelGrid> memory;                                 // HBM efficiency over bytes
    std::map<std::string, KernelGrid, std::less<>> ops, opsCompiled;  // HBM efficiency over bytes

    const KernelGrid* gemmTable(std::string_view precision) const;
    // The roofline of the GPU the tables were measured on, at `precision`
    // (a peak of 0 where the profile has none, and then no GEMM table).
    GemmRoofline measuredOn(std::string_view precision) const;
    // Every efficiency (not the collectives' bandwidths) times `factor`, at
    // most `cap`.
    KernelProfile scaledEfficiencies(double factor, double cap) const;
    const KernelGrid* collective(std::string_view op) const;
    // "H100 SXM kernels (NVIDIA AIConfigurator, TensorRT-LLM 1.3.0rc20, 2026-11-27)": what an
    // explanation cites.
    std::string citation() const;
};

// A GEMM of `rows` x k by k x n moving `bytes`, from a measured table: the
// time measured on the GPU `measuredOn` describes, as a share of that GPU's
// roofline, on the roofline of the GPU it `runsOn`. The same GPU gives the
// measured time; a design that overrides the peak or the HBM bandwidth
// moves a compute-bound GEMM with the one and a memory-bound one with the
// other (docs/kernel-profiles.md).
KernelValue measuredGemm(const KernelGrid& table, const GemmRoofline& measuredOn, const GemmRoofline& runsOn,
                         double rows, double n, double k, double bytes);

// The same GEMM with a calibrated (static) activation scale: the measured
// time `dynamic` less the dynamic scaling step the table includes (`scale`,
// at `rows` x k), never under the GEMM's roofline on the GPU it runs on
// (as AIConfigurator derives its fp8_static GEMMs).
KernelValue withStaticActivationScale(const KernelValue& dynamic, const KernelGrid& scale, const GemmRoofline& runsOn,
                                      double rows, double n, double k, double bytes);

// Reads a profile document. Every problem names its JSON pointer; on any
// error nothing is returned. `knownPart` says whether a catalog part id
// names an accelerator.
std::optional<KernelProfile> readKernelProfile(const nlohmann::ordered_json& doc, const std::string& origin,
                                               const std::function<bool(std::string_view)>& knownPart,
                                               std::vector<Problem>& problems);

// The profiles in resources/kernels/, as compiled into the core.
std::vector<std::string_view> builtinKernelProfileJsons();
std::vector<std::string_view> builtinKernelProfileNames();

}  // namespace studio
