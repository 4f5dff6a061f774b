#include "core/analysis/inventory.h"

#include <algorithm>

#include "core/json/json_pointer.h"
#include "core/text.h"

namespace studio {

std::int64_t cablesOf(const Link& link, std::int64_t fromInstances, std::int64_t toInstances)
{
    return link.count * std::max(fromInstances, toInstances);
}

namespace {

FabricSizing sizeFabric(const DesignIndex& index, std::size_t f)
{
    const Design& d = index.design();
    FabricSizing s;
    s.component = index.component(f).id;
    s.name = index.component(f).name.empty() ? index.part(f).name : index.component(f).name;
    if (const Json* sw = index.setting(f, "switch"); sw && sw->is_string())
        s.switchPart = sw->get<std::string>();
    if (const Json* c = index.setting(f, "cable"); c && c->is_string())
        s.cablePart = c->get<std::string>();
    s.railOptimized = index.part(f).attribute("rail_optimized") == "true";
    if (const Json* r = index.setting(f, "rail_optimized"); r && r->is_boolean())
        s.railOptimized = r->get<bool>();

    // Endpoints are the links into the fabric; those from inside nodes are
    // rails, counted per node so a scalable unit lines up with leaf ports.
    std::int64_t nodePorts = 0;
    std::vector<std::size_t> nodesSeen;
    std::vector<bool> seen(index.size(), false);
    for (std::size_t j = 0; j < d.links.size(); ++j) {
        const Link& l = d.links[j];
        const bool intoFabric = index.linkTo(j) == f, outOfFabric = index.linkFrom(j) == f;
        if (!intoFabric && !outOfFabric)
            continue;
        const auto other = intoFabric ? index.linkFrom(j) : index.linkTo(j);
        if (!other)
            continue;
        const std::int64_t ports = l.count * cableEndInstances(&index.part(*other), index.instances(*other));
        if (const auto node = index.enclosing(*other, PartKind::Node)) {
            nodePorts += ports;
            if (!seen[*node]) {
                seen[*node] = true;
                nodesSeen.push_back(*node);
            }
        } else {
            s.otherEndpoints += ports;
        }
    }
    for (std::size_t n : nodesSeen)
        s.nodes += index.instances(n);
    if (s.nodes > 0 && nodePorts % s.nodes == 0) {
        s.rails = nodePorts / s.nodes;
    } else if (s.nodes > 0) {
        // Nodes with different port counts cannot share rails evenly.
        s.railOptimized = false;
        s.rails = 0;
        s.otherEndpoints += nodePorts;
        s.nodes = 0;
    }

    FatTreeSpec spec;
    spec.nodes = s.nodes;
    spec.rails = s.rails;
    spec.otherEndpoints = s.otherEndpoints;
    spec.railOptimized = s.railOptimized;
    spec.oversubscription = index.figure(f, "oversubscription").value_or(1.0);
    s.oversubscription = spec.oversubscription;
    const Part* sw = index.catalog().find(s.switchPart);
    spec.radix = sw && sw->figure("ports") ? static_cast<std::int64_t>(sw->figure("ports")->value) : 0;
    if (const Json* r = index.setting(f, "radix"); r && r->is_number_integer())
        spec.radix = r->get<std::int64_t>();
    if (const Json* t = index.setting(f, "tiers"); t && t->is_number_integer())
        spec.tiers = static_cast<int>(t->get<std::int64_t>());
    s.portGbps = sw && sw->figure("port_gbps") ? sw->figure("port_gbps")->value : 0;
    if (const Part* cable = index.catalog().find(s.cablePart); cable && cable->figure("gbps"))
        s.portGbps = std::min(s.portGbps, cable->figure("gbps")->value);
    s.tree = sizeFatTree(spec);
    return s;
}

// Counts by part id, for items that come in runs of one part (a node's
// NICs, a fabric's cables): the map is searched when the catalog part
// changes, compared by address (comparing ids read every item's string
// again, a tenth of an edit of a design drawn in full). Without a catalog
// part, always.
class PartTally {
public:
    explicit PartTally(std::map<std::string, std::int64_t>& counts) : counts_(counts) {}
    void add(const Part* catalogPart, const std::string& part, std::int64_t n)
    {
        if (!last_ || !catalogPart || catalogPart != lastPart_) {
            last_ = &counts_[part];
            lastPart_ = catalogPart;
        }
        *last_ += n;
    }

private:
    std::map<std::string, std::int64_t>& counts_;
    std::int64_t* last_ = nullptr;
    const Part* lastPart_ = nullptr;
};

}  // namespace

Inventory takeInventory(const DesignIndex& index)
{
    Inventory inv;
    inv.switchesByTier = {{"leaf", 0}, {"spine", 0}, {"core", 0}, {"other", 0}};
    std::map<std::string, std::int64_t> byPart;
    std::map<std::string, std::int64_t> gpusByPart;
    PartTally all(byPart), gpus(gpusByPart), cables(inv.cablesByPart);
    auto add = [&](const Part* catalogPart, const std::string& part, std::int64_t n) {
        if (n > 0)
            all.add(catalogPart, part, n);
    };

    for (std::size_t i = 0; i < index.size(); ++i) {
        const std::int64_t n = index.instances(i);
        const std::string& part = index.component(i).part;
        const Part* catalogPart = &index.part(i);
        switch (index.kind(i)) {
        case PartKind::Accelerator:
            inv.gpus += n;
            gpus.add(catalogPart, part, n);
            add(catalogPart, part, n);
            break;
        case PartKind::Node:
            inv.nodes += n;
            add(catalogPart, part, n);
            break;
        case PartKind::Rack:
            inv.racks += n;
            add(catalogPart, part, n);
            break;
        case PartKind::Nic:
            inv.nics += n;
            add(catalogPart, part, n);
            break;
        case PartKind::Storage:
            (index.enclosing(i, PartKind::Node) ? inv.localDrives : inv.storageSystems) += n;
            add(catalogPart, part, n);
            break;
        case PartKind::Switch: {
            std::string tier = "other";
            if (const Json* t = index.setting(i, "tier"); t && t->is_string())
                tier = t->get<std::string>();
            inv.switchesByTier[tier] += n;
            inv.switches += n;
            add(catalogPart, part, n);
            break;
        }
        case PartKind::Fabric: {
            FabricSizing s = sizeFabric(index, i);
            if (!s.tree.error.empty()) {
                inv.problems.push_back({Severity::Error, pointerAppend("/components", i),
                                        "fabric " + inQuotes(s.component) + ": " + s.tree.error, "fabric_too_large"});
            } else if (s.tree.endpoints == 0) {
                inv.problems.push_back({Severity::Warning, pointerAppend("/components", i),
                                        "fabric " + inQuotes(s.component) + " has no links to it, so no switches",
                                        "fabric_unconnected"});
            }
            inv.switchesByTier["leaf"] += s.tree.leaf;
            inv.switchesByTier["spine"] += s.tree.spine;
            inv.switchesByTier["core"] += s.tree.core;
            inv.switches += s.tree.switches();
            add(nullptr, s.switchPart, s.tree.switches());
            const std::int64_t between = s.tree.leafSpineCables + s.tree.spineCoreCables;
            if (between > 0) {
                const std::string cable = s.cablePart.empty() ? "(unspecified cable)" : s.cablePart;
                inv.cablesByPart[cable] += between;
                inv.cables += between;
                if (!s.cablePart.empty())
                    add(nullptr, s.cablePart, between);
            }
            inv.fabrics.push_back(std::move(s));
            break;
        }
        case PartKind::Group:
        case PartKind::Link: break;
        }
    }
    // Placed switches: the cables plugged into one must fit its ports.
    std::vector<std::int64_t> plugged(index.size(), 0);
    for (std::size_t j = 0; j < index.design().links.size(); ++j) {
        const Link& l = index.design().links[j];
        const std::int64_t n = index.cables(j);
        cables.add(index.linkPart(j), l.part, n);
        inv.cables += n;
        add(index.linkPart(j), l.part, n);
        const auto from = index.linkFrom(j), to = index.linkTo(j);
        if (from && index.kind(*from) == PartKind::Switch)
            plugged[*from] += n;
        if (to && to != from && index.kind(*to) == PartKind::Switch)
            plugged[*to] += n;
    }
    for (std::size_t i = 0; i < index.size(); ++i) {
        if (index.kind(i) != PartKind::Switch)
            continue;
        const std::int64_t ports = std::int64_t(index.figure(i, "ports").value_or(0)) * index.instances(i);
        if (plugged[i] > ports)
            inv.problems.push_back({Severity::Warning, pointerAppend("/components", i),
                                    "switch " + inQuotes(index.component(i).id) + " has " + formatCount(ports) +
                                        " ports but " + formatCount(plugged[i]) + " cables plugged in",
                                    "switch_ports_exhausted"});
    }
    std::int64_t most = 0;
    for (const auto& [part, n] : gpusByPart)
        if (n > most) {
            most = n;
            inv.gpuPart = part;
        }
    for (const Part& p : index.catalog().parts())
        if (auto it = byPart.find(p.id); it != byPart.end())
            inv.bom.push_back({p.id, p.name, p.kind, it->second});
    return inv;
}

const FabricSizing* computeFabric(const DesignIndex& index, const Inventory& inventory)
{
    const FabricSizing* best = nullptr;
    for (const auto& f : inventory.fabrics) {
        const auto fi = index.find(f.component);
        const Json* role = fi ? index.setting(*fi, "role") : nullptr;
        const bool compute = !role || !role->is_string() || role->get<std::string>() == "compute";
        if (fi && compute && f.nodes > 0 && (!best || f.nodes > best->nodes))
            best = &f;
    }
    return best;
}

}  // namespace studio
