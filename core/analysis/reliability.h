#pragma once
// Failure cadence: failure rates by component class (defaults from the
// Llama 3 run, design/defaults.h), the cluster's MTBF, failures per day,
// P(a failure within 24 h), the optimal checkpoint interval (Young, Daly),
// goodput after checkpoints, lost work, restarts and maintenance, and the
// interruptions a training run should expect.
#include <string>
#include <utility>
#include <vector>

#include "core/analysis/explanation.h"
#include "core/analysis/inventory.h"
#include "core/analysis/sourced.h"

namespace studio {

struct FailureClass {
    std::string key, name, per;  // per: gpu, node, nic
    double devices = 0;
    Sourced mttfH;
    double perDay = 0;
};

struct Reliability {
    std::vector<FailureClass> classes;
    double clusterMtbfH = 0, failuresPerDay = 0, pFailure24h = 0;
    double checkpointWriteS = 0;  // time to write one checkpoint
    double checkpointStallS = 0;  // of which training waits (0 when asynchronous)
    Sourced restartMin, maintenanceFraction;
    double youngIntervalMin = 0, dalyIntervalMin = 0, intervalMin = 0;
    bool intervalIsOptimum = true;
    bool canCheckpoint = true;                           // false: no storage to write to, so a failure restarts the run
    double checkpointFraction = 0, failureFraction = 0;  // shares of wall time
    double goodput = 0;
    double youngGoodput = 0, dalyGoodput = 0;  // goodput at the two optimum intervals (0 without checkpoints)
    double wallDays = 0;                       // compute days / goodput; 0 when the run never completes
    std::string neverCompletes;                // why goodput is 0 (failures outpace checkpoints), else ""
    double expectedInterruptions = 0;
    std::vector<std::pair<double, double>> mtbfCurve;     // GPUs -> hours, this design's mix
    std::vector<std::pair<double, double>> goodputCurve;  // interval minutes -> goodput
    Explanation explainMtbf, explainInterval, explainGoodput;
};

// Wall-clock days of `computeDays` of training on the design `r` describes:
// compute / goodput with checkpoints; without them every failure restarts
// the run, so the wall time grows faster than the compute time. Infinity
// when the run never completes. A layout search ranks by it: the failure
// cadence is the design's, the compute time each layout's.
double wallDaysFor(const Reliability& r, double computeDays);

// `checkpointWriteS` < 0 means checkpoints cannot be written (no storage).
Reliability modelReliability(const Inventory& inventory, const Operations& operations, double checkpointWriteS,
                             double computeDays);

}  // namespace studio
