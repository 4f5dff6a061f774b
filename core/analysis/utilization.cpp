#include "core/analysis/utilization.h"

namespace studio {

Utilization buildUtilization(const StepTime& step, const Reliability& rel, double clusterPeakPflops)
{
    Utilization u;
    if (!step.valid || step.stepS <= 0)
        return u;
    u.mfu = step.mfu;
    u.goodput = rel.goodput;
    u.delivered = u.mfu * u.goodput;
    u.deliveredPflops = clusterPeakPflops * u.delivered;
    // Step time = model FLOPs at peak + every loss; each loss's share of the
    // step is its share of peak lost, so the bars sum to 1 - MFU.
    double compute = 0;
    for (const auto& p : step.breakdown)
        if (p.compute())
            compute += p.seconds;
    namespace k = waterfall_key;
    u.waterfall.push_back({k::kPeak, "peak", 1, true});
    u.waterfall.push_back({k::kKernelEfficiency, "kernel efficiency", (compute - step.computeAtPeakS) / step.stepS});
    for (const auto& p : step.breakdown)
        if (!p.compute())
            u.waterfall.push_back({p.key(), p.name(), p.seconds / step.stepS});
    u.waterfall.push_back({k::kMfu, "MFU", u.mfu, true});
    u.waterfall.push_back({k::kCheckpointing, "checkpointing", u.mfu * rel.checkpointFraction});
    u.waterfall.push_back({k::kFailures, "failures (lost work, restarts)", u.mfu * rel.failureFraction});
    u.waterfall.push_back({k::kMaintenance, "maintenance", u.mfu * rel.maintenanceFraction.value});
    u.waterfall.push_back({k::kDelivered, "delivered", u.delivered, true});
    // Each loss hangs from what is left after the ones above it.
    double left = 1;
    for (auto& b : u.waterfall) {
        if (b.level) {
            b.from = 0;
            b.to = left = b.fraction;
        } else {
            b.to = left;
            b.from = left -= b.fraction;
        }
    }
    return u;
}

}  // namespace studio
