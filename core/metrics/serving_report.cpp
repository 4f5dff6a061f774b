#include "core/metrics/serving_report.h"

#include "core/metrics/metrics.h"
#include "core/metrics/serving_error_band.h"

#include "core/json_number.h"
#include "core/model/analysis.h"
#include "core/text.h"

namespace studio {

namespace {

// The design at its arrival rate; null without one.
Json operationJson(const ServingOperation& o)
{
    if (!o.set())
        return nullptr;
    return {{"replicas", o.replicas},
            {"design_holds_load", o.designHoldsLoad},
            {"requests_in_flight_per_replica", finiteOrNull(o.inFlightPerReplica)},
            {"ttft_s", finiteOrNull(o.at.ttftS)},
            {"tpot_s", finiteOrNull(o.at.tpotS)},
            {"e2e_s", finiteOrNull(o.at.e2eS)},
            {"tokens_per_s_per_gpu", finiteOrNull(o.tokensPerSPerGpu)}};
}

Json workerJson(const ServingWorker& k)
{
    return {{"workers", k.workers},
            {"tp", k.tp},
            {"pp", k.pp},
            {"ep", k.ep},
            {"gpus_per_worker", k.gpus},
            {"weights_gb_per_gpu", finiteOrNull(k.weightsGbPerGpu)},
            {"max_batch", k.maxBatch},
            {"requests_per_s_per_worker", finiteOrNull(k.requestsPerS)},
            {"utilization", finiteOrNull(k.utilization)}};
}

Json disaggregationJson(const std::optional<Disaggregation>& d)
{
    if (!d)
        return nullptr;
    Json tiers = Json::object();
    for (const auto& [key, share] : d->kvTiers)
        tiers[key] = finiteOrNull(share);
    return {{"prefill", workerJson(d->prefill)},
            {"decode", workerJson(d->decode)},
            {"copies", d->copies},
            {"requests_per_s_per_copy", finiteOrNull(d->requestsPerS)},
            {"limited_by", d->limitedBy},
            {"prompts_per_prefill_step", finiteOrNull(d->promptsPerStep)},
            {"prefill_step_s", finiteOrNull(d->prefillStepS)},
            {"kv_bytes_per_request", finiteOrNull(d->kvBytesPerRequest)},
            {"kv_link_share", finiteOrNull(d->kvLinkShare)},
            {"kv_tiers", std::move(tiers)}};
}

}  // namespace

Json servingJson(const Serving& s)
{
    Json curve = Json::array();
    for (const DecodePoint& p : s.curve)
        curve.push_back({{"batch", p.batch},
                         {"tokens_per_s_per_gpu", finiteOrNull(p.tokensPerSPerGpu)},
                         {"tokens_per_s_per_user", finiteOrNull(p.tokensPerSPerUser)},
                         {"tpot_s", finiteOrNull(p.tpotS)},
                         {"ttft_s", finiteOrNull(p.ttftS)},
                         {"decode_step_s", finiteOrNull(p.stepS)},
                         {"bandwidth_bound", p.bandwidthBound()}});
    const DecodePoint& d = s.decode;
    return {{"mode", s.mode},
            {"weight_precision", s.weightPrecision},
            {"kv_precision", s.kvPrecision},
            {"gpus_per_replica", s.gpusPerReplica},
            {"replicas_in_design", s.replicasInDesign},
            {"engine", s.engine.engine},
            {"step_tokens", finiteOrNull(s.engine.stepTokens)},
            {"max_requests", s.engine.maxRequests > 0 ? Json(s.engine.maxRequests) : Json(nullptr)},
            {"prefill_s", finiteOrNull(s.prefillS)},
            {"decode_step_s", finiteOrNull(d.stepS)},
            {"mix_step_s", finiteOrNull(d.engine.mixStepS)},
            {"mix_steps_per_cycle", finiteOrNull(d.engine.mixStepsPerCycle)},
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
            {"operation", operationJson(s.operation)},
            {"kv_transfer_s", finiteOrNull(s.disaggregation ? s.disaggregation->kvTransferS : 0.0)},
            {"disaggregated", disaggregationJson(s.disaggregation)},
            {"kw_per_replica", finiteOrNull(s.kwPerReplica)},
            {"kwh_per_million_tokens", finiteOrNull(s.kwhPerMillionTokens)},
            {"usd_per_million_tokens", finiteOrNull(s.usdPerMillionTokens)},
            {"curve", std::move(curve)}};
}

std::vector<ExplainedMetric> explainServing(const Serving& s)
{
    const DecodePoint& d = s.decode;
    const std::string model = "this model (docs/model.md section 19)";
    const ExplainInput batch{"batch served", double(s.batch), "",
                             "workload.serving.batch, or the largest that meets "
                             "the targets"};
    const ExplainInput gpus{"GPUs per replica", double(s.gpusPerReplica), "", "workload.parallelism tp x pp"};
    const ExplainInput tpot{"time per output token", d.tpotS, "s", model};
    const ExplainInput output{"output tokens", double(s.outputTokens), "", "workload.serving.output_tokens"};
    const ExplainInput perReplica{"tokens/s per replica", d.tokensPerSPerReplica, "tokens/s", model};
    const ExplainInput e2e{"end-to-end latency", s.e2eS, "s", "TTFT + (output tokens - 1) x TPOT"};
    const ExplainInput peak{s.gpuName + " peak at " + s.weightPrecision, s.peakTflops, "TFLOP/s", "catalog"};
    std::vector<ExplainedMetric> out;
    auto add = [&out](std::string key, std::string formula, std::vector<ExplainInput> inputs) {
        out.emplace_back("serving." + std::move(key), Explanation{std::move(formula), std::move(inputs), {}, {}});
    };
    const ExplainInput stepTokens{"tokens one engine step carries", s.engine.stepTokens, "",
                                  s.engine.engine + ": " + s.engine.stepTokensSource};
    add("batch",
        "workload.serving.batch; with 0, the largest batch up to the largest the engine holds whose latencies, "
        "as the engine serves it, meet the TTFT, TPOT and end-to-end targets",
        {{"largest batch the engine holds", double(s.maxBatch), "", model},
         {"TPOT target", s.tpotTargetS, "s", "workload.serving.tpot_target_s (0: none)"}});
    const EngineMemory& mem = s.memory;
    std::vector<ExplainInput> fits = {
        {"HBM per GPU", mem.capacity / 1e9, "GB", "catalog hbm_gb, binary (hbmCapacityGb)"},
        {"the engine's memory share", mem.fraction, "", s.engine.engine + ": " + mem.fractionSource},
        {"weights per GPU", s.weightsGbPerGpu, "GB", "parameters x bytes at " + s.weightPrecision + " / GPUs"}};
    if (mem.engineOwn() > 0) {
        const std::string source = engineMemorySource();
        fits.push_back(
            {"activations of one step", mem.activations / 1e9, "GB",
             "2 x " + formatCount(std::int64_t(s.engine.stepTokens)) +
                 " step tokens x attention width x a coefficient per model family and tp, at least 70 MiB: " + source});
        fits.push_back({"NCCL buffers", mem.communication / 1e9, "GB", "by tp: " + source});
        fits.push_back({"runtime (CUDA, cuBLAS, the engine)", mem.runtime / 1e9, "GB", source});
    }
    fits.push_back({"KV cache budget per GPU", mem.kvBudget / 1e9, "GB", kvBudgetFormula(s.engine.engine)});
    fits.push_back({"KV cache of one sequence per GPU", s.kvGbPerSequence / double(s.gpusPerReplica), "GB",
                    "(prompt + output) x KV bytes per token / GPUs"});
    if (s.engine.maxRequests > 0)
        fits.push_back({"requests the engine keeps in flight", double(s.engine.maxRequests), "",
                        s.engine.engine + ": " + s.engine.maxRequestsSource});
    add("max_batch",
        "KV cache budget per GPU (" + kvBudgetFormula(s.engine.engine) +
            ") / KV cache of one sequence per GPU, rounded down" +
            (s.engine.maxRequests > 0 ? ", at most the requests the engine keeps in flight" : ""),
        fits);
    const std::vector<ExplainInput> prefillInputs = {
        {"prompt tokens", double(s.promptTokens), "", "workload.serving.prompt_tokens"},
        {"parameters a token multiplies", s.activeParams, "",
         "workload.model: active, less the input embedding (a lookup)"},
        gpus,
        peak};
    const bool measured = !s.kernelSource.empty();
    const std::string prefillFormula = measured
        ? "pp x (each GEMM of a layer at its measured speed for the prompt's tokens + causal attention at its measured "
          "speed + TP all-reduces) + pipeline hops; the LM head for the last token only"
        : "pp x (max(2 x active parameters x prompt / GPUs at the GEMM roof + causal attention, weights / HBM "
          "bandwidth) + TP all-reduces) + pipeline hops";
    std::vector<ExplainInput> prefill = prefillInputs;
    if (measured)
        prefill.push_back({"prefill of one prompt", s.prefillS, "s", s.kernelSource});
    add("prefill_s", prefillFormula, prefill);
    const EngineRun& e = d.engine;
    add("mix_step_s",
        "one engine step of the decodes sharing it and a cohort's prompt tokens (the step budget less the "
        "decodes, at most every user's prompt), as the decode step's formula prices its rows",
        {batch,
         stepTokens,
         {"prompt tokens in the step", e.prefillTokensPerMixStep, "", model},
         {"decodes in the step", e.decodesPerMixStep, "", model}});
    const std::string stepFormula = measured
        ? "pp x (the layer's GEMMs at the batch's rows, each at its measured speed + decode attention over the "
          "batch's KV cache at its measured share of HBM + TP all-reduces) + pipeline hops"
        : "pp x (max(reading weights and the batch's KV cache at HBM bandwidth, the step's FLOPs at the compute "
          "roof) + TP all-reduces and EP all-to-alls) + pipeline hops";
    if (measured)
        add("decode_step_s", stepFormula,
            {batch,
             {"GEMMs", d.gemmS, "s", s.kernelSource},
             {"decode attention", d.attentionS, "s", s.kernelSource},
             {"communication", d.commS, "s", "the scale-up tier's latency and bandwidth (docs/model.md section 4)"}});
    else
        add("decode_step_s", stepFormula,
            {batch,
             {"reading weights and KV cache", d.memoryS, "s", "bytes per GPU / achievable HBM bandwidth"},
             {"compute", d.computeS, "s", model},
             {"communication", d.commS, "s", "the scale-up tier's latency and bandwidth (docs/model.md section 4)"},
             {"achievable HBM bandwidth", s.hbmTbPerS, "TB/s", s.hbmSource}});
    const ExplainInput decodeStep{"decode step alone", d.stepS, "s", stepFormula};
    const ExplainInput mixStep{"step with a cohort's prompt tokens", e.mixStepS, "s", model};
    const ExplainInput mixSteps{"steps with prompt tokens, every user's prompt once", e.mixStepsPerCycle, "",
                                "batch x prompt tokens / prompt tokens per such step"};
    const ExplainInput promptSteps{"steps one prompt takes", e.promptSteps, "",
                                   "prompt tokens / prompt tokens per step, rounded up"};
    add("tpot_s",
        "(the other users' steps with prompt tokens during one's output x such a step + the other output steps x "
        "the decode step alone) / (output tokens - 1): the batch's users as the engine serves them, each sending "
        "its next request when the last ends",
        {batch, output, decodeStep, mixStep, mixSteps, promptSteps});
    add("ttft_s",
        "the step in flight when the request comes (an average output step; none when no other user's prompt "
        "has a step of its own: the users move in lockstep) + the steps its prompt takes x a step with prompt "
        "tokens (+ the others' such steps that outnumber a user's output steps, when prompts are the engine's "
        "bottleneck)",
        {{"the step in flight", e.arrivalWaitS, "s", model}, promptSteps, mixStep, mixSteps, stepTokens});
    add("e2e_s", "time to first token + (output tokens - 1) x time per output token",
        {{"time to first token", s.ttftS, "s", model}, output, tpot});
    add("tokens_per_s_per_user", "1 / time per output token", {tpot});
    add("tokens_per_s_per_replica",
        "batch x output tokens / (time to first token + (output tokens - 1) x time per output token): each of the "
        "batch's users finishes its output in its request's time, the prompts prefilled on the same GPUs",
        {batch,
         output,
         tpot,
         {"time to first token", s.ttftS, "s", model},
         {"share of a request's time in steps with prompt tokens", d.prefillShare, "", model}});
    add("tokens_per_s_per_gpu", "tokens/s per replica / GPUs per replica", {perReplica, gpus});
    add("mfu", "tokens/s per replica x (1 + prompt / output) x 2 x active parameters / (GPUs x peak)",
        {perReplica,
         {"parameters a token multiplies", s.activeParams, "",
          "workload.model: active, less the input embedding (a lookup)"},
         gpus,
         peak});
    add("weights_gb_per_gpu", "parameters x bytes per weight at " + s.weightPrecision + " / GPUs per replica",
        {gpus, {"weights per GPU", s.weightsGbPerGpu, "GB", "workload.model"}});
    add("kv_cache_gb_per_replica",
        "batch x (prompt + output) x KV bytes per token; KV bytes per token = 2 x layers x kv_heads x head_dim x "
        "bytes at " +
            s.kvPrecision,
        {batch,
         {"KV bytes per token", s.kvBytesPerToken, "B", "workload.model"},
         {"KV cache of one sequence", s.kvGbPerSequence, "GB", model}});
    add("concurrent_requests", "arrival rate x end-to-end latency (Little's law, seed 002)",
        {{"arrival rate", s.arrivalRatePerS, "requests/s", "workload.serving.arrival_rate_per_s"}, e2e});
    add("replicas_needed", "requests in flight / batch served, rounded up",
        {{"requests in flight", s.concurrentRequests, "", "Little's law"}, batch});
    add("gpus_needed", "replicas needed x GPUs per replica",
        {{"replicas needed", double(s.replicasNeeded), "", model}, gpus});
    if (const ServingOperation& o = s.operation; o.set()) {
        const ExplainInput replicas{"replicas serving the load", double(o.replicas), "",
                                    o.designHoldsLoad ? "the design's whole replicas"
                                                      : "the replicas needed (the design holds fewer)"};
        const ExplainInput perReplica{"arrival rate per replica", o.arrivalPerReplica, "requests/s",
                                      "workload.serving.arrival_rate_per_s / replicas serving the load"};
        const std::string atLoad = "as the engine serves the requests in flight (" + formatCount(o.at.batch) +
            " users, the fewest whose end-to-end latency x the arrival rate per replica they hold)";
        add("operation.requests_in_flight_per_replica",
            "arrival rate per replica x end-to-end latency at that load (Little's law, solved with the latencies "
            "the load gives)",
            {perReplica, replicas, {"end-to-end latency at that load", o.at.e2eS, "s", atLoad}});
        add("operation.ttft_s", "time to first token " + atLoad,
            {{"requests in flight per replica", o.inFlightPerReplica, "", "Little's law"}, perReplica});
        add("operation.tpot_s", "time per output token " + atLoad,
            {{"requests in flight per replica", o.inFlightPerReplica, "", "Little's law"}, perReplica});
        add("operation.e2e_s", "TTFT + (output tokens - 1) x TPOT " + atLoad,
            {{"time to first token", o.at.ttftS, "s", atLoad},
             output,
             {"time per output token", o.at.tpotS, "s", atLoad}});
        add("operation.tokens_per_s_per_gpu", "arrival rate per replica x output tokens / GPUs per replica",
            {perReplica, output, gpus});
    }
    if (const auto& x = s.disaggregation) {
        // A split layout's latencies and rate come from its workers
        // (docs/model.md section 19, "Disaggregated serving"): these replace
        // the aggregated replica's explanations above.
        const std::string split = "workload.serving.disaggregated";
        const ExplainInput move{"moving a prompt's KV cache", x->kvTransferS, "s", model};
        const ExplainInput perCopy{"requests/s of one copy", x->requestsPerS, "requests/s", model};
        std::erase_if(out, [](const ExplainedMetric& m) {
            return m.first == "serving.ttft_s" || m.first == "serving.tpot_s" ||
                m.first == "serving.tokens_per_s_per_replica" || m.first == "serving.mix_step_s";
        });
        add("ttft_s",
            "the prefill step in flight as often as the prefill workers are busy + the prompt's steps x a prefill "
            "step of the prompts per step + moving the KV cache to a decode worker",
            {{"the step in flight", e.arrivalWaitS, "s", "prefill utilization x one prefill step"},
             {"prompts per prefill step", x->promptsPerStep, "", "the fewest that keep up with the copy's rate"},
             {"prefill step", x->prefillStepS, "s", model},
             promptSteps,
             move});
        add("tpot_s", "a decode worker's step at its batch, no prompt sharing it", {batch, decodeStep});
        add("mix_step_s", "a prefill worker's step of the prompts per step (no decode shares it)",
            {{"prompts per prefill step", x->promptsPerStep, "", model}, stepTokens});
        add("tokens_per_s_per_replica",
            "one copy's requests/s x output tokens: the slowest of its prefill workers (at the TTFT target), the "
            "links moving the KV cache and its decode workers (at the batch)",
            {perCopy,
             output,
             {"prefill workers' most", double(x->prefill.workers) * x->prefill.requestsPerS, "requests/s", split},
             {"decode workers' at the batch", double(x->decode.workers) * x->decode.requestsPerS, "requests/s",
              split}});
        add("kv_transfer_s",
            "prompt x KV bytes per token / (shards sending at once x the tier's one-way achievable bandwidth) + "
            "its latency, averaged over the copy's prefill-decode pairs (the tier each pair's block spans)",
            {{"KV cache of one prompt", x->kvBytesPerRequest, "B", "prompt tokens x KV bytes per token"},
             {"pairs crossing the first tier", x->kvTiers.empty() ? 0.0 : x->kvTiers.front().second, "",
              x->kvTiers.empty() ? std::string("-") : "the " + x->kvTiers.front().first + " tier"}});
        add("disaggregated.kv_link_share",
            "requests/s of one copy x the move's time at bandwidth / min(prefill workers, decode workers)",
            {perCopy, move});
        add("disaggregated.requests_per_s_per_copy", "min(prefill workers' rate, links' rate, decode workers' rate)",
            {perCopy});
    }
    const ExplainInput kw{"replica's facility power", s.kwPerReplica, "kW",
                          "the design's facility power x GPUs per replica / its GPUs"};
    add("kwh_per_million_tokens", "replica's facility kW / (tokens/s per replica x 3,600) x 10^6", {kw, perReplica});
    add("usd_per_million_tokens", "kWh per million tokens x electricity price",
        {{"energy per million tokens", s.kwhPerMillionTokens, "kWh", model},
         {"electricity price", s.pricePerKwh, "USD/kWh", "facility.electricity_usd_per_kwh"}});
    // How far measured serving on this GPU and engine fell from the model
    // (the measured points are of one engine serving whole: aggregated).
    if (!s.disaggregation)
        for (auto& [key, e] : out)
            for (ServedFigure figure : kServedFigures)
                if (key == servedFigureKey(figure))
                    e.errorBand = servingErrorBand(s.gpuName, s.engine.engine, figure);
    return out;
}

Serving addServingMetrics(Json& metrics, const Design& design, const Catalog& catalog)
{
    if (!design.workload.isServing())
        return analyzeServing(design, catalog);
    Serving serving = analyzeServing(design, catalog);
    metrics["unavailable"]["training"] = kNoTrainingRun;
    if (serving.ok()) {
        metrics["serving"] = servingJson(serving);
        // Each serving figure explains itself, as the training ones do.
        for (const auto& [key, e] : explainServing(serving))
            metrics["explain"][key] = explainJson(e);
    } else
        metrics["unavailable"]["serving"] = "not servable: " + serving.errors.front().message;
    return serving;
}

void addArrivalBand(Json& metrics, const ArrivalBand& band)
{
    metrics["explain"][servedFigureKey(ServedFigure::Ttft)]["arrival_band"] = {
        {"spread_s", band.spreadTtftS},
        {"together_s", band.togetherTtftS},
        {"warmup_rounds", kReplayWarmupRounds},
        {"measured_rounds", kReplayMeasuredRounds},
        {"text", arrivalBandText(band)}};
}

}  // namespace studio
