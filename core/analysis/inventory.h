#pragma once
// What a design holds, counted through replication: GPUs, nodes, racks,
// NICs, switches by tier (placed ones plus those each fabric needs), storage
// systems and cables, and a bill of materials by part.
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "core/design/design_index.h"
#include "core/design/fat_tree.h"
#include "core/problem.h"

namespace studio {

struct FabricSizing {
    std::string component;  // the fabric component's id
    std::string name;
    std::string switchPart;
    std::string cablePart;  // between switch tiers; "" when the design names none
    std::int64_t nodes = 0, rails = 0, otherEndpoints = 0;
    bool railOptimized = false;
    double oversubscription = 1;  // at the leaf; spines and cores are non-blocking
    double portGbps = 0;          // the slower of the switch port and the inter-switch cable
    FatTree tree;
    // Bandwidth across a cut that splits the endpoints in half, one
    // direction: half the endpoints at port speed, divided by the leaf
    // oversubscription (a single switch is non-blocking).
    double bisectionGbPerS() const
    {
        const double o = tree.tiers > 1 ? oversubscription : 1;
        return double(tree.endpoints) / 2 * portGbps / 8 / o;
    }
};

struct BomLine {
    std::string part;
    std::string name;
    PartKind kind = PartKind::Group;
    std::int64_t count = 0;
};

struct Inventory {
    std::int64_t gpus = 0, nodes = 0, racks = 0, nics = 0;
    std::int64_t storageSystems = 0;                     // shared storage (outside nodes)
    std::int64_t localDrives = 0;                        // node-local storage
    std::string gpuPart;                                 // the accelerator most GPUs are; "" without GPUs
    std::map<std::string, std::int64_t> switchesByTier;  // leaf, spine, core, other
    std::int64_t switches = 0;
    std::map<std::string, std::int64_t> cablesByPart;
    std::int64_t cables = 0;
    std::vector<FabricSizing> fabrics;
    std::vector<BomLine> bom;       // catalog order
    std::vector<Problem> problems;  // a fabric that cannot be built, ...
};

// The number of cables a link stands for: `count` per instance of its more
// replicated end (1 per NIC for NICs x 8 in nodes x 256 wired to a fabric),
// from its ends' instances as cableEndInstances counts them (a fabric once;
// 0 for an end that is missing). DesignIndex::cables holds it per link.
std::int64_t cablesOf(const Link& link, std::int64_t fromInstances, std::int64_t toInstances);

Inventory takeInventory(const DesignIndex& index);

// The fabric the nodes talk over: of the fabrics whose role is "compute"
// (the default; a storage fabric says "storage"), the one most nodes are
// wired to; nullptr when there is none.
const FabricSizing* computeFabric(const DesignIndex& index, const Inventory& inventory);

}  // namespace studio
