#include "core/design/resize.h"

#include <algorithm>

#include "core/design/design_index.h"
#include "core/json/json_pointer.h"
#include "core/text.h"

namespace studio {

ScaleUnitResult findScaleUnit(const Design& design, const Catalog& catalog)
{
    ScaleUnitResult out;
    const DesignIndex index(design, catalog);
    std::optional<std::size_t> unit;
    std::int64_t gpusPerNode = 0;
    for (std::size_t i = 0; i < index.size(); ++i) {
        if (index.kind(i) != PartKind::Accelerator)
            continue;
        // Outermost replicated ancestor-or-self; the node when none is.
        const auto node = index.enclosing(i, PartKind::Node);
        std::optional<std::size_t> candidate;
        for (std::optional<std::size_t> at = node ? node : std::optional<std::size_t>(i); at; at = index.parent(*at))
            if (index.component(*at).count > 1)
                candidate = at;
        if (!candidate)
            candidate = node ? node : std::optional<std::size_t>(i);
        if (unit && *unit != *candidate) {
            out.problem =
                Problem{Severity::Error, "/components",
                        "GPUs are replicated in more than one place (" + inQuotes(index.component(*unit).id) + " and " +
                            inQuotes(index.component(*candidate).id) + "); change their counts with --set instead"};
            return out;
        }
        unit = candidate;
        const std::int64_t perNode = node ? index.instances(i) / index.instances(*node) : 1;
        if (gpusPerNode == 0 || perNode < gpusPerNode)
            gpusPerNode = perNode;
    }
    if (!unit) {
        out.problem = Problem{Severity::Error, "/components", "the design has no GPUs to resize"};
        return out;
    }
    std::int64_t gpusUnder = 0;
    for (std::size_t i = 0; i < index.size(); ++i)
        if (index.kind(i) == PartKind::Accelerator && index.isInside(i, *unit))
            gpusUnder += index.instances(i);
    const std::int64_t perInstance = gpusUnder / index.instances(*unit);
    out.unit = ScaleUnit{*unit, perInstance, gpusPerNode};
    return out;
}

std::optional<Problem> resizeToGpus(Design& design, const Catalog& catalog, std::int64_t gpus)
{
    if (gpus < 1)
        return Problem{Severity::Error, "", "--gpus must be at least 1, got " + formatCount(gpus)};
    const ScaleUnitResult found = findScaleUnit(design, catalog);
    if (!found.unit)
        return found.problem;
    const ScaleUnit& u = *found.unit;
    Component& c = design.components[u.component];
    const std::string ptr = pointerAppend(pointerAppend("/components", u.component), "count");
    // The unit is the outermost replicated level, so its ancestors all have
    // a count of 1 and one more instance adds exactly gpusPerInstance.
    const std::int64_t step = u.gpusPerInstance;
    if (u.gpusPerNode > 0 && gpus % u.gpusPerNode != 0)
        return Problem{Severity::Error, ptr,
                       formatCount(gpus) + " GPUs is not a whole number of nodes (" + formatCount(u.gpusPerNode) +
                           " GPUs each)"};
    if (gpus % step != 0) {
        const std::string what = c.name.empty() ? c.id : c.name;
        return Problem{Severity::Error, ptr,
                       formatCount(gpus) + " GPUs is " + formatCount(gpus / std::max<std::int64_t>(1, u.gpusPerNode)) +
                           " nodes, but this design grows by whole " + inQuotes(what) + " of " + formatCount(step) +
                           " GPUs; choose a multiple of " + formatCount(step)};
    }
    const std::int64_t count = gpus / step;
    if (count > kMaxCount)
        return Problem{Severity::Error, ptr,
                       formatCount(gpus) + " GPUs needs a count of " + formatCount(count) + ", above the limit of " +
                           formatCount(kMaxCount)};
    c.count = count;
    return std::nullopt;
}

}  // namespace studio
