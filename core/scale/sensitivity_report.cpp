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
                          {"effect_days", finiteOrNull(in.effectDays)},
                          {"changes", std::move(changes)}});
    }
    return {{"days", finiteOrNull(r.days)},
            {"cost_usd", finiteOrNull(r.costUsd)},
            {"best_layout", layoutJson(r.bestLayout)},
            {"binding", r.binding},
            {"inputs", std::move(inputs)}};
}

std::string sensitivityText(const SensitivityResult& r)
{
    std::string s = "Today: " + formatReadable(r.days) + " days to train (wall clock), run electricity $" +
        formatReadable(r.costUsd) + "\n" + r.binding + "\n\n";
    std::vector<std::vector<std::string>> rows = {
        {"input", "today", "-50%", "-10%", "+10%", "+50%", "cost -50%", "cost +50%", "notes"}};
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
        row.push_back(notes);
        rows.push_back(std::move(row));
    }
    return s + "Days to train, change from today:\n" + alignedColumns(rows, {0, 8});
}

}  // namespace studio
