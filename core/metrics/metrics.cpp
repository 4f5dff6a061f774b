#include "core/metrics/metrics.h"

#include "core/analysis/inventory.h"
#include "core/design/design_index.h"

namespace studio {
namespace {

Json inventoryJson(const Inventory& inv, const Catalog& catalog)
{
    Json j = Json::object();
    j["gpus"] = inv.gpus;
    j["nodes"] = inv.nodes;
    j["racks"] = inv.racks;
    j["nics"] = inv.nics;
    j["gpu_part"] = inv.gpuPart;
    const Part* gpu = catalog.find(inv.gpuPart);
    j["gpu_name"] = gpu ? gpu->name : "";
    j["storage_systems"] = inv.storageSystems;
    Json switches = Json::object();
    switches["total"] = inv.switches;
    for (const char* tier : {"leaf", "spine", "core", "other"})
        switches[tier] = inv.switchesByTier.at(tier);
    j["switches"] = std::move(switches);
    Json cables = Json::object();
    cables["total"] = inv.cables;
    Json byPart = Json::object();
    for (const auto& [part, n] : inv.cablesByPart)
        byPart[part] = n;
    cables["by_part"] = std::move(byPart);
    j["cables"] = std::move(cables);
    Json fabrics = Json::array();
    for (const auto& f : inv.fabrics) {
        fabrics.push_back({{"id", f.component},
                           {"name", f.name},
                           {"switch", f.switchPart},
                           {"tiers", f.tree.tiers},
                           {"endpoints", f.tree.endpoints},
                           {"nodes", f.nodes},
                           {"rails", f.rails},
                           {"nodes_per_unit", f.tree.nodesPerUnit},
                           {"leaf_down_ports", f.tree.leafDown},
                           {"leaf_up_ports", f.tree.leafUp},
                           {"leaf", f.tree.leaf},
                           {"spine", f.tree.spine},
                           {"core", f.tree.core},
                           {"inter_switch_cables", f.tree.leafSpineCables + f.tree.spineCoreCables}});
    }
    j["fabrics"] = std::move(fabrics);
    Json bom = Json::array();
    for (const auto& line : inv.bom)
        bom.push_back({{"part", line.part}, {"name", line.name}, {"kind", partKindName(line.kind)}, {"count", line.count}});
    j["bom"] = std::move(bom);
    return j;
}

Json warningJson(const Problem& p)
{
    return {{"severity", p.severity == Severity::Error ? "error" : "warning"},
            {"code", p.code},
            {"message", p.message},
            {"pointer", p.pointer}};
}

}  // namespace

Json computeMetrics(const Design& design, const Catalog& catalog)
{
    const DesignIndex index(design, catalog);
    const Inventory inv = takeInventory(index);
    Json m = Json::object();
    m["design"] = {{"name", design.name}, {"format_version", design.format_version}};
    m["inventory"] = inventoryJson(inv, catalog);
    Json warnings = Json::array();
    for (const auto& p : inv.problems)
        warnings.push_back(warningJson(p));
    m["warnings"] = std::move(warnings);
    return m;
}

}  // namespace studio
