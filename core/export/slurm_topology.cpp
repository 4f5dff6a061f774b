#include "core/export/slurm_topology.h"

#include <algorithm>
#include <map>
#include <set>

#include "core/text.h"
#include "core/version.h"

namespace studio {
namespace {

struct Numbered {
    std::string prefix, digits;
};

// "rack-01-node-02" -> {"rack-01-node-", "02"}; no trailing digits: {name, ""}.
Numbered split(const std::string& name)
{
    std::size_t i = name.size();
    while (i > 0 && name[i - 1] >= '0' && name[i - 1] <= '9')
        --i;
    return {name.substr(0, i), name.substr(i)};
}

std::string header(const DesignIndex& index, const char* plugin, const std::string& what)
{
    const std::string name = index.design().name.empty() ? "Untitled design" : index.design().name;
    return "# Slurm " + std::string(plugin) + " for " + inQuotes(name) + ": " + what + ".\n" +
        "# slurm.conf: TopologyPlugin=" + plugin + "\n" + "# Written by Cluster Studio " + std::string(kAppVersion) +
        "; node and switch names are the design as built.\n";
}

int tierRank(const std::string& tier)
{
    return tier == "core" ? 2 : tier == "spine" ? 1 : 0;
}

}  // namespace

std::string slurmHostlist(const std::vector<std::string>& names)
{
    std::string out;
    std::size_t i = 0;
    while (i < names.size()) {
        const Numbered first = split(names[i]);
        std::size_t j = i + 1;
        // Extend the run while the prefix and width hold; ranges inside it
        // break where a number is not the next one.
        while (j < names.size()) {
            const Numbered n = split(names[j]);
            if (n.prefix != first.prefix || n.digits.size() != first.digits.size() || n.digits.empty())
                break;
            ++j;
        }
        if (first.digits.empty() || j - i == 1) {
            out += (out.empty() ? "" : ",") + names[i];
            ++i;
            continue;
        }
        std::string ranges;
        std::size_t k = i;
        while (k < j) {
            std::size_t m = k + 1;
            while (m < j && std::stoll(split(names[m]).digits) == std::stoll(split(names[m - 1]).digits) + 1)
                ++m;
            const std::string a = split(names[k]).digits, b = split(names[m - 1]).digits;
            ranges += (ranges.empty() ? "" : ",") + (m - k == 1 ? a : a + "-" + b);
            k = m;
        }
        out += (out.empty() ? "" : ",") + first.prefix + "[" + ranges + "]";
        i = j;
    }
    return out;
}

std::string slurmTreeTopology(const PhysicalDesign& p, const DesignIndex& index)
{
    // The compute fabric's switches; without one, the placed switches.
    auto inTree = [&](const PhysicalDevice& d) {
        if (d.role != DeviceRole::Switch)
            return false;
        return p.computeFabric.empty() ? index.kind(d.component) == PartKind::Switch
                                       : index.component(d.component).id == p.computeFabric;
    };
    std::map<std::size_t, std::vector<std::size_t>> nodesOf, switchesOf;  // per switch device
    std::map<std::size_t, std::set<std::size_t>> seen;
    for (const PhysicalCable& c : p.cables) {
        const std::size_t a = p.ports[c.a].device, b = p.ports[c.b].device;
        for (auto [sw, other] : {std::pair{a, b}, std::pair{b, a}}) {
            const PhysicalDevice &s = p.devices[sw], &o = p.devices[other];
            if (!inTree(s) || !seen[sw].insert(other).second)
                continue;
            if (o.role == DeviceRole::Node)
                nodesOf[sw].push_back(other);
            else if (inTree(o) && tierRank(o.tier) < tierRank(s.tier))
                switchesOf[sw].push_back(other);
        }
    }
    const std::string what = p.computeFabric.empty()
        ? std::string("its switches")
        : "the compute fabric " + inQuotes(p.computeFabric) + ", a line per switch";
    std::string out = header(index, "topology/tree", what);
    auto names = [&](const std::vector<std::size_t>& devices) {
        std::vector<std::string> n;
        for (std::size_t d : devices)
            n.push_back(p.devices[d].name);
        return slurmHostlist(n);
    };
    // Leaves first, then each tier above: Slurm reads children before parents.
    for (int rank = 0; rank <= 2; ++rank)
        for (std::size_t d = 0; d < p.devices.size(); ++d) {
            if (!inTree(p.devices[d]) || tierRank(p.devices[d].tier) != rank)
                continue;
            // A switch with nodes is a leaf: Slurm refuses a line with both.
            if (auto n = nodesOf.find(d); n != nodesOf.end())
                out += "SwitchName=" + p.devices[d].name + " Nodes=" + names(n->second) + "\n";
            else if (auto s = switchesOf.find(d); s != switchesOf.end())
                out += "SwitchName=" + p.devices[d].name + " Switches=" + names(s->second) + "\n";
        }
    // Slurm wants every node under a switch. A node the fabric does not
    // reach gets one of its own, so no job spans it with another node.
    std::vector<bool> reached(p.devices.size(), false);
    for (const auto& [_, nodes] : nodesOf)
        for (std::size_t n : nodes)
            reached[n] = true;
    bool said = false;
    for (std::size_t d = 0; d < p.devices.size(); ++d)
        if (p.devices[d].role == DeviceRole::Node && !reached[d]) {
            if (!said)
                out += "# Nodes no switch of the compute fabric reaches, each on its own: no job spans them.\n";
            said = true;
            out += "SwitchName=alone-" + p.devices[d].name + " Nodes=" + p.devices[d].name + "\n";
        }
    return out;
}

std::string slurmBlockTopology(const PhysicalDesign& p, const DesignIndex& index)
{
    std::map<std::int64_t, std::vector<std::string>> blocks;
    for (const PhysicalDevice& d : p.devices)
        if (d.role == DeviceRole::Node && d.nvlinkDomain > 0)
            blocks[d.nvlinkDomain].push_back(d.name);
    if (blocks.empty() || std::all_of(blocks.begin(), blocks.end(), [](const auto& b) { return b.second.size() < 2; }))
        return "";
    std::size_t base = 0;
    for (const auto& [_, nodes] : blocks)
        base = base == 0 ? nodes.size() : std::min(base, nodes.size());
    std::string out =
        header(index, "topology/block", "a block per NVLink domain (" + formatCount(std::int64_t(blocks.size())) + ")");
    for (const auto& [n, nodes] : blocks)
        out += "BlockName=" + numberedName("nvlink-", n, std::int64_t(blocks.size())) +
            " Nodes=" + slurmHostlist(nodes) + "\n";
    out += "BlockSizes=" + std::to_string(base) + "\n";
    return out;
}

}  // namespace studio
