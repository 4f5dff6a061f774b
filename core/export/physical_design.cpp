#include "core/export/physical_design.h"

#include <algorithm>
#include <array>
#include <map>

#include "core/design/fat_tree.h"
#include "core/text.h"

namespace studio {

const char* deviceRoleName(DeviceRole role)
{
    switch (role) {
    case DeviceRole::Node: return "node";
    case DeviceRole::Switch: return "switch";
    case DeviceRole::Storage: return "storage";
    }
    return "node";
}

namespace {

int digits(std::int64_t n)
{
    int d = 1;
    for (; n >= 10; n /= 10)
        ++d;
    return d;
}

}  // namespace

std::string numberedName(const std::string& prefix, std::int64_t n, std::int64_t total)
{
    std::string s = std::to_string(n);
    const int width = std::max(2, digits(total));
    return prefix + std::string(std::size_t(std::max(0, width - int(s.size()))), '0') + s;
}

namespace {

struct EndPorts {
    std::vector<std::size_t> ports;  // in instance order
};

class Expander {
public:
    Expander(const DesignIndex& index, const Inventory& inventory) : ix_(index), inv_(inventory)
    {
        const Design& d = ix_.design();
        incident_.resize(ix_.size());
        for (std::size_t j = 0; j < d.links.size(); ++j) {
            const auto from = ix_.linkFrom(j), to = ix_.linkTo(j);
            if (!from || !to)
                continue;
            incident_[*from].push_back({j, 0});
            incident_[*to].push_back({j, 1});
        }
        ends_.resize(d.links.size());
        instance_.assign(ix_.size(), 0);
        fabricNodePorts_.resize(ix_.size());
        fabricOtherPorts_.resize(ix_.size());
        // A link between two fabrics: its cables take a leaf port on each
        // (sizeFabric counts them as other endpoints of both), cabled to
        // each other once both fabrics are built.
        for (std::size_t j = 0; j < d.links.size(); ++j)
            if (betweenFabrics(j))
                for (std::int64_t c = 0; c < ix_.cables(j); ++c) {
                    fabricOtherPorts_[*ix_.linkFrom(j)].push_back({kBetweenFabrics, j});
                    fabricOtherPorts_[*ix_.linkTo(j)].push_back({kBetweenFabrics, j});
                }
        // Nodes per instance of each rack component: a node adds its share
        // to its rack (a design drawn in full has thousands of components).
        std::map<std::size_t, std::int64_t> nodesInRack;
        for (std::size_t i = 0; i < ix_.size(); ++i) {
            const PartKind k = ix_.kind(i);
            if (k == PartKind::Storage && !ix_.enclosing(i, PartKind::Node))
                storageTotal_ += ix_.instances(i);
            if (k == PartKind::Switch)
                switchTotal_ += ix_.instances(i);
            if (k != PartKind::Node)
                continue;
            if (const auto rack = ix_.enclosing(i, PartKind::Rack))
                nodesInRack[*rack] += ix_.instances(i) / std::max<std::int64_t>(1, ix_.instances(*rack));
            else
                looseNodeTotal_ += ix_.instances(i);
        }
        for (const auto& [_, nodes] : nodesInRack)
            nodesPerRack_ = std::max(nodesPerRack_, nodes);
    }

    PhysicalDesign run()
    {
        if (inv_.cables * 2 + inv_.nodes > kMaxPhysicalPorts) {
            out_.error = formatCount(inv_.cables) + " cables are too many to list one by one (at most " +
                formatCount(kMaxPhysicalPorts / 2) + ")";
            return std::move(out_);
        }
        if (const FabricSizing* f = computeFabric(ix_, inv_))
            out_.computeFabric = f->component;
        for (std::size_t i = 0; i < ix_.size(); ++i)
            if (!ix_.parent(i))
                visit(i, {});
        cableLinks();
        for (const FabricSizing& f : inv_.fabrics)
            if (!cableFabric(f))
                return std::move(out_);
        cableLinks(true);
        stackRacks();
        return std::move(out_);
    }

