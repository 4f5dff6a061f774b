#include "core/serving/serving_search.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <memory>
#include <tuple>

#include "core/analysis/hardware_profile.h"
#include "core/analysis/inventory.h"
#include "core/analysis/power.h"
#include "core/design/defaults.h"
#include "core/design/design_index.h"
#include "core/serving/disaggregation.h"
#include "core/serving/replica.h"
#include "core/serving/serving.h"
#include "core/text.h"

namespace studio {
namespace {

// The most GPUs one copy of a disaggregated layout takes: the counts of
// its workers range up to it (AIConfigurator's replicas are of this order),
// and a larger design holds several copies.
constexpr std::int64_t kMaxCopyGpus = 128;

struct Shape {
    std::int64_t tp = 1, pp = 1, ep = 1;
    std::int64_t gpus() const { return tp * pp; }
};

// A replica's or a worker's layouts: tp in powers of two within the NVLink
// domain (tensor parallelism's all-reduces stay on the scale-up tier), pp in
// powers of two, ep (a mixture of experts) in powers of two dividing the
// experts and the worker's GPUs. The analysis rejects what does not split
// the model's heads or layers.
std::vector<Shape> shapesOn(std::int64_t gpus, std::int64_t domain, const ModelSpec& m)
{
    std::vector<Shape> out;
    const std::int64_t experts = m.experts.value_or(0);
    for (std::int64_t tp = 1; tp <= std::min(gpus, domain); tp *= 2)
        for (std::int64_t pp = 1; tp * pp <= gpus && pp <= m.layers; pp *= 2)
            for (std::int64_t ep = 1; ep == 1 || (ep <= experts && ep <= tp * pp); ep *= 2) {
                if (ep == 1 || (experts % ep == 0 && (tp * pp) % ep == 0))
                    out.push_back({tp, pp, ep});
                if (experts == 0)
                    break;
            }
    return out;
}

int precisionRank(const std::string& p)
{
    return p == "bf16" ? 0 : p == "fp8" ? 1 : 2;
}

// Ties go to the simpler configuration: fewer GPUs per replica (or copy),
// fewer pipeline stages, fewer workers, the wider precision.
auto simplicity(const ServingCandidate& c)
{
    return std::make_tuple(c.gpusPerReplica, c.pp + c.prefill.pp.value_or(1) + c.decode.pp.value_or(1),
                           c.prefill.workers + c.decode.workers, precisionRank(c.weightPrecision),
                           precisionRank(c.kvPrecision), c.tp, c.ep, c.prefill.tp.value_or(1),
                           c.decode.tp.value_or(1));
}

bool better(const ServingCandidate& a, const ServingCandidate& b)
{
    if (a.tokensPerSPerGpu != b.tokensPerSPerGpu)
        return a.tokensPerSPerGpu > b.tokensPerSPerGpu;
    return simplicity(a) < simplicity(b);
}

ServingCandidate candidateOf(const Serving& s)
{
    ServingCandidate c;
    c.mode = s.mode;
    c.weightPrecision = s.weightPrecision;
    c.kvPrecision = s.kvPrecision;
    if (const auto& d = s.disaggregation) {
        c.prefill = {d->prefill.workers, d->prefill.tp, d->prefill.pp, d->prefill.ep};
        c.decode = {d->decode.workers, d->decode.tp, d->decode.pp, d->decode.ep};
        c.kvTransferS = d->kvTransferS;
    } else {
        c.tp = s.tp;
        c.pp = s.pp;
        c.ep = s.ep;
    }
    c.batch = s.batch;
    c.gpusPerReplica = s.gpusPerReplica;
    c.replicas = s.replicasInDesign;
    c.ttftS = s.ttftS;
    c.tpotS = s.decode.tpotS;
    c.e2eS = s.e2eS;
    c.tokensPerSPerUser = s.decode.tokensPerSPerUser;
    c.tokensPerSPerGpu = s.tokensPerSPerDesignGpu(s.decode);
    c.tokensPerSPerKw = s.tokensPerSPerDesignKw(s.decode);
    return c;
}

// 1.003 -> "1.00x": three figures, so a near tie does not read "1x".
std::string times(double ratio)
{
    return formatReadable(ratio, 3) + "x";
}

// Which kind wins, and why: the aggregated replica's prompts sharing its
// steps, the batch each runs, what limits the disaggregated copy and what
// its KV moves cost.
std::string verdictOf(const Serving& agg, const ServingCandidate& a, const Serving& dis, const ServingCandidate& d)
{
    const Disaggregation& x = *dis.disaggregation;
    const bool splitWins = better(d, a);
    const ServingCandidate& w = splitWins ? d : a;
    const ServingCandidate& l = splitWins ? a : d;
    std::string s = std::string(splitWins ? "Disaggregated" : "Aggregated") + " wins here: " +
        describeServingCandidate(w) + " serves " + times(w.tokensPerSPerGpu / l.tokensPerSPerGpu) +
        " the tokens/s per GPU of the best " + (splitWins ? "aggregated" : "disaggregated") + " layout (" +
        describeServingCandidate(l) + "). ";
    s += "Aggregated, steps carrying prompt chunks take " + formatPercent(agg.decode.prefillShare, false) +
        " of a request's time at batch " + formatCount(agg.batch) + "; disaggregated, the decode workers run batch " +
        formatCount(dis.batch) + " on decode steps alone, the copy is limited by " +
        (x.limitedBy == "kv_links" ? std::string("the links moving the KV cache") : "its " + x.limitedBy + " workers") +
        " (prefill " + formatPercent(x.prefill.utilization, false) + " busy, decode " +
        formatPercent(x.decode.utilization, false) + "), and moving a prompt's KV cache adds " +
        formatSeconds(x.kvTransferS) + " (" + formatPercent(x.kvTransferS / dis.ttftS, false) + " of its TTFT).";
    return s;
}

}  // namespace

std::string describeServingCandidate(const ServingCandidate& c)
{
    const auto layout = [](std::int64_t tp, std::int64_t pp, std::int64_t ep) {
        std::string t = "tp " + formatCount(tp);
        if (pp > 1)
            t += " pp " + formatCount(pp);
        if (ep > 1)
            t += " ep " + formatCount(ep);
        return t;
    };
    const std::string precision = c.weightPrecision + "/" + c.kvPrecision;
    if (c.mode != "disaggregated")
        return layout(c.tp, c.pp, c.ep) + " · " + precision;
    const auto workers = [&](const ServingWorkers& k, const char* kind) {
        return formatCount(k.workers) + " " + kind + " " + layout(k.tp.value_or(1), k.pp.value_or(1), k.ep.value_or(1));
    };
    return workers(c.prefill, "prefill") + " + " + workers(c.decode, "decode") + " · " + precision;
}

std::vector<ServingCandidate> rankedCandidates(const ServingSearchResult& r)
{
    std::vector<ServingCandidate> all = r.aggregated;
    all.insert(all.end(), r.disaggregated.begin(), r.disaggregated.end());
    std::sort(all.begin(), all.end(), better);
    return all;
}

void applyServingCandidate(Workload& w, const ServingCandidate& c)
{
    ServingSpec& s = *w.serving;
    s.weight_precision = c.weightPrecision;
    s.kv_precision = c.kvPrecision;
    if (s.batch.value_or(0) > 0)
        s.batch = c.batch;
    if (c.mode == "disaggregated") {
        DisaggregatedSpec d;
        d.prefill = c.prefill;
        d.decode = c.decode;
        s.disaggregated = std::move(d);
    } else {
        s.disaggregated.reset();
        w.parallelism.tp = c.tp;
        w.parallelism.pp = c.pp;
        w.parallelism.ep = c.ep;
    }
}

ServingSearchResult searchServing(const Design& design, const Catalog& catalog, const ServingSearchOptions& o)
{
    ServingSearchResult res;
    const Workload& w = design.workload;
    if (!w.isServing() || !w.serving) {
        res.error = "the workload is not serving (workload.kind): the layout search ranks training layouts";
        return res;
    }
    const DesignIndex index(design, catalog);
    const Inventory inv = takeInventory(index);
    res.gpus = inv.gpus;
    if (inv.gpus == 0) {
        res.error = "the design has no GPUs: add accelerators inside nodes";
        return res;
    }
    const ServingSpec& spec = *w.serving;
    std::vector<Problem> warnings;
    const Power power = modelPower(index, inv, design.facility, warnings);
    const std::string ownWeights = orDefault(spec.weight_precision, defaults::kServingPrecision);
    const std::string ownKv = orDefault(spec.kv_precision, defaults::kServingPrecision);

    // The precisions the GPU has a peak for (the design's own always).
    std::map<std::string, std::unique_ptr<HardwareProfile>> hardware;
    for (const char* p : {"bf16", "fp8", "fp4"}) {
        if (!o.varyPrecision && p != ownWeights)
            continue;
        auto hw = std::make_unique<HardwareProfile>(profileHardware(index, inv, p, warnings));
        if (hw->gpu.trainingPrecision == p)
            hardware[p] = std::move(hw);
    }
    std::vector<std::pair<std::string, std::string>> precisions;
    for (const auto& [weights, hw] : hardware)
        for (const char* kv : {"bf16", "fp8"})
            if (o.varyPrecision ? (std::string(kv) == "bf16" || hardware.count("fp8")) : kv == ownKv)
                precisions.emplace_back(weights, kv);
    const std::int64_t domain = hardware.empty() ? 1 : hardware.begin()->second->scaleupDomainGpus;
    const std::vector<Shape> shapes = shapesOn(inv.gpus, std::max<std::int64_t>(1, domain), w.model);

    const auto evaluate = [&](const Design& d, const HardwareProfile& hw) {
        ++res.modelled;
        return analyzeServing(d, index, inv, hw, power);
    };
    Design trial = design;
    ServingSpec& trialSpec = *trial.workload.serving;
    trialSpec.batch = 0;
    const double total = double(precisions.size()) * (o.aggregated ? 1 : 0) + double(precisions.size()) *
        (o.disaggregated ? 1 : 0);
    double done = 0;
    const auto step = [&] {
        done += 1;
        if (o.progress && total > 0)
            o.progress(done / total);
        return o.cancel && o.cancel->load();
    };
    std::optional<Serving> bestAggregated, bestDisaggregated;
    const auto keep = [&](const Serving& s, std::vector<ServingCandidate>& into, std::optional<Serving>& best) {
        if (!s.ok()) {
            ++res.unfit;
            return;
        }
        if (!s.meetsLatencyTargets) {
            ++res.missTargets;
            return;
        }
        ++res.feasible;
        ServingCandidate c = candidateOf(s);
        if (!best || better(c, candidateOf(*best)))
            best = s;
        into.push_back(std::move(c));
    };

    // Aggregated: every replica layout at every precision, its batch the
    // largest the targets allow.
    if (o.aggregated)
        for (const auto& [weights, kv] : precisions) {
            trialSpec.weight_precision = weights;
            trialSpec.kv_precision = kv;
            trialSpec.disaggregated.reset();
            for (const Shape& sh : shapes) {
                ++res.space;
                trial.workload.parallelism.tp = sh.tp;
                trial.workload.parallelism.pp = sh.pp;
                trial.workload.parallelism.ep = sh.ep;
                keep(evaluate(trial, *hardware[weights]), res.aggregated, bestAggregated);
            }
            if (step()) {
                res.cancelled = true;
                return res;
            }
        }

    // Disaggregated: each worker layout set up once per precision; for a
    // pair of layouts, the counts whose copy serves the design the most
    // (the analysis's own rate: the slowest of the prefill workers at the
    // TTFT target, the links and the decode workers at the TPOT target).
    // That rate is what the analysis gives the configuration, or more (an
    // end-to-end target can only lower it): the plans are modelled best
    // first until the next cannot enter the top K.
    struct Plan {
        std::string weights, kv;
        DisaggregatedSpec split;
        double bound = 0;  // tokens/s per GPU of the design, at most
    };
    std::vector<Plan> plans;
    if (o.disaggregated && spec.output_tokens >= 2)
        for (const auto& [weights, kv] : precisions) {
            const HardwareProfile& hw = *hardware[weights];
            trialSpec.weight_precision = weights;
            trialSpec.kv_precision = kv;
            std::optional<Hierarchy> h;
            struct Worker {
                Shape shape;
                Replica prefill, decode;
                Serving prefillSide, decodeSide;
                std::unique_ptr<PrefillSteps> steps;
                bool prefillFits = false, decodeFits = false;
                double decodeRate = 0;  // requests/s one decode worker completes at the TPOT target
            };
            std::vector<std::unique_ptr<Worker>> workers;
            const DesignFacts facts{index, inv, &hw, &power};
            const double output = double(spec.output_tokens);
            for (const Shape& sh : shapes) {
                auto k = std::make_unique<Worker>();
                k->shape = sh;
                k->prefillSide.weightPrecision = k->decodeSide.weightPrecision = weights;
                k->prefillSide.kvPrecision = k->decodeSide.kvPrecision = kv;
                const std::string at = "/workload/serving/disaggregated/";
                k->prefillFits = prepareReplica(trial, facts, hw,
                                                {sh.tp, sh.pp, sh.ep, at + "prefill", double(spec.prompt_tokens), 0},
                                                h, k->prefillSide, k->prefill);
                k->decodeFits = prepareReplica(
                    trial, facts, hw,
                    {sh.tp, sh.pp, sh.ep, at + "decode", double(spec.prompt_tokens + spec.output_tokens), 0}, h,
                    k->decodeSide, k->decode);
                if (k->prefillFits)
                    k->steps = std::make_unique<PrefillSteps>(k->prefill, k->prefillSide.maxBatch);
                if (k->decodeFits) {
                    // The largest batch whose decode step meets the TPOT target.
                    const auto stepAt = [&](std::int64_t b) { return k->decode.decodeStep(b).stepS; };
                    const double target = spec.tpot_target_s.value_or(0);
                    std::int64_t lo = 0, hi = k->decodeSide.maxBatch;
                    while (lo < hi) {
                        const std::int64_t mid = lo + (hi - lo + 1) / 2;
                        if (target <= 0 || stepAt(mid) <= target)
                            lo = mid;
                        else
                            hi = mid - 1;
                    }
                    k->decodeFits = lo >= 1;
                    if (lo >= 1)
                        k->decodeRate = double(lo) / ((output - 1) * stepAt(lo));
                }
                workers.push_back(std::move(k));
            }
            const double ttftTarget = spec.ttft_target_s.value_or(0);
            for (const auto& pw : workers) {
                if (!pw->prefillFits)
                    continue;
                for (const auto& dw : workers) {
                    if (!dw->decodeFits)
                        continue;
                    const std::int64_t gp = pw->shape.gpus(), gd = dw->shape.gpus();
                    double bestRate = 0;
                    std::int64_t bestP = 0, bestD = 0, bestCopyGpus = 0;
                    const std::int64_t room = std::min(inv.gpus, kMaxCopyGpus);
                    for (std::int64_t p = 1; p * gp + gd <= room; ++p) {
                        // Past the decode workers that outpace the prefill
                        // workers' best (and past P, where the links stop
                        // gaining), more decode workers serve no more: the
                        // moves only reach farther, and copies only grow.
                        const double matched = std::ceil(double(p) * pw->steps->maxRequestsPerS / dw->decodeRate);
                        const std::int64_t enough = std::max<std::int64_t>(p, std::int64_t(std::min(matched, 1e9)));
                        for (std::int64_t d = 1; d <= enough && p * gp + d * gd <= room; ++d) {
                            ++res.space;
                            // At most the prefill workers' best rate with no
                            // target and no move: a copy that cannot beat the
                            // counts kept is not built.
                            const std::int64_t copyGpus = p * gp + d * gd;
                            const double bound = double(inv.gpus / copyGpus) *
                                std::min(double(p) * pw->steps->maxRequestsPerS, double(d) * dw->decodeRate);
                            if (bound < bestRate * (1 - 1e-12) ||
                                (bound <= bestRate * (1 + 1e-12) && copyGpus >= bestCopyGpus))
                                continue;
                            const WorkerGroup g(pw->prefill, *pw->steps, dw->decode, p, d, *h,
                                                dw->decodeSide.kvBytesPerToken, ttftTarget);
                            if (!g.ttftReachable())
                                continue;
                            const double r = std::min(
                                {double(p) * g.prefillRatePerWorker(), g.linkRate(), double(d) * dw->decodeRate});
                            const double designRate = double(inv.gpus / copyGpus) * r;
                            if (designRate > bestRate * (1 + 1e-12) ||
                                (designRate >= bestRate * (1 - 1e-12) && copyGpus < bestCopyGpus)) {
                                bestRate = std::max(bestRate, designRate);
                                bestP = p;
                                bestD = d;
                                bestCopyGpus = copyGpus;
                            }
                        }
                    }
                    if (bestP == 0) {
                        ++res.missTargets;
                        continue;
                    }
                    Plan plan{weights, kv, {}, bestRate * output / double(inv.gpus)};
                    plan.split.prefill = {bestP, pw->shape.tp, pw->shape.pp, pw->shape.ep};
                    plan.split.decode = {bestD, dw->shape.tp, dw->shape.pp, dw->shape.ep};
                    plans.push_back(std::move(plan));
                }
            }
            if (step()) {
                res.cancelled = true;
                return res;
            }
        }

    std::stable_sort(plans.begin(), plans.end(), [](const Plan& a, const Plan& b) { return a.bound > b.bound; });
    std::vector<double> kept;  // the modelled candidates' objectives, a min-heap of the best K
    for (const Plan& plan : plans) {
        if (std::int64_t(kept.size()) >= o.top && plan.bound < kept.front() * (1 - 1e-9)) {
            ++res.pruned;
            continue;
        }
        trialSpec.weight_precision = plan.weights;
        trialSpec.kv_precision = plan.kv;
        trialSpec.disaggregated = plan.split;
        const std::size_t before = res.disaggregated.size();
        keep(evaluate(trial, *hardware[plan.weights]), res.disaggregated, bestDisaggregated);
        if (res.disaggregated.size() > before) {
            kept.push_back(res.disaggregated.back().tokensPerSPerGpu);
            std::push_heap(kept.begin(), kept.end(), std::greater<>());
            if (std::int64_t(kept.size()) > o.top) {
                std::pop_heap(kept.begin(), kept.end(), std::greater<>());
                kept.pop_back();
            }
        }
    }

    for (auto* list : {&res.aggregated, &res.disaggregated}) {
        std::sort(list->begin(), list->end(), better);
        if (list->size() > std::size_t(o.top))
            list->resize(std::size_t(o.top));
    }
    const Serving own = evaluate(design, profileHardware(index, inv, ownWeights, warnings));
    res.currentFeasible = own.ok() && own.meetsLatencyTargets;
    res.currentWhyNot = own.ok() ? own.whyNotMet : own.errors.front().message;
    if (own.ok())
        res.current = candidateOf(own);
    const auto frontierOf = [&](const std::optional<Serving>& best) {
        std::vector<ServingSearchResult::FrontierPoint> out;
        if (best)
            for (const DecodePoint& p : best->curve)
                out.push_back({p.batch, p.tokensPerSPerUser, best->tokensPerSPerDesignGpu(p)});
        return out;
    };
    res.aggregatedFrontier = frontierOf(bestAggregated);
    res.disaggregatedFrontier = frontierOf(bestDisaggregated);
    if (bestAggregated && bestDisaggregated)
        res.verdict = verdictOf(*bestAggregated, res.aggregated.front(), *bestDisaggregated, res.disaggregated.front());
    else if (bestAggregated || bestDisaggregated)
        res.verdict = std::string(bestAggregated ? "Only aggregated" : "Only disaggregated") +
            " layouts meet the targets here.";
    else
        res.verdict = "No layout meets the targets on these GPUs.";
    return res;
}

}  // namespace studio
