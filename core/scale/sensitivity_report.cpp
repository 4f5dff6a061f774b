#include "core/scale/sensitivity_report.h"

#include <cmath>

#include "core/json_number.h"
#include "core/text.h"

namespace studio {
namespace {

std::string signedPercent(double fraction, int significant = 3)
{
    return (fraction > 0 ? "+" : "") + formatReadable(100 * fraction, significant) + "%";
}

}  // namespace

Json sensitivityJson(const SensitivityResult& r)
{
    Json inputs = Json::array();
    for (const auto& in : r.inputs) {
        const SensitivityChange &low = in.at(-0.5), &high = in.at(0.5);
        Json changes = Json::array();
        for (const auto& c : in.changes)
            changes.push_back({{"change", c.change},
                               {"value", finiteOrNull(c.value)},
                               {"days", finiteOrNull(c.days)},
                               {"cost_usd", finiteOrNull(c.costUsd)},
                               {"run_cost_usd", finiteOrNull(c.runCostUsd)},
                               {"usd_per_gpu_hour", finiteOrNull(c.usdPerGpuHour)},
                               {"re_searched", c.reSearched},
                               {"best_layout", c.bestLayout ? layoutJson(*c.bestLayout) : Json(nullptr)},
                               {"why_not", c.whyNot.empty() ? Json(nullptr) : Json(c.whyNot)}});
        inputs.push_back({{"name", in.key},
                          {"label", in.label},
                          {"unit", in.unit},
                          {"value", finiteOrNull(in.value)},
                          {"low", finiteOrNull(low.value)},
                          {"high", finiteOrNull(high.value)},
                          {"days_low", finiteOrNull(low.days)},
                          {"days_high", finiteOrNull(high.days)},
                          {"cost_low", finiteOrNull(low.costUsd)},
                          {"cost_high", finiteOrNull(high.costUsd)},
                          {"run_cost_low", finiteOrNull(low.runCostUsd)},
                          {"run_cost_high", finiteOrNull(high.runCostUsd)},
                          {"effect_days", finiteOrNull(in.effectDays)},
                          {"effect_run_cost", finiteOrNull(in.effectRunCost)},
                          {"changes", std::move(changes)}});
    }
    return {{"days", finiteOrNull(r.days)},
            {"cost_usd", finiteOrNull(r.costUsd)},
            {"run_cost_usd", finiteOrNull(r.runCostUsd)},
            {"usd_per_gpu_hour", finiteOrNull(r.usdPerGpuHour)},
            {"cost_complete", r.costComplete},
            {"best_layout", layoutJson(r.bestLayout)},
            {"binding", r.binding},
            {"inputs", std::move(inputs)}};
}

std::string sensitivityText(const SensitivityResult& r)
{
    std::string s = "Today: " + formatReadable(r.days) + " days to train (wall clock), run electricity $" +
        formatReadable(r.costUsd) + ", run cost with ownership " +
        (std::isfinite(r.runCostUsd) ? formatUsd(r.runCostUsd) : std::string("-")) +
        (r.costComplete ? "" : " (priced parts only)") + "\n" + r.binding + "\n\n";
    std::vector<std::vector<std::string>> rows = {{"input", "today", "-50%", "-10%", "+10%", "+50%", "electricity -50%",
                                                   "electricity +50%", "run cost -50%", "run cost +50%", "notes"}};
    for (const auto& in : r.inputs) {
        std::vector<std::string> row = {in.label, formatReadable(in.value) + (in.unit.empty() ? "" : " " + in.unit)};
        std::string notes;
        for (double change : kSensitivityChanges) {
            const SensitivityChange& c = in.at(change);
            row.push_back(std::isfinite(c.days) ? signedPercent(c.days / r.days - 1) : "never");
            std::string note;
            if (c.reSearched)
                note = "the layout no longer fits, the best's change";
            else if (c.bestLayout)
                note = "best " + describeLayout(*c.bestLayout);
            if (!c.whyNot.empty())
                note = c.whyNot;
            if (!note.empty())
                notes += (notes.empty() ? "" : "; ") + signedPercent(change, 2) + ": " + note;
        }
        for (double change : {-0.5, 0.5}) {
            const SensitivityChange& c = in.at(change);
            row.push_back(std::isfinite(c.days) ? signedPercent(c.costUsd / r.costUsd - 1) : "-");
        }
        for (double change : {-0.5, 0.5}) {
            const SensitivityChange& c = in.at(change);
            row.push_back(std::isfinite(c.runCostUsd) && std::isfinite(r.runCostUsd) && r.runCostUsd > 0
                              ? signedPercent(c.runCostUsd / r.runCostUsd - 1)
                              : "-");
        }
        row.push_back(notes);
        rows.push_back(std::move(row));
    }
    return s +
        "Change from today: days to train at each change; the run's electricity and its cost with ownership at "
        "-50% and +50%:\n" +
        alignedColumns(rows, {0, 10});
}

Json upgradesJson(const UpgradesResult& r)
{
    Json out = Json::array();
    for (const auto& o : r.upgrades) {
        const std::optional<ScaleFigures>& a = o.after;
        auto figure = [&](double ScaleFigures::*member) { return a ? finiteOrNull(*a.*member) : Json(nullptr); };
        Json changes = Json::array();
        for (const auto& c : o.proposal.changes)
            changes.push_back(c);
        out.push_back({{"name", upgradeKey(o.proposal.kind)},
                       {"title", upgradeTitle(o.proposal.kind)},
                       {"available", o.proposal.ok()},
                       {"why_not",
                        !o.proposal.ok()       ? Json(o.proposal.unavailable)
                            : o.whyNot.empty() ? Json(nullptr)
                                               : Json(o.whyNot)},
                       {"changes", std::move(changes)},
                       {"gpus", o.proposal.ok() ? Json(o.gpus) : Json(nullptr)},
                       {"tokens_per_s", figure(&ScaleFigures::tokensPerS)},
                       {"days_to_train", a && a->goodput > 0 ? finiteOrNull(a->wallDays) : Json(nullptr)},
                       {"run_cost_usd", figure(&ScaleFigures::runCostUsd)},
                       {"capex_usd", figure(&ScaleFigures::capexUsd)},
                       {"cost_complete", a ? Json(a->costComplete) : Json(nullptr)},
                       {"facility_kw", figure(&ScaleFigures::facilityKw)},
                       {"best_layout", o.best ? layoutJson(o.best->layout) : Json(nullptr)}});
    }
    return out;
}

std::string upgradesText(const UpgradesResult& r)
{
    std::vector<std::vector<std::string>> rows = {
        {"upgrade", "GPUs", "tokens/s", "wall days", "capex", "electricity", "facility"}};
    auto change = [](double after, double today) {
        return today != 0 && std::isfinite(after) ? " (" + signedPercent(after / today - 1) + ")" : std::string();
    };
    rows.push_back({"today", formatCount(r.gpus), formatReadable(r.today.tokensPerS), formatReadable(r.today.wallDays),
                    formatUsd(r.today.capexUsd), "$" + formatReadable(r.today.runCostUsd),
                    formatPowerKw(r.today.facilityKw)});
    std::string notes;
    for (const auto& o : r.upgrades) {
        const std::string title = upgradeTitle(o.proposal.kind);
        if (!o.after) {
            rows.push_back({title, "-", "-", "-", "-", "-", "-"});
            notes += title + ": " + (o.proposal.ok() ? "does not run: " + o.whyNot : o.proposal.unavailable) + "\n";
            continue;
        }
        const ScaleFigures& a = *o.after;
        rows.push_back(
            {title, formatCount(o.gpus), formatReadable(a.tokensPerS) + change(a.tokensPerS, r.today.tokensPerS),
             formatReadable(a.wallDays) + change(a.wallDays, r.today.wallDays),
             formatUsd(a.capexUsd) + change(a.capexUsd, r.today.capexUsd) + (a.costComplete ? "" : " unpriced parts"),
             "$" + formatReadable(a.runCostUsd) + change(a.runCostUsd, r.today.runCostUsd),
             formatPowerKw(a.facilityKw) + change(a.facilityKw, r.today.facilityKw)});
        for (const auto& c : o.proposal.changes)
            notes += title + ": " + c + "\n";
        if (o.best)
            notes += title + ": the layout search then prefers " + describeLayout(o.best->layout) + " (" +
                formatReadable(o.best->wallDays) + " wall days)\n";
    }
    return "What-if upgrades, each against today's design:\n" + alignedColumns(rows, {0}) + "\n" + notes;
}

}  // namespace studio