    // Each rack's devices from U1 up, in design order.
    void stackRacks()
    {
        std::vector<std::int64_t> used(out_.racks.size(), 0);
        for (PhysicalDevice& d : out_.devices) {
            if (!d.rack)
                continue;
            const std::int64_t height = unitsOf(d.part, 1);
            if (used[*d.rack] + height <= out_.racks[*d.rack].units)
                d.position = used[*d.rack] + 1;
            used[*d.rack] += height;
        }
    }

    std::int64_t unitsOf(const std::string& part, std::int64_t otherwise) const
    {
        const Part* p = ix_.catalog().find(part);
        const Figure* f = p ? p->figure("rack_units") : nullptr;
        return f && f->value > 0 ? std::int64_t(f->value) : otherwise;
    }

private:
    struct Where {
        std::optional<std::size_t> rack, device;
        std::int64_t nvlinkDomain = 0;
    };

    void visit(std::size_t i, Where where)
    {
        const Component& c = ix_.component(i);
        for (std::int64_t k = 0; k < c.count; ++k) {
            Where here = where;
            const std::int64_t n = instance_[i]++;
            switch (ix_.kind(i)) {
            case PartKind::Rack:
                here.rack = out_.racks.size();
                out_.racks.push_back({numberedName("rack-", std::int64_t(out_.racks.size()) + 1, inv_.racks), c.part, i,
                                      unitsOf(c.part, 42)});
                break;
            case PartKind::Node: {
                std::string name = where.rack
                    ? numberedName(out_.racks[*where.rack].name + "-node-", ++rackNodes_[*where.rack], nodesPerRack_)
                    : numberedName("node-", ++looseNodes_, looseNodeTotal_);
                here.device = addDevice(std::move(name), c.part, DeviceRole::Node, "", where.rack, i);
                out_.devices.back().nvlinkDomain = where.nvlinkDomain;
                break;
            }
            case PartKind::Switch: {
                std::string tier;
                if (const Json* t = ix_.setting(i, "tier"); t && t->is_string())
                    tier = t->get<std::string>();
                here.device = addDevice(numberedName("switch-", ++switches_, switchTotal_), c.part, DeviceRole::Switch,
                                        tier, where.rack, i);
                break;
            }
            case PartKind::Storage:
                if (!ix_.enclosing(i, PartKind::Node))
                    here.device = addDevice(numberedName("storage-", ++storage_, storageTotal_), c.part,
                                            DeviceRole::Storage, "", where.rack, i);
                break;
            case PartKind::Group:
                if (ix_.part(i).attribute("role") == "nvlink_domain")
                    here.nvlinkDomain = ++domains_;
                break;
            case PartKind::Accelerator:
            case PartKind::Nic:
            case PartKind::Link:
            case PartKind::Fabric: break;
            }
            if (here.device)
                addPorts(i, n, here);
            for (std::size_t child : ix_.children(i))
                visit(child, here);
        }
    }

    std::size_t addDevice(std::string name, const std::string& part, DeviceRole role, std::string tier,
                          std::optional<std::size_t> rack, std::size_t component)
    {
        out_.devices.push_back({std::move(name), part, role, std::move(tier), rack, component});
        portsOn_.push_back(0);
        nicsOn_.push_back(0);
        return out_.devices.size() - 1;
    }

    std::size_t addPort(std::size_t device, std::string name, double gbps, const std::string& part)
    {
        out_.ports.push_back({device, std::move(name), gbps, part});
        return out_.ports.size() - 1;
    }

