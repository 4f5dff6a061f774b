#include "core/scale/upgrades.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

#include "core/catalog/cable_choice.h"
#include "core/design/defaults.h"
#include "core/design/design_index.h"
#include "core/format/design_validator.h"
#include "core/model/analysis.h"
#include "core/search/layout_search.h"
#include "core/text.h"

namespace studio {
namespace {

double figureOr(const Part* part, const char* key, double otherwise = 0)
{
    const Figure* f = part ? part->figure(key) : nullptr;
    return f ? f->value : otherwise;
}

ProposedUpgrade unavailable(UpgradeKind kind, std::string why)
{
    ProposedUpgrade p;
    p.kind = kind;
    p.unavailable = std::move(why);
    return p;
}

// The accelerator component holding most GPUs (the design's GPU, as the
// analyses pick it).
std::optional<std::size_t> mainGpu(const DesignIndex& index)
{
    std::optional<std::size_t> best;
    for (std::size_t i = 0; i < index.size(); ++i)
        if (index.kind(i) == PartKind::Accelerator && (!best || index.instances(i) > index.instances(*best)))
            best = i;
    return best;
}

std::int64_t totalGpus(const DesignIndex& index)
{
    std::int64_t n = 0;
    for (std::size_t i = 0; i < index.size(); ++i)
        if (index.kind(i) == PartKind::Accelerator)
            n += index.instances(i);
    return n;
}

bool isComputeFabric(const DesignIndex& index, std::size_t i)
{
    if (index.kind(i) == PartKind::Switch)
        return true;
    if (index.kind(i) != PartKind::Fabric)
        return false;
    const Json* role = index.setting(i, "role");
    return !role || !role->is_string() || role->get<std::string>() == "compute";
}

// NICs inside nodes cabled to the compute fabric (or to placed switches),
// and those links.
struct ComputeNics {
    std::set<std::size_t> nics;
    std::set<std::string> links;
    std::set<std::size_t> fabrics;  // what they are cabled to
};

ComputeNics computeNics(const DesignIndex& index)
{
    ComputeNics out;
    for (const Link& l : index.design().links) {
        const auto from = index.find(l.from), to = index.find(l.to);
        if (!from || !to)
            continue;
        for (auto [nic, other] : {std::pair{*from, *to}, std::pair{*to, *from}})
            if (index.kind(nic) == PartKind::Nic && index.enclosing(nic, PartKind::Node) &&
                isComputeFabric(index, other)) {
                out.nics.insert(nic);
                out.links.insert(l.id);
                out.fabrics.insert(other);
            }
    }
    return out;
}

// The catalog part of `kind` that `accept`s, the smallest by `key` (the
// cheapest way to get there), ties to the first listed.
template <typename Accept>
const Part* smallestPart(const Catalog& catalog, PartKind kind, const char* key, Accept accept)
{
    const Part* best = nullptr;
    for (const Part& p : catalog.parts())
        if (p.kind == kind && accept(p) && (!best || figureOr(&p, key) < figureOr(best, key)))
            best = &p;
    return best;
}

// A component's name follows its part when it was the part's name.
void renameWithPart(Component& c, const Part& from, const Part& to)
{
    if (c.name == from.name)
        c.name = to.name;
}

ProposedUpgrade nextGpu(const Design& design, const Catalog& catalog, const DesignIndex& index)
{
    const UpgradeKind kind = UpgradeKind::NextGpu;
    const auto gpu = mainGpu(index);
    if (!gpu)
        return unavailable(kind, "the design has no GPUs");
    const Part& old = index.part(*gpu);
    const std::string successor = old.attribute("successor");
    if (successor.empty())
        return unavailable(kind,
                           "the catalog names no next generation for " + inQuotes(old.name) +
                               " (its accelerator part has no successor attribute)");
    const Part* next = catalog.find(successor);
    if (!next || next->kind != PartKind::Accelerator)
        return unavailable(kind,
                           "the next generation of " + inQuotes(old.name) + ", " + inQuotes(successor) +
                               ", is not an accelerator in the catalog");
    ProposedUpgrade p;
    p.kind = kind;
    p.design = design;
    std::int64_t gpus = 0;
    std::map<std::string, std::pair<std::string, std::int64_t>> nodeSwaps;  // old part -> new part, instances
    for (std::size_t i = 0; i < index.size(); ++i) {
        if (index.kind(i) != PartKind::Accelerator || index.component(i).part != old.id)
            continue;
        Component& c = p.design.components[i];
        c.part = next->id;
        renameWithPart(c, old, *next);
        gpus += index.instances(i);
        // The platform around it: one built for the new GPU, with the same
        // compute NIC when the catalog has one.
        const auto node = index.enclosing(i, PartKind::Node);
        if (!node || index.part(*node).attribute("accelerator") == next->id)
            continue;
        const Part& platform = index.part(*node);
        const Part* successor = nullptr;
        for (const Part& q : catalog.parts())
            if (q.kind == PartKind::Node && q.attribute("accelerator") == next->id &&
                figureOr(&q, "gpus") == figureOr(&platform, "gpus") &&
                (!successor ||
                 (q.attribute("nic") == platform.attribute("nic") &&
                  successor->attribute("nic") != platform.attribute("nic"))))
                successor = &q;
        if (!successor || p.design.components[*node].part == successor->id)
            continue;
        Component& n = p.design.components[*node];
        n.part = successor->id;
        renameWithPart(n, platform, *successor);
        auto& swap = nodeSwaps[platform.name];
        swap.first = successor->name;
        swap.second += index.instances(*node);
    }
    p.changes.push_back("GPUs: " + formatCount(gpus) + " " + old.name + " -> " + next->name);
    for (const auto& [from, to] : nodeSwaps)
        p.changes.push_back("Nodes: " + formatCount(to.second) + " " + from + " -> " + to.first +
                            " (the platform built for it)");
    return p;
}

ProposedUpgrade doubleNic(const Design& design, const Catalog& catalog, const DesignIndex& index)
{
    const UpgradeKind kind = UpgradeKind::DoubleNic;
    const ComputeNics found = computeNics(index);
    if (found.nics.empty())
        return unavailable(kind, "no NIC in a node is cabled to a compute fabric or switch");
    ProposedUpgrade p;
    p.kind = kind;
    p.design = design;
    double fastest = 0;
    std::string protocol;
    for (std::size_t i : found.nics) {
        const Part& old = index.part(i);
        const double want = 2 * figureOr(&old, "port_gbps");
        const Part* next = smallestPart(catalog, PartKind::Nic, "port_gbps", [&](const Part& q) {
            return q.attribute("protocol") == old.attribute("protocol") && figureOr(&q, "port_gbps") >= want &&
                q.figure("ports") && q.figure("ports")->value == figureOr(&old, "ports", 1);
        });
        if (!next)
            return unavailable(kind,
                               "the catalog has no " + old.attribute("protocol") + " NIC of " + formatValue(want, 4) +
                                   " Gb/s or more to replace " + inQuotes(old.name));
        Component& c = p.design.components[i];
        c.part = next->id;
        renameWithPart(c, old, *next);
        p.changes.push_back("NICs: " + formatCount(index.instances(i)) + " " + old.name + " -> " + next->name);
        fastest = std::max(fastest, figureOr(next, "port_gbps"));
        protocol = next->attribute("protocol");
    }
    // The cables and switches the NICs use must carry the new speed.
    const std::string cable = defaultCable(catalog, fastest, protocol);
    const Part* newCable = catalog.find(cable);
    if (!newCable)
        return unavailable(kind, "the catalog has no " + protocol + " cable of " + formatValue(fastest, 4) + " Gb/s");
    std::int64_t cables = 0;
    std::string oldCable;
    for (Link& l : p.design.links)
        if (found.links.count(l.id) && figureOr(catalog.find(l.part), "gbps") < fastest) {
            if (const Part* o = catalog.find(l.part))
                oldCable = o->name;
            l.part = cable;
            const auto from = index.find(l.from);
            const std::size_t nic = from && found.nics.count(*from) ? *from : *index.find(l.to);
            cables += l.count * index.instances(nic);
        }
    if (cables > 0)
        p.changes.push_back("Cables: " + formatCount(cables) + " " + oldCable + " -> " + newCable->name);
    for (std::size_t f : found.fabrics) {
        Component& c = p.design.components[f];
        const bool fabric = index.kind(f) == PartKind::Fabric;
        const Json* sw = fabric ? index.setting(f, "switch") : nullptr;
        const Part* old =
            fabric ? (sw && sw->is_string() ? catalog.find(sw->get<std::string>()) : nullptr) : &index.part(f);
        if (old && figureOr(old, "port_gbps") < fastest) {
            const Part* next = smallestPart(catalog, PartKind::Switch, "port_gbps", [&](const Part& q) {
                return q.attribute("protocol") == protocol && figureOr(&q, "port_gbps") >= fastest;
            });
            if (!next)
                return unavailable(kind,
                                   "the catalog has no " + protocol + " switch with " + formatValue(fastest, 4) +
                                       " Gb/s ports to replace " + inQuotes(old->name));
            if (fabric) {
                c.props["switch"] = next->id;
                c.props.erase("radix");  // the new switch's own
            } else {
                c.part = next->id;
                renameWithPart(c, *old, *next);
            }
            p.changes.push_back("Switches of " + inQuotes(c.name) + ": " + old->name + " -> " + next->name);
        }
        if (fabric)
            if (const Json* fc = index.setting(f, "cable");
                fc && fc->is_string() && figureOr(catalog.find(fc->get<std::string>()), "gbps") < fastest)
                c.props["cable"] = cable;
        c.props.erase("tiers");  // sized again for the new radix
    }
    return p;
}

ProposedUpgrade nvl72(const Design& design, const Catalog& catalog, const DesignIndex& index)
{
    const UpgradeKind kind = UpgradeKind::Nvl72;
    const auto gpu = mainGpu(index);
    if (!gpu)
        return unavailable(kind, "the design has no GPUs");
    const auto node = index.enclosing(*gpu, PartKind::Node);
    if (!node)
        return unavailable(kind, "the GPUs are not in a node platform");
    if (figureOr(&index.part(*gpu), "scaleup_domain_gpus") >= 72)
        return unavailable(kind,
                           "its GPUs (" + index.part(*gpu).name + ") already form NVLink domains of " +
                               formatCount(std::int64_t(figureOr(&index.part(*gpu), "scaleup_domain_gpus"))));
    const Part* platform = nullptr;
    for (const Part& q : catalog.parts())
        if (q.kind == PartKind::Node && figureOr(&q, "gpus") >= 72 &&
            figureOr(catalog.find(q.attribute("accelerator")), "scaleup_domain_gpus") >= figureOr(&q, "gpus")) {
            platform = &q;
            break;
        }
    if (!platform)
        return unavailable(kind, "the catalog has no rack-scale platform of 72 GPUs in one NVLink domain");
    const Part* accelerator = catalog.find(platform->attribute("accelerator"));
    const std::int64_t perNode = std::int64_t(figureOr(platform, "gpus"));
    const std::int64_t gpusToday = totalGpus(index);
    const std::int64_t platformsNeeded = (gpusToday + perNode - 1) / perNode;

    ProposedUpgrade p;
    p.kind = kind;
    p.design = design;
    const Part& oldNode = index.part(*node);
    const Part& oldGpu = index.part(*gpu);
    Component& n = p.design.components[*node];
    n.part = platform->id;
    renameWithPart(n, oldNode, *platform);
    // The platform fills its rack: one per rack, as many racks as it takes
    // (rounded up to whole racks in each of the rack's containers).
    std::int64_t platforms = 0;
    if (const auto rack = index.enclosing(*node, PartKind::Rack)) {
        const auto above = index.parent(*rack);
        const std::int64_t outer = above ? index.instances(*above) : 1;
        Component& r = p.design.components[*rack];
        const Part& oldRack = index.part(*rack);
        r.count = (platformsNeeded + outer - 1) / outer;
        n.count = 1;
        platforms = r.count * outer;
        const double kw = figureOr(platform, "max_power_kw");
        const Part* liquid = smallestPart(catalog, PartKind::Rack, "max_kw", [&](const Part& q) {
            return q.attribute("cooling") == "liquid" && figureOr(&q, "max_kw") >= kw &&
                figureOr(&q, "rack_units") >= figureOr(platform, "rack_units");
        });
        if (liquid && liquid->id != oldRack.id) {
            r.part = liquid->id;
            renameWithPart(r, oldRack, *liquid);
            p.changes.push_back("Racks: " + oldRack.name + " -> " + liquid->name + ", " + formatCount(platforms));
        }
    } else {
        const auto above = index.parent(*node);
        const std::int64_t outer = above ? index.instances(*above) : 1;
        n.count = (platformsNeeded + outer - 1) / outer;
        platforms = n.count * outer;
    }
    // What the platform carries, per the catalog: its GPUs, compute NICs
    // and DPUs (the NIC parts kept).
    const ComputeNics compute = computeNics(index);
    for (std::size_t child : index.children(*node)) {
        Component& c = p.design.components[child];
        if (index.kind(child) == PartKind::Accelerator) {
            c.part = accelerator->id;
            renameWithPart(c, oldGpu, *accelerator);
            c.count = perNode;
        } else if (index.kind(child) == PartKind::Nic) {
            const char* key = compute.nics.count(child) ? "compute_nics" : "dpus";
            c.count = std::max<std::int64_t>(1, std::int64_t(figureOr(platform, key, double(c.count))));
        }
    }
    for (Component& c : p.design.components)
        c.props.erase("tiers");
    p.design.workload.parallelism.dp.reset();  // follows the GPUs
    const std::int64_t gpusAfter = platforms * perNode;
    p.changes.push_back("Nodes: " + formatCount(index.instances(*node)) + " " + oldNode.name + " -> " +
                        formatCount(platforms) + " " + platform->name);
    p.changes.push_back(
        "GPUs: " + formatCount(gpusToday) + " " + oldGpu.name + " -> " + formatCount(gpusAfter) + " " +
        accelerator->name + ", " + formatCount(perNode) + " per NVLink domain (was " +
        formatCount(std::int64_t(std::min(figureOr(&oldGpu, "scaleup_domain_gpus"), figureOr(&oldNode, "gpus")))) +
        ")" + (gpusAfter != gpusToday ? "; rounded up to whole racks" : ""));
    if (p.design.facility.cooling.value_or("hybrid") == "air") {
        p.design.facility.cooling = "liquid";
        p.changes.push_back("Facility cooling: air -> liquid (the racks are liquid-cooled)");
    }
    return p;
}

ProposedUpgrade liquidCooling(const Design& design, const Catalog& catalog, const DesignIndex& index)
{
    const UpgradeKind kind = UpgradeKind::LiquidCooling;
    ProposedUpgrade p;
    p.kind = kind;
    p.design = design;
    std::map<std::string, std::pair<std::string, std::int64_t>> swaps;
    for (std::size_t i = 0; i < index.size(); ++i) {
        if (index.kind(i) != PartKind::Rack || index.part(i).attribute("cooling") != "air")
            continue;
        const Part& old = index.part(i);
        const Part* liquid = smallestPart(catalog, PartKind::Rack, "max_kw", [&](const Part& q) {
            return q.attribute("cooling") == "liquid" && figureOr(&q, "rack_units") >= figureOr(&old, "rack_units");
        });
        if (!liquid)
            return unavailable(kind,
                               "the catalog has no liquid-cooled rack of " +
                                   formatValue(figureOr(&old, "rack_units"), 3) + "U or more");
        Component& c = p.design.components[i];
        c.part = liquid->id;
        renameWithPart(c, old, *liquid);
        auto& s = swaps[old.name + " -> " + liquid->name];
        s.second += index.instances(i);
    }
    for (const auto& [what, n] : swaps)
        p.changes.push_back("Racks: " + formatCount(n.second) + " " + what);
    const double pue = design.facility.pue.value_or(defaults::kPue.value);
    if (pue > kLiquidCooledPue) {
        p.design.facility.pue = kLiquidCooledPue;
        p.changes.push_back("PUE: " + formatValue(pue, 3) + " -> " + formatValue(kLiquidCooledPue, 3) +
                            " (liquid-cooled AI facility, seed 002 table 13)");
    }
    if (design.facility.cooling != std::optional<std::string>("liquid")) {
        p.design.facility.cooling = "liquid";
        p.changes.push_back("Facility cooling: " + design.facility.cooling.value_or("hybrid") + " -> liquid");
    }
    if (p.changes.empty())
        return unavailable(kind, "it is liquid-cooled already, at a PUE of " + formatValue(pue, 3));
    return p;
}

}  // namespace

const char* upgradeKey(UpgradeKind kind)
{
    switch (kind) {
    case UpgradeKind::NextGpu: return "next_gpu";
    case UpgradeKind::DoubleNic: return "double_nic";
    case UpgradeKind::Nvl72: return "nvl72";
    case UpgradeKind::LiquidCooling: return "liquid_cooling";
    }
    return "";
}

const char* upgradeTitle(UpgradeKind kind)
{
    switch (kind) {
    case UpgradeKind::NextGpu: return "Next GPU generation";
    case UpgradeKind::DoubleNic: return "Twice the NIC bandwidth";
    case UpgradeKind::Nvl72: return "NVL72 domains";
    case UpgradeKind::LiquidCooling: return "Liquid cooling";
    }
    return "";
}

ProposedUpgrade proposeUpgrade(UpgradeKind kind, const Design& design, const Catalog& catalog)
{
    const DesignIndex index(design, catalog);
    ProposedUpgrade p;
    switch (kind) {
    case UpgradeKind::NextGpu: p = nextGpu(design, catalog, index); break;
    case UpgradeKind::DoubleNic: p = doubleNic(design, catalog, index); break;
    case UpgradeKind::Nvl72: p = nvl72(design, catalog, index); break;
    case UpgradeKind::LiquidCooling: p = liquidCooling(design, catalog, index); break;
    }
    if (!p.ok())
        return p;
    // An upgrade the file reader would refuse is no upgrade.
    for (const Problem& problem : validateDesign(p.design, catalog))
        if (problem.severity == Severity::Error)
            return unavailable(kind, "the upgraded design would have an error: " + problem.message);
    return p;
}

UpgradesResult analyzeUpgrades(const Design& design, const Catalog& catalog, const std::atomic<bool>* cancel)
{
    UpgradesResult r;
    const Analysis today = analyzeDesign(design, catalog);
    if (!today.runnable()) {
        r.error = "the design's workload does not run: " + today.notRunnable.front().message;
        return r;
    }
    r.gpus = today.inventory.gpus;
    r.today = scaleFiguresOf(today);
    SearchOptions search;
    search.top = 1;
    search.cancel = cancel;
    if (const SearchResult found = searchLayouts(design, catalog, search); found.cancelled) {
        r.cancelled = true;
        return r;
    } else if (found.ok() && !found.top.empty()) {
        r.todayBest = found.top.front().layout;
    }
    for (UpgradeKind kind : kUpgradeKinds) {
        if (cancel && cancel->load()) {
            r.cancelled = true;
            return r;
        }
        UpgradeOutcome o;
        o.proposal = proposeUpgrade(kind, design, catalog);
        if (o.proposal.ok()) {
            const Analysis a = analyzeDesign(o.proposal.design, catalog);
            o.gpus = a.inventory.gpus;
            if (a.runnable())
                o.after = scaleFiguresOf(a);
            else
                o.whyNot = a.notRunnable.front().message;
            const SearchResult found = searchLayouts(o.proposal.design, catalog, search);
            if (found.cancelled) {
                r.cancelled = true;
                return r;
            }
            if (found.ok() && !found.top.empty() && found.top.front().layout != r.todayBest &&
                (!o.after || found.top.front().stepS < 0.99 * o.after->stepS)) {
                Design best = o.proposal.design;
                applyLayout(best.workload, found.top.front().layout);
                o.best = scaleFiguresOf(analyzeDesign(best, catalog));
            }
        }
        r.upgrades.push_back(std::move(o));
    }
    return r;
}

}  // namespace studio
