#pragma once
// A scale sweep as the command line prints it: JSON (the interface scripts
// read), a text table, or CSV of the points.
#include <string>

#include "core/design/design.h"
#include "core/scale/scale_sweep.h"

namespace studio {

Json sweepJson(const SweepResult& result);
std::string sweepText(const SweepResult& result);
std::string sweepCsv(const SweepResult& result);

}  // namespace studio
