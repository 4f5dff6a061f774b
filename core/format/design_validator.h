#pragma once
// Whole-design checks that no single field can make: ids unique, parts known,
// containment a tree that obeys the nesting rules, links between existing
// components, replication within limits, a model whose shapes divide. Used
// by the reader and, after each edit, by the studio.
#include <vector>

#include "core/catalog/catalog.h"
#include "core/design/design.h"
#include "core/problem.h"

namespace studio {

std::vector<Problem> validateDesign(const Design& design, const Catalog& catalog);

// The workload's rules alone, as validateDesign checks them: what a change
// of the workload alone can break (the workload dock asks for each value
// its arrows step over).
std::vector<Problem> validateWorkload(const Workload& workload);

// Component and link ids: letters, digits and . _ - : (they appear in
// pointers, messages and the canvas).
bool isValidId(const std::string& id);

}  // namespace studio
