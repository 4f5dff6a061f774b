#pragma once
// Power and PUE: each component's draw (a node's host share plus the GPUs,
// NICs and drives it holds; switches, storage and optics), summed per rack
// against the rack's cooling limit, IT against facility power with the PUE,
// and the year's energy, cost and CO2.
#include <cstdint>
#include <string>
#include <vector>

#include "core/analysis/explanation.h"
#include "core/analysis/inventory.h"
#include "core/analysis/sourced.h"

namespace studio {

struct RackLoad {
    std::string component, name, part;
    std::int64_t count = 0;  // instances of this rack
    double kwEach = 0;
    double limitKw = 0;
    std::string cooling;                       // air | liquid
    std::int64_t nodesEach = 0, gpusEach = 0;  // what one rack holds
    Explanation explain;
    bool overLimit() const { return kwEach > limitKw; }
};

struct Power {
    double gpuKw = 0;  // GPUs x TDP
    double computeKw = 0, networkKw = 0, storageKw = 0, otherKw = 0;
    double itKw = 0, facilityKw = 0;
    double overheadKw = 0;  // facility - IT: cooling, power conversion, lighting
    Sourced pue, pricePerKwh, carbonGPerKwh;
    std::vector<RackLoad> racks;
    double maxRackKw = 0;
    std::size_t maxRack = 0;    // index into racks of the densest (when there are racks)
    Sourced airCoolingLimitKw;  // the ~30 kW line (seed 002)
    std::int64_t racksOverLimit = 0;
    double energyMwhPerYear = 0, costUsdPerYear = 0, co2TonnesPerYear = 0;
    std::vector<double> componentKw;  // per component: one instance with everything inside it
    Explanation explainIt, explainFacility, explainEnergy;
};

Power modelPower(const DesignIndex& index, const Inventory& inventory, const Facility& facility,
                 std::vector<Problem>& warnings);

// The host's share of a node platform: its maximum power less the GPUs,
// compute NICs and DPUs the catalog says it carries (those are counted from
// the design, with any overrides).
double hostWatts(const Part& node, const Catalog& catalog);

}  // namespace studio
