#pragma once
// The serving engine a replica runs (docs/model.md section 19, "The
// engine's scheduler"): how many tokens one step may carry (prompt chunks
// and decodes together) and how many requests it keeps in flight, each
// engine's defaults with their sources. A design can set either.
#include <cstdint>
#include <string>
#include <string_view>

#include "core/analysis/workload_shape.h"

namespace studio {

// The engines are named with the design (kServingEngines,
// core/design/design.h), which the file format's workload.serving.engine
// allows; the default is defaults::kServingEngine (core/design/defaults.h).

struct EngineLimits {
    std::string engine;     // "trtllm" | "vllm" | "sglang"
    double stepTokens = 0;  // tokens one step carries at most
    std::string stepTokensSource;
    std::int64_t maxRequests = 0;  // requests in flight at most; 0: as many as the KV cache holds
    std::string maxRequestsSource;
    // The engine's memory share (TensorRT-LLM free_gpu_memory_fraction,
    // vLLM gpu_memory_utilization, SGLang mem_fraction_static); 0: SGLang's,
    // which it works out from the GPU's memory at start-up (engineMemory).
    double memoryFraction = 0;
    std::string memoryFractionSource;
};

// One GPU of a replica's memory as its engine divides it (docs/model.md
// section 19, "What fits"), in bytes. TensorRT-LLM gives the KV cache its
// share of what the model leaves free; vLLM keeps weights, activations,
// runtime and KV cache within its share of the whole; SGLang's share holds
// the weights and the KV cache, the rest of the GPU its activations and
// runtime.
struct EngineMemory {
    double capacity = 0;       // the GPU's HBM (hbmCapacityGb)
    double weights = 0;        // the replica's weights on this GPU
    double activations = 0;    // one step's buffers at the step budget (TensorRT-LLM, vLLM)
    double communication = 0;  // NCCL's buffers over tp (TensorRT-LLM, vLLM)
    double runtime = 0;        // CUDA context, cuBLAS workspaces, the engine's own (TensorRT-LLM, vLLM)
    double fraction = 0;       // the share the engine applies
    std::string fractionSource;
    double kvBudget = 0;  // what the KV cache may take; <= 0 when the rest leaves nothing
    double engineOwn() const { return activations + communication + runtime; }
    // The most weights the engine holds: those that leave the KV cache nothing.
    double weightRoom = 0;
};

// `limits` as engineDefaults and the design set them; `shape` the replica's
// model, split tp x pp ways; `weightBytes` the replica's weights on one GPU.
EngineMemory engineMemory(const EngineLimits& limits, double hbmGb, double weightBytes, const WorkloadShape& shape,
                          std::int64_t tp, std::int64_t pp);

// The budget's formula for this engine, in words, for the explanations.
std::string kvBudgetFormula(std::string_view engine);

// The same with `m`'s figures: "0.9 x (HBM 85.9 GB - weights 8.82 GB -
// activations 0.671 GB - NCCL 0.411 GB - runtime 3.76 GB) = 65 GB".
std::string kvBudgetWorked(const EngineMemory& m, std::string_view engine);

// How the engine leaves the weights `m.weightRoom`, with the figures (the
// error of weights that do not fit).
std::string weightRoomText(const EngineMemory& m, std::string_view engine);

// Where the activations', NCCL buffers' and runtime's figures come from.
std::string engineMemorySource();

// Each engine as its users know it ("TensorRT-LLM" for "trtllm"); an
// unknown engine is TensorRT-LLM, as in engineDefaults.
std::string engineDisplayName(std::string_view engine);

// The engine's defaults on a GPU with `hbmGb` (decimal GB) of memory; an
// A100 has its own vLLM defaults. An unknown engine is TensorRT-LLM's.
EngineLimits engineDefaults(std::string_view engine, double hbmGb, bool a100);

}  // namespace studio
