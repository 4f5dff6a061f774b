#pragma once
// Memory per GPU: weights, gradients and optimizer state (sharded by ZeRO
// stage), activations (Korthikanti et al. 2022 with tensor/sequence
// parallelism, recompute mode and the micro-batches 1F1B keeps in flight),
// and a fixed workspace. Decides whether the layout fits in HBM.
#include <vector>

#include "core/analysis/explanation.h"
#include "core/analysis/hardware_profile.h"
#include "core/analysis/workload_shape.h"

namespace studio {

struct MemoryUse {
    double weightsGb = 0, gradientsGb = 0, optimizerGb = 0, activationsGb = 0, workspaceGb = 0;
    double totalGb = 0;
    double hbmGb = 0;       // as the catalog quotes it (binary: an "80 GB" H100 holds 80 GiB)
    double capacityGb = 0;  // the same in decimal GB, what totalGb is compared with
    bool fits = true;
    double activationGbPerLayer = 0;  // one micro-batch, one layer
    double microBatchesInFlight = 0;  // on the first stage
    Explanation explainActivations, explainTotal;
};

// Bytes of activations one layer keeps for one micro-batch, per token,
// before tensor parallelism: Korthikanti's sbh(34 + 5as/h) generalised to
// GQA, SwiGLU, MoE, dropout and fused attention.
struct ActivationTerms {
    double unsplitPerToken = 0;        // norm inputs, the inputs of the column-parallel GEMMs, dropout masks
    double splitPerToken = 0;          // tensors split by tp
    double attentionCorePerToken = 0;  // the materialised a x s score tensors (unfused attention only)
};
ActivationTerms activationTerms(const WorkloadShape& w);

inline constexpr double kWorkspaceGb = 2.0;  // CUDA context, cuBLAS/NCCL workspaces, allocator slack

// `explain`: also fill the explanations and say why it does not fit (the
// studio shows them; a layout search reads only the figures and `fits`).
MemoryUse modelMemory(const HardwareProfile& hw, const WorkloadShape& w, std::vector<Problem>& warnings,
                      bool explain = true);

}  // namespace studio
