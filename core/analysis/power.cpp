#include "core/analysis/power.h"

#include <algorithm>
#include <map>
#include <optional>
#include <string_view>
#include <utility>

#include "core/analysis/fleet_formulas.h"
#include "core/json/json_pointer.h"
#include "core/text.h"

namespace studio {

double hostWatts(const Part& node, const Catalog& catalog)
{
    auto value = [](const Part* p, const char* key) {
        const Figure* f = p ? p->figure(key) : nullptr;
        return f ? f->value : 0.0;
    };
    const Part* gpu = catalog.find(node.attribute("accelerator"));
    const Part* nic = catalog.find(node.attribute("nic"));
    const Part* dpu = catalog.find(node.attribute("dpu"));
    const double w = value(&node, "max_power_kw") * 1000 - value(&node, "gpus") * value(gpu, "tdp_w") -
        value(&node, "compute_nics") * value(nic, "power_w") - value(&node, "dpus") * value(dpu, "power_w");
    return std::max(0.0, w);
}

Power modelPower(const DesignIndex& index, const Inventory& inv, const Facility& facility,
                 std::vector<Problem>& warnings)
{
    Power pw;
    const std::size_t n = index.size();
    std::vector<double> own(n, 0), subtree(n, 0);
    std::vector<int> category(n, 0);  // 0 other, 1 compute, 2 network, 3 storage
    std::map<const Part*, double> hostByPlatform;
    bool unknownTdp = false;
    // A component without overrides draws what its part does: looked up once
    // per part and key (a design drawn in full has thousands of one NIC),
    // and the last part's again without a search (they come in runs).
    std::map<std::pair<const Part*, std::string_view>, std::optional<double>> partFigures;
    const std::pair<const Part*, std::string_view>* lastKey = nullptr;
    const std::optional<double>* lastFigure = nullptr;
    auto figure = [&](std::size_t i, std::string_view key) {
        if (!index.component(i).props.empty())
            return index.figure(i, key);
        if (lastKey && lastKey->first == &index.part(i) && lastKey->second == key)
            return *lastFigure;
        auto [it, fresh] = partFigures.try_emplace({&index.part(i), key});
        if (fresh)
            it->second = index.figure(i, key);
        lastKey = &it->first;
        lastFigure = &it->second;
        return it->second;
    };
    for (std::size_t i = 0; i < n; ++i) {
        switch (index.kind(i)) {
        case PartKind::Node: {
            // Per platform, not per node: a design drawn in full has a node
            // component per node.
            const Part* platform = &index.part(i);
            auto it = hostByPlatform.find(platform);
            if (it == hostByPlatform.end())
                it = hostByPlatform.emplace(platform, hostWatts(*platform, index.catalog())).first;
            own[i] = it->second;
            category[i] = 1;
            break;
        }
        case PartKind::Accelerator: {
            const auto tdp = figure(i, "tdp_w");
            unknownTdp = unknownTdp || !tdp;
            own[i] = tdp.value_or(0);
            category[i] = 1;
            break;
        }
        case PartKind::Nic:
            own[i] = figure(i, "power_w").value_or(0);
            category[i] = 1;
            break;
        case PartKind::Switch:
            own[i] = figure(i, "power_w").value_or(0);
            category[i] = 2;
            break;
        case PartKind::Storage:
            own[i] = figure(i, "power_kw").value_or(0) * 1000;
            category[i] = 3;
            break;
        case PartKind::Fabric: {
            for (const auto& f : inv.fabrics)
                if (f.component == index.component(i).id) {
                    const Part* sw = index.catalog().find(f.switchPart);
                    const Part* cable = index.catalog().find(f.cablePart);
                    own[i] =
                        double(f.tree.switches()) * (sw && sw->figure("power_w") ? sw->figure("power_w")->value : 0) +
                        double(f.tree.leafSpineCables + f.tree.spineCoreCables) *
                            (cable && cable->figure("power_w") ? cable->figure("power_w")->value : 0);
                }
            category[i] = 2;
            break;
        }
        default: break;
        }
    }
    // Per-instance draw of each subtree, children before parents: each
    // top-level tree walked depth first, a component summed once its
    // children are (no recursion through a std::function per component).
    std::vector<std::pair<std::size_t, bool>> walk;  // component, children summed
    for (std::size_t root = 0; root < n; ++root) {
        if (index.parent(root))
            continue;
        walk.push_back({root, false});
        while (!walk.empty()) {
            auto [i, summed] = walk.back();
            if (!summed) {
                walk.back().second = true;
                for (std::size_t c : index.children(i))
                    walk.push_back({c, false});
                continue;
            }
            walk.pop_back();
            double w = own[i];
            for (std::size_t c : index.children(i))
                w += double(index.component(c).count) * subtree[c];
            subtree[i] = w;
        }
    }
    pw.componentKw.resize(n);
    for (std::size_t i = 0; i < n; ++i)
        pw.componentKw[i] = subtree[i] / 1000;
    // Categories: a component's own draw in its category, counted once.
    for (std::size_t i = 0; i < n; ++i) {
        const double w = own[i] * double(index.instances(i)) / 1000;
        // Node-local storage and NICs are part of the compute node.
        const bool inNode = index.enclosing(i, PartKind::Node).has_value();
        const int cat = inNode ? 1 : category[i];
        (cat == 1 ? pw.computeKw : cat == 2 ? pw.networkKw : cat == 3 ? pw.storageKw : pw.otherKw) += w;
        if (index.kind(i) == PartKind::Accelerator)
            pw.gpuKw += w;
    }
    double cableKw = 0;
    for (std::size_t j = 0; j < index.design().links.size(); ++j)
        if (const Part* p = index.linkPart(j); p && p->figure("power_w"))
            cableKw += double(index.cables(j)) * p->figure("power_w")->value / 1000;
    pw.networkKw += cableKw;
    pw.itKw = pw.computeKw + pw.networkKw + pw.storageKw + pw.otherKw;

    std::vector<std::size_t> inside;  // what a rack holds, still to visit
    for (std::size_t i = 0; i < n; ++i) {
        if (index.kind(i) != PartKind::Rack)
            continue;
        RackLoad r;
        r.component = index.component(i).id;
        r.name = index.component(i).name.empty() ? index.part(i).name : index.component(i).name;
        r.part = index.component(i).part;
        r.count = index.instances(i);
        r.kwEach = subtree[i] / 1000;
        r.limitKw = index.figure(i, "max_kw").value_or(0);
        r.cooling = index.part(i).attribute("cooling");
        // What the rack holds: its subtree, not every component (a design
        // drawn in full has hundreds of racks among thousands of items).
        std::optional<std::size_t> liquidNode;  // the first in file order
        inside.assign(index.children(i).begin(), index.children(i).end());
        while (!inside.empty()) {
            const std::size_t c = inside.back();
            inside.pop_back();
            if (index.kind(c) == PartKind::Node) {
                r.nodesEach += index.instances(c) / r.count;
                if (index.part(c).attribute("cooling") == "liquid" && (!liquidNode || c < *liquidNode))
                    liquidNode = c;
            } else if (index.kind(c) == PartKind::Accelerator) {
                r.gpusEach += index.instances(c) / r.count;
            }
            inside.insert(inside.end(), index.children(c).begin(), index.children(c).end());
        }
        if (pw.racks.empty() || r.kwEach > pw.maxRackKw) {
            pw.maxRackKw = r.kwEach;
            pw.maxRack = pw.racks.size();
        }
        if (r.overLimit()) {
            pw.racksOverLimit += r.count;
            warnings.push_back({Severity::Warning, pointerAppend("/components", i),
                                formatCount(r.count) + " x " + inQuotes(r.name) + " draw " + formatValue(r.kwEach, 3) +
                                    " kW each, above the " + formatValue(r.limitKw, 3) + " kW their " + r.cooling +
                                    " cooling removes" +
                                    (r.cooling == "air" ? "; above ~" + formatValue(fleet::kAirCoolingLimitKw, 3) +
                                             " kW a rack needs liquid cooling"
                                                        : ""),
                                "rack_over_cooling_limit"});
        }
        if (liquidNode && r.cooling == "air")
            warnings.push_back({Severity::Warning, pointerAppend("/components", *liquidNode),
                                inQuotes(index.part(*liquidNode).name) +
                                    " needs liquid cooling but sits in the air-cooled rack " + inQuotes(r.name),
                                "liquid_node_in_air_rack"});
        if (facility.cooling.value_or("hybrid") == "air" && r.cooling == "liquid")
            warnings.push_back({Severity::Warning, pointerAppend("/components", i),
                                "liquid-cooled rack " + inQuotes(r.name) + " in a facility whose cooling is air only",
                                "liquid_rack_in_air_facility"});
        pw.racks.push_back(std::move(r));
    }
    if (unknownTdp)
        warnings.push_back({Severity::Warning, "/components",
                            "an accelerator's TDP is not in the catalog, so its power is "
                            "counted as 0; set tdp_w on the component",
                            "unknown_tdp"});

    pw.pue = inputOr(facility.pue, defaults::kPue);
    pw.pricePerKwh = inputOr(facility.electricity_usd_per_kwh, defaults::kElectricityPrice);
    pw.carbonGPerKwh = inputOr(facility.carbon_g_per_kwh, defaults::kCarbon);
    pw.facilityKw = fleet::facilityLoad(pw.itKw, pw.pue.value);
    pw.overheadKw = pw.facilityKw - pw.itKw;
    if (facility.site_mw && pw.facilityKw > *facility.site_mw * 1000)
        warnings.push_back({Severity::Warning, "/facility/site_mw",
                            "the facility load of " + formatPowerKw(pw.facilityKw) + " passes the site's budget of " +
                                formatPowerKw(*facility.site_mw * 1000),
                            "over_site_power"});
    pw.energyMwhPerYear = pw.facilityKw * 8760 / 1000;
    pw.costUsdPerYear = pw.energyMwhPerYear * 1000 * pw.pricePerKwh.value;
    pw.co2TonnesPerYear = pw.energyMwhPerYear * 1000 * pw.carbonGPerKwh.value / 1e6;
    pw.airCoolingLimitKw = {fleet::kAirCoolingLimitKw, fleet::kAirCoolingLimitSource};
    for (RackLoad& r : pw.racks)
        r.explain = {"kW per rack = the rated draw of one rack's contents (nodes with their GPUs, NICs and drives, "
                     "switches), against the rack's cooling limit",
                     {{"racks like it", double(r.count), "", r.name + " (" + r.part + ")"},
                      {"nodes in one", double(r.nodesEach), "", "the design"},
                      {"GPUs in one", double(r.gpusEach), "", "the design"},
                      {"cooling limit", r.limitKw, "kW", "the rack part's max_kw (catalog)"},
                      pw.airCoolingLimitKw.as("air-cooling limit", "kW")}};
    pw.explainIt = {
        "nodes (host share + GPUs at TDP + NICs + drives) + switches + optics + storage, at rated power",
        {{"compute", pw.computeKw, "kW", "nodes' max power less the catalog GPUs and NICs, plus the design's"},
         {"network", pw.networkKw, "kW", "switch and optics power (estimates in the catalog)"},
         {"storage", pw.storageKw, "kW", "storage systems' power"},
         {"GPUs alone", pw.gpuKw, "kW", "GPUs x TDP"}}};
    pw.explainFacility = {"facility = IT x PUE", {{"IT load", pw.itKw, "kW", "this model"}, pw.pue.as("PUE", "")}};
    pw.explainEnergy = {"MWh/year = facility kW x 8,760 h / 1,000; cost = MWh x 1,000 x price; CO2 = MWh x 1,000 x "
                        "carbon intensity",
                        {{"facility load", pw.facilityKw, "kW", "this model"},
                         pw.pricePerKwh.as("electricity price", "USD/kWh"),
                         pw.carbonGPerKwh.as("carbon intensity", "gCO2/kWh")}};
    return pw;
}

}  // namespace studio
