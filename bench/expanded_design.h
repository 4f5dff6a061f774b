#pragma once
// A design drawn in full: every replicated component as that many items and
// every cable as a link of its own, the way an architect draws a cluster
// when each node, NIC and cable gets a name, a position and a label. The
// studio's own designs replicate with `count`; this is the other extreme,
// for measuring the studio on tens of thousands of items (bench_huge, the
// soak session) and for checking that the analysis counts a drawing the
// same either way (tst_huge). Qt-free: it builds a core Design.
#include <cstdint>

#include "core/catalog/catalog.h"
#include "core/design/design.h"

namespace studio {

// `design` with each component whose count is above 1 (and everything inside
// it) replaced by that many copies of count 1, except GPUs, which stay a
// count inside their node as the studio draws them; and each link replaced
// by one link of count 1 per cable it stands for. Copies are laid out on
// the canvas without overlapping: racks side by side, nodes and tiles in
// columns, groups in a near-square grid; siblings move aside to make room.
// Ids and names gain the copy's position ("dgx.nic-3-7-2-5", "NIC 3.7.2.5").
// The design must be valid against `catalog`; a link between two
// replicated ends must join equal numbers of them (paired in order), else
// std::invalid_argument.
Design expandReplicas(const Design& design, const Catalog& catalog);

// The DGX H100 SuperPOD preset (presets/dgx-h100-superpod-4su.cluster.json)
// resized to `nodes` DGX nodes at its scalable unit's count, then expanded:
// at 1,024 nodes, 512 racks, 1,024 nodes, 8,192 compute and 2,048 storage
// NICs and 10,336 cables, each an item. Throws std::invalid_argument when
// the preset cannot be resized to that many nodes.
Design expandedSuperPod(const Design& preset, const Catalog& catalog, std::int64_t nodes = 1024);

}  // namespace studio
