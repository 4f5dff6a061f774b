#include "core/metrics/figure_names.h"

#include <algorithm>

#include "core/contract.h"

namespace studio {

const std::vector<std::pair<std::string_view, std::string_view>>& figureNames()
{
    static const std::vector<std::pair<std::string_view, std::string_view>> names{
        {"inventory.gpus", "GPUs"},
        {"inventory.nodes", "Nodes"},
        {"inventory.racks", "Racks"},
        {"inventory.switches.total", "Switches"},
        {"inventory.cables.total", "Cables"},
        {"compute.cluster_peak_pflops", "Peak"},
        {"training.mfu", "MFU"},
        {"training.hfu", "HFU (with recompute)"},
        {"training.step_time_s", "Step time"},
        {"training.tokens_per_s", "Tokens per second"},
        {"training.tflops_per_gpu_model", "TFLOP/s per GPU (model)"},
        {"training.tflops_per_gpu_hardware", "TFLOP/s per GPU (hardware)"},
        // The two "days": compute alone, and the calendar with failures.
        {"training.days_to_train", "Days to train, failure-free"},
        {"reliability.wall_days", "Days to train, wall clock"},
        {"training.memory_gb_per_gpu.total", "Memory per GPU"},
        {"training.layout", "Layout"},
        {"power.training_run_mwh", "Energy of the run"},
        {"serving.tokens_per_s_per_gpu", "Tokens/s per GPU served"},
        {"serving.tokens_per_s_per_user", "Tokens/s per user"},
        {"serving.ttft_s", "Time to first token"},
        {"serving.tpot_s", "Time per output token"},
        {"serving.batch", "Batch served"},
        {"serving.replicas_needed", "Replicas needed"},
        {"serving.gpus_needed", "GPUs for the load"},
        {"serving.kwh_per_million_tokens", "Energy per million tokens"},
        {"serving.usd_per_million_tokens", "Electricity per million tokens"},
        {"power.facility_kw", "Facility power"},
        {"power.pue", "PUE"},
        {"power.max_rack_kw", "Max rack power"},
        {"power.energy_mwh_per_year", "Energy per year"},
        {"power.cost_usd_per_year", "Electricity cost per year"},
        {"power.co2_tonnes_per_year", "CO2 per year"},
        {"reliability.cluster_mtbf_h", "Cluster MTBF"},
        {"reliability.p_failure_24h", "P(failure in 24 h)"},
        {"reliability.checkpoint_interval_min", "Checkpoint interval"},
        {"reliability.goodput", "Goodput"},
        {"reliability.expected_interruptions", "Expected interruptions"},
        {"cost.capex_usd", "Capex"},
        {"cost.annual_tco_usd", "Ownership per year"},
        {"cost.usd_per_gpu_hour", "Cost per GPU-hour owned"},
        {"cost.cloud_usd_per_gpu_hour", "Cloud price per GPU-hour"},
        {"cost.run_cost_usd", "Cost of the run"},
        {"cost.cloud_run_cost_usd", "Run cost, rented"},
        {"cost.usd_per_million_tokens", "Cost per million tokens"},
    };
    return names;
}

std::string figureName(std::string_view key)
{
    const auto& names = figureNames();
    const auto it = std::find_if(names.begin(), names.end(), [&](const auto& n) { return n.first == key; });
    STUDIO_EXPECTS(it != names.end());
    return std::string(it->second);
}

}  // namespace studio
