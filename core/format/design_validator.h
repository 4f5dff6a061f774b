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

// The rules of the listed items' own fields, as validateDesign checks
// them: a component's name, count, position, size, part and properties, a
// link's count and cable, and with `settings` the design's name and its
// workload, facility and operations. Not the rules between items (ids,
// containment, replication, links' ends): for an edit that changes only
// such fields of a design without problems, these are all the problems
// the design it makes can have.
std::vector<Problem> validateFields(const Design& design, const Catalog& catalog,
                                    const std::vector<std::size_t>& components, const std::vector<std::size_t>& links,
                                    bool settings);

// Whether the listed links break none of the rules validateDesign applies
// to a link: its fields, id (valid, not another link's), ends (components
// that exist, not the same one) and cable. A design without problems to
// which only these links were added has none: no other item's rules
// depend on links. Says nothing of why not; validateDesign does.
bool addedLinksHold(const Design& design, const Catalog& catalog, const std::vector<std::size_t>& links);

// The workload's rules alone, as validateDesign checks them: what a change
// of the workload alone can break (the workload dock asks for each value
// its arrows step over).
std::vector<Problem> validateWorkload(const Workload& workload, const Catalog& catalog);

// Component and link ids: letters, digits and . _ - : (they appear in
// pointers, messages and the canvas).
bool isValidId(const std::string& id);

}  // namespace studio
