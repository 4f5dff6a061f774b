#include "core/serving/engine.h"

#include <algorithm>
#include <cmath>

#include "core/analysis/hardware_profile.h"
#include "core/serving/replica.h"
#include "core/text.h"

namespace studio {
namespace {

constexpr double kGiB = 1024.0 * 1024 * 1024;
constexpr double kMiB = 1024.0 * 1024;

// AIConfigurator's memory model of TensorRT-LLM, which its vLLM backend
// reuses (aic-core/src/aiconfigurator_core/sdk/backends/base_backend.py
// _get_memory_usage and trtllm_backend.py ACTIVATION_COEFFICIENTS at
// 095f58a, Apache-2.0): a step's activations are 2 x the step's tokens x
// the attention width x a coefficient measured per model family and tp,
// at least 70 MiB; NCCL's buffers and the runtime's are per system
// (systems/*.yaml misc, the same on A100, H100, H200, B200 and GB200).
struct ActivationRow {
    std::int64_t tp;
    double gpt, llama, moe;
};
constexpr ActivationRow kActivationCoefficients[] = {{1, 10, 11, 22}, {2, 6, 6.5, 13}, {4, 5, 5, 10}, {8, 5, 5, 10}};
constexpr double kMinActivationBytes = 70 * kMiB;
constexpr double kNcclBytesTp2 = 342 * kMiB, kNcclBytesTp4 = 392 * kMiB;
// "increase from 551MB to 3.5GB for safer deployment, this will cover part
// of the inaccurate mem calc." vLLM's own profile of Llama 3 8B on one H100
// measured 1.79 GiB outside PyTorch and a 1.26 GiB activation peak (vLLM PR
// #10511); the model takes 3.5 GiB and 0.69 GiB for it, 1.1 GiB more, and
// leaves its KV cache 1% less (docs/model.md section 19).
constexpr double kRuntimeBytes = 3.5 * kGiB;
constexpr const char* kAicMemorySource =
    "AIConfigurator's TensorRT-LLM memory model (sdk/backends/base_backend.py _get_memory_usage, "
    "trtllm_backend.py ACTIVATION_COEFFICIENTS, systems/*.yaml misc; 095f58a)";

// SGLang 0.5.16 works its share out from the GPU's memory at start-up
// (ServerArgs._handle_gpu_memory_settings, python/sglang/srt/server_args.py,
// as AIConfigurator's SGLang backend reproduces it,
// derive_sglang_mem_fraction_static): it reserves 512 MB + 1.5 MB per token
// of a prefill chunk + tp x pp / 8 GiB + 2 MB per CUDA-graph batch, at least
// 10 GiB on GPUs of more than 60 GiB, rounded to a thousandth.
double sglangMemFractionStatic(double capacityBytes, double chunkTokens, std::int64_t tp, std::int64_t pp)
{
    const double mib = capacityBytes / kMiB;
    const double graphBatch = mib < 20 * 1024 ? 8
        : mib < 35 * 1024                     ? (tp < 4 ? 24 : 80)
        : mib < 60 * 1024                     ? (tp < 4 ? 32 : 160)
        : mib < 160 * 1024                    ? (tp < 4 ? 256 : 512)
                                              : 512;
    double reservedMib = 512 + 1.5 * chunkTokens + double(tp * pp) / 8 * 1024 + graphBatch * 2;
    if (mib > 60 * 1024)
        reservedMib = std::max(reservedMib, 10.0 * 1024);
    // A GPU smaller than the reserve gets no share (the weights then do not fit).
    return std::max(0.0, std::round((mib - reservedMib) / mib * 1000) / 1000);
}

}  // namespace

EngineLimits engineDefaults(std::string_view engine, double hbmGb, bool a100)
{
    const double bytes = hbmCapacityGb(hbmGb) * 1e9;
    EngineLimits e;
    if (engine == "vllm") {
        // vLLM picks larger defaults on GPUs of 70 GiB and more except the
        // A100 (a larger budget lowered its throughput, vLLM PR #17885).
        const bool large = bytes >= 70 * kGiB && !a100;
        e.engine = "vllm";
        e.stepTokens = large ? 8192 : 2048;
        e.maxRequests = large ? 1024 : 256;
        const std::string where = "vLLM EngineArgs.get_batch_defaults (vllm/engine/arg_utils.py), OpenAI API server, ";
        e.stepTokensSource = where + "max_num_batched_tokens " +
            (large ? "8,192 on GPUs of 70 GiB or more other than A100" : "2,048 below 70 GiB and on A100");
        e.maxRequestsSource = where + "max_num_seqs " +
            (large ? "1,024 on GPUs of 70 GiB or more other than A100" : "256 below 70 GiB and on A100");
        e.memoryFraction = 0.9;
        e.memoryFractionSource = "vLLM CacheConfig.gpu_memory_utilization, 0.9 of the GPU's whole memory "
                                 "(vllm/config/cache.py; 0.92 from v0.22)";
        return e;
    }
    if (engine == "sglang") {
        // SGLang's chunked_prefill_size, tiered by the GPU's memory
        // (ServerArgs._handle_gpu_memory_settings, server_args.py 0.5.16).
        const double mib = bytes / (1024.0 * 1024);
        e.engine = "sglang";
        e.stepTokens = mib < 35 * 1024 ? 2048 : mib < 60 * 1024 ? 4096 : mib < 160 * 1024 ? 8192 : 16384;
        e.stepTokensSource =
            "SGLang ServerArgs._handle_gpu_memory_settings (python/sglang/srt/server_args.py, 0.5.16): "
            "chunked_prefill_size 2,048 below 35 GiB, 4,096 below 60 GiB, 8,192 below 160 GiB, 16,384 above";
        e.maxRequests = 0;
        e.maxRequestsSource = "SGLang max_running_requests: by default as many as the KV cache pool holds";
        e.memoryFraction = 0;  // worked out from the GPU's memory (engineMemory)
        return e;
    }
    e.engine = "trtllm";
    e.stepTokens = 8192;
    e.stepTokensSource = "TensorRT-LLM BuildConfig.max_num_tokens, 8,192 (the default AIConfigurator's TensorRT-LLM "
                         "backend also takes, sdk/backends/trtllm_backend.py)";
    e.maxRequests = 2048;
    e.maxRequestsSource = "TensorRT-LLM BuildConfig.max_batch_size, 2,048";
    e.memoryFraction = 0.9;
    e.memoryFractionSource =
        "TensorRT-LLM KvCacheConfig.free_gpu_memory_fraction, 0.9 of the memory free once the model is loaded";
    return e;
}

EngineMemory engineMemory(const EngineLimits& limits, double hbmGb, double weightBytes, const WorkloadShape& shape,
                          std::int64_t tp, std::int64_t pp)
{
    EngineMemory m;
    m.capacity = hbmCapacityGb(hbmGb) * 1e9;
    m.weights = weightBytes;
    m.fraction = limits.memoryFraction;
    m.fractionSource = limits.memoryFractionSource;
    if (limits.engine == "sglang") {
        if (m.fraction <= 0) {
            m.fraction = sglangMemFractionStatic(m.capacity, limits.stepTokens, tp, pp);
            m.fractionSource = "SGLang mem_fraction_static as 0.5.16 works it out from the GPU's memory, its prefill "
                               "chunk and tp x pp (server_args.py _handle_gpu_memory_settings)";
        }
        m.kvBudget = m.fraction * m.capacity - m.weights;
        m.weightRoom = m.fraction * m.capacity;
        return m;
    }
    const ActivationRow* row = &kActivationCoefficients[0];
    for (const ActivationRow& r : kActivationCoefficients)
        if (r.tp <= tp)
            row = &r;
    const double coefficient = shape.moe() ? row->moe : shape.swiglu ? row->llama : row->gpt;
    const double attentionWidth = double(shape.heads) * shape.headDim;
    m.activations = std::max(kMinActivationBytes, 2 * limits.stepTokens * attentionWidth * coefficient);
    m.communication = tp >= 4 ? kNcclBytesTp4 : tp >= 2 ? kNcclBytesTp2 : 0;
    m.runtime = kRuntimeBytes;
    const bool vllm = limits.engine == "vllm";
    m.kvBudget = vllm ? m.fraction * m.capacity - m.weights - m.engineOwn()
                      : m.fraction * (m.capacity - m.weights - m.engineOwn());
    m.weightRoom = (vllm ? m.fraction * m.capacity : m.capacity) - m.engineOwn();
    return m;
}

std::string kvBudgetWorked(const EngineMemory& m, std::string_view engine)
{
    const std::string share = formatValue(m.fraction);
    const std::string hbm = "HBM " + gbText(m.capacity), weights = "weights " + gbText(m.weights);
    std::string how;
    if (m.engineOwn() <= 0)
        how = share + " x " + hbm + " - " + weights;
    else {
        const std::string own = "activations " + gbText(m.activations) + " - NCCL " + gbText(m.communication) +
            " - runtime " + gbText(m.runtime);
        how = engine == "vllm" ? share + " x " + hbm + " - " + weights + " - " + own
                               : share + " x (" + hbm + " - " + weights + " - " + own + ")";
    }
    return how + " = " + gbText(m.kvBudget);
}

std::string weightRoomText(const EngineMemory& m, std::string_view engine)
{
    if (m.engineOwn() <= 0)
        return formatValue(m.fraction) + " of " + gbText(m.capacity) + " of HBM";
    return (engine == "vllm" ? formatValue(m.fraction) + " of " : std::string()) + gbText(m.capacity) +
        " of HBM less " + gbText(m.engineOwn()) + " of activations, NCCL buffers and runtime";
}

std::string kvBudgetFormula(std::string_view engine)
{
    if (engine == "sglang")
        return "mem_fraction_static x HBM - weights (SGLang's share holds the weights and the KV cache)";
    if (engine == "vllm")
        return "gpu_memory_utilization x HBM - weights - activations - NCCL buffers - runtime";
    return "free_gpu_memory_fraction x (HBM - weights - activations - NCCL buffers - runtime)";
}

std::string engineMemorySource()
{
    return kAicMemorySource;
}

std::string engineDisplayName(std::string_view engine)
{
    return engine == "vllm" ? "vLLM" : engine == "sglang" ? "SGLang" : "TensorRT-LLM";
}

}  // namespace studio
