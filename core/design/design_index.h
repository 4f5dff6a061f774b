#pragma once
// Lookups every analysis needs, computed once per design: each component's
// part, parent, children and instance count (its count times its ancestors'),
// and its figures with per-component overrides applied.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "core/catalog/catalog.h"
#include "core/design/design.h"

namespace studio {

class DesignIndex {
public:
    // The design must have passed validateDesign() against this catalog.
    DesignIndex(const Design& design, const Catalog& catalog);

    std::size_t size() const { return parts_.size(); }
    const Component& component(std::size_t i) const { return design_.components[i]; }
    const Part& part(std::size_t i) const { return *parts_[i]; }
    PartKind kind(std::size_t i) const { return parts_[i]->kind; }
    std::int64_t instances(std::size_t i) const { return instances_[i]; }
    std::optional<std::size_t> parent(std::size_t i) const;
    const std::vector<std::size_t>& children(std::size_t i) const { return children_[i]; }
    std::optional<std::size_t> find(const std::string& id) const;
    // Nearest ancestor-or-self of the given kind.
    std::optional<std::size_t> enclosing(std::size_t i, PartKind kind) const;
    bool isInside(std::size_t i, std::size_t ancestor) const;  // ancestor-or-self

    // A figure with the component's override applied, else the catalog's.
    std::optional<double> figure(std::size_t i, std::string_view key) const;
    bool isOverridden(std::size_t i, std::string_view key) const;
    const Json* setting(std::size_t i, std::string_view key) const;

    const Design& design() const { return design_; }
    const Catalog& catalog() const { return catalog_; }

private:
    const Design& design_;
    const Catalog& catalog_;
    std::vector<const Part*> parts_;
    std::vector<std::int64_t> instances_;
    std::vector<std::int64_t> parents_;  // -1 at the top level
    std::vector<std::vector<std::size_t>> children_;
    std::unordered_map<std::string, std::size_t> byId_;
};

}  // namespace studio
