#pragma once
// The best parallelism layout for a design's model (docs/model.md section
// "Layout search"): every runnable combination of tp, pp, cp, dp, ep,
// micro-batch, interleave, ZeRO stage, recompute and sequence parallelism on
// the GPUs searched, modelled by the same functions as the design's own
// layout, ranked by an objective. Exact: bounds skip only candidates that
// provably cannot enter the top K or change the current layout's rank.
#include <atomic>
#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "core/catalog/catalog.h"
#include "core/design/design.h"
#include "core/search/layout.h"

namespace studio {

enum class Objective {
    Time,    // seconds per token: the step time at the workload's batch
    Energy,  // facility joules per token
    Days,    // wall-clock days to train the workload's tokens, goodput included
    Cost,    // the run's cost: its wall-clock hours of the design's ownership and energy (docs/model.md 20)
};
inline constexpr Objective kObjectives[] = {Objective::Time, Objective::Energy, Objective::Days, Objective::Cost};
const char* objectiveName(Objective o);  // time, energy, days, cost
const char* objectiveUnit(Objective o);  // s/token, J/token, days, USD
// What the best is best at, in words: "step time", "energy per token",
// "days to train", "cost of the run".
const char* objectiveMeaning(Objective o);
// "time|energy|days|cost", for usage lines; "time, energy, days or cost".
std::string objectiveChoices();
std::string objectiveList();
bool objectiveFromName(const std::string& name, Objective* out);

struct SearchOptions {
    Objective objective = Objective::Time;
    int top = 10;               // candidates kept, best first
    std::int64_t gpus = 0;      // GPUs the layouts use; 0: all of the design's
    std::int64_t batchMin = 0;  // a range lets the global batch vary (0, 0: the workload's)
    std::int64_t batchMax = 0;
    // The slowest tier each axis may cross (tier keys: nvlink, leaf, spine,
    // core); an axis not named may cross any. Default: tp stays inside the
    // scale-up domain.
    std::map<std::string, std::string> within = {{"tp", "nvlink"}};
    // Constraints beyond the design's software profile (search --fix,
    // --allow): the values each axis named may take, as written ("4",
    // "selective", "true"); an axis not named takes any. Axes:
    // kConstrainedAxes. The search meets both these and the profile the
    // design names (workload.software); a current layout outside either is
    // not ranked and says why.
    AllowedValues allowed;
    bool prune = true;        // false: model every feasible candidate (the brute force tests compare)
    bool keepPoints = false;  // keep every feasible candidate's step time and memory (the scatter; no pruning)
    const std::atomic<bool>* cancel = nullptr;
    std::function<void(double done)> progress;  // 0..1, from the searching thread
};

struct Candidate {
    Layout layout;
    double stepS = 0, mfu = 0, tokensPerS = 0, memoryGb = 0;
    double bubbleS = 0, bubbleFraction = 0;
    double exposedCommS = 0;  // TP, CP, EP, PP and DP communication compute does not hide
    double objective = 0;     // in objectiveUnit
};

// A feasible candidate for the scatter plot.
struct SearchPoint {
    Layout layout;
    double stepS = 0, memoryGb = 0, objective = 0;
};

struct Rejections {
    std::int64_t indivisible = 0;    // heads, kv heads, layers, sequence, experts or batch do not split
    std::int64_t forbiddenTier = 0;  // an axis crosses a tier slower than its limit
    std::int64_t noPath = 0;         // an axis crosses a scale-up domain without bandwidth
    std::int64_t outOfMemory = 0;    // needs more than the GPU's HBM
    std::int64_t total() const { return indivisible + forbiddenTier + noPath + outOfMemory; }
};

struct CurrentLayout {
    Layout layout;
    bool feasible = false;
    std::string whyNot;     // when not feasible: not runnable, a forbidden tier, or out of memory
    Candidate figures;      // when feasible
    std::int64_t rank = 0;  // 1 + feasible candidates with a strictly better objective
    double gap = 0;         // objective / best objective - 1
};

struct SearchResult {
    std::string error;  // the search could not run (no GPUs, no model, too many GPUs asked for)
    bool cancelled = false;
    Objective objective = Objective::Time;
    std::string software;      // the design's software profile searched within ("" when the catalog has none)
    std::string softwareName;  // its display name
    // Whose constraints `allowed` holds, for sentences ("within what X
    // runs"): the profile's name when it constrains any axis, else "the
    // software" (search --fix/--allow alone).
    std::string allowedBy;
    AllowedValues allowed;           // the constraints searched within: the profile's and options.allowed, both met
    std::int64_t gpus = 0;           // searched
    std::int64_t space = 0;          // every combination of the options on `gpus` GPUs
    std::int64_t feasible = 0;       // runnable, within the tier limits and fit in HBM
    std::int64_t evaluated = 0;      // step time modelled
    std::int64_t pruned = 0;         // feasible, skipped by the step-time bound
    std::int64_t neverComplete = 0;  // feasible, but by days to train the failures never let the run finish
    Rejections rejected;
    std::vector<Candidate> top;  // best first
    CurrentLayout current;
    std::vector<SearchPoint> points;  // every feasible candidate (keepPoints)
    std::string nothingFits;          // when no candidate is feasible (or completes): why, with the closest miss
    bool ok() const { return error.empty() && !cancelled; }
};

SearchResult searchLayouts(const Design& design, const Catalog& catalog, const SearchOptions& options);

// Why `layout` is not among those `allowed`: the first axis whose value is
// not allowed, with the values that are, as "outside what `who` runs: ...";
// "" when it is.
std::string outsideAllowed(const Layout& layout, const AllowedValues& allowed, std::string_view who = "the software");

// searchLayouts on all of the design's GPUs (options.gpus 0) and, when no
// layout splits them (576 = 64 x 9, and nothing in Llama divides by 9), on
// the largest power of two below, the rest spare, as such clusters are
// run. The result says which: its `gpus`. A search that fails or is
// cancelled on all of them is returned as it is.
SearchResult searchLayoutsWithSpares(const Design& design, const Catalog& catalog, SearchOptions options);

}  // namespace studio
