#include "core/serving/disaggregation.h"

#include <algorithm>
#include <cmath>

namespace studio {
namespace {

// GPUs of a replica that hold a distinct shard of the KV cache and send or
// receive it in parallel: tp splits the KV heads (a rank beyond kv_heads
// holds a copy), pp the layers.
double kvShards(const Replica& r)
{
    return double(std::min(r.tp, r.shape.kvHeads) * r.pp);
}

// Tokens a prefill step with k prompts carries: the prompts, or one
// prompt's chunk of the budget.
double promptTokensPerStep(const Replica& prefill, std::int64_t k)
{
    const double prompt = double(prefill.prompt);
    return prompt <= prefill.engineStepTokens ? double(k) * prompt : prefill.engineStepTokens;
}

}  // namespace

PrefillSteps::PrefillSteps(const Replica& prefill, std::int64_t maxPrompts)
{
    const double prompt = double(prefill.prompt);
    const double budget = std::floor(prefill.engineStepTokens / prompt);
    const std::int64_t fit = std::clamp<std::int64_t>(
        std::int64_t(std::min(budget, double(kMaxPromptsPerPrefillStep))), 1,
        std::clamp<std::int64_t>(maxPrompts, 1, kMaxPromptsPerPrefillStep));
    for (std::int64_t k = 1; k <= fit; ++k) {
        const double tokens = promptTokensPerStep(prefill, k);
        stepS.push_back(prefill.stepS(0, tokens));
        maxRequestsPerS = std::max(maxRequestsPerS, double(k) / (std::ceil(prompt / tokens) * stepS.back()));
    }
}

WorkerGroup::WorkerGroup(const Replica& prefill, const PrefillSteps& steps, const Replica& decode,
                         std::int64_t prefillWorkers, std::int64_t decodeWorkers, const Hierarchy& h,
                         double kvBytesPerToken, double ttftTargetS)
    : prefill_(prefill), decode_(decode), p_(prefillWorkers), d_(decodeWorkers), steps_(steps)
{
    const double prompt = double(prefill.prompt);
    const std::int64_t fit = std::int64_t(steps.stepS.size());

    // The KV cache of a prompt moves from its prefill worker's shards to a
    // decode worker's, as many streams at once as the smaller side has
    // shards, over the fastest tier whose block holds both workers. The
    // copy is laid out from the design's first GPU, prefill workers first;
    // requests spread evenly over the pairs.
    kvBytes_ = prompt * kvBytesPerToken;
    const double streams = std::min(kvShards(prefill), kvShards(decode));
    const double pairs = double(p_ * d_);
    double covered = 0;
    std::size_t lastLink = 0;
    for (std::size_t i = 0; i < h.tiers.size(); ++i)
        if (h.tiers[i].carriesCollectives)
            lastLink = i;
    for (std::size_t i = 0; i < h.tiers.size() && kvTierCount_ < kMaxTiers; ++i) {
        const Tier& t = h.tiers[i];
        if (!t.carriesCollectives)
            continue;
        const bool last = i == lastLink;
        double within = pairs;
        if (!last && t.scopeGpus > 0) {
            // A block of this tier holds a prefill and a decode worker only
            // if it holds the boundary between them (GPUs decodeStart - 1 and
            // decodeStart): the prefill workers wholly in that block, each
            // with the decode workers that end in it.
            within = 0;
            const std::int64_t block = t.scopeGpus;
            const std::int64_t decodeStart = p_ * prefill.gpus;
            if (decodeStart % block != 0) {
                const std::int64_t b = decodeStart / block;
                const std::int64_t firstInside = (b * block + prefill.gpus - 1) / prefill.gpus;
                const std::int64_t senders = std::max<std::int64_t>(0, p_ - firstInside);
                const std::int64_t receivers = std::clamp<std::int64_t>(((b + 1) * block - decodeStart) / decode.gpus, 0, d_);
                within = double(senders) * double(receivers);
            }
        }
        const double share = (within - covered) / pairs;
        if (share > 0) {
            const double pure = kvBytes_ / (streams * t.collectiveBytesPerS);
            kvPureS_ += share * pure;
            kvS_ += share * (pure + t.alphaS);
            kvTiers_[kvTierCount_++] = {&t, share};
        }
        covered = within;
        if (covered >= pairs)
            break;
    }
    // Each request's move keeps its sender's and its receiver's links busy
    // for the transfer: the prefill workers send R / P each, the decode
    // workers receive R / D.
    linkRate_ = kvPureS_ > 0 ? double(std::min(p_, d_)) / kvPureS_ : INFINITY;

    // The most prompts a step may carry: as many as the budget holds, while
    // a prompt that waits for the step in flight and runs in the next
    // reaches its first token, moved, within the target.
    kMax_ = fit;
    if (ttftTargetS > 0) {
        kMax_ = 1;
        ttftReachable_ = false;
        for (std::int64_t k = fit; k >= 1; --k)
            if ((1 + promptSteps(k)) * stepS(k) + kvS_ <= ttftTargetS) {
                kMax_ = k;
                ttftReachable_ = true;
                break;
            }
    }
    prefillRate_ = workerRate(kMax_);
}

double WorkerGroup::tokensPerStep(std::int64_t k) const
{
    return promptTokensPerStep(prefill_, k);
}

double WorkerGroup::promptSteps(std::int64_t k) const
{
    return std::ceil(double(prefill_.prompt) / tokensPerStep(k));
}

double WorkerGroup::decodeRate(std::int64_t batch, double stepSeconds) const
{
    // The first token comes from the prefill worker: a request spends
    // output - 1 steps on a decode worker.
    return double(d_) * double(batch) / (std::max(1.0, double(decode_.output - 1)) * stepSeconds);
}

const Tier* WorkerGroup::kvBlockedTier() const
{
    for (std::size_t i = 0; i < kvTierCount_; ++i)
        if (kvTiers_[i].first->collectiveBytesPerS <= 0)
            return kvTiers_[i].first;
    return nullptr;
}

std::vector<std::pair<std::string, double>> WorkerGroup::kvTiers() const
{
    std::vector<std::pair<std::string, double>> out;
    for (std::size_t i = 0; i < kvTierCount_; ++i)
        out.emplace_back(kvTiers_[i].first->key, kvTiers_[i].second);
    return out;
}

double WorkerGroup::kvLinkShare(double requestsPerS) const
{
    return requestsPerS * kvPureS_ / double(std::min(p_, d_));
}

std::int64_t WorkerGroup::matchedBatch(std::int64_t maxBatch) const
{
    const double cap = std::min(double(p_) * prefillRate_, linkRate_);
    if (decodeRate(maxBatch, decode_.decodeStep(maxBatch).stepS) <= cap)
        return maxBatch;
    std::int64_t lo = 0, hi = maxBatch;  // short of the cap at lo (0: nothing known), there at hi
    while (hi - lo > 1) {
        const std::int64_t mid = lo + (hi - lo) / 2;
        (decodeRate(mid, decode_.decodeStep(mid).stepS) >= cap ? hi : lo) = mid;
    }
    return hi;
}

GroupPoint WorkerGroup::at(std::int64_t batch) const
{
    GroupPoint g;
    DecodePoint& p = g.point;
    p = decode_.decodeStep(batch);
    const double decodeRateNow = decodeRate(batch, p.stepS);
    const double prefillCap = double(p_) * prefillRate_;
    const double r = std::min({decodeRateNow, prefillCap, linkRate_});
    g.requestsPerS = r;
    g.limitedBy = decodeRateNow <= std::min(prefillCap, linkRate_) ? "decode"
        : prefillCap <= linkRate_                                  ? "prefill"
                                                                   : "kv_links";
    // The prefill workers batch the fewest prompts per step that keep up
    // with the rate; a prompt waits for the step in flight as often as the
    // workers are busy.
    std::int64_t k = 1;
    while (k < kMax_ && double(p_) * workerRate(k) < r)
        ++k;
    g.prefillUtilization = r / (double(p_) * workerRate(k));
    g.decodeUtilization = r / decodeRateNow;
    g.promptsPerStep = std::min(double(k), tokensPerStep(k) / double(prefill_.prompt));
    g.prefillStepS = stepS(k);
    EngineRun& e = p.engine;
    e.users = double(batch);
    e.decodeStepS = p.stepS;
    e.mixStepS = stepS(k);
    e.prefillTokensPerMixStep = tokensPerStep(k);
    e.promptSteps = promptSteps(k);
    e.arrivalWaitS = std::min(1.0, g.prefillUtilization) * stepS(k);
    e.ttftS = e.arrivalWaitS + e.promptSteps * stepS(k) + kvS_;
    e.tpotS = p.stepS;
    e.tokensPerSPerReplica = r * double(decode_.output);
    p.ttftS = e.ttftS;
    p.tpotS = e.tpotS;
    p.e2eS = p.ttftS + std::max(0.0, double(decode_.output) - 1) * p.tpotS;
    p.tokensPerSPerReplica = e.tokensPerSPerReplica;
    p.tokensPerSPerGpu = p.tokensPerSPerReplica / double(gpus());
    p.tokensPerSPerUser = 1 / p.tpotS;
    p.prefillShare = 0;  // no decode shares a step with a prompt
    p.mfu = decode_.mfuAt(r, double(gpus()));
    return g;
}

}  // namespace studio
