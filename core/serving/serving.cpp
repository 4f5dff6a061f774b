#include "core/serving/serving.h"

#include <algorithm>
#include <cmath>

#include "core/analysis/collectives.h"
#include "core/analysis/fleet_formulas.h"
#include "core/analysis/hardware_profile.h"
#include "core/analysis/hierarchy.h"
#include "core/analysis/inventory.h"
#include "core/analysis/power.h"
#include "core/analysis/workload_shape.h"
#include "core/design/defaults.h"
#include "core/design/design_index.h"
#include "core/serving/disaggregation.h"
#include "core/serving/replica.h"
#include "core/text.h"

namespace studio {
namespace {

std::string seconds(double s)
{
    return formatValue(s, 3) + " s";  // "0.001 s", not "0.00100 s"
}

// "2 prefill workers of 4 GPUs"
std::string workersText(const ServingWorker& k, const std::string& kind)
{
    return formatCount(k.workers) + " " + kind + (k.workers == 1 ? " worker" : " workers") + " of " +
        formatCount(k.gpus) + (k.gpus == 1 ? " GPU" : " GPUs");
}

// How a prompt reaches its first token in an engine run, for messages.
std::string prefillStory(const EngineRun& e)
{
    std::string story = formatCount(std::int64_t(e.promptSteps)) + " step" + (e.promptSteps > 1 ? "s" : "") +
        " of " + formatCount(std::int64_t(std::round(e.prefillTokensPerMixStep))) + " prompt tokens, " +
        seconds(e.mixStepS) + " each";
    const double queuedS = e.ttftS - e.arrivalWaitS - e.promptSteps * e.mixStepS;  // behind the others' prompts
    if (e.arrivalWaitS > 0)
        story += ", after " + seconds(e.arrivalWaitS + std::max(0.0, queuedS)) + " waiting for the step in flight" +
            (queuedS > 0 ? " and the other users' prompts" : "");
    return story;
}

// What the other users' prompts add to a decode, for messages.
std::string decodeStory(const EngineRun& e)
{
    if (e.mixStepsPerCycle <= e.promptSteps)
        return "";
    return "; the other users' prompt chunks make " + formatValue(e.mixStepsPerCycle - e.promptSteps, 3) +
        " of its steps " + seconds(e.mixStepS) + " long";
}

Serving serve(const Design& design, const DesignFacts& facts, const ReplicaVisit* visit = nullptr)
{
    Serving s;
    const Workload& w = design.workload;
    if (!w.isServing() || !w.serving) {
        s.errors.push_back(
            servingError("/workload/kind", "the workload is not serving (workload.kind)", "not_serving"));
        return s;
    }
    const ServingSpec& spec = *w.serving;
    const DesignIndex& index = facts.index;
    const Inventory& inv = facts.inv;
    if (inv.gpus == 0) {
        s.errors.push_back(
            servingError("/components", "the design has no GPUs: add accelerators inside nodes", "no_gpus"));
        return s;
    }
    s.designGpus = inv.gpus;
    s.weightPrecision = orDefault(spec.weight_precision, defaults::kServingPrecision);
    s.kvPrecision = orDefault(spec.kv_precision, defaults::kServingPrecision);
    std::vector<Problem> warnings;
    std::optional<HardwareProfile> profiled;
    if (!facts.hardware)
        profiled = profileHardware(index, inv, s.weightPrecision, warnings);
    const HardwareProfile& hw = facts.hardware ? *facts.hardware : *profiled;
    if (hw.gpu.trainingPrecision != s.weightPrecision) {
        s.errors.push_back(servingError("/workload/serving/weight_precision",
                                        inQuotes(hw.gpu.name) + " has no " + s.weightPrecision +
                                            " peak in the catalog: serve its weights in a precision it has",
                                        "precision_unsupported"));
        return s;
    }
    const std::int64_t asked = spec.batch.value_or(0);
    const double context = double(spec.prompt_tokens + spec.output_tokens);
    std::optional<Hierarchy> h;
    Replica r;  // the replica, or (disaggregated) a decode worker
    Replica prefillWorker;
    std::optional<PrefillSteps> prefillSteps;
    std::optional<WorkerGroup> group;
    if (const auto& split = spec.disaggregated) {
        s.mode = "disaggregated";
        const std::string at = "/workload/serving/disaggregated";
        const auto layout = [&](const ServingWorkers& k, const std::string& kind, double tokens, std::int64_t batch) {
            return ReplicaLayout{k.tp.value_or(1), k.pp.value_or(1), k.ep.value_or(1), at + "/" + kind, tokens, batch};
        };
        if (spec.output_tokens < 2) {
            s.errors.push_back(
                servingError("/workload/serving/output_tokens",
                             "a disaggregated layout needs at least 2 output tokens: the first comes from the "
                             "prefill worker, the rest from a decode worker",
                             "out_of_range"));
            return s;
        }
        // The prefill workers hold a prompt's KV cache until it moves; the
        // decode workers hold whole sequences.
        Serving prefillSide = s;
        if (!prepareReplica(design, facts, hw, layout(split->prefill, "prefill", double(spec.prompt_tokens), 0), h,
                            prefillSide, prefillWorker))
            s.errors = std::move(prefillSide.errors);
        if (!prepareReplica(design, facts, hw, layout(split->decode, "decode", context, asked), h, s, r) || !s.ok())
            return s;
        Disaggregation& d = s.disaggregation.emplace();
        const auto worker = [](const Serving& side, std::int64_t count) {
            ServingWorker k;
            k.workers = count;
            k.tp = side.tp;
            k.pp = side.pp;
            k.ep = side.ep;
            k.gpus = side.gpusPerReplica;
            k.weightsGbPerGpu = side.weightsGbPerGpu;
            k.maxBatch = side.maxBatch;
            return k;
        };
        d.prefill = worker(prefillSide, split->prefill.workers);
        d.decode = worker(s, split->decode.workers);
        d.gpusPerCopy = d.prefill.workers * d.prefill.gpus + d.decode.workers * d.decode.gpus;
        if (d.gpusPerCopy > inv.gpus) {
            s.errors.push_back(servingError(
                at,
                workersText(d.prefill, "prefill") + " and " + workersText(d.decode, "decode") + " take " +
                    formatCount(d.gpusPerCopy) + " GPUs, more than the " + formatCount(inv.gpus) + " the design has",
                "too_many"));
            s.disaggregation.reset();
            return s;
        }
        d.copies = inv.gpus / d.gpusPerCopy;
        s.gpusPerReplica = d.gpusPerCopy;
        s.replicasInDesign = d.copies;
        prefillSteps.emplace(prefillWorker, prefillSide.maxBatch);
        group.emplace(prefillWorker, *prefillSteps, r, d.prefill.workers, d.decode.workers, *h, s.kvBytesPerToken,
                      spec.ttft_target_s.value_or(0));
        // Only a scale-up domain can have no bandwidth: a scale-out tier
        // exists only where the nodes' links have some (profileHardware).
        if (group->kvBlockedTier()) {
            s.errors.push_back(
                noScaleupPath("the hand-off of each prompt's KV cache from its prefill worker to a decode worker", hw));
            s.disaggregation.reset();
            return s;
        }
        // Past the batch the prefill workers (or the links) keep full, a
        // decode worker serves no more.
        s.maxBatch = group->matchedBatch(s.maxBatch);
        if (asked > s.maxBatch)
            s.maxBatch = asked;
    } else if (!prepareReplica(design, facts, hw,
                               ReplicaLayout{w.parallelism.tp.value_or(1), w.parallelism.pp.value_or(1),
                                             w.parallelism.ep.value_or(1), "/workload/parallelism", context, asked},
                               h, s, r)) {
        return s;
    }
    // The figures at a batch: a replica's users as its engine serves them,
    // or the disaggregated copy with its decode workers at that batch.
    const auto pointAt = [&](std::int64_t b) { return group ? group->at(b).point : r.decode(b); };

    s.prefillS = group ? group->prefillS() : r.prefillS();
    auto meets = [&](const DecodePoint& p) {
        return (!spec.ttft_target_s || p.ttftS <= *spec.ttft_target_s) &&
            (!spec.tpot_target_s || p.tpotS <= *spec.tpot_target_s) &&
            (!spec.e2e_target_s || p.e2eS <= *spec.e2e_target_s);
    };
    // The largest batch in [lo, hi] where `ok` holds, by bisection: `ok`
    // holds from batch 1 up to some largest (the latencies grow with the
    // batch) and is known to hold at lo (lo 0: nothing known).
    auto largest = [&](auto ok, std::int64_t lo, std::int64_t hi) {
        while (lo < hi) {
            const std::int64_t mid = lo + (hi - lo + 1) / 2;
            if (ok(mid))
                lo = mid;
            else
                hi = mid - 1;
        }
        return lo;
    };
    // The curve: batch 1, 2, 4, ... up to the largest the engine holds. Its
    // batches bracket where the targets stop being met and where the load
    // settles, so each search below bisects one octave of it.
    for (std::int64_t b = 1;; b *= 2) {
        s.curve.push_back(pointAt(std::min(b, s.maxBatch)));
        if (b >= s.maxBatch)
            break;
    }
    if (asked > 0) {
        s.batch = asked;
    } else {
        std::int64_t lo = 0, hi = s.maxBatch;
        for (const DecodePoint& p : s.curve) {
            if (!meets(p)) {
                hi = p.batch - 1;
                break;
            }
            lo = p.batch;
        }
        s.batch = std::max<std::int64_t>(1, largest([&](std::int64_t b) { return meets(pointAt(b)); }, lo, hi));
    }
    s.decode = pointAt(s.batch);
    if (group) {
        const GroupPoint g = group->at(s.batch);
        Disaggregation& d = *s.disaggregation;
        d.requestsPerS = g.requestsPerS;
        d.limitedBy = g.limitedBy;
        d.promptsPerStep = g.promptsPerStep;
        d.promptsPerStepMax = group->promptsPerStepMax();
        d.prefillStepS = g.prefillStepS;
        d.prefill.requestsPerS = group->prefillRatePerWorker();
        d.prefill.utilization = g.prefillUtilization;
        d.decode.requestsPerS = g.requestsPerS / g.decodeUtilization / double(d.decode.workers);
        d.decode.utilization = g.decodeUtilization;
        d.kvBytesPerRequest = group->kvBytesPerRequest();
        d.kvTransferS = group->kvTransferS();
        d.kvLinkShare = group->kvLinkShare(g.requestsPerS);
        d.kvTiers = group->kvTiers();
    }
    s.ttftS = s.decode.ttftS;
    s.e2eS = s.decode.e2eS;
    if (r.measured()) {
        const double context = double(spec.prompt_tokens) + double(spec.output_tokens) / 2;
        const auto tier = [](KernelValue v) { return std::string(kernelTierName(v.tier)); };
        s.kernelSource = "GEMMs at each shape " + tier(r.stageGemmS(double(s.batch), double(s.batch))) +
            (r.activationScale ? " (static activation scales: the table's dynamic scaling step taken off)" : "") +
            ", prefill attention " + tier(r.stagePrefillAttentionS(double(spec.prompt_tokens))) +
            ", decode attention " + tier(r.stageDecodeAttentionS(double(s.batch), context)) + ": " +
            hw.gpu.kernels->citation();
    }
    // The first batch whose step is compute-bound (compute grows faster
    // with the batch than the reads do, or never catches up).
    const std::int64_t bound =
        largest([&](std::int64_t b) { return r.roofline(double(b)).bandwidthBound(); }, 0, s.maxBatch);
    s.ridgeBatch = bound < s.maxBatch ? bound + 1 : 0;
    s.kvCacheGbPerReplica = double(s.batch) * s.kvGbPerSequence;

    // The targets, the first one missed said with its cause.
    const DecodePoint& d = s.decode;
    const std::string bottleneck = d.bandwidthBound()
        ? "bandwidth-bound: " + gbText((d.memoryS) * r.hbmBytesPerS) + " of weights and KV cache read per GPU per step"
        : "compute-bound at batch " + formatCount(d.batch);
    const std::string atBatch = asked == 0 ? "even at batch 1 " : "at batch " + formatCount(d.batch) + " ";
    if (spec.ttft_target_s && s.ttftS > *spec.ttft_target_s)
        s.whyNotMet = "the time-to-first-token target of " + seconds(*spec.ttft_target_s) + " is missed: " + atBatch +
            "a prompt of " + formatCount(spec.prompt_tokens) + " tokens reaches its first token after " +
            seconds(s.ttftS) + " on " + formatCount(r.gpus) + " GPUs (" + prefillStory(d.engine) +
            (group ? ", then " + seconds(group->kvTransferS()) + " moving its KV cache to a decode worker" : "") + ")";
    else if (spec.tpot_target_s && d.tpotS > *spec.tpot_target_s)
        s.whyNotMet = "the time-per-output-token target of " + seconds(*spec.tpot_target_s) + " is missed: " +
            atBatch + "an output token takes " + seconds(d.tpotS) + ": a decode step alone " + seconds(d.stepS) +
            " (" + bottleneck + ")" + decodeStory(d.engine);
    else if (spec.e2e_target_s && s.e2eS > *spec.e2e_target_s)
        s.whyNotMet = "the end-to-end target of " + seconds(*spec.e2e_target_s) +
            " is missed: " + formatCount(spec.output_tokens) + " tokens take " + seconds(s.e2eS) + " at batch " +
            formatCount(d.batch);
    s.meetsLatencyTargets = s.whyNotMet.empty();
    s.tpotTargetS = spec.tpot_target_s.value_or(0);

    // Little's law (seed 002): requests in flight = arrival rate x latency;
    // a replica holds `batch` of them, and so completes batch / e2e
    // requests a second: the replicas the rate needs are the rate over
    // that (a disaggregated copy's rate is its own).
    const double arrival = s.arrivalRatePerS = spec.arrival_rate_per_s.value_or(0);
    s.concurrentRequests = fleet::littleConcurrency(arrival, s.e2eS);
    const double output = double(spec.output_tokens);
    const double replicas = arrival > 0 ? std::ceil(arrival * output / s.decode.tokensPerSPerReplica) : 0;
    const double gpusPerReplica = double(s.gpusPerReplica);
    // No design holds more GPUs than kMaxInstances, and past it the counts
    // overflowed (fuzz_set: a millionth of the HBM bandwidth at 10^9
    // requests/s needed 10^20 replicas).
    if (replicas * gpusPerReplica > double(kMaxInstances)) {
        s.errors.push_back(servingError("/workload/serving/arrival_rate_per_s",
                                        formatReadable(arrival) + " requests/s, each " + seconds(s.e2eS) +
                                            " end to end, keep " + formatValue(s.concurrentRequests, 3) +
                                            " requests in flight: " + formatValue(replicas * gpusPerReplica, 3) +
                                            " GPUs in replicas of batch " + formatCount(s.batch) + ", more than the " +
                                            formatCount(kMaxInstances) + " a design can hold",
                                        "too_many"));
        return s;
    }
    s.replicasNeeded = std::int64_t(replicas);
    s.gpusNeeded = s.replicasNeeded * s.gpusPerReplica;

    // Operation at the arrival rate: the load spread over the design's
    // replicas (over the replicas it needs, when it holds fewer), each
    // holding the requests Little's law gives at the latencies they cause:
    // the fewest N with arrival per replica x e2e(N) <= N, that is with
    // the replica completing the arrivals (a disaggregated copy: its
    // decode workers at N each). The batch the
    // replicas were sized at holds its share (replicas needed rounds up),
    // so N is found between 1 and it.
    if (arrival > 0) {
        ServingOperation& o = s.operation;
        o.replicas = std::max(s.replicasInDesign, s.replicasNeeded);
        o.designHoldsLoad = s.replicasInDesign >= s.replicasNeeded;
        o.arrivalPerReplica = arrival / double(o.replicas);
        const auto settles = [&](const DecodePoint& p) {
            return o.arrivalPerReplica * output <= p.tokensPerSPerReplica;
        };
        std::int64_t lo = 0, hi = s.batch;  // settles at hi, not at lo
        for (const DecodePoint& p : s.curve) {
            if (p.batch >= hi)
                break;
            if (settles(p)) {
                hi = p.batch;
                break;
            }
            lo = p.batch;
        }
        while (hi - lo > 1) {
            const std::int64_t mid = lo + (hi - lo) / 2;
            (settles(pointAt(mid)) ? hi : lo) = mid;
        }
        o.at = pointAt(hi);
        o.inFlightPerReplica = o.arrivalPerReplica * o.at.e2eS;
        o.tokensPerSPerGpu = o.arrivalPerReplica * output / gpusPerReplica;
    }

    // Energy: the replica's GPUs' share of the design's facility power.
    std::optional<Power> modelled;
    if (!facts.power)
        modelled = modelPower(index, inv, design.facility, warnings);
    const Power& power = facts.power ? *facts.power : *modelled;
    s.designFacilityKw = power.facilityKw;
    s.kwPerReplica = power.facilityKw / double(inv.gpus) * gpusPerReplica;
    s.kwhPerMillionTokens = s.kwPerReplica / (d.tokensPerSPerReplica * 3600) * 1e6;
    s.pricePerKwh = power.pricePerKwh.value;
    s.usdPerMillionTokens = s.kwhPerMillionTokens * s.pricePerKwh;
    if (visit && !group)
        (*visit)(s, r);  // while the hierarchy its tiers point into lives
    return s;
}

}  // namespace

Serving analyzeServing(const Design& design, const Catalog& catalog)
{
    const DesignIndex index(design, catalog);
    const Inventory inv = takeInventory(index);
    return serve(design, {index, inv});
}

Serving analyzeServing(const Design& design, const Catalog& catalog, const ReplicaVisit& visit)
{
    const DesignIndex index(design, catalog);
    const Inventory inv = takeInventory(index);
    return serve(design, {index, inv}, &visit);
}

Serving analyzeServing(const Design& design, const DesignIndex& index, const Inventory& inventory,
                       const HardwareProfile& hardware, const Power& power)
{
    return serve(design, {index, inventory, &hardware, &power});
}

std::vector<Problem> servingProblems(const Design& design, const Catalog& catalog)
{
    if (!design.workload.isServing())
        return {};
    return analyzeServing(design, catalog).errors;
}

std::string describeServingLayout(const Serving& s)
{
    const auto shape = [](std::int64_t tp, std::int64_t pp, std::int64_t ep) {
        return "tp " + formatCount(tp) + " x pp " + formatCount(pp) + (ep > 1 ? " (ep " + formatCount(ep) + ")" : "");
    };
    if (const auto& d = s.disaggregation) {
        const auto workers = [&](const ServingWorker& k, const char* kind) {
            return formatCount(k.workers) + " " + kind + (k.workers == 1 ? " worker" : " workers") + " of " +
                shape(k.tp, k.pp, k.ep);
        };
        return "split: " + workers(d->prefill, "prefill") + " + " + workers(d->decode, "decode") + ", copies of " +
            formatCount(d->gpusPerCopy) + " GPUs";
    }
    return "replicas of " + shape(s.tp, s.pp, s.ep);
}

GpuRoles servingRoles(const Disaggregation& d, std::int64_t first, std::int64_t count)
{
    const std::int64_t copy = d.gpusPerCopy, cut = d.prefill.workers * d.prefill.gpus;
    const std::int64_t used = d.copies * copy;
    // GPUs below x that serve, and those of them in prefill workers.
    const auto served = [&](std::int64_t x) { return std::min(x, used); };
    const auto prefill = [&](std::int64_t x) {
        const std::int64_t n = served(x);
        return copy > 0 ? (n / copy) * cut + std::min(n % copy, cut) : 0;
    };
    GpuRoles r;
    r.prefill = prefill(first + count) - prefill(first);
    r.decode = served(first + count) - served(first) - r.prefill;
    return r;
}

std::vector<RooflinePoint> decodeRooflinePoints(const Serving& s, double hbmTbPerS)
{
    std::vector<RooflinePoint> points;
    if (!s.ok())
        return points;
    for (const DecodePoint& d : s.curve) {
        RooflinePoint p{"decode, batch " + formatCount(d.batch), "decode", d.flopsPerGpu / d.bytesPerGpu};
        p.attainableTflops = fleet::attainableFlopsPerS(p.intensity, s.peakTflops * 1e12, hbmTbPerS * 1e12) / 1e12;
        p.achievedTflops = d.flopsPerGpu / d.stepS / 1e12;
        p.bound = d.bandwidthBound() ? "memory" : "compute";
        points.push_back(std::move(p));
    }
    return points;
}

}  // namespace studio
