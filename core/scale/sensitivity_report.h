#pragma once
// A sensitivity analysis and the what-if upgrades as the command line
// prints them: JSON (the interface scripts read) or text tables.
#include <string>

#include "core/design/design.h"
#include "core/scale/sensitivity.h"
#include "core/scale/upgrades.h"

namespace studio {

Json sensitivityJson(const SensitivityResult& result);
std::string sensitivityText(const SensitivityResult& result);
// `upgrades[]` of {name, title, available, why_not, changes[], gpus,
// tokens_per_s, days_to_train (wall clock), run_cost_usd, facility_kw,
// best_layout}; the figures null where the upgrade does not run.
Json upgradesJson(const UpgradesResult& result);
std::string upgradesText(const UpgradesResult& result);

}  // namespace studio
