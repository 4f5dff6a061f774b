#pragma once
// The hardware catalog: parts with sourced figures. The built-in catalog is
// resources/catalog.json compiled into the core; a user catalog file or a
// design's embedded parts are merged on top (same id replaces the part).
#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/catalog/part.h"
#include "core/problem.h"

namespace studio {

inline constexpr std::string_view kCatalogFormat = "cluster-studio.catalog";

class Catalog {
public:
    // resources/catalog.json as compiled in; parsed once. Its validity is a
    // test, so a broken build-time catalog aborts loudly rather than limping.
    static const Catalog& builtin();

    // Merges a catalog document. Everything is checked first (types, units,
    // sources, references between parts); on any error nothing is merged.
    // `requireHeader`: standalone files must say "format": "cluster-studio.catalog".
    std::vector<Problem> merge(const nlohmann::ordered_json& doc, const std::string& origin, bool requireHeader = true);
    // Reads and merges a catalog file; problems are about that file.
    std::vector<Problem> mergeFile(const std::string& path);

    const Part* find(std::string_view id) const;
    const std::vector<Part>& parts() const { return parts_; }
    std::string sourceText(std::string_view key) const;

    // A catalog document holding just these parts and the sources they cite,
    // for embedding into a design so it opens the same elsewhere.
    nlohmann::ordered_json subset(const std::vector<std::string>& ids) const;

private:
    // Looked up by views of ids (a design's parts and cables, per item and
    // per link in every analysis): no string is made to look one up.
    struct IdHash {
        using is_transparent = void;
        std::size_t operator()(std::string_view id) const { return std::hash<std::string_view>{}(id); }
    };
    std::vector<Part> parts_;
    std::unordered_map<std::string, std::size_t, IdHash, std::equal_to<>> index_;
    std::map<std::string, std::string, std::less<>> sources_;
};

}  // namespace studio
