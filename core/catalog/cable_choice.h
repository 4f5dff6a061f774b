#pragma once
// The cable a new link gets when the user has not chosen one: the slowest
// catalog cable that still carries the port speed on its protocol,
// preferring optics (their reach fits any row of racks) over copper.
#include <string>

#include "core/catalog/catalog.h"

namespace studio {

std::string defaultCable(const Catalog& catalog, double portGbps, const std::string& protocol);

}  // namespace studio
