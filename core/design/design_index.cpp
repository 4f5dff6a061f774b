#include "core/design/design_index.h"

#include <algorithm>

namespace studio {

DesignIndex::DesignIndex(const Design& design, const Catalog& catalog) : design_(design), catalog_(catalog)
{
    const std::size_t n = design.components.size();
    parts_.resize(n);
    instances_.assign(n, 0);
    parents_.assign(n, -1);
    children_.resize(n);
    byId_.reserve(n);
    for (std::size_t i = 0; i < n; ++i) {
        byId_[design.components[i].id] = i;
        // Items of one part come in runs (a node's NICs): look a part up
        // when it changes.
        const std::string& part = design.components[i].part;
        parts_[i] = i > 0 && part == design.components[i - 1].part ? parts_[i - 1] : catalog.find(part);
    }
    for (std::size_t i = 0; i < n; ++i) {
        const auto& p = design.components[i].parent;
        if (p.empty())
            continue;
        if (auto it = byId_.find(p); it != byId_.end()) {
            parents_[i] = static_cast<std::int64_t>(it->second);
            children_[it->second].push_back(i);
        }
    }
    // Validated designs are forests: resolve each chain once, memoised.
    std::vector<std::size_t> chain;
    for (std::size_t i = 0; i < n; ++i) {
        chain.clear();
        std::size_t at = i;
        while (instances_[at] == 0) {
            chain.push_back(at);
            if (parents_[at] < 0)
                break;
            at = static_cast<std::size_t>(parents_[at]);
        }
        for (auto k = chain.rbegin(); k != chain.rend(); ++k) {
            const std::int64_t above = parents_[*k] < 0 ? 1 : instances_[static_cast<std::size_t>(parents_[*k])];
            instances_[*k] = above * design.components[*k].count;
        }
    }
    const std::size_t links = design.links.size();
    linkFrom_.assign(links, -1);
    linkTo_.assign(links, -1);
    cables_.assign(links, 0);
    linkParts_.assign(links, nullptr);
    for (std::size_t j = 0; j < links; ++j) {
        const Link& l = design.links[j];
        linkParts_[j] = j > 0 && l.part == design.links[j - 1].part ? linkParts_[j - 1] : catalog.find(l.part);
        std::int64_t ends[2] = {0, 0};
        for (int e = 0; e < 2; ++e)
            if (const auto it = byId_.find(e == 0 ? l.from : l.to); it != byId_.end()) {
                (e == 0 ? linkFrom_ : linkTo_)[j] = std::int64_t(it->second);
                ends[e] = instances_[it->second];
            }
        // As cablesOf counts them (core/analysis/inventory.h).
        cables_[j] = l.count * std::max(ends[0], ends[1]);
    }
}

std::optional<std::size_t> DesignIndex::parent(std::size_t i) const
{
    if (parents_[i] < 0)
        return std::nullopt;
    return static_cast<std::size_t>(parents_[i]);
}

std::optional<std::size_t> DesignIndex::find(const std::string& id) const
{
    const auto it = byId_.find(id);
    if (it == byId_.end())
        return std::nullopt;
    return it->second;
}

std::optional<std::size_t> DesignIndex::enclosing(std::size_t i, PartKind kind) const
{
    for (std::optional<std::size_t> at = i; at; at = parent(*at))
        if (parts_[*at]->kind == kind)
            return at;
    return std::nullopt;
}

bool DesignIndex::isInside(std::size_t i, std::size_t ancestor) const
{
    for (std::optional<std::size_t> at = i; at; at = parent(*at))
        if (*at == ancestor)
            return true;
    return false;
}

std::optional<double> DesignIndex::figure(std::size_t i, std::string_view key) const
{
    const auto& props = design_.components[i].props;
    if (!props.empty())
        if (auto it = props.find(std::string(key)); it != props.end() && it->second.is_number())
            return it->second.get<double>();
    if (const Figure* f = parts_[i]->figure(key))
        return f->value;
    return std::nullopt;
}

bool DesignIndex::isOverridden(std::size_t i, std::string_view key) const
{
    return design_.components[i].props.count(std::string(key)) > 0;
}

const Json* DesignIndex::setting(std::size_t i, std::string_view key) const
{
    const auto& props = design_.components[i].props;
    const auto it = props.find(std::string(key));
    return it == props.end() ? nullptr : &it->second;
}

}  // namespace studio