    // The ports instance `n` of component `i` takes for each of its links:
    // a link's cables spread evenly over its end's instances.
    void addPorts(std::size_t i, std::int64_t n, const Where& here)
    {
        const std::size_t device = *here.device;
        const bool onNode = out_.devices[device].role == DeviceRole::Node;
        const bool nic = ix_.kind(i) == PartKind::Nic;
        bool numberedNic = false;
        for (const auto& [j, side] : incident_[i]) {
            const std::int64_t cables = ix_.cables(j);
            const std::int64_t instances = std::max<std::int64_t>(1, ix_.instances(i));
            const std::int64_t mine = cables / instances + (n < cables % instances ? 1 : 0);
            const std::size_t other = *(side == 0 ? ix_.linkTo(j) : ix_.linkFrom(j));
            const Part* cable = ix_.linkPart(j);
            double gbps = ix_.figure(i, "port_gbps").value_or(0);
            if (gbps <= 0 && cable && cable->figure("gbps"))
                gbps = cable->figure("gbps")->value;
            if (onNode && nic && !numberedNic) {
                ++nicsOn_[device];
                numberedNic = true;
            }
            for (std::int64_t p = 0; p < mine; ++p) {
                std::string name = onNode && nic
                    ? "nic-" + std::to_string(nicsOn_[device]) + (mine > 1 ? "-" + std::to_string(p + 1) : "")
                    : "port-" + std::to_string(++portsOn_[device]);
                const std::size_t port = addPort(device, std::move(name), gbps, ix_.component(i).part);
                if (ix_.kind(other) == PartKind::Fabric)
                    (onNode ? fabricNodePorts_ : fabricOtherPorts_)[other].push_back({port, j});
                else
                    ends_[j][std::size_t(side)].ports.push_back(port);
            }
        }
    }

    // Links between two components that are built: port c of one end to
    // port c of the other, both in instance order. Then, the fabrics built,
    // the links between two fabrics (their leaf ports).
    void cableLinks(bool fabricsBuilt = false)
    {
        const Design& d = ix_.design();
        for (std::size_t j = 0; j < d.links.size(); ++j) {
            if (betweenFabrics(j) != fabricsBuilt)
                continue;
            const auto& [a, b] = ends_[j];
            const std::size_t n = std::min(a.ports.size(), b.ports.size());
            for (std::size_t c = 0; c < n; ++c)
                out_.cables.push_back({a.ports[c], b.ports[c], d.links[j].part});
        }
    }

    bool betweenFabrics(std::size_t link) const
    {
        const auto from = ix_.linkFrom(link), to = ix_.linkTo(link);
        return from && to && ix_.kind(*from) == PartKind::Fabric && ix_.kind(*to) == PartKind::Fabric;
    }

    struct FabricPort {
        std::size_t port, link;  // port: kBetweenFabrics for a link's leaf port on a fabric at each end
    };
    static constexpr std::size_t kBetweenFabrics = std::size_t(-1);

