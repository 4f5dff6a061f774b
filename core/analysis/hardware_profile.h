#pragma once
// The hardware facts the performance, hierarchy and storage analyses need,
// read once from the design: the accelerator (with overrides), how many GPUs
// share a node and an NVLink domain, what each GPU gets from the compute
// fabric, and what the storage offers. Each value keeps its source.
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/analysis/inventory.h"
#include "core/analysis/sourced.h"
#include "core/kernels/kernel_profile.h"

namespace studio {

// An HBM's capacity in decimal GB (what byte counts are compared with):
// vendors and the catalog quote it in binary units, 5 HBM3 stacks of 16 GiB
// making an "80 GB" H100 that holds 85.9 GB.
inline double hbmCapacityGb(double quotedGb)
{
    return quotedGb * 1.073741824;
}

struct AcceleratorProfile {
    std::string part, name;
    std::optional<std::size_t> component;        // the accelerator component the figures come from
    std::map<std::string, Sourced> peaksTflops;  // "fp64", "tf32", "bf16", "fp8", ... as the part has them
    Sourced trainingPeakTflops;                  // at the workload's precision
    double bf16PeakTflops = 0;                   // attention and other 16-bit work
    std::string trainingPrecision;               // the peak actually used ("bf16" when fp8 is missing)
    Sourced hbmGb, hbmTbPerS, scaleupGbPerS, scaleupDomainGpus, tdpW;  // hbmGb as quoted: see hbmCapacityGb
    Sourced gemmEfficiency, attentionEfficiency, hbmEfficiency, scaleupEfficiency;
    // The part's measured kernels (docs/kernel-profiles.md), or none: its
    // tables replace the efficiencies above where they have a measurement.
    // Shared with the catalog: an analysis may outlive the catalog copy it
    // was made with (a background run's).
    std::shared_ptr<const KernelProfile> kernels;
};

struct ScaleOutProfile {
    bool present = false;  // nodes are wired to a compute fabric
    std::string fabric;    // its component id
    std::string nicPart;
    Sourced nicGbPerSPerGpu;  // one direction, GB/s, per GPU
    Sourced latencyUs;
    Sourced efficiency;
    std::int64_t leafScopeGpus = 0;   // GPUs one leaf-level hop reaches (a scalable unit's rail)
    std::int64_t spineScopeGpus = 0;  // GPUs reached without crossing a core tier
    double oversubscription = 1;
    int tiers = 0;
};

struct StorageProfile {
    std::int64_t systems = 0;                                   // shared storage systems (not node-local)
    Sourced readGbPerS, writeGbPerS, metadataKiops, latencyUs;  // aggregates over all systems
    bool connected = false;                                     // a fabric joins the nodes to it
    double nodePathGbPerS = 0;          // what all nodes together can move to it (their storage-path NICs)
    double localReadGbPerSPerNode = 0;  // node-local NVMe
};

struct HardwareProfile {
    std::int64_t gpus = 0, nodes = 0;
    std::int64_t gpusPerNode = 1;
    std::int64_t scaleupDomainGpus = 1;  // GPUs in one NVLink domain as built
    AcceleratorProfile gpu;
    ScaleOutProfile scaleOut;
    StorageProfile storage;
};

// Efficiency defaults for parts whose catalog entry has none (docs/model.md).
inline constexpr double kDefaultGemmEfficiency = 0.7;
inline constexpr double kDefaultAttentionEfficiency = 0.5;
inline constexpr double kDefaultHbmEfficiency = 0.7;
inline constexpr double kDefaultScaleupEfficiency = 0.5;
inline constexpr double kDefaultNicEfficiency = 0.9;

HardwareProfile profileHardware(const DesignIndex& index, const Inventory& inventory, const std::string& precision,
                                std::vector<Problem>& warnings);

}  // namespace studio
