#include "core/serving/serving_report.h"

#include "core/json_number.h"

namespace studio {

Json servingJson(const Serving& s)
{
    Json curve = Json::array();
    for (const DecodePoint& p : s.curve)
        curve.push_back({{"batch", p.batch},
                         {"tokens_per_s_per_gpu", finiteOrNull(p.tokensPerSPerGpu)},
                         {"tokens_per_s_per_user", finiteOrNull(p.tokensPerSPerUser)},
                         {"tpot_s", finiteOrNull(p.tpotS)},
                         {"bandwidth_bound", p.bandwidthBound()}});
    const DecodePoint& d = s.decode;
    return {{"weight_precision", s.weightPrecision},
            {"kv_precision", s.kvPrecision},
            {"gpus_per_replica", s.gpusPerReplica},
            {"replicas_in_design", s.replicasInDesign},
            {"prefill_s", finiteOrNull(s.prefillS)},
            {"ttft_s", finiteOrNull(s.ttftS)},
            {"tpot_s", finiteOrNull(d.tpotS)},
            {"e2e_s", finiteOrNull(s.e2eS)},
            {"tokens_per_s_per_replica", finiteOrNull(d.tokensPerSPerReplica)},
            {"tokens_per_s_per_gpu", finiteOrNull(d.tokensPerSPerGpu)},
            {"tokens_per_s_per_user", finiteOrNull(d.tokensPerSPerUser)},
            {"prefill_share", finiteOrNull(d.prefillShare)},
            {"batch", s.batch},
            {"max_batch", s.maxBatch},
            {"ridge_batch", s.ridgeBatch},
            {"bandwidth_bound", d.bandwidthBound()},
            {"kv_bytes_per_token", finiteOrNull(s.kvBytesPerToken)},
            {"kv_cache_gb_per_replica", finiteOrNull(s.kvCacheGbPerReplica)},
            {"weights_gb_per_gpu", finiteOrNull(s.weightsGbPerGpu)},
            {"mfu", finiteOrNull(d.mfu)},
            {"concurrent_requests", finiteOrNull(s.concurrentRequests)},
            {"replicas_needed", s.replicasNeeded},
            {"gpus_needed", s.gpusNeeded},
            {"meets_latency_targets", s.meetsLatencyTargets},
            {"why_not_met", s.whyNotMet.empty() ? Json(nullptr) : Json(s.whyNotMet)},
            {"kw_per_replica", finiteOrNull(s.kwPerReplica)},
            {"kwh_per_million_tokens", finiteOrNull(s.kwhPerMillionTokens)},
            {"usd_per_million_tokens", finiteOrNull(s.usdPerMillionTokens)},
            {"curve", std::move(curve)}};
}

}  // namespace studio
