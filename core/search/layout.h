#pragma once
// One parallelism layout: the choices a layout search ranges over and
// "Apply" writes back into the workload. Everything else about the workload
// (the model, the precision, tp_comm_overlap, cp_comm) stays as it is.
#include <cstdint>
#include <string>

#include "core/analysis/workload_shape.h"
#include "core/design/design.h"

namespace studio {

enum class Recompute { None, Selective, Full };
const char* recomputeName(Recompute r);  // "none", "selective", "full"

struct Layout {
    std::int64_t tp = 1, pp = 1, dp = 1, cp = 1, ep = 1;
    std::int64_t microBatch = 1, interleave = 1, zero = 1;
    Recompute recompute = Recompute::Selective;
    bool sequenceParallel = false;  // only with tp > 1
    std::int64_t globalBatch = 1;   // sequences per step (fixed unless the search varies it)
    bool operator==(const Layout&) const = default;
};

// The layout a shaped workload runs (sequence parallelism as it takes
// effect: off at tp = 1).
Layout layoutOf(const WorkloadShape& shape);

// Writes `layout` into the workload's parallelism and training fields.
void applyLayout(Workload& workload, const Layout& layout);

// Sets the layout fields of a shaped workload and rederives what follows
// from them (deriveLayout): what the search evaluates.
void shapeLayout(WorkloadShape& shape, const Layout& layout);

// "tp 8 · pp 16 · v 8 · cp 1 · dp 128 · mb 1 · ZeRO-1 · selective · SP"
std::string describeLayout(const Layout& layout);

// What `to` changes from `from`, field by field: "tp 8 → 2, ZeRO-2 → 3";
// "" when they are the same.
std::string describeChange(const Layout& from, const Layout& to);

// The layout as JSON: tp, pp, dp, cp, ep, micro_batch, interleave, zero,
// recompute, sequence_parallel (the CLI's and the search's key names).
Json layoutJson(const Layout& layout);

}  // namespace studio
