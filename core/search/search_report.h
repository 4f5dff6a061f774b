#pragma once
// A layout search's result as the command line prints it: JSON (the
// interface scripts read), a text table, or CSV of the candidates.
#include <string>

#include "core/design/design.h"
#include "core/search/layout_search.h"
#include "core/serving/serving_search.h"

namespace studio {

Json searchJson(const SearchResult& result);
std::string searchText(const SearchResult& result);
std::string searchCsv(const SearchResult& result);
// How the current layout ranks: "#37 of 12,400, 18% slower than the best",
// or "not ranked: <why>".
std::string currentRankText(const SearchResult& result);

// A serving design's search: the same shape, each candidate with its mode
// (aggregated | disaggregated), latencies, tokens/s per GPU and KV move.
Json servingSearchJson(const ServingSearchResult& result);
std::string servingSearchText(const ServingSearchResult& result);
std::string servingSearchCsv(const ServingSearchResult& result);

}  // namespace studio
