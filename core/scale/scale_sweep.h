#pragma once
// How many GPUs pay off (docs/model.md section "Scale sweep"): the design
// resized along its growth unit from its smallest runnable size up to
// 131,072 GPUs, fabrics re-sized at each size, the model kept; at each size
// the best layout the search finds and the user's own layout rules, each
// analysed by analyzeDesign exactly as `metrics` would.
#include <atomic>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "core/catalog/catalog.h"
#include "core/design/design.h"
#include "core/search/layout.h"

namespace studio {

struct Analysis;

enum class Scaling {
    Strong,  // the global batch and the tokens to train stay the workload's
    Weak,    // both grow with the GPUs: each GPU's share of the work stays
};

inline constexpr std::int64_t kSweepMaxGpus = 131'072;

struct SweepOptions {
    Scaling scaling = Scaling::Strong;
    std::int64_t from = 0;  // 0: the smallest size any layout runs at
    std::int64_t to = kSweepMaxGpus;
    const std::atomic<bool>* cancel = nullptr;
    std::function<void(double done)> progress;  // 0..1, from the sweeping thread
};

// Seed 002's rho = T_comm / (T_compute / N) per parallel axis: each axis's
// communication per step, hidden or not, over one GPU's compute per step.
struct AxisRho {
    double tp = 0, cp = 0, ep = 0, pp = 0, dp = 0;
};

// What one layout gives at one size: the figures `metrics` prints under
// the same keys.
struct ScaleFigures {
    Layout layout;
    std::int64_t gpusUsed = 0;  // the layout's GPUs: fewer than the size's when none splits them all
    double tokensPerS = 0, mfu = 0, stepS = 0;
    double daysToTrain = 0;  // compute days, before goodput (training.days_to_train)
    double wallDays = 0;     // with goodput; 0 when the run never completes
    double clusterMtbfH = 0, expectedInterruptions = 0, goodput = 0;
    double facilityKw = 0, trainingRunMwh = 0, runCostUsd = 0;  // the run's electricity
    // The run's cost with the design's ownership at this size (cost.run_cost_usd,
    // typical); none when it never completes. Over the priced parts only
    // when `costComplete` is false.
    std::optional<double> ownedRunCostUsd;
    double capexUsd = 0;  // cost.capex_usd, typical: what the design at this size costs to buy
    bool costComplete = true;
    AxisRho rho;
};
ScaleFigures scaleFiguresOf(const Analysis& a);

struct SweepPoint {
    std::int64_t gpus = 0;
    std::int64_t globalBatch = 0;  // the workload's, or scaled with the GPUs (weak)
    double tokens = 0;
    bool isDesign = false;             // the design's own size
    int fabricTiers = 0;               // switch tiers of the largest fabric
    bool tierAdded = false;            // more tiers than the size before
    // The smaller size whose best layout gives the most tokens/s, where
    // that is more than this size's best (0: none): every layout must split
    // all the GPUs, and the model's layers, heads and batch may not split
    // them well (81,920 = 2^14 x 5 leaves a 105-layer model 1 or 5 stages).
    std::int64_t slowerThanGpus = 0;
    bool belowOneSequence = false;     // fewer sequences per step than GPUs
    double facilityKw = 0;             // the design's facility load at this size (any layout)
    bool overSiteBudget = false;       // above /facility/site_mw
    std::optional<ScaleFigures> best;  // the search's best layout (shortest step), on all the GPUs or,
                                       // when no layout splits them, the largest power of two below
    std::string whyNoBest;             // when there is none
    std::int64_t feasibleLayouts = 0;
    std::optional<ScaleFigures> user;  // the workload's layout with dp following the size
    std::string whyNoUser;
};

struct SweepResult {
    std::string error;  // the design cannot be resized, or nothing runs at any size
    bool cancelled = false;
    Scaling scaling = Scaling::Strong;
    std::int64_t growthGpus = 0;  // GPUs one more growth unit adds
    std::string growthUnit;       // its name
    std::int64_t designGpus = 0;
    std::optional<double> siteMw;    // the site's power budget, when the design sets one
    std::vector<SweepPoint> points;  // by GPUs, ascending
    // Ideal, Amdahl and Gustafson are anchored at the size whose GPUs are
    // the most productive (`base`, the highest tokens/s per GPU of the best
    // layouts): ideal is tokens/s there times the GPUs' ratio.
    std::int64_t baseGpus = 0;
    double baseTokensPerS = 0;
    // Karp-Flatt (1990): the serial fraction Amdahl's law would need to give
    // the best layout's speedup from the base to the design's size; nullopt
    // when the design is not larger than the base or does not run.
    std::optional<double> amdahlSerialFraction;
    // One sentence: beyond which size each doubling adds less than 20%
    // delivered tokens/s (tokens/s x goodput), and why.
    std::string stopsPaying;
    // The sizes whose best layout trains in the fewest wall-clock days and
    // at the least cost of the run (ownership for its hours and its energy):
    // past the cheapest, more GPUs buy time at a higher price. 0: none runs.
    std::int64_t fastestGpus = 0, cheapestGpus = 0;
    bool ok() const { return error.empty() && !cancelled; }
    const SweepPoint* designPoint() const;
};

// The sizes swept: multiples of the growth unit on a log axis, 2^k and
// 3 x 2^k units (one per doubling when that gives more than 22), from
// `from` to `to`, with the design's own size among them.
std::vector<std::int64_t> sweepSizes(std::int64_t unitGpus, std::int64_t from, std::int64_t to,
                                     std::int64_t designGpus);

// The design at `gpus` as the sweep sizes it: its growth unit's count set,
// every fabric's tier count left to the sizing (a tier is added where the
// radix runs out), the layout's dp following the size, and under weak
// scaling the batch and the tokens grown with the GPUs. At its own size
// (`designGpus`) the design is left as it is.
struct SizedDesign {
    Design design;
    std::string error;  // the design does not take this size
};
SizedDesign sizeDesign(const Design& design, const Catalog& catalog, std::int64_t gpus, std::int64_t designGpus,
                       Scaling scaling = Scaling::Strong);

SweepResult sweepScale(const Design& design, const Catalog& catalog, const SweepOptions& options = {});

// Reference curves at `gpus`, anchored at the base.
double idealTokensPerS(const SweepResult& r, std::int64_t gpus);
double amdahlTokensPerS(const SweepResult& r, std::int64_t gpus);     // strong scaling with the serial fraction
double gustafsonTokensPerS(const SweepResult& r, std::int64_t gpus);  // scaled speedup with the serial fraction

}  // namespace studio
