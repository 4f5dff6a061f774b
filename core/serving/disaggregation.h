#pragma once
// One copy of a disaggregated serving layout (docs/model.md section 19,
// "Disaggregated serving"): its prefill workers' steps at each number of
// prompts per step, its decode workers' steps, and the KV cache moves
// between them over the tiers the pairs span. Shared by the serving
// analysis and the serving search; not part of the analyses' interface.
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "core/analysis/hierarchy.h"
#include "core/serving/replica.h"
#include "core/serving/serving.h"

namespace studio {

// The copy's figures at one decode batch: the point the Serving panel and
// the batch search read, and how the copy's workers are loaded there.
struct GroupPoint {
    DecodePoint point;         // batch, decode step, TTFT (KV move included), TPOT, e2e, tokens/s of the copy
    double requestsPerS = 0;   // the copy's
    double promptsPerStep = 0; // a prefill step's, at that rate
    double prefillStepS = 0;
    double prefillUtilization = 0, decodeUtilization = 0;
    const char* limitedBy = "decode";
};

// The most prompts one prefill step carries, whatever the budget and the
// KV cache allow: a bound on the table below (a budget of 10^7 tokens over
// one-token prompts would be 10^7 steps to price), far past the prefill
// batches engines run (tens of prompts).
inline constexpr std::int64_t kMaxPromptsPerPrefillStep = 4096;

// A prefill worker's step with k = 1, 2, ... whole prompts, as many as the
// engine's budget holds and the worker's KV cache keeps (`maxPrompts`;
// a longer prompt goes in chunks of the budget, one prompt at a time):
// what every copy with that worker shares.
struct PrefillSteps {
    PrefillSteps(const Replica& prefill, std::int64_t maxPrompts);
    std::vector<double> stepS;  // [k - 1]
    double maxRequestsPerS = 0; // one worker's most at any k, no target: a bound for the search
};

class WorkerGroup {
public:
    // `prefill` and `decode` set up (prepareReplica) on the design's GPUs,
    // `workers` of each in one copy laid out from the first GPU, prefill
    // workers first; `steps` the prefill worker's; `h` the design's tiers;
    // `ttftTargetS` 0 when none.
    WorkerGroup(const Replica& prefill, const PrefillSteps& steps, const Replica& decode, std::int64_t prefillWorkers,
                std::int64_t decodeWorkers, const Hierarchy& h, double kvBytesPerToken, double ttftTargetS);

    // The copy with its decode workers at `batch` sequences each (at most
    // matchedBatch()).
    GroupPoint at(std::int64_t batch) const;

    // The decode batch past which the prefill workers (or the links) cannot
    // keep the decode workers full: larger batches serve no more requests.
    std::int64_t matchedBatch(std::int64_t maxBatch) const;

    std::int64_t promptsPerStepMax() const { return kMax_; }
    // Whether one prompt, waiting for a step in flight, meets the TTFT
    // target at all (always, without one).
    bool ttftReachable() const { return ttftReachable_; }
    double prefillRatePerWorker() const { return prefillRate_; }  // requests/s at promptsPerStepMax
    double linkRate() const { return linkRate_; }                 // requests/s the KV moves allow
    double kvBytesPerRequest() const { return kvBytes_; }
    double kvTransferS() const { return kvS_; }
    double kvLinkShare(double requestsPerS) const;
    // A tier the moves cross that has no bandwidth (a scale-up domain of
    // 0 GB/s): they have no path. Null when every tier has some.
    const Tier* kvBlockedTier() const;
    // Tier key, share of the copy's pairs whose move crosses it.
    std::vector<std::pair<std::string, double>> kvTiers() const;
    std::int64_t gpus() const { return p_ * prefill_.gpus + d_ * decode_.gpus; }
    double prefillS() const { return promptSteps(1) * stepS(1); }  // one prompt on an idle prefill worker

private:
    double tokensPerStep(std::int64_t k) const;  // k prompts, or one prompt's chunk
    double promptSteps(std::int64_t k) const;    // the steps one prompt takes
    double stepS(std::int64_t k) const { return steps_.stepS[std::size_t(k - 1)]; }
    double workerRate(std::int64_t k) const { return double(k) / (promptSteps(k) * stepS(k)); }
    double decodeRate(std::int64_t batch, double stepSeconds) const;

    const Replica& prefill_;
    const Replica& decode_;
    std::int64_t p_ = 1, d_ = 1;
    std::int64_t kMax_ = 1;
    bool ttftReachable_ = true;
    const PrefillSteps& steps_;
    double kvBytes_ = 0, kvS_ = 0, kvPureS_ = 0;
    // The tiers the moves cross with their shares, without allocating: the
    // search builds a group for every count of workers.
    static constexpr std::size_t kMaxTiers = 8;
    std::array<std::pair<const Tier*, double>, kMaxTiers> kvTiers_{};
    std::size_t kvTierCount_ = 0;
    double prefillRate_ = 0, linkRate_ = 0;
};

}  // namespace studio
