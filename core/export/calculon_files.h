#pragma once
// A training design as Calculon's three inputs (github.com/calculon-ai/calculon
// at caa4b11; docs/export.md): the model ("application"), the system (one
// processor's compute, memory and network tiers) and the execution (the
// layout), so the same design can be run in Calculon and the two models'
// step times set side by side (docs/validation.md). The keys are Calculon's
// own; what Calculon cannot represent is said in the notes, never dropped
// silently.
#include <array>
#include <string>
#include <vector>

#include "core/catalog/catalog.h"
#include "core/design/design.h"

namespace studio {

// Calculon asserts these key sets exactly (llm.py Execution.from_json,
// network.py kKeys) and reads the others by name (llm.py Application,
// system.py System); the importer checks them against the same lists.
inline constexpr std::array<const char*, 6> kCalculonModelKeys{"hidden",     "feedforward", "seq_size",
                                                               "attn_heads", "attn_size",   "num_blocks"};
inline constexpr std::array<const char*, 6> kCalculonSystemKeys{"matrix", "vector",          "mem1",
                                                                "mem2",   "processing_mode", "networks"};
inline constexpr std::array<const char*, 7> kCalculonNetworkKeys{
    "bandwidth", "efficiency", "size", "latency", "ops", "must_be_filled", "processor_usage"};
inline constexpr std::array<const char*, 23> kCalculonExecutionKeys{"num_procs",
                                                                    "tensor_par",
                                                                    "pipeline_par",
                                                                    "data_par",
                                                                    "tensor_par_net",
                                                                    "pipeline_par_net",
                                                                    "data_par_net",
                                                                    "batch_size",
                                                                    "microbatch_size",
                                                                    "datatype",
                                                                    "fused_activation",
                                                                    "attention_type",
                                                                    "activation_recompute",
                                                                    "pipeline_interleaving",
                                                                    "optimizer_sharding",
                                                                    "tensor_par_comm_type",
                                                                    "tensor_par_overlap",
                                                                    "seq_par_ag_redo",
                                                                    "data_par_overlap",
                                                                    "weight_offload",
                                                                    "activations_offload",
                                                                    "optimizer_offload",
                                                                    "training"};

// The studio's precision as Calculon's datatype and back: "bf16" is
// "bfloat16", "fp16" "float16", "fp8" "float8"; "" for one the other lacks.
std::string calculonDatatype(const std::string& precision);
std::string precisionOfCalculonDatatype(const std::string& datatype);

struct CalculonFiles {
    Json model, system, execution;
    // What the files approximate or leave out, one sentence each.
    std::vector<std::string> notes;
    std::string error;  // the design cannot be run in Calculon (a serving workload, no GPUs)
};

// `design` must be valid against `catalog`.
CalculonFiles calculonFiles(const Design& design, const Catalog& catalog);

// The command that runs them, from a Calculon checkout.
std::string calculonCommand(const std::string& folder);

}  // namespace studio
