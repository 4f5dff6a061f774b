#pragma once
// What limits this design (docs/model.md section "Sensitivity"): each input
// changed by -50%, -10%, +10% and +50% in turn, and what that does to the
// days to train (wall clock, goodput included), the run's electricity, the
// run's cost with ownership and a GPU-hour owned. Where the change lets a different layout win, the layout search
// says so; where the design's own layout no longer runs, the best that does
// stands in.
#include <atomic>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "core/catalog/catalog.h"
#include "core/design/design.h"
#include "core/search/layout.h"

namespace studio {

// The changes every input is put through, as fractions.
inline constexpr double kSensitivityChanges[] = {-0.5, -0.1, 0.1, 0.5};

struct SensitivityChange {
    double change = 0;  // -0.5 ... +0.5
    double value = 0;   // the input's value after the change (clamped where it has a bound)
    double days = 0;    // wall-clock days to train; infinity when the run never completes
    double costUsd = 0;  // the run's electricity
    // The run's cost with the design's ownership (cost.run_cost_usd,
    // typical; infinity when the run never completes), and a GPU-hour owned
    // (cost.usd_per_gpu_hour): what prices, cost of capital and utilisation move.
    double runCostUsd = 0, usdPerGpuHour = 0;
    // The design's layout does not run after the change: days and cost are
    // today's times the change's effect on the best layout (its days after
    // the change over its days today).
    bool reSearched = false;
    std::optional<Layout> bestLayout;  // the search's best, when it differs from the best at +-0%
    std::string whyNot;                // nothing runs at all
};

struct SensitivityInput {
    std::string key;    // gpu_peak, hbm_bandwidth, ...
    std::string label;  // "GPU peak FLOP/s"
    std::string unit;
    double value = 0;            // today's
    bool moreIsBetter = true;    // more of it should shorten the run (false: latency, failure rates, PUE, ...)
    bool affectsLayout = false;  // the step time or memory depend on it: the layout is searched again
    std::vector<SensitivityChange> changes;  // one per kSensitivityChanges
    double effectDays = 0;                   // the largest |days - today's days| over the changes
    double effectRunCost = 0;                // the same for the run's cost
    const SensitivityChange& at(double change) const;
};

struct SensitivityResult {
    std::string error;
    bool cancelled = false;
    double days = 0, costUsd = 0;          // today's: `metrics`' reliability.wall_days and the run's electricity
    double runCostUsd = 0, usdPerGpuHour = 0;  // today's cost.run_cost_usd and cost.usd_per_gpu_hour (typical)
    bool costComplete = true;                  // every part is priced: else the costs are over the priced ones
    Layout bestLayout;                     // the search's best today
    std::vector<SensitivityInput> inputs;  // by effect on days, largest first
    std::string binding;                   // one sentence: the binding constraint and what more of it gives
    bool ok() const { return error.empty() && !cancelled; }
};

// What a tornado shows the effect on: the days to train, the run's cost
// with ownership, or a GPU-hour owned.
enum class SensitivityMeasure { Days, RunCost, GpuHour };
inline constexpr SensitivityMeasure kSensitivityMeasures[] = {SensitivityMeasure::Days, SensitivityMeasure::RunCost,
                                                              SensitivityMeasure::GpuHour};
const char* measureLabel(SensitivityMeasure m);  // "days to train", "cost of the run", "cost per GPU-hour owned"
double measureOf(const SensitivityChange& c, SensitivityMeasure m);
double measureToday(const SensitivityResult& r, SensitivityMeasure m);
// The inputs' indices by their largest effect on `m`, largest first.
std::vector<std::size_t> inputsByEffect(const SensitivityResult& r, SensitivityMeasure m);

SensitivityResult analyzeSensitivity(const Design& design, const Catalog& catalog,
                                     const std::atomic<bool>* cancel = nullptr,
                                     const std::function<void(double done)>& progress = {});

}  // namespace studio
