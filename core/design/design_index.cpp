#include "core/design/design_index.h"

#include <algorithm>

namespace studio {

DesignIndex::DesignIndex(const Design& design, const Catalog& catalog)
    : design_(design), catalog_(catalog), byId_(design.components.size())
{
    const std::size_t n = design.components.size();
    parts_.resize(n);
    instances_.assign(n, 0);
    parents_.assign(n, -1);
    for (std::size_t i = 0; i < n; ++i) {
        byId_.insert(design.components[i].id, i);
        // Items of one part come in runs (a node's NICs): look a part up
        // when it changes.
        const std::string& part = design.components[i].part;
        parts_[i] = i > 0 && part == design.components[i - 1].part ? parts_[i - 1] : catalog.find(part);
    }
    // Items of one parent, and links to one end (a fabric), come in runs:
    // an id equal to the one before is not looked up again. And the other
    // ends of such a run (a node's NICs, cabled in turn) follow each other
    // in the file: the component after the one before is tried first.
    struct LastFound {
        const std::string* id = nullptr;
        std::int64_t at = -1;
    };
    const auto lookUp = [this, &design, n](const std::string& id, LastFound& last) {
        if (last.id && *last.id == id)
            return last.at;
        if (const std::size_t next = std::size_t(last.at + 1);
            last.at >= 0 && next < n && design.components[next].id == id)
            last = {&id, std::int64_t(next)};
        else if (const auto at = byId_.find(id))
            last = {&id, std::int64_t(*at)};
        else
            last = {&id, -1};
        return last.at;
    };
    LastFound lastParent;
    for (std::size_t i = 0; i < n; ++i) {
        const auto& p = design.components[i].parent;
        if (p.empty())
            continue;
        if (const std::int64_t at = lookUp(p, lastParent); at >= 0)
            parents_[i] = at;
    }
    childStart_.assign(n + 1, 0);
    for (std::size_t i = 0; i < n; ++i)
        if (parents_[i] >= 0)
            ++childStart_[std::size_t(parents_[i]) + 1];
    for (std::size_t i = 0; i < n; ++i)
        childStart_[i + 1] += childStart_[i];
    childList_.resize(childStart_[n]);
    std::vector<std::size_t> next(childStart_.begin(), childStart_.end() - 1);
    for (std::size_t i = 0; i < n; ++i)
        if (parents_[i] >= 0)
            childList_[next[std::size_t(parents_[i])]++] = i;
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
    LastFound lastEnd[2];
    for (std::size_t j = 0; j < links; ++j) {
        const Link& l = design.links[j];
        linkParts_[j] = j > 0 && l.part == design.links[j - 1].part ? linkParts_[j - 1] : catalog.find(l.part);
        std::int64_t ends[2] = {0, 0};
        for (int e = 0; e < 2; ++e)
            if (const std::int64_t at = lookUp(e == 0 ? l.from : l.to, lastEnd[e]); at >= 0) {
                (e == 0 ? linkFrom_ : linkTo_)[j] = at;
                ends[e] = cableEndInstances(parts_[std::size_t(at)], instances_[std::size_t(at)]);
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
    return byId_.find(id);
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
