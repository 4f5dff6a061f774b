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
// How the current layout ranks: "#37 of 12,400, 18% slower than the best",
// or "not ranked: <why>".
std::string currentRankText(const SearchResult& result);

}  // namespace studio
