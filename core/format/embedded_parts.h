#pragma once
// Carrying a design's parts inside the file (its "catalog" section), so it
// opens the same on a machine whose catalog lacks or changes them.
#include <string>
#include <vector>

#include "core/catalog/catalog.h"
#include "core/design/design.h"

namespace studio {

// Every part the design refers to, in catalog order: components, links,
// part-valued settings (a fabric's switch), and the parts those name (a
// node's accelerator and NIC).
std::vector<std::string> partsUsedBy(const Design& design, const Catalog& catalog);

// Replaces the design's embedded catalog with the parts it uses.
void embedUsedParts(Design& design, const Catalog& catalog);

}  // namespace studio
