#pragma once
// From peak FLOP/s to delivered training work: the step-time losses (kernel
// efficiency, communication, bubble, stragglers, recompute) give MFU; the
// goodput losses (checkpoints, failures, maintenance) give what the cluster
// delivers (seed 002's compound utilization).
#include <string>
#include <vector>

#include "core/analysis/reliability.h"
#include "core/analysis/step_time.h"

namespace studio {

struct WaterfallBar {
    std::string_view key;   // a step part's key or one of waterfall_key's (core/analysis/step_parts.h)
    std::string_view name;  // for people only
    double fraction = 0;  // of peak: the start and end bars are levels, the rest losses
    bool level = false;
    double from = 0, to = 0;  // where the bar is drawn, fractions of peak: a level from 0, a loss below the last level
};

struct Utilization {
    std::vector<WaterfallBar> waterfall;  // peak, losses..., MFU, losses..., delivered
    double mfu = 0, goodput = 0, delivered = 0;
    double deliveredPflops = 0;  // whole cluster
};

// `peakPflops`: the peak of the GPUs the layout uses.
Utilization buildUtilization(const StepTime& step, const Reliability& reliability, double peakPflops);

}  // namespace studio