    // The switches a fabric needs and its cables, as the fat tree sizes
    // them (core/design/fat_tree): a leaf per rail per scalable unit
    // (rail-optimized) or endpoints in order over the leaves, then each
    // leaf's up-ports striped over the spines, and the spines' over the cores.
    bool cableFabric(const FabricSizing& f)
    {
        const FatTree& t = f.tree;
        if (t.endpoints == 0)
            return true;
        if (!t.error.empty()) {
            out_.error = "fabric " + inQuotes(f.component) + ": " + t.error;
            return false;
        }
        const auto fi = ix_.find(f.component);
        std::vector<FabricPort> nodes = fabricNodePorts_[*fi], others = fabricOtherPorts_[*fi];
        const bool rails =
            f.railOptimized && f.rails > 0 && t.tiers > 1 && std::int64_t(nodes.size()) == f.nodes * f.rails;
        if (!rails) {  // every endpoint in order over the leaves
            nodes.insert(nodes.end(), others.begin(), others.end());
            others.clear();
        }
        const Part* sw = ix_.catalog().find(f.switchPart);
        const double gbps = sw && sw->figure("port_gbps") ? sw->figure("port_gbps")->value : f.portGbps;
        std::map<std::string, std::vector<std::size_t>> tiers;
        for (const auto& [tier, count] :
             {std::pair<const char*, std::int64_t>{"leaf", t.leaf}, {"spine", t.spine}, {"core", t.core}})
            for (std::int64_t s = 0; s < count; ++s)
                tiers[tier].push_back(addDevice(numberedName(f.component + "-" + tier + "-", s + 1, count),
                                                f.switchPart, DeviceRole::Switch, tier, std::nullopt, *fi));
        auto port = [&](std::size_t device, std::int64_t number) {
            return addPort(device, "port-" + std::to_string(number), gbps, f.switchPart);
        };
        const std::vector<std::size_t>& leaves = tiers["leaf"];
        const std::int64_t down = t.leafDown;
        const std::int64_t units = rails ? (f.nodes + down - 1) / down : 0;
        std::vector<std::int64_t> leafUsed(leaves.size(), 0);  // down-ports in use, per leaf
        auto attach = [&](const FabricPort& e, std::int64_t leaf, std::int64_t number) {
            const std::size_t at = port(leaves[std::size_t(leaf)], number);
            ++leafUsed[std::size_t(leaf)];
            if (e.port == kBetweenFabrics) {  // cabled to the other fabric by cableLinks
                ends_[e.link][ix_.linkFrom(e.link) == fi ? 0 : 1].ports.push_back(at);
                return;
            }
            out_.cables.push_back({e.port, at, ix_.design().links[e.link].part});
        };
        for (std::size_t e = 0; e < nodes.size(); ++e) {
            const std::int64_t i = std::int64_t(e);
            if (rails)
                attach(nodes[e], (i / f.rails / down) * f.rails + i % f.rails, (i / f.rails) % down + 1);
            else
                attach(nodes[e], i / down, i % down + 1);
        }
        for (std::size_t e = 0; e < others.size(); ++e)
            attach(others[e], units * f.rails + std::int64_t(e) / down, std::int64_t(e) % down + 1);
        // Up-links: a switch with `used` of its `downPorts` in use sends
        // upLinksFor(...) of its `upPorts` up (the rule sizeFatTree counts
        // by); cable c of a tier's up-links goes to switch c mod n of the
        // tier above, which takes them on its ports in turn. Returns the
        // down-ports in use on each switch above.
        auto stripe = [&](const std::vector<std::size_t>& below, const std::vector<std::int64_t>& used,
                          std::int64_t downPorts, std::int64_t upPorts, const std::vector<std::size_t>& above) {
            std::vector<std::int64_t> aboveUsed(above.size(), 0);
            std::int64_t c = 0;
            for (std::size_t s = 0; s < below.size(); ++s)
                for (std::int64_t j = 0, n = upLinksFor(used[s], downPorts, upPorts); j < n; ++j, ++c) {
                    const std::size_t to = std::size_t(c % std::int64_t(above.size()));
                    out_.cables.push_back(
                        {port(below[s], downPorts + j + 1), port(above[to], ++aboveUsed[to]), f.cablePart});
                }
            return aboveUsed;
        };
        if (t.tiers >= 2 && !tiers["spine"].empty()) {
            const auto spineUsed = stripe(leaves, leafUsed, down, t.leafUp, tiers["spine"]);
            if (t.tiers >= 3 && !tiers["core"].empty()) {
                // The radix the tree was sized with (a fabric's `radix`
                // overrides the switch's ports), split half down, half up.
                const std::int64_t half = (t.leafDown + t.leafUp) / 2;
                stripe(tiers["spine"], spineUsed, half, half, tiers["core"]);
            }
        }
        return true;
    }

    const DesignIndex& ix_;
    const Inventory& inv_;
    PhysicalDesign out_;
    std::vector<std::vector<std::pair<std::size_t, int>>> incident_;           // per component: (link, side)
    std::vector<std::array<EndPorts, 2>> ends_;                                // per link: from's ports, to's ports
    std::vector<std::int64_t> instance_;                                       // per component: instances visited
    std::vector<std::vector<FabricPort>> fabricNodePorts_, fabricOtherPorts_;  // per fabric component
    std::vector<std::int64_t> portsOn_, nicsOn_;                               // per device: ports and NICs numbered
    std::map<std::size_t, std::int64_t> rackNodes_;                            // per rack: nodes named
    std::int64_t nodesPerRack_ = 0, looseNodeTotal_ = 0, storageTotal_ = 0, switchTotal_ = 0;
    std::int64_t looseNodes_ = 0, storage_ = 0, switches_ = 0, domains_ = 0;
};

}  // namespace

PhysicalDesign expandDesign(const DesignIndex& index, const Inventory& inventory)
{
    return Expander(index, inventory).run();
}

}  // namespace studio
