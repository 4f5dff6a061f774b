#pragma once
// "Generate fabric": the fabric component and links that wire every node
// inside a scope (a pod, a scalable unit, or the whole design) to a new
// rail-optimized fat tree, sized by the core's generator. The studio adds
// the plan as one undoable step.
#include <optional>
#include <string>
#include <vector>

#include "core/catalog/catalog.h"
#include "core/design/design.h"
#include "core/design/fat_tree.h"

namespace studio {

struct FabricOptions {
    std::string switchPart = "switch.qm9700";
    std::string cablePart;  // "" picks one that carries the NIC speed
    double oversubscription = 1;
    bool railOptimized = true;
    int tiers = 0;  // 0: the fewest that fit
    std::string role = "compute";
};

struct FabricPlan {
    Component fabric;
    std::vector<Link> links;  // one per NIC component, from the NIC to the fabric
    FatTree sizing;           // what the generator will build
    std::int64_t nodes = 0, nics = 0;
    std::string error;  // why no fabric can be planned
};

// `scope` is a container's id, or "" for the whole design. Nodes already
// wired to a fabric of the same role are left alone.
FabricPlan planFabric(const Design& design, const Catalog& catalog, const std::string& scope,
                      const FabricOptions& options);

}  // namespace studio
