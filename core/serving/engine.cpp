#include "core/serving/engine.h"

#include "core/analysis/hardware_profile.h"

namespace studio {
namespace {

constexpr double kGiB = 1024.0 * 1024 * 1024;

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
        e.stepTokensSource = where + "max_num_batched_tokens " + (large ? "8,192 on GPUs of 70 GiB or more other than A100"
                                                                        : "2,048 below 70 GiB and on A100");
        e.maxRequestsSource = where + "max_num_seqs " + (large ? "1,024 on GPUs of 70 GiB or more other than A100"
                                                                : "256 below 70 GiB and on A100");
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
        return e;
    }
    e.engine = "trtllm";
    e.stepTokens = 8192;
    e.stepTokensSource = "TensorRT-LLM BuildConfig.max_num_tokens, 8,192 (the default AIConfigurator's TensorRT-LLM "
                         "backend also takes, sdk/backends/trtllm_backend.py)";
    e.maxRequests = 2048;
    e.maxRequestsSource = "TensorRT-LLM BuildConfig.max_batch_size, 2,048";
    return e;
}

std::string engineDisplayName(std::string_view engine)
{
    return engine == "vllm" ? "vLLM" : engine == "sglang" ? "SGLang" : "TensorRT-LLM";
}

}  // namespace studio
