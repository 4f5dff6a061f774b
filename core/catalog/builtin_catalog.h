#pragma once
#include <string_view>

namespace studio {

// The text of resources/catalog.json, compiled into the core at build time.
std::string_view builtinCatalogJson();

}  // namespace studio
