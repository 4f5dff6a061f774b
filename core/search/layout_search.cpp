#include "core/search/layout_search.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <limits>
#include <tuple>

#include "core/catalog/software_profile.h"
#include "core/enum_names.h"
#include "core/format/workload_limits.h"
#include "core/model/analysis.h"
#include "core/text.h"

namespace studio {

const char* objectiveName(Objective o)
{
    switch (o) {
    case Objective::Time: return "time";
    case Objective::Energy: return "energy";
    case Objective::Days: return "days";
    case Objective::Cost: return "cost";
    }
    return "time";
}

const char* objectiveMeaning(Objective o)
{
    switch (o) {
    case Objective::Time: return "step time";
    case Objective::Energy: return "energy per token";
    case Objective::Days: return "days to train";
    case Objective::Cost: return "cost of the run";
    }
    return "step time";
}

const char* objectiveUnit(Objective o)
{
    switch (o) {
    case Objective::Time: return "s/token";
    case Objective::Energy: return "J/token";
    case Objective::Days: return "days";
    case Objective::Cost: return "USD";
    }
    return "";
}

std::string objectiveList()
{
    std::string out;
    const std::size_t n = std::size(kObjectives);
    for (std::size_t i = 0; i < n; ++i)
        out += (i == 0 ? "" : i + 1 == n ? " or " : ", ") + std::string(objectiveName(kObjectives[i]));
    return out;
}

std::string objectiveChoices()
{
    return enumChoices<Objective>(kObjectives, objectiveName);
}

bool objectiveFromName(const std::string& name, Objective* out)
{
    return enumFromName<Objective>(kObjectives, objectiveName, name, out);
}

namespace {

constexpr std::array<const char*, 4> kLimitTiers = {"nvlink", "leaf", "spine", "core"};
constexpr std::int64_t kMaxInterleave = 16;
constexpr std::int64_t kMaxMicroBatch = 64;

std::vector<std::int64_t> divisorsOf(std::int64_t n, std::int64_t cap)
{
    std::vector<std::int64_t> out;
    for (std::int64_t d = 1; d <= n && d <= cap; ++d)
        if (n % d == 0)
            out.push_back(d);
    return out;
}

void addUnique(std::vector<std::int64_t>& v, std::int64_t x)
{
    if (std::find(v.begin(), v.end(), x) == v.end()) {
        v.push_back(x);
        std::sort(v.begin(), v.end());
    }
}

// Ties go to the simpler layout: fewer axes in use, smaller model-parallel
// groups, a lower ZeRO stage, less recompute, no sequence parallelism, a
// smaller micro-batch; the remaining fields make the order total so the
// pruned and the brute-force searches agree exactly.
auto simplicityKey(const Layout& l)
{
    const int axes = (l.tp > 1) + (l.pp > 1) + (l.cp > 1) + (l.ep > 1) + (l.interleave > 1);
    return std::make_tuple(axes, l.tp * l.pp * l.cp * l.ep * l.interleave, l.zero, int(l.recompute), l.sequenceParallel,
                           l.microBatch, l.tp, l.pp, l.cp, l.ep, l.interleave, l.globalBatch);
}

bool better(const Candidate& a, const Candidate& b)
{
    if (a.objective != b.objective)
        return a.objective < b.objective;
    return simplicityKey(a.layout) < simplicityKey(b.layout);
}

enum class TierVerdict { Ok, Forbidden, NoPath };

struct Limits {
    std::vector<std::pair<std::string, std::size_t>> rankByAxis;  // axis -> rank of its slowest allowed tier
};

TierVerdict checkTiers(const std::vector<AxisPlacement>& axes, const Hierarchy& h, const Limits& limits)
{
    for (const auto& a : axes) {
        if (a.degree <= 1)
            continue;
        if (a.noPath)
            return TierVerdict::NoPath;
        for (const auto& [axis, limit] : limits.rankByAxis)
            if (axis == a.axis && h.rank(a.tier) > limit)
                return TierVerdict::Forbidden;
    }
    return TierVerdict::Ok;
}

std::string tierVerdictText(const std::vector<AxisPlacement>& axes, const Hierarchy& h, const Limits& limits)
{
    for (const auto& a : axes) {
        if (a.degree <= 1)
            continue;
        if (a.noPath)
            return a.axis + " = " + formatCount(a.degree) + " crosses a scale-up domain with no bandwidth";
        for (const auto& [axis, limit] : limits.rankByAxis)
            if (axis == a.axis && h.rank(a.tier) > limit)
                return a.axis + " = " + formatCount(a.degree) + " crosses the " + a.tier + " tier, beyond its limit (" +
                    h.tiers[std::min(limit, h.tiers.size() - 1)].key + ")";
    }
    return {};
}

// What one candidate costs on the objective, from its step time: every
// objective grows with the step time, so a floor under the step time is a
// floor under the objective.
struct ObjectiveModel {
    Objective objective;
    double facilityKwPerGpu = 0;
    double tokens = 0;
    const Reliability* reliability = nullptr;
    // The design's cost per wall-clock hour of a run: its ownership per
    // working hour and its facility's electricity (core/analysis/cost.h).
    double usdPerWallHour = 0;
    double operator()(double stepS, double tokensPerStep, std::int64_t gpus) const
    {
        const double perToken = stepS / tokensPerStep;
        switch (objective) {
        case Objective::Time: return perToken;
        case Objective::Energy: return facilityKwPerGpu * 1000 * double(gpus) * perToken;
        case Objective::Days: return wallDaysFor(*reliability, tokens * perToken / 86400);
        case Objective::Cost: return wallDaysFor(*reliability, tokens * perToken / 86400) * 24 * usdPerWallHour;
        }
        return perToken;
    }
};

Candidate candidateOf(const Layout& layout, const StepTime& st, const MemoryUse& mem, double objective)
{
    Candidate c;
    c.layout = layout;
    c.stepS = st.stepS;
    c.mfu = st.mfu;
    c.tokensPerS = st.tokensPerS;
    c.memoryGb = mem.totalGb;
    c.bubbleFraction = st.bubbleFraction;
    for (const auto& part : st.breakdown) {
        if (part.id == StepPartId::PipelineBubble)
            c.bubbleS = part.seconds;
        else if (stepPartInfo(part.id).communication)
            c.exposedCommS += part.seconds;
    }
    c.objective = objective;
    return c;
}

// The global batches searched: the workload's, or every 2^k and 3 x 2^k
// in the range (with the workload's when it lies inside).
std::vector<std::int64_t> batchesFor(std::int64_t workloadBatch, std::int64_t lo, std::int64_t hi)
{
    if (lo <= 0 && hi <= 0)
        return {workloadBatch};
    std::vector<std::int64_t> out;
    if (workloadBatch >= lo && workloadBatch <= hi)
        out.push_back(workloadBatch);
    for (std::int64_t p = 1; p <= hi; p *= 2)
        for (std::int64_t b : {p, 3 * p})
            if (b >= lo && b <= hi)
                addUnique(out, b);
    std::sort(out.begin(), out.end());
    return out;
}

// One layout's value of a constrained axis as the constraints write it.
std::string axisValue(const Layout& l, std::string_view axis)
{
    if (axis == "recompute")
        return recomputeName(l.recompute);
    if (axis == "sequence_parallel")
        return l.sequenceParallel ? "true" : "false";
    const std::int64_t v = axis == "tp" ? l.tp
        : axis == "pp"                  ? l.pp
        : axis == "dp"                  ? l.dp
        : axis == "cp"                  ? l.cp
        : axis == "ep"                  ? l.ep
        : axis == "micro_batch"         ? l.microBatch
        : axis == "interleave"          ? l.interleave
                                        : l.zero;
    return std::to_string(v);
}

}  // namespace

std::string outsideAllowed(const Layout& layout, const AllowedValues& allowed, std::string_view who)
{
    for (const auto& [axis, values] : allowed)
        if (const std::string v = axisValue(layout, axis); std::find(values.begin(), values.end(), v) == values.end()) {
            std::string list;
            for (const std::string& a : values)
                list += (list.empty() ? "" : ", ") + a;
            return "outside what " + std::string(who) + " runs: " + axis + " " + v + " (allowed: " + list + ")";
        }
    return "";
}

SearchResult searchLayouts(const Design& design, const Catalog& catalog, const SearchOptions& opt)
{
    SearchResult r;
    r.objective = opt.objective;
    const Analysis a = analyzeDesign(design, catalog);
    const std::int64_t designGpus = a.inventory.gpus;
    r.gpus = opt.gpus > 0 ? opt.gpus : designGpus;
    if (designGpus == 0) {
        r.error = "the design has no GPUs to search layouts on";
        return r;
    }
    if (design.workload.isServing()) {
        r.error = "the workload is serving: the layout search lays out a training run";
        return r;
    }
    if (!a.step.valid) {
        r.error = "cannot model a step on this design: " + stepUnavailable(a);
        return r;
    }
    if (r.gpus > designGpus) {
        r.error = "cannot search " + formatCount(r.gpus) + " GPUs: the design has " + formatCount(designGpus);
        return r;
    }
    if (opt.top < 1) {
        r.error = "the number of candidates to keep must be at least 1";
        return r;
    }
    if (opt.batchMin < 0 || opt.batchMax < opt.batchMin) {
        r.error = "the global batch range " + formatCount(opt.batchMin) + "-" + formatCount(opt.batchMax) + " is empty";
        return r;
    }
    // The file's limit on a global batch; beyond it, doubling the batch
    // overflowed (fuzz_search: --batch-range 1-9223372036854775807).
    if (opt.batchMax > limits::kGlobalBatch.max) {
        r.error = "the global batch range " + formatCount(opt.batchMin) + "-" + formatCount(opt.batchMax) +
            " goes past " + formatCount(limits::kGlobalBatch.max) + " sequences, the largest global batch";
        return r;
    }
    for (const auto& [axis, values] : opt.allowed)
        if (std::string why = constraintError(axis, values); !why.empty()) {
            r.error = std::move(why);
            return r;
        }
    // The design's software profile and the options' constraints, both met.
    const SoftwareProfile* profile = catalog.software(design.workload.software.value_or(std::string(kAnySoftware)));
    if (!profile && design.workload.software) {
        r.error = "no software profile " + inQuotes(*design.workload.software) + " in the catalog";
        return r;
    }
    if (profile) {
        r.software = profile->id;
        r.softwareName = profile->name;
        r.allowed = intersectAllowed(profile->allowed, opt.allowed);
        for (const auto& [axis, values] : r.allowed)
            if (values.empty()) {
                r.error = describeAllowed({{axis, opt.allowed.at(axis)}}) + " asked for, but " + profile->name +
                    " runs " + describeAllowed({{axis, profile->allowed.at(axis)}});
                return r;
            }
    } else {
        r.allowed = opt.allowed;
    }
    r.allowedBy = profile && !profile->allowed.empty() ? profile->name : std::string("the software");
    const AllowedValues& allowed = r.allowed;
    const auto allows = [&](const char* axis, const std::string& value) {
        const auto it = allowed.find(axis);
        return it == allowed.end() || std::find(it->second.begin(), it->second.end(), value) != it->second.end();
    };
    const auto allowedOf = [&](const char* axis, std::vector<std::int64_t> menu) {
        std::erase_if(menu, [&](std::int64_t v) { return !allows(axis, std::to_string(v)); });
        return menu;
    };
    Limits limits;
    for (const auto& [axis, tier] : opt.within) {
        if (axis != "tp" && axis != "cp" && axis != "ep" && axis != "dp" && axis != "pp") {
            r.error = "no parallelism axis '" + axis + "' to limit (axes: tp, cp, ep, dp, pp)";
            return r;
        }
        if (tier == "any")
            continue;
        if (std::find(kLimitTiers.begin(), kLimitTiers.end(), std::string_view(tier)) == kLimitTiers.end()) {
            r.error = "no tier '" + tier + "' to keep " + axis + " within (tiers: nvlink, leaf, spine, core, any)";
            return r;
        }
        limits.rankByAxis.emplace_back(axis, a.hierarchy.rank(tier));
    }

    const double cv = inputOr(design.operations.straggler_cv, defaults::kStragglerCv).value;
    const double usdPerWallHour =
        (a.cost.workHoursPerYear > 0 ? a.cost.fixedPerYear.typical / a.cost.workHoursPerYear : 0) +
        a.power.facilityKw * a.power.pricePerKwh.value;
    const ObjectiveModel objectiveOf{opt.objective, a.power.facilityKw / double(designGpus), a.workload.tokens,
                                     &a.reliability, usdPerWallHour};
    const HardwareProfile& hw = a.hardware;
    const Hierarchy& hier = a.hierarchy;

    // The current layout, as the design's own analysis models it.
    CurrentLayout& cur = r.current;
    cur.layout = layoutOf(a.workload);
    double currentObjective = std::numeric_limits<double>::infinity();
    if (!a.runnable()) {
        cur.whyNot = stepUnavailable(a);
    } else if (const std::string outside = profile ? outsideAllowed(cur.layout, profile->allowed, profile->name) : "";
               !outside.empty()) {
        cur.whyNot = outside;
    } else if (const std::string beyond = outsideAllowed(cur.layout, opt.allowed); !beyond.empty()) {
        cur.whyNot = beyond;
    } else if (const std::string why = tierVerdictText(hier.axes, hier, limits); !why.empty()) {
        cur.whyNot = why;
    } else if (!a.memory.fits) {
        cur.whyNot = "needs " + formatReadable(a.memory.totalGb) + " GB per GPU but " + hw.gpu.name + " has " +
            formatReadable(a.memory.capacityGb) + " GB";
    } else {
        currentObjective = objectiveOf(a.step.stepS, a.workload.tokensPerStep, a.workload.gpusUsed);
        if (std::isfinite(currentObjective)) {
            cur.feasible = true;
            cur.figures = candidateOf(cur.layout, a.step, a.memory, currentObjective);
        } else {
            // Days to train when failures leave no time to train.
            cur.whyNot = runUnavailable(a);
        }
    }
    std::int64_t betterThanCurrent = 0;

    WorkloadShape shape = a.workload;
    const std::int64_t N = r.gpus;
    const std::int64_t heads = shape.heads, kv = shape.kvHeads, layers = shape.layers, seq = shape.seq;
    const std::int64_t experts = shape.experts;
    const bool overlap = design.workload.parallelism.tp_comm_overlap.value_or(false);

    std::vector<std::int64_t> microBatches;
    for (std::int64_t b = 1; b <= kMaxMicroBatch; b *= 2)
        microBatches.push_back(b);
    addUnique(microBatches, shape.microBatch);
    microBatches = allowedOf("micro_batch", microBatches);
    std::vector<std::int64_t> epMenu = experts > 0 ? divisorsOf(experts, experts) : std::vector<std::int64_t>{1};
    addUnique(epMenu, shape.ep);
    epMenu = allowedOf("ep", epMenu);
    const std::vector<std::int64_t> batches = batchesFor(shape.globalBatch, opt.batchMin, opt.batchMax);

    const std::vector<std::int64_t> tpMenu = allowedOf("tp", divisorsOf(N, heads));
    // Selective recompute re-runs the attention core, which a fused kernel
    // never keeps: with flash attention it is the same run as none, so one
    // of the two stands for both (the workload's, so the current layout
    // finds itself among the candidates).
    const Recompute noFullRecompute = cur.layout.recompute == Recompute::Full ? Recompute::None : cur.layout.recompute;
    std::vector<Recompute> recomputeMenu = shape.flash
        ? std::vector<Recompute>{noFullRecompute, Recompute::Full}
        : std::vector<Recompute>{Recompute::None, Recompute::Selective, Recompute::Full};
    if (shape.flash && !allows("recompute", recomputeName(noFullRecompute)))
        // The other of the two that run alike, when the software has it.
        recomputeMenu.front() = noFullRecompute == Recompute::None ? Recompute::Selective : Recompute::None;
    std::erase_if(recomputeMenu, [&](Recompute rc) { return !allows("recompute", recomputeName(rc)); });
    std::vector<bool> spAllowed;
    for (const bool sp : {false, true})
        if (allows("sequence_parallel", sp ? "true" : "false"))
            spAllowed.push_back(sp);
    std::vector<Problem> scratch;
    Candidate closestMiss;  // the leanest layout that did not fit
    closestMiss.memoryGb = std::numeric_limits<double>::infinity();
    double closestMissCapacityGb = 0;
    const bool prune = opt.prune && !opt.keepPoints;
    const double groups = double(batches.size() * tpMenu.size());
    double groupsDone = 0;

    for (std::int64_t gb : batches)
        for (std::int64_t tp : tpMenu) {
            const bool tpOk = tpSplitsHeads(heads, kv, tp);
            const std::vector<std::int64_t> ppMenu = allowedOf("pp", divisorsOf(N / tp, layers + 2));
            for (std::size_t ppAt = 0; ppAt < ppMenu.size(); ++ppAt) {
                if (opt.cancel && opt.cancel->load(std::memory_order_relaxed)) {
                    r.cancelled = true;
                    return r;
                }
                if (opt.progress)
                    opt.progress((groupsDone + double(ppAt) / double(ppMenu.size())) / groups);
                const std::int64_t pp = ppMenu[ppAt];
                for (std::int64_t cp : allowedOf("cp", divisorsOf(N / (tp * pp), seq))) {
                    const std::int64_t dp = N / (tp * pp * cp);
                    if (!allows("dp", std::to_string(dp)))
                        continue;
                    std::vector<std::int64_t> vMenu{1};
                    if (pp > 1) {
                        for (std::int64_t v = 2; v <= kMaxInterleave; ++v)
                            vMenu.push_back(v);
                        addUnique(vMenu, shape.interleave);
                    }
                    vMenu = allowedOf("interleave", vMenu);
                    // ZeRO needs data-parallel ranks to shard over.
                    const std::vector<std::int64_t> zeroMenu = allowedOf(
                        "zero", dp * cp > 1 ? std::vector<std::int64_t>{0, 1, 2, 3} : std::vector<std::int64_t>{0});
                    // Megatron refuses TP overlap without sequence parallelism.
                    std::vector<bool> spMenu = tp == 1 ? std::vector<bool>{false}
                        : overlap                      ? std::vector<bool>{true}
                                                       : std::vector<bool>{false, true};
                    std::erase_if(spMenu, [&](bool sp) {
                        return std::find(spAllowed.begin(), spAllowed.end(), sp) == spAllowed.end();
                    });
                    if (zeroMenu.empty() || spMenu.empty() || recomputeMenu.empty())
                        continue;
                    const std::int64_t leaves = std::int64_t(zeroMenu.size() * recomputeMenu.size() * spMenu.size());
                    for (std::int64_t ep : epMenu) {
                        const bool epOk = experts > 0 ? experts % ep == 0 && (dp * cp) % ep == 0 : ep == 1;
                        Layout l;
                        l.tp = tp;
                        l.pp = pp;
                        l.cp = cp;
                        l.dp = dp;
                        l.ep = ep;
                        l.globalBatch = gb;
                        shapeLayout(shape, l);
                        const TierVerdict tiers = checkTiers(placeAxes(hier, hw, shape), hier, limits);
                        for (std::int64_t mb : microBatches)
                            for (std::int64_t v : vMenu) {
                                r.space += leaves;
                                // The model runs an uneven pipeline (with a
                                // warning); the search proposes even ones.
                                const bool layersOk =
                                    pipelineFitsModel(layers, pp, v) && pipelineSplitsEvenly(layers, pp, v);
                                if (!(tpOk && epOk && layersOk && seq % cp == 0 && gb % (mb * dp) == 0)) {
                                    r.rejected.indivisible += leaves;
                                    continue;
                                }
                                if (tiers == TierVerdict::NoPath) {
                                    r.rejected.noPath += leaves;
                                    continue;
                                }
                                if (tiers == TierVerdict::Forbidden) {
                                    r.rejected.forbiddenTier += leaves;
                                    continue;
                                }
                                l.microBatch = mb;
                                l.interleave = v;
                                // Memory falls with the ZeRO stage, with more
                                // recompute and with sequence parallelism: when
                                // the leanest setting does not fit, none does.
                                l.zero = zeroMenu.back();
                                l.recompute = Recompute::Full;
                                l.sequenceParallel = spMenu.back();
                                shapeLayout(shape, l);
                                const MemoryUse lean = modelMemory(hw, shape, scratch, false);
                                if (!lean.fits) {
                                    r.rejected.outOfMemory += leaves;
                                    if (lean.totalGb < closestMiss.memoryGb) {
                                        closestMiss.memoryGb = lean.totalGb;
                                        closestMiss.layout = l;
                                        closestMissCapacityGb = lean.capacityGb;
                                    }
                                    continue;
                                }
                                const double floorObjective =
                                    objectiveOf(stepTimeFloor(hw, shape, cv), shape.tokensPerStep, N);
                                for (std::int64_t zero : zeroMenu)
                                    for (Recompute rc : recomputeMenu)
                                        for (bool sp : spMenu) {
                                            l.zero = zero;
                                            l.recompute = rc;
                                            l.sequenceParallel = sp;
                                            shapeLayout(shape, l);
                                            const MemoryUse mem = modelMemory(hw, shape, scratch, false);
                                            if (!mem.fits) {
                                                ++r.rejected.outOfMemory;
                                                continue;
                                            }
                                            ++r.feasible;
                                            if (prune) {
                                                // Keep what could enter the top K or rank
                                                // above the current layout.
                                                double threshold = std::numeric_limits<double>::infinity();
                                                if (std::int64_t(r.top.size()) == opt.top)
                                                    threshold = cur.feasible
                                                        ? std::max(currentObjective, r.top.back().objective)
                                                        : r.top.back().objective;
                                                if (floorObjective > threshold) {
                                                    ++r.pruned;
                                                    continue;
                                                }
                                            }
                                            const StepTime st = modelStepTime(hw, hier, shape, cv, false);
                                            ++r.evaluated;
                                            const double objective = objectiveOf(st.stepS, shape.tokensPerStep, N);
                                            // Days with goodput: a run the failures never
                                            // let finish ranks nowhere.
                                            if (!std::isfinite(objective)) {
                                                ++r.neverComplete;
                                                continue;
                                            }
                                            if (objective < currentObjective)
                                                ++betterThanCurrent;
                                            if (opt.keepPoints)
                                                r.points.push_back({l, st.stepS, mem.totalGb, objective});
                                            Candidate c = candidateOf(l, st, mem, objective);
                                            if (std::int64_t(r.top.size()) == opt.top && !better(c, r.top.back()))
                                                continue;
                                            r.top.insert(std::upper_bound(r.top.begin(), r.top.end(), c, better),
                                                         std::move(c));
                                            if (std::int64_t(r.top.size()) > opt.top)
                                                r.top.pop_back();
                                        }
                            }
                    }
                }
            }
            ++groupsDone;
        }
    if (opt.progress)
        opt.progress(1.0);

    if (cur.feasible) {
        cur.rank = 1 + betterThanCurrent;
        if (!r.top.empty() && r.top.front().objective > 0)
            cur.gap = currentObjective / r.top.front().objective - 1;
    }
    if (r.feasible > 0 && r.top.empty()) {
        r.nothingFits = (a.workload.name.empty() ? std::string("the model") : a.workload.name) + " has no layout on " +
            formatCount(N) + " " + hw.gpu.name + " GPUs whose run completes: failures leave none of them time to train";
    }
    if (r.feasible == 0) {
        r.nothingFits = a.workload.name.empty() ? std::string("the model") : a.workload.name;
        r.nothingFits += " has no feasible layout on " + formatCount(N) + " " + hw.gpu.name + " GPUs" +
            (allowed.empty() ? "" : " within what " + r.allowedBy + " runs");
        if (r.space == 0)
            r.nothingFits += ": no combination of the values allowed uses " + formatCount(N) + " GPUs";
        else if (std::isfinite(closestMiss.memoryGb))
            r.nothingFits += ": the leanest (" + describeLayout(closestMiss.layout) + ") needs " +
                formatReadable(closestMiss.memoryGb) + " GB per GPU, " + hw.gpu.name + " has " +
                formatReadable(closestMissCapacityGb) + " GB";
        else
            r.nothingFits += ": none of the " + formatCount(r.space) + " combinations splits the model evenly " +
                "within the tier limits";
    }
    return r;
}

SearchResult searchLayoutsWithSpares(const Design& design, const Catalog& catalog, SearchOptions options)
{
    options.gpus = 0;
    SearchResult all = searchLayouts(design, catalog, options);
    if (!all.ok() || !all.top.empty() || all.gpus < 2)
        return all;
    options.gpus = std::int64_t(1) << (std::bit_width(std::uint64_t(all.gpus)) - 1);
    if (options.gpus == all.gpus)
        options.gpus /= 2;
    SearchResult fewer = searchLayouts(design, catalog, options);
    if (fewer.cancelled || (fewer.ok() && !fewer.top.empty()))
        return fewer;
    return all;  // why nothing runs on all of them
}

}  // namespace studio
