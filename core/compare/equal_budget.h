#pragma once
// Comparing at equal budget: "for the same money (or the same power), which
// cluster trains faster?" Each design other than the baseline is resized
// along its growth unit, exactly as the scale sweep sizes it, to the
// largest size whose capex or facility power is at most the baseline's.
// The size is a whole number of growth units, so a design lands at or below
// the budget, never above it, unless even one unit is over (then it stays
// at one unit and says so).
#include <array>
#include <cstdint>
#include <string>

#include "core/catalog/catalog.h"
#include "core/design/design.h"

namespace studio {

enum class Budget {
    AsDesigned,  // every design at its own size
    Capex,       // capex, typical prices (cost.capex_usd)
    Power,       // facility power (power.facility_kw)
};
inline constexpr std::array<Budget, 3> kBudgets{Budget::AsDesigned, Budget::Capex, Budget::Power};
const char* budgetName(Budget b);  // "as_designed", "capex", "power"
// "capex", "facility power"; "" as designed.
const char* budgetLabel(Budget b);
bool budgetFromName(const std::string& name, Budget* out);

// A design's capex (USD, typical) or facility power (kW). A capex over a
// design with unpriced parts is over its priced parts only: `complete` is
// false.
struct BudgetFigure {
    double value = 0;
    bool complete = true;
};
BudgetFigure budgetFigure(const Design& design, const Catalog& catalog, Budget budget);
// The figure as shown: "$41.2M", "1.47 MW".
std::string formatBudget(Budget budget, double value);

struct EqualBudget {
    Budget budget = Budget::AsDesigned;
    double target = 0;  // the baseline's figure
    std::int64_t designGpus = 0, gpus = 0;
    double value = 0;      // the design's figure at `gpus`
    bool complete = true;  // both capexes are over every part
    // Why the design stays at its own size (it cannot be resized), or that
    // one growth unit is already over the budget; "" when it fits.
    std::string note;
};

// The design at its own size: its figure is the budget (the baseline's).
EqualBudget budgetAsDesigned(const Design& design, const Catalog& catalog, Budget budget);
// Resizes `design` (valid against `catalog`) to the largest whole number of
// growth units whose figure is at most `target`; leaves it as it is when it
// cannot be resized, saying why in the note.
EqualBudget scaleToBudget(Design& design, const Catalog& catalog, Budget budget, double target);

// One clause for a compared design, after its label (which names its new
// size): "resized from 1,024 GPUs: capex $41.0M".
std::string describeEqualBudget(const EqualBudget& e);

}  // namespace studio
