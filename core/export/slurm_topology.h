#pragma once
// The design's network as Slurm's scheduler sees it (docs/export.md):
// topology.conf for the tree plugin, a line per switch of the compute
// fabric with the nodes or the switches below it, and for a design whose
// NVLink domains span nodes, topology.conf for the block plugin, a block per
// domain. Node and switch names are the physical design's, so they match
// the NetBox export.
#include <string>
#include <vector>

#include "core/export/physical_design.h"

namespace studio {

// Slurm's hostlist expression for names: runs of a common prefix and
// consecutive numbers of one width collapse, "rack-01-node-[01-02]",
// joined by commas, in the order given.
std::string slurmHostlist(const std::vector<std::string>& names);

// TopologyPlugin=topology/tree. `design` names the header's design.
std::string slurmTreeTopology(const PhysicalDesign& p, const DesignIndex& index);
// TopologyPlugin=topology/block, or "" when no NVLink domain spans nodes.
std::string slurmBlockTopology(const PhysicalDesign& p, const DesignIndex& index);

}  // namespace studio
