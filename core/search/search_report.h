#pragma once
// A layout search's result as the command line prints it: JSON (the
// interface scripts read), a text table, or CSV of the candidates.
#include <string>

#include "core/design/design.h"
#include "core/search/layout_search.h"

namespace studio {

Json searchJson(const SearchResult& result);
std::string searchText(const SearchResult& result);
std::string searchCsv(const SearchResult& result);

}  // namespace studio
