#include "core/scale/scale_sweep.h"

#include <algorithm>
#include <cmath>
#include <iterator>
#include <utility>

#include "core/analysis/fleet_formulas.h"
#include "core/design/resize.h"
#include "core/format/design_validator.h"
#include "core/model/analysis.h"
#include "core/search/layout_search.h"
#include "core/text.h"

namespace studio {
namespace {

// A sweep wants about 12-20 sizes on its log axis: two per doubling
// unless that makes more than this.
constexpr std::size_t kMaxPoints = 22;

}  // namespace

SizedDesign sizeDesign(const Design& design, const Catalog& catalog, std::int64_t gpus, std::int64_t designGpus,
                       Scaling scaling)
{
    SizedDesign s{design, {}};
    if (gpus == designGpus)
        return s;  // the design as it is: its figures are `metrics`'s
    if (auto problem = resizeToGpus(s.design, catalog, gpus)) {
        s.error = problem->message;
        return s;
    }
    for (Component& c : s.design.components)
        c.props.erase("tiers");
    auto& w = s.design.workload;
    w.parallelism.dp.reset();
    if (scaling == Scaling::Weak && designGpus > 0) {
        const double ratio = double(gpus) / double(designGpus);
        w.training.global_batch = std::max<std::int64_t>(1, std::llround(double(w.training.global_batch) * ratio));
        w.training.tokens *= ratio;
    }
    const auto problems = validateDesign(s.design, catalog);
    for (const Problem& p : problems)
        if (p.severity == Severity::Error) {
            s.error = p.message;
            break;
        }
    return s;
}

namespace {

// Below this gain per doubling of the GPUs, scaling has stopped paying.
constexpr double kDoublingPays = 0.20;

// Tokens/s the run delivers over its wall time: failures and checkpoints
// take their share (goodput).
double delivered(const ScaleFigures& f)
{
    return f.tokensPerS * f.goodput;
}

// What holds the larger size back: failures, when goodput falls more than
// the step's efficiency per GPU, else the parallel axis whose
// communication is largest against the compute.
std::string limitAt(const SweepPoint& a, const SweepPoint& b)
{
    const double perGpu = (b.best->tokensPerS / double(b.gpus)) / (a.best->tokensPerS / double(a.gpus));
    const double goodput = b.best->goodput / std::max(1e-12, a.best->goodput);
    if (goodput < perGpu)
        return "failures: goodput falls from " + formatReadable(100 * a.best->goodput) + "% to " +
            formatReadable(100 * b.best->goodput) + "% (cluster MTBF " + formatDuration(b.best->clusterMtbfH) + ")";
    const SweepPoint& p = b;
    const AxisRho& r = p.best->rho;
    const std::pair<const char*, double> axes[] = {
        {"DP", r.dp}, {"TP", r.tp}, {"PP", r.pp}, {"CP", r.cp}, {"EP", r.ep}};
    const auto top = *std::max_element(std::begin(axes), std::end(axes),
                                       [](const auto& a, const auto& b) { return a.second < b.second; });
    std::string s = "per GPU " + formatReadable(100 * (1 - perGpu)) + "% slower; " + top.first + " communication is " +
        formatReadable(top.second) + "x the compute (rho) at " + formatCount(p.gpus) + " GPUs";
    if (p.tierAdded)
        s += ", where the fabric adds a tier";
    return s;
}

// "Beyond N GPUs each doubling adds less than 20% tokens/s: <why>", from
// the best layouts: the first size after which no doubling on the sweep
// pays.
std::string stopsPayingSentence(const std::vector<SweepPoint>& points)
{
    struct Doubling {
        const SweepPoint *from, *to;
        double gain;
    };
    std::vector<Doubling> doublings;
    for (const auto& a : points)
        for (const auto& b : points)
            // A size whose run never completes delivers nothing to double.
            if (a.best && b.best && b.gpus == 2 * a.gpus && delivered(*a.best) > 0)
                doublings.push_back({&a, &b, delivered(*b.best) / delivered(*a.best) - 1});
    if (doublings.empty())
        return "";
    std::size_t first = doublings.size();
    for (std::size_t i = doublings.size(); i-- > 0 && doublings[i].gain < kDoublingPays;)
        first = i;
    const std::string pct = formatReadable(100 * kDoublingPays, 2) + "%";
    if (first == doublings.size())
        return "Up to " + formatCount(doublings.back().to->gpus) + " GPUs each doubling adds at least " + pct +
            " delivered tokens/s (the last: " + formatReadable(100 * doublings.back().gain) + "%).";
    const Doubling& d = doublings[first];
    return "Beyond " + formatCount(d.from->gpus) + " GPUs each doubling adds less than " + pct +
        " delivered tokens/s (" + formatReadable(100 * d.gain) + "% to " + formatCount(d.to->gpus) +
        "): " + limitAt(*d.from, *d.to) + ".";
}

std::string whyNothingRuns(const SearchResult& r)
{
    if (!r.error.empty())
        return r.error;
    return r.nothingFits;
}

}  // namespace

ScaleFigures scaleFiguresOf(const Analysis& a)
{
    ScaleFigures f;
    f.layout = layoutOf(a.workload);
    f.gpusUsed = a.workload.gpusUsed;
    const StepTime& st = a.step;
    f.tokensPerS = st.tokensPerS;
    f.mfu = st.mfu;
    f.stepS = st.stepS;
    f.daysToTrain = st.daysToTrain;
    f.wallDays = a.reliability.wallDays;
    f.clusterMtbfH = a.reliability.clusterMtbfH;
    f.expectedInterruptions = a.reliability.expectedInterruptions;
    f.goodput = a.reliability.goodput;
    f.facilityKw = a.power.facilityKw;
    f.trainingRunMwh = a.trainingRunMwh;
    f.runCostUsd = a.trainingRunMwh * 1000 * a.power.pricePerKwh.value;
    if (a.cost.runCost)
        f.ownedRunCostUsd = a.cost.runCost->typical;
    f.capexUsd = a.cost.capex.typical;
    f.costComplete = a.cost.complete();
    const double n = double(a.workload.gpusUsed);
    // rho = T_comm / (T_compute / N), T_compute the whole step's compute
    // over N GPUs: N x one GPU's.
    auto rho = [&](double comm) { return fleet::commComputeRatio(comm, st.computeS * n, a.workload.gpusUsed); };
    f.rho = {rho(st.commS.tp), rho(st.commS.cp), rho(st.commS.ep), rho(st.commS.pp), rho(st.commS.dp)};
    return f;
}

const SweepPoint* SweepResult::designPoint() const
{
    for (const auto& p : points)
        if (p.isDesign)
            return &p;
    return nullptr;
}

std::vector<std::int64_t> sweepSizes(std::int64_t unitGpus, std::int64_t from, std::int64_t to, std::int64_t designGpus)
{
    std::vector<std::int64_t> fine, coarse;
    if (unitGpus < 1 || to < from)
        return {};
    auto in = [&](std::int64_t units) { return units * unitGpus >= from && units * unitGpus <= to; };
    for (std::int64_t k = 1; k * unitGpus <= to; k *= 2) {
        if (k >= 4 && in(3 * k / 4))  // 3, 6, 12, ... units, between the doublings
            fine.push_back(3 * k / 4 * unitGpus);
        if (in(k)) {
            fine.push_back(k * unitGpus);
            coarse.push_back(k * unitGpus);
        }
    }
    std::vector<std::int64_t> sizes = fine.size() > kMaxPoints ? coarse : fine;
    if (designGpus >= from && designGpus <= to)
        sizes.push_back(designGpus);
    std::sort(sizes.begin(), sizes.end());
    sizes.erase(std::unique(sizes.begin(), sizes.end()), sizes.end());
    return sizes;
}

SweepResult sweepScale(const Design& design, const Catalog& catalog, const SweepOptions& options)
{
    SweepResult r;
    r.scaling = options.scaling;
    if (design.workload.isServing()) {
        r.error = "the workload is serving: the scale sweep sizes a training run";
        return r;
    }
    const ScaleUnitResult unit = findScaleUnit(design, catalog);
    if (!unit.unit) {
        r.error = unit.problem ? unit.problem->message : "the design has no growth unit";
        return r;
    }
    r.growthGpus = unit.unit->gpusPerInstance;
    const Component& grows = design.components[unit.unit->component];
    r.growthUnit = grows.name.empty() ? grows.id : grows.name;
    const Analysis own = analyzeDesign(design, catalog);
    r.designGpus = own.inventory.gpus;
    r.siteMw = design.facility.site_mw;
    if (options.to < 1 || options.to > kSweepMaxGpus || options.from < 0 || options.from > options.to) {
        r.error = "the sweep's range must lie within 1-" + formatCount(kSweepMaxGpus) + " GPUs, from <= to";
        return r;
    }

    auto cancelled = [&] { return options.cancel && options.cancel->load(std::memory_order_relaxed); };
    SearchOptions search;
    search.top = 1;
    search.cancel = options.cancel;

    // The smallest runnable size: the first on the fine grid from the unit
    // where some layout runs (only the search's counts are needed there).
    std::int64_t from = options.from;
    if (from == 0) {
        for (std::int64_t n : sweepSizes(r.growthGpus, r.growthGpus, options.to, 0)) {
            if (cancelled()) {
                r.cancelled = true;
                return r;
            }
            const SizedDesign s = sizeDesign(design, catalog, n, r.designGpus, options.scaling);
            if (!s.error.empty())
                continue;
            if (searchLayoutsWithSpares(s.design, catalog, search).feasible > 0) {
                from = n;
                break;
            }
        }
        if (from == 0) {
            r.error = "no size from " + formatCount(r.growthGpus) + " to " + formatCount(options.to) +
                " GPUs runs the model with any layout";
            return r;
        }
    }

    const std::vector<std::int64_t> sizes = sweepSizes(r.growthGpus, from, options.to, r.designGpus);
    if (sizes.empty()) {
        r.error = "no multiple of the growth unit (" + formatCount(r.growthGpus) + " GPUs) lies in " +
            formatCount(from) + "-" + formatCount(options.to);
        return r;
    }
    for (std::size_t i = 0; i < sizes.size(); ++i) {
        if (cancelled()) {
            r.cancelled = true;
            return r;
        }
        SweepPoint p;
        p.gpus = sizes[i];
        p.isDesign = p.gpus == r.designGpus;
        const SizedDesign s = sizeDesign(design, catalog, p.gpus, r.designGpus, options.scaling);
        p.globalBatch = s.design.workload.training.global_batch;
        p.tokens = s.design.workload.training.tokens;
        if (options.progress)
            options.progress(double(i) / double(sizes.size()));
        if (!s.error.empty()) {
            p.whyNoBest = p.whyNoUser = s.error;
            r.points.push_back(std::move(p));
            continue;
        }
        const Analysis user = analyzeDesign(s.design, catalog);
        for (const auto& f : user.inventory.fabrics)
            p.fabricTiers = std::max(p.fabricTiers, f.tree.tiers);
        p.belowOneSequence = p.globalBatch > 0 && p.globalBatch < p.gpus;
        p.facilityKw = user.power.facilityKw;
        p.overSiteBudget = r.siteMw && p.facilityKw > *r.siteMw * 1000;
        if (user.runnable())
            p.user = scaleFiguresOf(user);
        else
            p.whyNoUser = stepUnavailable(user);

        // As the compare view runs a design: on all its GPUs, or on the
        // largest power of two of them when no layout splits them all (a
        // multiple of 72 and Llama's 8 KV heads and 126 layers).
        const SearchResult found = searchLayoutsWithSpares(s.design, catalog, search);
        if (found.cancelled) {
            r.cancelled = true;
            return r;
        }
        p.feasibleLayouts = found.feasible;
        if (found.top.empty()) {
            p.whyNoBest = whyNothingRuns(found);
        } else {
            Design best = s.design;
            applyLayout(best.workload, found.top.front().layout);
            p.best = scaleFiguresOf(analyzeDesign(best, catalog));
        }
        // A size between two doublings is there to fill the axis in: one
        // no layout runs at (its 3 does not divide the batch, say) is left
        // out; a doubling stays, to show where the design stops running.
        const std::int64_t units = p.gpus / r.growthGpus;
        const bool doubling = (units & (units - 1)) == 0;
        if (p.best || doubling || p.isDesign)
            r.points.push_back(std::move(p));
    }
    if (options.progress)
        options.progress(1.0);

    const SweepPoint* mostTokens = nullptr;  // of the sizes so far
    for (std::size_t i = 0; i < r.points.size(); ++i) {
        SweepPoint& p = r.points[i];
        const int before = i > 0 ? r.points[i - 1].fabricTiers : 0;
        p.tierAdded = before > 0 && p.fabricTiers > before;
        if (p.best && mostTokens && mostTokens->best->tokensPerS > p.best->tokensPerS)
            p.slowerThanGpus = mostTokens->gpus;
        if (p.best && (!mostTokens || p.best->tokensPerS > mostTokens->best->tokensPerS))
            mostTokens = &p;
    }
    // The anchor of ideal linear scaling is the size whose GPUs are the
    // most productive, not the smallest: the smallest size that runs a
    // large model is memory-bound (Llama 3 405B on 128 H100 runs only with
    // full recompute and ZeRO-3, 42% MFU against 51% on 512), so a line
    // from it would put the sweep above "ideal".
    for (const auto& p : r.points)
        if (p.best &&
            (r.baseGpus == 0 || p.best->tokensPerS / double(p.gpus) > r.baseTokensPerS / double(r.baseGpus))) {
            r.baseGpus = p.gpus;
            r.baseTokensPerS = p.best->tokensPerS;
        }
    if (r.baseGpus == 0) {
        r.error = "no size from " + formatCount(sizes.front()) + " to " + formatCount(sizes.back()) +
            " GPUs runs the model with any layout";
        return r;
    }
    // Karp and Flatt 1990: e = (1/S - 1/n) / (1 - 1/n), the serial fraction
    // that makes Amdahl's law give the speedup S the model finds from the
    // anchor to the design's size, n times the GPUs. S <= n by the anchor's
    // choice, so e >= 0.
    if (const SweepPoint* d = r.designPoint(); d && d->best && d->gpus > r.baseGpus) {
        const double n = double(d->gpus) / double(r.baseGpus);
        const double speedup = d->best->tokensPerS / r.baseTokensPerS;
        r.amdahlSerialFraction = std::clamp((1 / speedup - 1 / n) / (1 - 1 / n), 0.0, 1.0);
    }
    r.stopsPaying = stopsPayingSentence(r.points);
    double fastest = 0, cheapest = 0;
    for (const auto& p : r.points) {
        if (!p.best || p.best->goodput <= 0)
            continue;
        if (r.fastestGpus == 0 || p.best->wallDays < fastest) {
            r.fastestGpus = p.gpus;
            fastest = p.best->wallDays;
        }
        if (p.best->ownedRunCostUsd && (r.cheapestGpus == 0 || *p.best->ownedRunCostUsd < cheapest)) {
            r.cheapestGpus = p.gpus;
            cheapest = *p.best->ownedRunCostUsd;
        }
    }
    return r;
}

double idealTokensPerS(const SweepResult& r, std::int64_t gpus)
{
    return r.baseGpus > 0 ? r.baseTokensPerS * double(gpus) / double(r.baseGpus) : 0;
}

double amdahlTokensPerS(const SweepResult& r, std::int64_t gpus)
{
    if (r.baseGpus == 0 || !r.amdahlSerialFraction)
        return 0;
    return r.baseTokensPerS * fleet::amdahlSpeedup(*r.amdahlSerialFraction, double(gpus) / double(r.baseGpus));
}

double gustafsonTokensPerS(const SweepResult& r, std::int64_t gpus)
{
    if (r.baseGpus == 0 || !r.amdahlSerialFraction)
        return 0;
    // Gustafson 1988: scaled speedup n - s (n - 1).
    const double n = double(gpus) / double(r.baseGpus), s = *r.amdahlSerialFraction;
    return r.baseTokensPerS * (n - s * (n - 1));
}

}  // namespace studio
