#pragma once
#include <functional>
#include <map>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "core/catalog/part_kind.h"

namespace studio {

// One catalog figure: a value whose unit is in its key, and where it came from.
struct Figure {
    double value = 0;
    std::string source_key;  // key into the catalog's sources table
    std::string source;      // the citation itself
    bool uncertain = false;  // the source hedges, or the value is an estimate
    std::string note;
};

struct Part {
    std::string id;  // "gpu.h100-sxm"
    PartKind kind = PartKind::Group;
    std::string name, vendor, description;
    std::map<std::string, std::string, std::less<>> attributes;
    std::map<std::string, Figure, std::less<>> figures;
    std::string origin;           // "built-in catalog", a catalog file's path, "embedded in the design"
    nlohmann::ordered_json json;  // as read, so a design can embed the part verbatim

    const Figure* figure(std::string_view key) const;
    std::string attribute(std::string_view key) const;  // "" when absent
};

}  // namespace studio
