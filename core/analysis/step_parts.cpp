#include "core/analysis/step_parts.h"

#include <array>

#include "core/contract.h"

namespace studio {

const StepPartInfo& stepPartInfo(StepPartId id)
{
    // In StepPartId's order: the breakdown's order.
    static constexpr std::array<StepPartInfo, 14> kParts = {{
        {"gemm", "GEMMs", true, false},
        {"attention", "attention", true, false},
        {"memory_bound", "memory-bound ops", true, false},
        {"output_layer", "output layer and loss", true, false},
        {"recompute", "recompute", false, false},
        {"tp_comm", "TP communication", false, true},
        {"cp_comm", "CP communication (exposed)", false, true},
        {"ep_comm", "EP communication", false, true},
        {"pp_comm", "PP communication", false, true},
        {"pipeline_bubble", "pipeline bubble", false, false},
        {"dp_comm", "DP communication (exposed)", false, true},
        {"overlap_contention", "overlap contention", false, false},
        {"optimizer", "optimizer step", false, false},
        {"stragglers", "stragglers", false, false},
    }};
    const auto i = static_cast<std::size_t>(id);
    STUDIO_EXPECTS(i < kParts.size());
    return kParts[i];
}

}  // namespace studio
