#include "core/compare/equal_budget.h"

#include <algorithm>
#include <optional>

#include "core/analysis/cost.h"
#include "core/analysis/inventory.h"
#include "core/analysis/power.h"
#include "core/design/design_index.h"
#include "core/design/resize.h"
#include "core/enum_names.h"
#include "core/scale/scale_sweep.h"
#include "core/text.h"

namespace studio {

const char* budgetName(Budget b)
{
    switch (b) {
    case Budget::AsDesigned: return "as_designed";
    case Budget::Capex: return "capex";
    case Budget::Power: return "power";
    }
    return "as_designed";
}

const char* budgetLabel(Budget b)
{
    switch (b) {
    case Budget::AsDesigned: return "";
    case Budget::Capex: return "capex";
    case Budget::Power: return "facility power";
    }
    return "";
}

bool budgetFromName(const std::string& name, Budget* out)
{
    return enumFromName<Budget>(kBudgets, budgetName, name, out);
}

namespace {

struct Measured {
    BudgetFigure figure;
    std::int64_t gpus = 0;
};

Measured measure(const Design& design, const Catalog& catalog, Budget budget)
{
    const DesignIndex index(design, catalog);
    const Inventory inventory = takeInventory(index);
    std::vector<Problem> unused;
    const Power power = modelPower(index, inventory, design.facility, unused);
    Measured m;
    m.gpus = inventory.gpus;
    if (budget == Budget::Power) {
        m.figure.value = power.facilityKw;
        return m;
    }
    const Cost cost = modelCost(index, inventory, power, design.facility);
    m.figure.value = cost.capex.typical;
    m.figure.complete = cost.complete();
    return m;
}

}  // namespace

BudgetFigure budgetFigure(const Design& design, const Catalog& catalog, Budget budget)
{
    return measure(design, catalog, budget).figure;
}

std::string formatBudget(Budget budget, double value)
{
    return budget == Budget::Power ? formatPowerKw(value) : formatUsd(value);
}

EqualBudget budgetAsDesigned(const Design& design, const Catalog& catalog, Budget budget)
{
    const Measured own = measure(design, catalog, budget);
    EqualBudget e;
    e.budget = budget;
    e.target = e.value = own.figure.value;
    e.designGpus = e.gpus = own.gpus;
    e.complete = own.figure.complete;
    return e;
}

EqualBudget scaleToBudget(Design& design, const Catalog& catalog, Budget budget, double target)
{
    EqualBudget e = budgetAsDesigned(design, catalog, budget);
    e.target = target;
    if (budget == Budget::AsDesigned)
        return e;
    const std::int64_t ownGpus = e.gpus;
    if (!(target > 0)) {
        e.note = std::string("kept at its own size: the baseline's ") + budgetLabel(budget) + " is " +
            formatBudget(budget, target) + (budget == Budget::Capex ? " (none of its parts has a price)" : "");
        return e;
    }
    const ScaleUnitResult found = findScaleUnit(design, catalog);
    if (!found.unit) {
        e.note = "kept at its own size: " + found.problem->message;
        return e;
    }
    const std::int64_t step = found.unit->gpusPerInstance;
    // The figure at k growth units, or nullopt when the design does not
    // take that size.
    auto at = [&](std::int64_t k) -> std::optional<Measured> {
        const SizedDesign s = sizeDesign(design, catalog, k * step, ownGpus);
        const Measured m = measure(s.design, catalog, budget);
        if (m.gpus != k * step)
            return std::nullopt;
        return m;
    };
    // Capex and power grow with the size: the largest k under the target is
    // found by doubling, then bisecting. The sweep's largest size bounds it.
    const std::int64_t maxUnits = std::max<std::int64_t>(1, std::min(kMaxCount, kSweepMaxGpus / step));
    auto fits = [&](std::int64_t k) {
        const auto m = at(k);
        return m && m->figure.value <= target;
    };
    std::int64_t lo = 0, hi = 1;
    while (hi <= maxUnits && fits(hi)) {
        lo = hi;
        hi *= 2;
    }
    hi = std::min(hi, maxUnits + 1);
    while (hi - lo > 1) {
        const std::int64_t mid = lo + (hi - lo) / 2;
        (fits(mid) ? lo : hi) = mid;
    }
    const std::int64_t units = std::max<std::int64_t>(1, lo);
    const SizedDesign sized = sizeDesign(design, catalog, units * step, ownGpus);
    if (!sized.error.empty()) {
        e.note = "kept at its own size: at " + formatCount(units * step) + " GPUs " + sized.error;
        return e;
    }
    const Measured m = measure(sized.design, catalog, budget);
    design = sized.design;
    e.gpus = m.gpus;
    e.value = m.figure.value;
    e.complete = m.figure.complete;
    if (lo == 0)
        e.note = "one growth unit (" + formatCount(step) + " GPUs) is already over the budget";
    else if (lo == maxUnits && m.gpus != ownGpus && m.figure.value < target)
        e.note = "stopped at " + formatCount(m.gpus) + " GPUs, the largest size the scale sweep considers";
    return e;
}

std::string describeEqualBudget(const EqualBudget& e)
{
    if (e.budget == Budget::AsDesigned)
        return "";
    const std::string size = e.gpus == e.designGpus ? "at its own " + formatCount(e.gpus) + " GPUs"
                                                    : "resized from " + formatCount(e.designGpus) + " GPUs";
    return size + ": " + budgetLabel(e.budget) + " " + formatBudget(e.budget, e.value) +
        (e.note.empty() ? "" : " (" + e.note + ")");
}

}  // namespace studio
