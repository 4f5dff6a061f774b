#include "core/design/fabric_plan.h"

#include <set>

#include "core/catalog/cable_choice.h"
#include "core/design/design_index.h"
#include "core/text.h"

namespace studio {

FabricPlan planFabric(const Design& design, const Catalog& catalog, const std::string& scope,
                      const FabricOptions& options)
{
    FabricPlan plan;
    const DesignIndex index(design, catalog);
    const auto scopeIndex = scope.empty() ? std::nullopt : index.find(scope);
    if (!scope.empty() && !scopeIndex) {
        plan.error = "no component " + inQuotes(scope);
        return plan;
    }
    const Part* sw = catalog.find(options.switchPart);
    if (!sw || sw->kind != PartKind::Switch) {
        plan.error = "no switch " + inQuotes(options.switchPart) + " in the catalog";
        return plan;
    }
    // NICs already wired to a fabric of this role stay as they are.
    std::set<std::string> wired;
    for (const Link& l : design.links)
        for (const auto& [nic, other] : {std::pair{l.from, l.to}, std::pair{l.to, l.from}})
            if (const auto o = index.find(other); o && index.kind(*o) == PartKind::Fabric) {
                const Json* role = index.setting(*o, "role");
                if ((role && role->is_string() ? role->get<std::string>() : "compute") == options.role)
                    wired.insert(nic);
            }
    // The compute NICs of each node: those of the platform's NIC part (or
    // all its NICs when the platform names none of them).
    std::set<std::size_t> nodes;
    double nicGbps = 0;
    std::string protocol;
    for (std::size_t i = 0; i < index.size(); ++i) {
        if (index.kind(i) != PartKind::Nic || wired.count(index.component(i).id))
            continue;
        const auto node = index.enclosing(i, PartKind::Node);
        if (!node || (scopeIndex && !index.isInside(i, *scopeIndex)))
            continue;
        const std::string platformNic = index.part(*node).attribute("nic");
        bool nodeHasPlatformNic = false;
        for (std::size_t c : index.children(*node))
            nodeHasPlatformNic = nodeHasPlatformNic || index.component(c).part == platformNic;
        if (nodeHasPlatformNic && index.component(i).part != platformNic)
            continue;  // a DPU or storage NIC
        Link l;
        l.from = index.component(i).id;
        l.count = 1;
        plan.links.push_back(l);
        plan.nics += index.instances(i);
        nodes.insert(*node);
        nicGbps = std::max(nicGbps, index.figure(i, "port_gbps").value_or(0));
        protocol = index.part(i).attribute("protocol");
    }
    for (std::size_t n : nodes)
        plan.nodes += index.instances(n);
    if (plan.links.empty()) {
        plan.error = "no node NICs to wire" + std::string(scope.empty() ? "" : " inside " + inQuotes(scope)) +
            " (nodes already on a " + options.role + " fabric are skipped)";
        return plan;
    }

    const std::string cable = options.cablePart.empty() ? defaultCable(catalog, nicGbps, protocol) : options.cablePart;
    std::set<std::string> taken;
    for (const auto& c : design.components)
        taken.insert(c.id);
    std::string id = "fabric";
    for (int n = 2; taken.count(id); ++n)
        id = "fabric-" + std::to_string(n);
    Component& f = plan.fabric;
    f.id = id;
    f.part = options.railOptimized ? "fabric.rail-optimized" : "fabric.fat-tree";
    f.name = options.role == "compute" ? "Compute fabric"
        : options.role == "storage"    ? "Storage fabric"
                                       : "Frontend network";
    f.parent = scope;
    f.props["switch"] = options.switchPart;
    if (!cable.empty())
        f.props["cable"] = cable;
    if (options.oversubscription != 1)
        f.props["oversubscription"] = options.oversubscription;
    if (options.tiers != 0)
        f.props["tiers"] = options.tiers;
    if (options.role != "compute")
        f.props["role"] = options.role;
    std::set<std::string> linkIds;
    for (const auto& l : design.links)
        linkIds.insert(l.id);
    for (Link& l : plan.links) {
        l.to = f.id;
        l.part = cable;
        std::string lid = l.from + "-" + f.id;
        for (int n = 2; linkIds.count(lid); ++n)
            lid = l.from + "-" + f.id + "-" + std::to_string(n);
        linkIds.insert(lid);
        l.id = lid;
    }

    FatTreeSpec spec;
    spec.nodes = plan.nodes;
    spec.rails = plan.nodes > 0 && plan.nics % plan.nodes == 0 ? plan.nics / plan.nodes : 0;
    if (spec.rails == 0)
        spec.otherEndpoints = plan.nics;
    spec.radix = std::int64_t(sw->figure("ports") ? sw->figure("ports")->value : 64);
    spec.oversubscription = options.oversubscription;
    spec.railOptimized = options.railOptimized && spec.rails > 0;
    spec.tiers = options.tiers;
    plan.sizing = sizeFatTree(spec);
    if (!plan.sizing.error.empty())
        plan.error = plan.sizing.error;
    return plan;
}

}  // namespace studio
