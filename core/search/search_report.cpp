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

Json searchJson(const SearchResult& r)
{
    Json j = {{"objective", objectiveName(r.objective)},
              {"objective_unit", objectiveUnit(r.objective)},
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

}  // namespace studio
