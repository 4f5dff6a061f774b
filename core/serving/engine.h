#pragma once
// The serving engine a replica runs (docs/model.md section 19, "The
// engine's scheduler"): how many tokens one step may carry (prompt chunks
// and decodes together) and how many requests it keeps in flight, each
// engine's defaults with their sources. A design can set either.
#include <cstdint>
#include <string>
#include <string_view>

namespace studio {

// The engines are named with the design (kServingEngines,
// core/design/design.h), which the file format's workload.serving.engine
// allows; the default is defaults::kServingEngine (core/design/defaults.h).

struct EngineLimits {
    std::string engine;      // "trtllm" | "vllm" | "sglang"
    double stepTokens = 0;   // tokens one step carries at most
    std::string stepTokensSource;
    std::int64_t maxRequests = 0;  // requests in flight at most; 0: as many as the KV cache holds
    std::string maxRequestsSource;
};

// Each engine as its users know it ("TensorRT-LLM" for "trtllm"); an
// unknown engine is TensorRT-LLM, as in engineDefaults.
std::string engineDisplayName(std::string_view engine);

// The engine's defaults on a GPU with `hbmGb` (decimal GB) of memory; an
// A100 has its own vLLM defaults. An unknown engine is TensorRT-LLM's.
EngineLimits engineDefaults(std::string_view engine, double hbmGb, bool a100);

}  // namespace studio
