#include "core/scale/sweep_report.h"

#include <cmath>

#include "core/json_number.h"
#include "core/text.h"

namespace studio {
namespace {

// The figures `metrics` prints, under its keys; a run that never completes
// has no wall-clock figures.
Json figuresJson(const ScaleFigures& f)
{
    const bool completes = f.goodput > 0;
    auto wall = [&](double v) { return completes ? finiteOrNull(v) : Json(nullptr); };
    return {{"layout", layoutJson(f.layout)},
            {"gpus_used", f.gpusUsed},
            {"tokens_per_s", finiteOrNull(f.tokensPerS)},
            {"mfu", finiteOrNull(f.mfu)},
            {"step_time_s", finiteOrNull(f.stepS)},
            {"days_to_train", finiteOrNull(f.daysToTrain)},
            {"wall_days", wall(f.wallDays)},
            {"cluster_mtbf_h", finiteOrNull(f.clusterMtbfH)},
            {"expected_interruptions", wall(f.expectedInterruptions)},
            {"goodput", finiteOrNull(f.goodput)},
            {"facility_kw", finiteOrNull(f.facilityKw)},
            {"training_run_mwh", wall(f.trainingRunMwh)},
            {"run_cost_usd", wall(f.runCostUsd)},
            {"cost",
             {{"run_cost_usd", f.ownedRunCostUsd ? finiteOrNull(*f.ownedRunCostUsd) : Json(nullptr)},
              {"complete", f.costComplete}}},
            {"rho",
             {{"tp", finiteOrNull(f.rho.tp)},
              {"cp", finiteOrNull(f.rho.cp)},
              {"ep", finiteOrNull(f.rho.ep)},
              {"pp", finiteOrNull(f.rho.pp)},
              {"dp", finiteOrNull(f.rho.dp)}}}};
}

const char* scalingName(Scaling s)
{
    return s == Scaling::Weak ? "weak" : "strong";
}

std::string percent(double fraction)
{
    return formatReadable(100 * fraction) + "%";
}

}  // namespace

std::string spareGpusNote(const SweepPoint& p)
{
    if (!p.best || p.best->gpusUsed >= p.gpus)
        return "";
    return formatCount(p.best->gpusUsed) + " of " + formatCount(p.gpus) + " GPUs used: no layout splits all";
}

std::string slowerThanNote(const SweepPoint& p)
{
    return p.slowerThanGpus > 0
        ? "fewer tokens/s than " + formatCount(p.slowerThanGpus) + " GPUs: no layout splits these as well"
        : "";
}

std::vector<std::string> sweepNotes(const SweepResult& r, std::size_t i)
{
    const SweepPoint& p = r.points[i];
    const SweepPoint* before = i > 0 ? &r.points[i - 1] : nullptr;
    std::vector<std::string> notes;
    if (p.isDesign)
        notes.push_back("this design");
    if (p.tierAdded)
        notes.push_back("fabric adds a tier (" + std::to_string(p.fabricTiers) + ")");
    if (p.belowOneSequence && !(before && before->belowOneSequence))
        notes.push_back("from here under one sequence per GPU");
    if (p.gpus == r.cheapestGpus)
        notes.push_back("cheapest run");
    if (p.gpus == r.fastestGpus)
        notes.push_back("fastest run");
    if (p.overSiteBudget && !(before && before->overSiteBudget))
        notes.push_back("from here over the site's " + formatPowerKw(*r.siteMw * 1000));
    if (!p.best)
        notes.push_back(p.whyNoBest);
    for (const std::string& n : {spareGpusNote(p), slowerThanNote(p)})
        if (!n.empty())
            notes.push_back(n);
    return notes;
}

Json sweepJson(const SweepResult& r)
{
    Json points = Json::array();
    for (const auto& p : r.points) {
        Json j = {{"gpus", p.gpus},
                  {"is_design", p.isDesign},
                  {"global_batch", p.globalBatch},
                  {"tokens", finiteOrNull(p.tokens)},
                  {"fabric_tiers", p.fabricTiers},
                  {"tier_added", p.tierAdded},
                  {"below_one_sequence", p.belowOneSequence},
                  {"over_site_budget", p.overSiteBudget},
                  {"slower_than_gpus", p.slowerThanGpus > 0 ? Json(p.slowerThanGpus) : Json(nullptr)},
                  {"feasible_layouts", p.feasibleLayouts}};
        if (p.best)
            j.update(figuresJson(*p.best));
        else
            j["layout"] = nullptr;
        j["why_not"] = p.best ? Json(nullptr) : Json(p.whyNoBest);
        j["ideal_tokens_per_s"] = finiteOrNull(idealTokensPerS(r, p.gpus));
        j["amdahl_tokens_per_s"] = r.amdahlSerialFraction ? finiteOrNull(amdahlTokensPerS(r, p.gpus)) : Json(nullptr);
        j["gustafson_tokens_per_s"] =
            r.amdahlSerialFraction ? finiteOrNull(gustafsonTokensPerS(r, p.gpus)) : Json(nullptr);
        j["user_layout"] = p.user ? figuresJson(*p.user) : Json{{"why_not", p.whyNoUser}};
        points.push_back(std::move(j));
    }
    return {{"scaling", scalingName(r.scaling)},
            {"growth_unit", r.growthUnit},
            {"growth_gpus", r.growthGpus},
            {"design_gpus", r.designGpus},
            {"site_mw", r.siteMw ? Json(*r.siteMw) : Json(nullptr)},
            {"base_gpus", r.baseGpus},
            {"amdahl_serial_fraction", r.amdahlSerialFraction ? Json(*r.amdahlSerialFraction) : Json(nullptr)},
            {"stops_paying", r.stopsPaying},
            {"fastest_gpus", r.fastestGpus},
            {"cheapest_gpus", r.cheapestGpus},
            {"points", std::move(points)}};
}

std::string sweepText(const SweepResult& r)
{
    std::string s = std::string(r.scaling == Scaling::Weak ? "Weak" : "Strong") + " scaling by " +
        inQuotes(r.growthUnit) + " (" + formatCount(r.growthGpus) + " GPUs each), the best layout at each size\n";
    if (r.amdahlSerialFraction)
        s += "Amdahl serial fraction (Karp-Flatt, " + formatCount(r.baseGpus) + " to " + formatCount(r.designGpus) +
            " GPUs): " + formatReadable(*r.amdahlSerialFraction, 3) + "\n";
    if (!r.stopsPaying.empty())
        s += r.stopsPaying + "\n";
    s += "\n";
    std::vector<std::vector<std::string>> rows = {{"GPUs", "best layout", "tok/s", "vs ideal", "MFU", "step s", "days",
                                                   "wall days", "MTBF h", "goodput", "facility MW", "run MWh",
                                                   "run cost", "notes"}};
    for (std::size_t i = 0; i < r.points.size(); ++i) {
        const SweepPoint& p = r.points[i];
        std::string notes;
        for (const std::string& n : sweepNotes(r, i))
            notes += (notes.empty() ? "" : "; ") + n;
        if (!p.best) {
            rows.push_back({formatCount(p.gpus), "-", "-", "-", "-", "-", "-", "-", "-", "-", "-", "-", "-", notes});
            continue;
        }
        const ScaleFigures& f = *p.best;
        const bool completes = f.goodput > 0;
        rows.push_back({formatCount(p.gpus), describeLayout(f.layout), formatReadable(f.tokensPerS),
                        percent(f.tokensPerS / idealTokensPerS(r, p.gpus)), percent(f.mfu), formatReadable(f.stepS, 4),
                        formatReadable(f.daysToTrain), completes ? formatReadable(f.wallDays) : "never",
                        formatReadable(f.clusterMtbfH), percent(f.goodput), formatReadable(f.facilityKw / 1000),
                        completes ? formatReadable(f.trainingRunMwh) : "-",
                        f.ownedRunCostUsd ? formatUsd(*f.ownedRunCostUsd) + (f.costComplete ? "" : "+") : "-", notes});
    }
    return s + alignedColumns(rows, {1, 13});
}

std::string sweepCsv(const SweepResult& r)
{
    std::string s = "gpus,is_design,global_batch,tp,pp,dp,cp,ep,micro_batch,interleave,zero,recompute,"
                    "sequence_parallel,tokens_per_s,ideal_tokens_per_s,mfu,step_time_s,days_to_train,wall_days,"
                    "cluster_mtbf_h,expected_interruptions,goodput,facility_kw,training_run_mwh,run_cost_usd,"
                    "rho_tp,rho_cp,rho_ep,rho_pp,rho_dp,fabric_tiers,why_not,gpus_used,owned_run_cost_usd\n";
    for (const auto& p : r.points) {
        s += std::to_string(p.gpus) + "," + (p.isDesign ? "true" : "false") + "," + std::to_string(p.globalBatch) + ",";
        if (!p.best) {
            s += std::string(28, ',') + std::to_string(p.fabricTiers) + "," + csvField(p.whyNoBest) + ",,\n";
            continue;
        }
        const ScaleFigures& f = *p.best;
        const Layout& l = f.layout;
        for (std::int64_t v : {l.tp, l.pp, l.dp, l.cp, l.ep, l.microBatch, l.interleave, l.zero})
            s += std::to_string(v) + ",";
        s += std::string(recomputeName(l.recompute)) + "," + (l.sequenceParallel ? "true" : "false") + ",";
        // A run that never completes has no wall-clock figures: empty
        // cells, as the JSON's nulls (its interruptions are 0 / 0).
        const bool completes = f.goodput > 0;
        auto cell = [](double v) { return std::isfinite(v) ? formatValue(v, 8) : std::string(); };
        auto wall = [&](double v) { return completes ? cell(v) : std::string(); };
        for (const std::string& v :
             {cell(f.tokensPerS), cell(idealTokensPerS(r, p.gpus)), cell(f.mfu), cell(f.stepS), cell(f.daysToTrain),
              wall(f.wallDays), cell(f.clusterMtbfH), wall(f.expectedInterruptions), cell(f.goodput),
              cell(f.facilityKw), wall(f.trainingRunMwh), wall(f.runCostUsd), cell(f.rho.tp), cell(f.rho.cp),
              cell(f.rho.ep), cell(f.rho.pp), cell(f.rho.dp)})
            s += v + ",";
        s += std::to_string(p.fabricTiers) + ",," + std::to_string(f.gpusUsed) + "," +
            (f.ownedRunCostUsd ? cell(*f.ownedRunCostUsd) : std::string()) + "\n";
    }
    return s;
}

}  // namespace studio
