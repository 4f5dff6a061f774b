#include "core/metrics/warning_rank.h"

#include <algorithm>
#include <string_view>

namespace studio {

int warningRank(const Problem& p)
{
    if (p.severity == Severity::Error)
        return 0;
    // The design cannot run or cannot be built as drawn.
    static constexpr std::string_view kBlocking[] = {
        "memory_exceeds_hbm",      "no_gpus",         "switch_ports_exhausted", "fabric_too_large",
        "nvlink_domain_too_large", "batch_too_small", "precision_unsupported",  "layout_mismatch",
        "ep_not_divisible"};
    // It runs, but slower than it should, or the facility must change.
    static constexpr std::string_view kCostly[] = {"rack_over_cooling_limit", "liquid_rack_in_air_facility",
                                                   "liquid_node_in_air_rack", "storage_read_bottleneck",
                                                   "storage_metadata_bottleneck"};
    const std::string_view code = p.code;
    if (std::find(std::begin(kBlocking), std::end(kBlocking), code) != std::end(kBlocking))
        return 1;
    if (std::find(std::begin(kCostly), std::end(kCostly), code) != std::end(kCostly) || code.ends_with("_on_slow_tier"))
        return 2;
    return 3;  // incomplete drawings: no storage, unconnected nodes, unknown TDP
}

std::vector<Problem> mostImportantWarnings(const std::vector<Problem>& problems, std::size_t n)
{
    std::vector<Problem> ranked = problems;
    std::stable_sort(ranked.begin(), ranked.end(),
                     [](const Problem& a, const Problem& b) { return warningRank(a) < warningRank(b); });
    if (ranked.size() > n)
        ranked.resize(n);
    return ranked;
}

}  // namespace studio
