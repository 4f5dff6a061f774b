#include "core/search/search_report.h"

#include <cmath>

#include "core/json_number.h"
#include "core/text.h"

namespace studio {
namespace {

Json figuresJson(const Candidate& c)
{
    return {{"layout", layoutJson(c.layout)},
            {"global_batch", c.layout.globalBatch},
            {"step_time_s", finiteOrNull(c.stepS)},
            {"mfu", finiteOrNull(c.mfu)},
            {"tokens_per_s", finiteOrNull(c.tokensPerS)},
            {"memory_gb_per_gpu", finiteOrNull(c.memoryGb)},
            {"bubble_s", finiteOrNull(c.bubbleS)},
            {"bubble_fraction", finiteOrNull(c.bubbleFraction)},
            {"exposed_communication_s", finiteOrNull(c.exposedCommS)},
            {"objective_value", finiteOrNull(c.objective)}};
}

std::string percent(double fraction)
{
    return formatReadable(100 * fraction) + "%";
}

}  // namespace

std::string currentRankText(const SearchResult& r)
{
    const auto& c = r.current;
    if (!c.feasible)
        return "not ranked: " + c.whyNot;
    std::string s = "#" + formatCount(c.rank) + " of " + formatCount(r.feasible);
    if (c.gap > 0)
        s += ", " + percent(c.gap) + (r.objective == Objective::Time ? " slower than the best" : " behind the best");
    else
        s += ", as good as the best";
    return s;
}

namespace {

// The constraints as the layouts write their values: numbers, booleans,
// recompute's names.
Json constraintsJson(const std::map<std::string, std::vector<std::string>>& allowed)
{
    Json j = Json::object();
    for (const auto& [axis, values] : allowed) {
        Json list = Json::array();
        for (const std::string& v : values)
            list.push_back(axis == "recompute"               ? Json(v)
                               : axis == "sequence_parallel" ? Json(v == "true")
                                                             : Json(std::stoll(v)));
        j[axis] = std::move(list);
    }
    return j;
}

}  // namespace

Json searchJson(const SearchResult& r)
{
    Json j = {{"objective", objectiveName(r.objective)},
              {"objective_unit", objectiveUnit(r.objective)},
              {"software", r.software},
              {"constraints", constraintsJson(r.allowed)},
              {"gpus", r.gpus},
              {"space", r.space},
              {"evaluated", r.evaluated},
              {"feasible", r.feasible},
              {"pruned", r.pruned},
              {"never_complete", r.neverComplete},
              {"rejected",
               {{"indivisible", r.rejected.indivisible},
                {"forbidden_tier", r.rejected.forbiddenTier},
                {"no_path", r.rejected.noPath},
                {"out_of_memory", r.rejected.outOfMemory}}}};
    const auto& c = r.current;
    Json current = c.feasible ? figuresJson(c.figures)
                              : Json{{"layout", layoutJson(c.layout)}, {"global_batch", c.layout.globalBatch}};
    current["feasible"] = c.feasible;
    current["why_not"] = c.feasible ? Json(nullptr) : Json(c.whyNot);
    if (!c.feasible)
        current["step_time_s"] = nullptr;
    current["rank"] = c.feasible ? Json(c.rank) : Json(nullptr);
    current["gap"] = c.feasible ? finiteOrNull(c.gap) : Json(nullptr);
    j["current"] = std::move(current);
    Json candidates = Json::array();
    int rank = 1;
    for (const auto& cand : r.top) {
        Json one = {{"rank", rank++}};
        one.update(figuresJson(cand));
        candidates.push_back(std::move(one));
    }
    j["candidates"] = std::move(candidates);
    if (!r.nothingFits.empty())
        j["nothing_fits"] = r.nothingFits;
    return j;
}

std::string searchText(const SearchResult& r)
{
    std::string s = "Searched " + formatCount(r.space) + " layouts on " + formatCount(r.gpus) +
        " GPUs: " + formatCount(r.feasible) + " feasible (" + formatCount(r.evaluated) + " modelled, " +
        formatCount(r.pruned) + " skipped by the step-time bound)\n";
    s += "Rejected: " + formatCount(r.rejected.indivisible) + " indivisible, " + formatCount(r.rejected.forbiddenTier) +
        " on a forbidden tier, " + formatCount(r.rejected.noPath) + " without a path, " +
        formatCount(r.rejected.outOfMemory) + " out of memory" +
        (r.neverComplete > 0 ? "; " + formatCount(r.neverComplete) + " feasible but never complete" : "") + "\n";
    s += std::string("Objective: ") + objectiveName(r.objective) + " (" + objectiveUnit(r.objective) + ")\n";
    if (!r.allowed.empty())
        s += "Within what " + r.allowedBy + " runs: " + describeAllowed(r.allowed) + "\n";
    s += "Current: " + describeLayout(r.current.layout) + " - " + currentRankText(r) + "\n";
    if (!r.nothingFits.empty())
        return s + r.nothingFits + "\n";
    s += "\n";
    const std::vector<std::string> head = {"#",     "layout", "batch",    "step s",        "MFU",
                                           "tok/s", "GB/GPU", "bubble s", "exposed comm s"};
    std::vector<std::vector<std::string>> rows = {head};
    int rank = 1;
    for (const auto& c : r.top)
        rows.push_back({formatCount(rank++), describeLayout(c.layout), formatCount(c.layout.globalBatch),
                        formatReadable(c.stepS, 4), percent(c.mfu), formatReadable(c.tokensPerS),
                        formatReadable(c.memoryGb), formatReadable(c.bubbleS), formatReadable(c.exposedCommS)});
    return s + alignedColumns(rows, {1});
}

std::string searchCsv(const SearchResult& r)
{
    std::string s = "rank,tp,pp,dp,cp,ep,micro_batch,interleave,zero,recompute,sequence_parallel,global_batch,"
                    "step_time_s,mfu,tokens_per_s,memory_gb_per_gpu,bubble_s,exposed_communication_s,objective_value\n";
    int rank = 1;
    for (const auto& c : r.top) {
        const Layout& l = c.layout;
        s += std::to_string(rank++) + "," + std::to_string(l.tp) + "," + std::to_string(l.pp) + "," +
            std::to_string(l.dp) + "," + std::to_string(l.cp) + "," + std::to_string(l.ep) + "," +
            std::to_string(l.microBatch) + "," + std::to_string(l.interleave) + "," + std::to_string(l.zero) + "," +
            recomputeName(l.recompute) + "," + (l.sequenceParallel ? "true" : "false") + "," +
            std::to_string(l.globalBatch) + "," + formatValue(c.stepS, 8) + "," + formatValue(c.mfu, 6) + "," +
            formatValue(c.tokensPerS, 8) + "," + formatValue(c.memoryGb, 6) + "," + formatValue(c.bubbleS, 6) + "," +
            formatValue(c.exposedCommS, 6) + "," + formatValue(c.objective, 8) + "\n";
    }
    return s;
}

namespace {

Json workersJson(const ServingWorkers& k)
{
    return {{"workers", k.workers}, {"tp", k.tp.value_or(1)}, {"pp", k.pp.value_or(1)}, {"ep", k.ep.value_or(1)}};
}

Json servingCandidateJson(const ServingCandidate& c)
{
    const bool split = c.mode == "disaggregated";
    Json layout = split ? Json{{"prefill", workersJson(c.prefill)}, {"decode", workersJson(c.decode)}}
                        : Json{{"tp", c.tp}, {"pp", c.pp}, {"ep", c.ep}};
    return {{"mode", c.mode},
            {"layout", std::move(layout)},
            {"weight_precision", c.weightPrecision},
            {"kv_precision", c.kvPrecision},
            {"batch", c.batch},
            {"gpus_per_replica", c.gpusPerReplica},
            {"replicas", c.replicas},
            {"ttft_s", finiteOrNull(c.ttftS)},
            {"tpot_s", finiteOrNull(c.tpotS)},
            {"e2e_s", finiteOrNull(c.e2eS)},
            {"tokens_per_s_per_user", finiteOrNull(c.tokensPerSPerUser)},
            {"tokens_per_s_per_gpu", finiteOrNull(c.tokensPerSPerGpu)},
            {"tokens_per_s_per_kw", finiteOrNull(c.tokensPerSPerKw)},
            {"kv_transfer_s", finiteOrNull(c.kvTransferS)},
            {"objective_value", finiteOrNull(c.tokensPerSPerGpu)}};
}

}  // namespace

Json servingSearchJson(const ServingSearchResult& r)
{
    const std::vector<ServingCandidate> all = rankedCandidates(r);
    Json current = r.currentFeasible ? servingCandidateJson(r.current) : Json::object();
    if (!r.currentFeasible && r.current.gpusPerReplica > 0)
        current = servingCandidateJson(r.current);
    current["feasible"] = r.currentFeasible;
    current["why_not"] = r.currentFeasible ? Json(nullptr) : Json(r.currentWhyNot);
    std::int64_t rank = 1;
    for (const ServingCandidate& c : all)
        rank += c.tokensPerSPerGpu > r.current.tokensPerSPerGpu;
    current["rank"] = r.currentFeasible ? Json(rank) : Json(nullptr);
    current["gap"] = r.currentFeasible && !all.empty() && all.front().tokensPerSPerGpu > 0
        ? finiteOrNull(1 - r.current.tokensPerSPerGpu / all.front().tokensPerSPerGpu)
        : Json(nullptr);
    Json candidates = Json::array();
    int n = 1;
    for (const ServingCandidate& c : all) {
        Json one = {{"rank", n++}};
        one.update(servingCandidateJson(c));
        candidates.push_back(std::move(one));
    }
    const auto best = [](const std::vector<ServingCandidate>& v) {
        return v.empty() ? Json(nullptr) : servingCandidateJson(v.front());
    };
    Json j = {{"objective", "tokens_per_s_per_gpu"},
              {"objective_unit", "tokens/s/GPU"},
              {"constraints", Json::object()},  // the training search's shape: a serving search takes none
              {"gpus", r.gpus},
              {"space", r.space},
              {"evaluated", r.modelled},
              {"feasible", r.feasible},
              {"pruned", r.pruned},
              {"never_complete", 0},
              {"rejected", {{"does_not_fit", r.unfit}, {"misses_targets", r.missTargets}}},
              {"current", std::move(current)},
              {"candidates", std::move(candidates)},
              {"best_aggregated", best(r.aggregated)},
              {"best_disaggregated", best(r.disaggregated)},
              {"verdict", r.verdict}};
    return j;
}

std::string servingSearchText(const ServingSearchResult& r)
{
    std::string s = "Searched " + formatCount(r.space) + " serving configurations on " + formatCount(r.gpus) +
        " GPUs: " + formatCount(r.feasible) + " meet the targets (" + formatCount(r.modelled) + " modelled, " +
        formatCount(r.pruned) + " skipped by the rate bound; " +
        formatCount(r.unfit) + " do not fit, " + formatCount(r.missTargets) + " miss the targets)\n";
    s += "Current: " + (r.current.gpusPerReplica > 0 ? describeServingCandidate(r.current) : std::string("-")) +
        (r.currentFeasible ? " - " + formatReadable(r.current.tokensPerSPerGpu) + " tokens/s per GPU"
                           : " - not ranked: " + r.currentWhyNot) +
        "\n" + r.verdict + "\n\n";
    std::vector<std::vector<std::string>> rows = {{"#", "mode", "configuration", "batch", "TTFT s", "TPOT s",
                                                   "KV move s", "tok/s/user", "tok/s/GPU", "tok/s/kW"}};
    int n = 1;
    for (const ServingCandidate& c : rankedCandidates(r))
        rows.push_back({formatCount(n++), c.mode, describeServingCandidate(c), formatCount(c.batch),
                        formatReadable(c.ttftS, 4), formatReadable(c.tpotS, 4), formatReadable(c.kvTransferS, 4),
                        formatReadable(c.tokensPerSPerUser), formatReadable(c.tokensPerSPerGpu),
                        formatReadable(c.tokensPerSPerKw)});
    return s + alignedColumns(rows, {1, 2});
}

std::string servingSearchCsv(const ServingSearchResult& r)
{
    std::string s = "rank,mode,weight_precision,kv_precision,tp,pp,ep,prefill_workers,prefill_tp,prefill_pp,"
                    "decode_workers,decode_tp,decode_pp,batch,ttft_s,tpot_s,e2e_s,kv_transfer_s,tokens_per_s_per_user,"
                    "tokens_per_s_per_gpu,tokens_per_s_per_kw\n";
    int n = 1;
    for (const ServingCandidate& c : rankedCandidates(r)) {
        const bool split = c.mode == "disaggregated";
        const auto count = [&](std::int64_t v) { return split ? std::to_string(v) : std::string(); };
        s += std::to_string(n++) + "," + c.mode + "," + c.weightPrecision + "," + c.kvPrecision + "," +
            (split ? "" : std::to_string(c.tp)) + "," + (split ? "" : std::to_string(c.pp)) + "," +
            (split ? "" : std::to_string(c.ep)) + "," + count(c.prefill.workers) + "," +
            count(c.prefill.tp.value_or(1)) + "," + count(c.prefill.pp.value_or(1)) + "," + count(c.decode.workers) +
            "," + count(c.decode.tp.value_or(1)) + "," + count(c.decode.pp.value_or(1)) + "," +
            std::to_string(c.batch) + "," + formatValue(c.ttftS, 8) + "," + formatValue(c.tpotS, 8) + "," +
            formatValue(c.e2eS, 8) + "," + formatValue(c.kvTransferS, 8) + "," + formatValue(c.tokensPerSPerUser, 8) +
            "," + formatValue(c.tokensPerSPerGpu, 8) + "," + formatValue(c.tokensPerSPerKw, 8) + "\n";
    }
    return s;
}

}  // namespace studio
