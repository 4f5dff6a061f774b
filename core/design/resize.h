#pragma once
// Resizing a design to a GPU count by changing the one count that replicates
// its nodes: the outermost replicated container of the GPUs (a scalable
// unit, a rack row, or the node itself). Fabrics are sized from their
// endpoints, so they follow.
#include <cstdint>
#include <optional>
#include <string>

#include "core/catalog/catalog.h"
#include "core/design/design.h"
#include "core/problem.h"

namespace studio {

struct ScaleUnit {
    std::size_t component = 0;         // index into design.components
    std::int64_t gpusPerInstance = 0;  // GPUs one more of it adds
    std::int64_t gpusPerNode = 0;
};

// The count that sizes the design, or a problem saying why there is none.
struct ScaleUnitResult {
    std::optional<ScaleUnit> unit;
    std::optional<Problem> problem;
};
ScaleUnitResult findScaleUnit(const Design& design, const Catalog& catalog);

// Sets the scale unit's count so the design has `gpus` GPUs; on a count that
// cannot be reached, explains the step the design grows in.
std::optional<Problem> resizeToGpus(Design& design, const Catalog& catalog, std::int64_t gpus);

}  // namespace studio
