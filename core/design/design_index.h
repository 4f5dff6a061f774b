#pragma once
// Lookups every analysis needs, computed once per design: each component's
// part, parent, children and instance count (its count times its ancestors'),
// and its figures with per-component overrides applied.
#include <algorithm>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/catalog/catalog.h"
#include "core/design/design.h"
#include "core/design/id_table.h"

namespace studio {

// The instances a link's end stands for when its cables are counted: its own
// (a NIC in 256 nodes, 256), but a fabric is one network sized from the
// links into it (core/design/fat_tree), so it stands for one however it is
// replicated (none when its containers have no instances). Without this a
// fabric of count 4 took four times the NICs' cables, more than its sizing
// had ports for.
inline std::int64_t cableEndInstances(const Part* part, std::int64_t instances)
{
    return part && part->kind == PartKind::Fabric ? std::min<std::int64_t>(instances, 1) : instances;
}

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
    // In design order.
    std::span<const std::size_t> children(std::size_t i) const
    {
        return {childList_.data() + childStart_[i], childStart_[i + 1] - childStart_[i]};
    }
    std::optional<std::size_t> find(const std::string& id) const;
    // The components link `link` (its position in design.links) joins;
    // nullopt for an end that names no component. Found once: analyses
    // walk the links several times, and a design drawn in full has a link
    // per cable.
    std::optional<std::size_t> linkFrom(std::size_t link) const { return at(linkFrom_[link]); }
    std::optional<std::size_t> linkTo(std::size_t link) const { return at(linkTo_[link]); }
    // The cables it stands for: its count per instance of its more
    // replicated end, a fabric counting once (cablesOf, cableEndInstances).
    std::int64_t cables(std::size_t link) const { return cables_[link]; }
    // Its cable's catalog part, or nullptr.
    const Part* linkPart(std::size_t link) const { return linkParts_[link]; }
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
    static std::optional<std::size_t> at(std::int64_t i)
    {
        return i < 0 ? std::nullopt : std::optional<std::size_t>(std::size_t(i));
    }

    const Design& design_;
    const Catalog& catalog_;
    std::vector<const Part*> parts_;
    std::vector<std::int64_t> instances_;
    std::vector<std::int64_t> parents_;  // -1 at the top level
    // Each component's children, one list after another (a vector of
    // its own for each of tens of thousands of components was a tenth of
    // an analysis to allocate and free).
    std::vector<std::size_t> childStart_;  // size() + 1 offsets into childList_
    std::vector<std::size_t> childList_;
    IdTable byId_;                                 // views of the design's ids
    std::vector<std::int64_t> linkFrom_, linkTo_;  // -1: no such component
    std::vector<std::int64_t> cables_;
    std::vector<const Part*> linkParts_;
};

}  // namespace studio
