#pragma once
#include <functional>
#include <map>
#include <optional>
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

// What one unit costs, in US dollars, with the band its sources span (list
// prices, teardown and cost analyses, cloud price lists) and their date. A
// part without one is not priced: a cost that needs it says so and is
// incomplete, never 0.
struct Price {
    double low = 0, typical = 0, high = 0;
    std::string source_key;  // key into the catalog's sources table
    std::string source;      // the citation itself
    std::string date;        // of the source: "2025-03"
    std::string note;        // what the price covers and how the band was set
    bool uncertain = false;
};

// The currency every price is in; a price in another is refused.
inline constexpr std::string_view kPriceCurrency = "USD";

struct Part {
    std::string id;  // "gpu.h100-sxm"
    PartKind kind = PartKind::Group;
    std::string name, vendor, description;
    std::map<std::string, std::string, std::less<>> attributes;
    std::map<std::string, Figure, std::less<>> figures;
    // One unit bought; a node's covers everything it holds as shipped
    // (its GPUs, NICs and drives).
    std::optional<Price> price;
    // An accelerator rented from a cloud, per GPU-hour: the rent-or-own line.
    std::optional<Price> cloudPrice;
    std::string origin;           // "built-in catalog", a catalog file's path, "embedded in the design"
    nlohmann::ordered_json json;  // as read, so a design can embed the part verbatim

    const Figure* figure(std::string_view key) const;
    std::string attribute(std::string_view key) const;  // "" when absent
};

}  // namespace studio
