#pragma once
// A sensitivity analysis as the command line prints it: JSON (the interface
// scripts read) or a text tornado table.
#include <string>

#include "core/design/design.h"
#include "core/scale/sensitivity.h"

namespace studio {

Json sensitivityJson(const SensitivityResult& result);
std::string sensitivityText(const SensitivityResult& result);

}  // namespace studio
