#pragma once
// Storage against the training job (seed 000): what data loading demands
// (tokens/s x bytes per token, files per second) against the storage's
// sequential read bandwidth and metadata rate; checkpoint size (14 bytes per
// parameter) and its write time at the storage's write bandwidth and at the
// share the nodes' storage-path NICs can carry.
#include <vector>

#include "core/analysis/explanation.h"
#include "core/analysis/hardware_profile.h"
#include "core/analysis/workload_shape.h"
#include "core/design/design.h"

namespace studio {

struct DataPipeline {
    double demandGbPerS = 0;  // data loading
    double filesPerS = 0;
    double readSupplyGbPerS = 0;  // min(storage read, nodes' storage path)
    double metadataOpsPerS = 0;
    double readHeadroom = 0;  // supply / demand
    double checkpointGb = 0;
    double writeAtStorageS = 0;  // at the storage's write bandwidth
    double writeAtNicsS = 0;     // at min(storage write, nodes' storage path): the real one
    double writePathGbPerS = 0;
    double localReadGbPerSPerNode = 0;  // node-local NVMe, a cache for data loading
    Explanation explainDemand, explainCheckpoint;
};

DataPipeline modelDataPipeline(const HardwareProfile& hw, const WorkloadShape& w, const Workload& workload,
                               double tokensPerS, std::vector<Problem>& warnings);

}  // namespace studio
