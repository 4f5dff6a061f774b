#pragma once
// A value used by an analysis, with where it came from: a catalog figure
// (its citation), a component override, a design input, or a model default.
#include <optional>
#include <string>

#include "core/analysis/explanation.h"
#include "core/design/defaults.h"
#include "core/design/design_index.h"

namespace studio {

struct Sourced {
    double value = 0;
    std::string source;
    bool uncertain = false;
    bool known = true;  // false: the catalog has no figure and no default applies

    ExplainInput as(const std::string& name, const std::string& unit) const { return {name, value, unit, source}; }
    // The design sets it on the component (figureOf's override).
    bool isOverride() const { return source.rfind("override", 0) == 0; }
};

// A figure of component i: its override, else the catalog's, else `fallback`.
Sourced figureOf(const DesignIndex& index, std::size_t i, std::string_view key,
                 std::optional<double> fallback = std::nullopt, std::string_view fallbackSource = {});

// A design input with its documented default.
Sourced inputOr(const std::optional<double>& value, const SourcedDefault& def);

}  // namespace studio
