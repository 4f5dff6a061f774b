// The design as built (core/export): every rack, device, port and cable
// one by one, counted as the inventory counts them, named uniquely and the
// same on every run, wired as the fat tree sizes each fabric.
#include <QtTest>

#include <map>
#include <regex>
#include <set>
#include <sstream>

#include "core/analysis/inventory.h"
#include "core/design/resize.h"
#include "core/export/calculon_files.h"
#include "core/export/export_files.h"
#include "core/export/netbox_csv.h"
#include "core/export/physical_design.h"
#include "core/export/slurm_topology.h"
#include "core/format/design_validator.h"
#include "core/import/yaml_subset.h"
#include "tests/core/hand_built.h"
#include "tests/core/presets.h"

using namespace studio;
using studio::test::loadPreset;

namespace {

const QStringList kPresets = {"budget-8node-100gbe.cluster.json",        "dgx-a100-superpod.cluster.json",
                              "dgx-b200-superpod-8su.cluster.json",      "dgx-h100-superpod-4su.cluster.json",
                              "gb200-nvl72-8rack.cluster.json",          "h100-16k-roce-llama3.cluster.json",
                              "mi300x-roce-128node.cluster.json",        "serving-grok1-moe-gb200-nvl72.cluster.json",
                              "serving-llama3-70b-dgx-h100.cluster.json"};

struct Expanded {
    Design design;
    Inventory inventory;
    PhysicalDesign physical;
};

Expanded expand(const QString& preset)
{
    Expanded e{loadPreset(preset), {}, {}};
    const DesignIndex index(e.design, Catalog::builtin());
    e.inventory = takeInventory(index);
    e.physical = expandDesign(index, e.inventory);
    return e;
}

const PhysicalDevice& deviceNamed(const PhysicalDesign& p, const std::string& name)
{
    for (const auto& d : p.devices)
        if (d.name == name)
            return d;
    qFatal("no device %s", name.c_str());
}

// Slurm's hostlist expression expanded: "a[01-03,5],b" -> a01 a02 a03 a5 b.
std::vector<std::string> expandHostlist(const std::string& list)
{
    std::vector<std::string> out;
    std::size_t i = 0;
    while (i < list.size()) {
        const std::size_t open = list.find('[', i), comma = list.find(',', i);
        if (open == std::string::npos || (comma != std::string::npos && comma < open)) {
            const std::size_t end = comma == std::string::npos ? list.size() : comma;
            out.push_back(list.substr(i, end - i));
            i = end + 1;
            continue;
        }
        const std::size_t close = list.find(']', open);
        const std::string prefix = list.substr(i, open - i);
        std::stringstream ranges(list.substr(open + 1, close - open - 1));
        for (std::string r; std::getline(ranges, r, ',');) {
            const std::size_t dash = r.find('-');
            const std::string a = r.substr(0, dash), b = dash == std::string::npos ? a : r.substr(dash + 1);
            for (long long n = std::stoll(a); n <= std::stoll(b); ++n) {
                std::string digits = std::to_string(n);
                digits.insert(0, a.size() > digits.size() ? a.size() - digits.size() : 0, '0');
                out.push_back(prefix + digits);
            }
        }
        i = close + 2;  // past "]" and ","
    }
    return out;
}

// RFC 4180 as NetBox reads it: rows of fields, quotes doubled inside quotes.
std::vector<std::vector<std::string>> parseCsv(const std::string& text)
{
    std::vector<std::vector<std::string>> rows(1);
    std::string field;
    bool quoted = false;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (quoted) {
            if (c == '"' && i + 1 < text.size() && text[i + 1] == '"')
                field += '"', ++i;
            else if (c == '"')
                quoted = false;
            else
                field += c;
        } else if (c == '"') {
            quoted = true;
        } else if (c == ',') {
            rows.back().push_back(field), field.clear();
        } else if (c == '\n') {
            rows.back().push_back(field), field.clear();
            rows.emplace_back();
        } else {
            field += c;
        }
    }
    rows.pop_back();  // after the last newline
    return rows;
}

// The device and port at the other end of the cable on `device`'s `port`.
std::pair<std::string, std::string> peerOf(const PhysicalDesign& p, const std::string& device, const std::string& port)
{
    for (const auto& c : p.cables)
        for (auto [here, there] : {std::pair{c.a, c.b}, std::pair{c.b, c.a}})
            if (p.devices[p.ports[here].device].name == device && p.ports[here].name == port)
                return {p.devices[p.ports[there].device].name, p.ports[there].name};
    return {};
}

std::set<std::string> keysOf(const Json& object)
{
    std::set<std::string> keys;
    for (const auto& [k, v] : object.items())
        keys.insert(k);
    return keys;
}

Json calculonExample(const char* name)
{
    return Json::parse(test::readBytes(test::sourcePath(QString("tests/data/calculon/") + name)));
}

// A Calculon efficiency table as Calculon asserts it (processor.py,
// memory.py): thresholds descending, the last 0, each share in (0, 1].
void requireCalculonTable(const Json& table)
{
    QVERIFY(table.is_array() && !table.empty());
    double last = 1e300;
    for (const Json& row : table) {
        QCOMPARE(row.size(), std::size_t(2));
        QVERIFY(row[0].get<double>() < last);
        last = row[0].get<double>();
        QVERIFY(row[1].get<double>() > 0 && row[1].get<double>() <= 1);
    }
    QCOMPARE(last, 0.0);
}

const QStringList kTrainingPresets = {"budget-8node-100gbe.cluster.json",   "dgx-a100-superpod.cluster.json",
                                      "dgx-b200-superpod-8su.cluster.json", "dgx-h100-superpod-4su.cluster.json",
                                      "gb200-nvl72-8rack.cluster.json",     "h100-16k-roce-llama3.cluster.json",
                                      "mi300x-roce-128node.cluster.json"};

// A data row per preset.
void presetRows()
{
    QTest::addColumn<QString>("preset");
    for (const QString& p : kPresets)
        QTest::newRow(qPrintable(p)) << p;
}

}  // namespace

class TestExport : public QObject {
    Q_OBJECT

private slots:
    void everyPresetIsListedAsTheInventoryCountsIt_data() { presetRows(); }

    void everyPresetIsListedAsTheInventoryCountsIt()
    {
        QFETCH(QString, preset);
        const Expanded e = expand(preset);
        const PhysicalDesign& p = e.physical;
        QVERIFY2(p.ok(), p.error.c_str());
        std::map<DeviceRole, std::int64_t> byRole;
        for (const auto& d : p.devices)
            ++byRole[d.role];
        QCOMPARE(byRole[DeviceRole::Node], e.inventory.nodes);
        QCOMPARE(byRole[DeviceRole::Switch], e.inventory.switches);
        QCOMPARE(byRole[DeviceRole::Storage], e.inventory.storageSystems);
        QCOMPARE(std::int64_t(p.racks.size()), e.inventory.racks);
        QCOMPARE(std::int64_t(p.cables.size()), e.inventory.cables);
        // Every port takes exactly one cable.
        QCOMPARE(p.ports.size(), 2 * p.cables.size());
        std::vector<int> plugged(p.ports.size(), 0);
        for (const auto& c : p.cables) {
            ++plugged[c.a];
            ++plugged[c.b];
            QVERIFY(p.ports[c.a].device != p.ports[c.b].device);
        }
        QVERIFY(std::all_of(plugged.begin(), plugged.end(), [](int n) { return n == 1; }));
        // Names are unique: racks and devices each, ports on their device.
        std::set<std::string> racks, devices;
        std::set<std::pair<std::size_t, std::string>> ports;
        for (const auto& r : p.racks)
            QVERIFY2(racks.insert(r.name).second, r.name.c_str());
        for (const auto& d : p.devices) {
            QVERIFY2(devices.insert(d.name).second, d.name.c_str());
            QVERIFY(!d.rack || *d.rack < p.racks.size());
        }
        for (const auto& port : p.ports)
            QVERIFY2(ports.insert({port.device, port.name}).second, port.name.c_str());
        // ... and the same on every run.
        const PhysicalDesign again = expand(preset).physical;
        QCOMPARE(again.devices.size(), p.devices.size());
        for (std::size_t i = 0; i < p.devices.size(); i += 7)
            QCOMPARE(again.devices[i].name, p.devices[i].name);
        for (std::size_t i = 0; i < p.cables.size(); i += 13) {
            QCOMPARE(again.ports[again.cables[i].a].name, p.ports[p.cables[i].a].name);
            QCOMPARE(again.ports[again.cables[i].b].name, p.ports[p.cables[i].b].name);
        }
    }

    // A partly filled scalable unit is wired as the inventory sizes it:
    // the MI300X cluster cut to 80 nodes is a 64-node unit and one of 16 on
    // its 128-port backend switches, whose leaves take 64 and 16 uplinks;
    // 8 x 80 = 640 over 5 spines. The frontend's 224 ports fill 3 leaves
    // and 32 ports of a fourth, which sends 32 up.
    void aPartUnitIsWiredAsTheInventorySizesIt()
    {
        Design d = loadPreset("mi300x-roce-128node.cluster.json");
        QVERIFY(!resizeToGpus(d, Catalog::builtin(), 80 * 8));
        const DesignIndex index(d, Catalog::builtin());
        const Inventory inv = takeInventory(index);
        const PhysicalDesign p = expandDesign(index, inv);
        QVERIFY2(p.ok(), p.error.c_str());
        QCOMPARE(inv.nodes, std::int64_t(80));
        QCOMPARE(std::int64_t(p.cables.size()), inv.cables);
        std::map<std::string, std::map<std::int64_t, int>> leavesByUplinks;  // fabric: uplinks -> leaves
        std::map<std::string, std::int64_t> upByLeaf;
        for (const auto& c : p.cables) {
            const PhysicalDevice& a = p.devices[p.ports[c.a].device];
            const PhysicalDevice& b = p.devices[p.ports[c.b].device];
            if (a.tier == "leaf" && b.tier == "spine")
                ++upByLeaf[a.name];
        }
        for (const auto& [leaf, up] : upByLeaf)
            ++leavesByUplinks[leaf.substr(0, leaf.find('-'))][up];
        QCOMPARE(leavesByUplinks["fabric"], (std::map<std::int64_t, int>{{16, 8}, {64, 8}}));
        QCOMPARE(leavesByUplinks["ffabric"], (std::map<std::int64_t, int>{{32, 1}, {64, 3}}));
    }

    // A replicated fabric (one network, cabled once per NIC) and cables
    // between two fabrics (a leaf port on each, joined) are listed as the
    // inventory counts them.
    void fabricsReplicatedOrJoinedAreListedAsCounted()
    {
        for (const bool joined : {false, true}) {
            Design d = loadPreset("serving-llama3-70b-dgx-h100.cluster.json");
            d.component("pod")->count = 2;
            d.component("sfabric")->count = 4;
            if (joined) {
                Component other = *d.component("sfabric");
                other.id = "other";
                other.count = 1;
                d.components.push_back(other);
                d.links.push_back(test::cable("sfabric-other", "sfabric", "other", "link.ib-ndr-optical", 3));
            }
            const DesignIndex index(d, Catalog::builtin());
            const Inventory inv = takeInventory(index);
            const PhysicalDesign p = expandDesign(index, inv);
            QVERIFY2(p.ok(), p.error.c_str());
            QCOMPARE(std::int64_t(p.cables.size()), inv.cables);
            // 2 DGX x 2 storage NICs + 2 appliances x 8 ports, (+ 3) on one switch.
            QCOMPARE(inv.fabrics[0].tree.endpoints, std::int64_t(4 + 16 + (joined ? 3 : 0)));
            if (!joined)
                continue;
            std::int64_t between = 0;
            for (const auto& c : p.cables) {
                const PhysicalDevice& a = p.devices[p.ports[c.a].device];
                const PhysicalDevice& b = p.devices[p.ports[c.b].device];
                between += a.name.rfind("sfabric-leaf", 0) == 0 && b.name.rfind("other-leaf", 0) == 0;
            }
            QCOMPARE(between, std::int64_t(3));
        }
    }

    // A fabric's radix overrides its switch's ports (an SN5600's 64 x 800G
    // ports broken out to 128 x 400G): the three-tier frontend of the 16k
    // preset is wired with the spines' 64 up-links it was sized with, not
    // the 32 that half the switch's own ports would give.
    void theRadixTheTreeWasSizedWithIsTheOneWired()
    {
        Design d = loadPreset("h100-16k-roce-llama3.cluster.json");
        d.component("ffabric")->props["switch"] = "switch.sn5600";
        d.component("ffabric")->props["radix"] = 128;
        const DesignIndex index(d, Catalog::builtin());
        const Inventory inv = takeInventory(index);
        const PhysicalDesign p = expandDesign(index, inv);
        QVERIFY2(p.ok(), p.error.c_str());
        const FatTree& t = inv.fabrics[1].tree;
        QCOMPARE(t.tiers, 3);
        QCOMPARE(t.spineCoreCables, t.leafSpineCables);
        QCOMPARE(std::int64_t(p.cables.size()), inv.cables);
    }

    // The DGX H100 SuperPOD: 4 scalable units of 16 racks of 2 nodes; each
    // node's 8 compute NICs on the rail-optimized NDR fabric (32-node units,
    // a leaf per rail per unit, 16 spines), its 2 storage NICs and the 12
    // storage systems on the storage fabric.
    void theSuperPodIsWiredRailByRail()
    {
        const PhysicalDesign p = expand("dgx-h100-superpod-4su.cluster.json").physical;
        QCOMPARE(p.computeFabric, std::string("fabric"));
        QCOMPARE(p.racks.front().name, std::string("rack-01"));
        QCOMPARE(p.racks.back().name, std::string("rack-64"));
        const PhysicalDevice& first = deviceNamed(p, "rack-01-node-01");
        QCOMPARE(first.role, DeviceRole::Node);
        QCOMPARE(first.part, std::string("node.dgx-h100"));
        QCOMPARE(p.racks[*first.rack].name, std::string("rack-01"));
        QCOMPARE(deviceNamed(p, "rack-64-node-02").role, DeviceRole::Node);
        // Rail r of the units' nodes on that unit's leaf for the rail.
        QCOMPARE(peerOf(p, "rack-01-node-01", "nic-1"),
                 (std::pair<std::string, std::string>{"fabric-leaf-01", "port-1"}));
        QCOMPARE(peerOf(p, "rack-01-node-02", "nic-1"),
                 (std::pair<std::string, std::string>{"fabric-leaf-01", "port-2"}));
        QCOMPARE(peerOf(p, "rack-01-node-01", "nic-8"),
                 (std::pair<std::string, std::string>{"fabric-leaf-08", "port-1"}));
        // Node 33 (rack 17) opens the second unit: leaves 9-16.
        QCOMPARE(peerOf(p, "rack-17-node-01", "nic-3"),
                 (std::pair<std::string, std::string>{"fabric-leaf-11", "port-1"}));
        // The storage NICs come after the compute NICs, on the storage fabric.
        QCOMPARE(peerOf(p, "rack-01-node-01", "nic-9").first.rfind("sfabric-leaf-", 0), std::size_t(0));
        QCOMPARE(deviceNamed(p, "storage-12").role, DeviceRole::Storage);
        // Each leaf's 32 up-ports striped over the 16 spines: two each.
        std::map<std::string, int> spinesOfLeaf1;
        for (int port = 33; port <= 64; ++port) {
            const auto [spine, _] = peerOf(p, "fabric-leaf-01", "port-" + std::to_string(port));
            QVERIFY2(spine.rfind("fabric-spine-", 0) == 0, spine.c_str());
            ++spinesOfLeaf1[spine];
        }
        QCOMPARE(spinesOfLeaf1.size(), std::size_t(16));
        for (const auto& [spine, n] : spinesOfLeaf1)
            QCOMPARE(n, 2);
        QCOMPARE(deviceNamed(p, "fabric-spine-16").tier, std::string("spine"));
    }

    void hostlistsCollapseRunsOfOneWidth()
    {
        QCOMPARE(slurmHostlist({"a1", "a2", "a3", "a5", "b", "c-07", "c-08"}), std::string("a[1-3,5],b,c-[07-08]"));
        // A number of another width starts another run: names stay exact.
        QCOMPARE(slurmHostlist({"n9", "n10", "n11"}), std::string("n9,n[10-11]"));
        QCOMPARE(slurmHostlist({"rack-01-node-01"}), std::string("rack-01-node-01"));
        QCOMPARE(slurmHostlist({}), std::string());
        const std::vector<std::string> names{"x-001", "x-002", "x-004", "y", "x-010"};
        QCOMPARE(expandHostlist(slurmHostlist(names)), names);
    }

    // topology.conf for the tree plugin: Slurm's grammar, a line per switch
    // of the compute fabric, every node under the leaves its rails reach,
    // each spine over the leaves it is cabled to.
    void slurmTreeFollowsTheComputeFabric_data() { presetRows(); }

    void slurmTreeFollowsTheComputeFabric()
    {
        QFETCH(QString, preset);
        const Design d = loadPreset(preset);
        const DesignExport e = exportDesign(d, Catalog::builtin(), ExportTarget::Slurm);
        QVERIFY2(e.error.empty(), e.error.c_str());
        QCOMPARE(e.files.front().name, std::string("topology.conf"));
        const Expanded x = expand(preset);
        std::set<std::string> nodes, listed, switches;
        for (const auto& dev : x.physical.devices)
            if (dev.role == DeviceRole::Node)
                nodes.insert(dev.name);
        const std::regex line(R"(SwitchName=(\S{1,64}) (Nodes|Switches)=(\S+))");
        std::stringstream text(e.files.front().text);
        int lines = 0;
        for (std::string l; std::getline(text, l);) {
            if (l.empty() || l[0] == '#')
                continue;
            std::smatch m;
            QVERIFY2(std::regex_match(l, m, line), l.c_str());
            QVERIFY2(switches.insert(m[1]).second, l.c_str());
            for (const std::string& child : expandHostlist(m[3]))
                if (m[2] == "Nodes") {
                    QVERIFY2(nodes.count(child), child.c_str());
                    listed.insert(child);
                } else {
                    QVERIFY2(switches.count(child), ("a child switch is listed before its parent: " + l).c_str());
                }
            ++lines;
        }
        // Every node reaches the compute fabric; its switches are the lines.
        QCOMPARE(listed, nodes);
        const auto* fabric = computeFabric(DesignIndex(d, Catalog::builtin()), x.inventory);
        if (fabric) {
            QCOMPARE(std::int64_t(lines), fabric->tree.switches());
        } else {
            // No compute fabric (one DGX serving): each node on its own.
            QCOMPARE(std::size_t(lines), nodes.size());
            QVERIFY(e.files.front().text.find("SwitchName=alone-rack-01-node-01 Nodes=rack-01-node-01\n") !=
                    std::string::npos);
        }
    }

    void theSuperPodsTreeIsItsRailsAndSpines()
    {
        const DesignExport e =
            exportDesign(loadPreset("dgx-h100-superpod-4su.cluster.json"), Catalog::builtin(), ExportTarget::Slurm);
        const std::string& t = e.files.front().text;
        QCOMPARE(e.files.size(), std::size_t(1));  // no NVLink domain spans nodes
        // Leaf 1 is rail 1 of the first unit: the nodes of racks 1-16.
        QVERIFY(t.find("SwitchName=fabric-leaf-01 Nodes=rack-01-node-[01-02],rack-02-node-[01-02],") !=
                std::string::npos);
        QVERIFY(t.find("rack-16-node-[01-02]\nSwitchName=fabric-leaf-02 ") != std::string::npos);
        QVERIFY(t.find("SwitchName=fabric-spine-01 Switches=fabric-leaf-[01-32]\n") != std::string::npos);
        QVERIFY(t.find("# slurm.conf: TopologyPlugin=topology/tree\n") != std::string::npos);
        QVERIFY(t.find("fabric-spine-17") == std::string::npos);
        // The storage fabric is not the scheduler's.
        QVERIFY(t.find("sfabric") == std::string::npos);
    }

    // NVLink domains of two nodes: a block per domain for the block plugin.
    void nvlinkDomainsAcrossNodesAreSlurmBlocks()
    {
        Design d = loadPreset("dgx-h100-superpod-4su.cluster.json");
        d.components.push_back(test::part("nvl", "group.nvlink-domain", "rack", 1, "NVLink domain"));
        for (Component& c : d.components)
            if (c.id == "dgx")
                c.parent = "nvl";
        const auto problems = validateDesign(d, Catalog::builtin());
        QVERIFY(!hasErrors(problems));
        const DesignExport e = exportDesign(d, Catalog::builtin(), ExportTarget::Slurm);
        QCOMPARE(e.files.size(), std::size_t(2));
        QCOMPARE(e.files[1].name, std::string("topology.block.conf"));
        const std::string& b = e.files[1].text;
        QVERIFY(b.find("# slurm.conf: TopologyPlugin=topology/block\n") != std::string::npos);
        QVERIFY(b.find("BlockName=nvlink-01 Nodes=rack-01-node-[01-02]\n") != std::string::npos);
        QVERIFY(b.find("BlockName=nvlink-64 Nodes=rack-64-node-[01-02]\n") != std::string::npos);
        QVERIFY(b.find("BlockSizes=2\n") != std::string::npos);
        QCOMPARE(std::count(b.begin(), b.end(), '\n'), std::ptrdiff_t(3 + 64 + 1));
    }

    // NetBox's bulk import: a CSV per model in import order, NetBox 4's
    // columns, a row per item as built, every reference to a row before it.
    void netBoxCsvsHoldTheDesignAsBuilt_data() { presetRows(); }

    void netBoxCsvsHoldTheDesignAsBuilt()
    {
        QFETCH(QString, preset);
        const Design d = loadPreset(preset);
        const DesignExport e = exportDesign(d, Catalog::builtin(), ExportTarget::NetBox);
        QVERIFY2(e.error.empty(), e.error.c_str());
        const std::vector<std::pair<std::string, std::vector<std::string>>> expected = {
            {"01-manufacturers.csv", {"name", "slug"}},
            {"02-device-roles.csv", {"name", "slug", "color"}},
            {"03-sites.csv", {"name", "slug", "status"}},
            {"04-racks.csv", {"site", "name", "status", "width", "u_height", "description"}},
            {"05-device-types.yaml", {}},
            {"06-devices.csv",
             {"name", "role", "manufacturer", "device_type", "status", "site", "rack", "position", "face",
              "description"}},
            {"07-cables.csv",
             {"side_a_device", "side_a_type", "side_a_name", "side_b_device", "side_b_type", "side_b_name", "type",
              "status", "label"}}};
        QCOMPARE(e.files.size(), expected.size());
        std::map<std::string, std::vector<std::vector<std::string>>> tables;
        // Device types as NetBox's device-type import reads them: YAML
        // documents, each with its interface templates.
        const YamlDocuments types = readYamlSubset(e.files[4].text);
        QVERIFY2(types.error.empty(), types.error.c_str());
        std::map<std::string, Json> typeByModel;
        for (const Json& t : types.documents) {
            for (const char* key : {"manufacturer", "model", "slug", "part_number", "u_height", "is_full_depth"})
                QVERIFY2(t.contains(key), key);
            QVERIFY(typeByModel.emplace(t["model"].get<std::string>(), t).second);
        }
        for (std::size_t i = 0; i < expected.size(); ++i) {
            QCOMPARE(e.files[i].name, expected[i].first);
            if (expected[i].second.empty())
                continue;
            auto rows = parseCsv(e.files[i].text);
            QCOMPARE(rows.front(), expected[i].second);
            for (const auto& row : rows)
                QCOMPARE(row.size(), expected[i].second.size());  // rectangular, as NetBox insists
            rows.erase(rows.begin());
            tables[expected[i].first.substr(3, expected[i].first.size() - 7)] = std::move(rows);
        }
        const Expanded x = expand(preset);
        QCOMPARE(std::int64_t(tables["devices"].size()),
                 x.inventory.nodes + x.inventory.switches + x.inventory.storageSystems);
        QCOMPARE(std::int64_t(tables["cables"].size()), x.inventory.cables);
        QCOMPARE(std::int64_t(tables["racks"].size()), x.inventory.racks);
        QCOMPARE(tables["sites"].size(), std::size_t(1));
        // Racked devices stack from U1 without overlapping, within the rack.
        std::map<std::string, double> typeUnits, rackUnits;
        for (const auto& [model, t] : typeByModel)
            typeUnits[model] = t["u_height"].get<double>();
        for (const auto& row : tables["racks"])
            rackUnits[row[1]] = std::stod(row[4]);
        std::map<std::string, std::vector<std::pair<double, double>>> placed;
        for (const auto& row : tables["devices"])
            if (!row[7].empty()) {
                QVERIFY(!row[6].empty());
                QCOMPARE(row[8], std::string("front"));
                placed[row[6]].push_back({std::stod(row[7]), typeUnits.at(row[3])});
            }
        for (auto& [rack, spans] : placed) {
            std::sort(spans.begin(), spans.end());
            QCOMPARE(spans.front().first, 1.0);
            for (std::size_t i = 1; i < spans.size(); ++i)
                QCOMPARE(spans[i].first, spans[i - 1].first + spans[i - 1].second);
            QVERIFY(spans.back().first + spans.back().second - 1 <= rackUnits.at(rack));
        }
        // Every reference names a row of a file imported before it.
        auto column = [&](const std::string& table, std::size_t c) {
            std::set<std::string> out;
            for (const auto& row : tables[table])
                out.insert(row[c]);
            return out;
        };
        const auto manufacturers = column("manufacturers", 0), roles = column("device-roles", 0),
                   racks = column("racks", 1), site = column("sites", 0);
        std::set<std::string> devices;
        for (const auto& row : tables["devices"]) {
            QVERIFY2(devices.insert(row[0]).second, row[0].c_str());
            QVERIFY(roles.count(row[1]) && manufacturers.count(row[2]) && typeByModel.count(row[3]) &&
                    site.count(row[5]));
            QVERIFY(row[6].empty() || racks.count(row[6]));
        }
        // A device's interfaces are its type's templates; each cable joins
        // two of them, and no interface takes two cables.
        const std::set<std::string> known = {
            "infiniband-hdr",    "infiniband-ndr",  "infiniband-xdr",  "100gbase-x-qsfp28",
            "200gbase-x-qsfp56", "400gbase-x-osfp", "800gbase-x-osfp", "other"};
        std::map<std::string, std::string> typeOf;
        for (const auto& row : tables["devices"])
            typeOf[row[0]] = row[3];
        std::set<std::pair<std::string, std::string>> templates;  // (model, interface)
        for (const auto& [model, t] : typeByModel)
            for (const Json& i : t.value("interfaces", Json::array())) {
                QVERIFY2(known.count(i["type"].get<std::string>()), i["type"].get<std::string>().c_str());
                QVERIFY(templates.insert({model, i["name"].get<std::string>()}).second);
            }
        auto hasInterface = [&](const std::string& device, const std::string& name) {
            return templates.count({typeOf.at(device), name}) > 0;
        };
        std::set<std::pair<std::string, std::string>> cabled;
        for (const auto& row : tables["cables"]) {
            QCOMPARE(row[1], std::string("dcim.interface"));
            for (auto [device, name] : {std::pair{row[0], row[2]}, std::pair{row[3], row[5]}}) {
                QVERIFY2(hasInterface(device, name), (device + " " + name).c_str());
                QVERIFY2(cabled.insert({device, name}).second, (device + " " + name + " cabled twice").c_str());
            }
        }
    }

    void netBoxKnowsTheSuperPodsPorts()
    {
        const DesignExport e =
            exportDesign(loadPreset("dgx-h100-superpod-4su.cluster.json"), Catalog::builtin(), ExportTarget::NetBox);
        const std::string& types = e.files[4].text;
        // ConnectX-7 on NDR InfiniBand, BlueField-3 on 400 GbE, in the DGX
        // H100's templates; the QM9700's ports on NDR.
        QVERIFY(
            types.find("model: \"DGX H100\"\nslug: \"node-dgx-h100\"\npart_number: \"node.dgx-h100\"\nu_height: "
                       "8\nis_full_depth: true\ninterfaces:\n  - name: \"nic-1\"\n    type: \"infiniband-ndr\"\n") !=
            std::string::npos);
        QVERIFY(types.find("  - name: \"nic-9\"\n    type: \"400gbase-x-osfp\"\n") != std::string::npos);
        QVERIFY(types.find("model: \"Quantum-2 QM9700 (NDR)\"") != std::string::npos);
        QVERIFY(e.files[6].text.find("\nrack-01-node-01,dcim.interface,nic-1,fabric-leaf-01,dcim.interface,port-1,,"
                                     "planned,NDR 400G optics (OSFP transceivers)\n") != std::string::npos);
        QVERIFY(e.files[5].text.find("\nrack-01-node-01,GPU node,NVIDIA,DGX H100,planned,") != std::string::npos);
        // Two 8U DGX H100 a rack: at U1 and U9, from the front.
        QVERIFY(e.files[5].text.find(",rack-01,9,front,DGX H100\n") != std::string::npos);
        QCOMPARE(netBoxSlug("DGX H100 SuperPOD (4 SUs, 1,024 GPUs)"),
                 std::string("dgx-h100-superpod-4-sus-1-024-gpus"));
        QCOMPARE(netBoxInterfaceType("infiniband", 800), std::string("infiniband-xdr"));
        QCOMPARE(netBoxInterfaceType("ethernet", 100), std::string("100gbase-x-qsfp28"));
        QCOMPARE(netBoxInterfaceType("ethernet", 25), std::string("other"));
    }

    void calculonFilesHaveItsPublishedKeys_data()
    {
        QTest::addColumn<QString>("preset");
        for (const QString& p : kTrainingPresets)
            QTest::newRow(qPrintable(p)) << p;
    }
    // Each file with the keys of Calculon's own (tests/data/calculon), and
    // the rules llm.py, system.py and network.py assert on them.
    void calculonFilesHaveItsPublishedKeys()
    {
        QFETCH(QString, preset);
        const CalculonFiles c = calculonFiles(loadPreset(preset), Catalog::builtin());
        QVERIFY2(c.error.empty(), c.error.c_str());
        const Json model = calculonExample("gpt3-175B.json"), system = calculonExample("h100_80g_nvl8.json"),
                   execution = calculonExample("3072_t4_p64_d12_mbs4_full.json");
        QCOMPARE(keysOf(c.model), keysOf(model));
        QCOMPARE(keysOf(c.system), keysOf(system));
        QCOMPARE(keysOf(c.execution), keysOf(execution));
        QCOMPARE(keysOf(c.execution).size(), kCalculonExecutionKeys.size());
        for (const char* k : kCalculonExecutionKeys)
            QVERIFY(c.execution.contains(k));
        for (const char* k : kCalculonModelKeys)
            QVERIFY(c.model.at(k).get<std::int64_t>() > 0);
        QVERIFY(c.model["hidden"].get<std::int64_t>() % c.execution["tensor_par"].get<std::int64_t>() == 0);

        const std::string datatype = c.execution["datatype"];
        for (const char* unit : {"matrix", "vector"}) {
            QVERIFY(c.system[unit].contains(datatype));
            QVERIFY(c.system[unit][datatype]["tflops"].get<double>() > 0);
            requireCalculonTable(c.system[unit][datatype]["gflops_efficiency"]);
        }
        for (const char* mem : {"mem1", "mem2"}) {
            QCOMPARE(keysOf(c.system[mem]), keysOf(system[mem]));
            requireCalculonTable(c.system[mem]["MB_efficiency"]);
        }
        const Json& nets = c.system["networks"];
        QVERIFY(!nets.empty());
        for (const Json& n : nets) {
            QCOMPARE(keysOf(n), keysOf(system["networks"][0]));
            QCOMPARE(keysOf(n["ops"]), keysOf(system["networks"][0]["ops"]));
            QVERIFY(n["ops"]["p2p"][1].is_null());
            QVERIFY(n["bandwidth"].get<double>() > 0);
            QVERIFY(n["efficiency"].get<double>() > 0 && n["efficiency"].get<double>() <= 1);
            QVERIFY(n["processor_usage"].get<double>() >= 0 && n["processor_usage"].get<double>() < 1);
        }
        // The layout: every GPU of tp x pp x dp, whole micro-batches, and
        // each tier big enough for the degrees on it (llm.py
        // _check_network_assignments).
        const auto tp = c.execution["tensor_par"].get<std::int64_t>(),
                   pp = c.execution["pipeline_par"].get<std::int64_t>(),
                   dp = c.execution["data_par"].get<std::int64_t>();
        QCOMPARE(c.execution["num_procs"].get<std::int64_t>(), tp * pp * dp);
        const auto batch = c.execution["batch_size"].get<std::int64_t>(),
                   micro = c.execution["microbatch_size"].get<std::int64_t>();
        QCOMPARE(batch % dp, std::int64_t(0));
        QCOMPARE(batch / dp % micro, std::int64_t(0));
        std::vector<std::int64_t> onTier(nets.size(), 1);
        for (auto [degree, net] : {std::pair{tp, "tensor_par_net"}, {pp, "pipeline_par_net"}, {dp, "data_par_net"}}) {
            const auto i = c.execution[net].get<std::size_t>();
            QVERIFY(i < nets.size());
            if (degree > 1)
                onTier[i] *= degree;
        }
        for (std::size_t i = 0; i < nets.size(); ++i) {
            const auto size = nets[i]["size"].get<std::int64_t>();
            QVERIFY2(onTier[i] <= size, qPrintable(QString("tier %1").arg(i)));
            if (nets[i]["must_be_filled"].get<bool>())
                QCOMPARE(size % onTier[i], std::int64_t(0));
        }
    }

    // The H100 SuperPOD's figures, by hand from the catalog and the preset.
    void calculonHoldsTheSuperPodsFigures()
    {
        const CalculonFiles c = calculonFiles(loadPreset("dgx-h100-superpod-4su.cluster.json"), Catalog::builtin());
        QCOMPARE(c.model["hidden"].get<std::int64_t>(), std::int64_t(8192));
        QCOMPARE(c.model["feedforward"].get<std::int64_t>(), std::int64_t(28672 * 3 / 2));  // SwiGLU's weights
        QCOMPARE(c.model["attn_size"].get<std::int64_t>(), std::int64_t(128));
        QCOMPARE(c.model["num_blocks"].get<std::int64_t>(), std::int64_t(80));
        const Json& m = c.system["matrix"]["bfloat16"];
        QCOMPARE(m["tflops"].get<double>(), 989.4);
        QCOMPARE(m["gflops_efficiency"][0][1].get<double>(), 0.65);  // gemm_efficiency at >= 128 GFLOP
        QCOMPARE(c.system["mem1"]["GiB"].get<double>(), 80.0);
        QCOMPARE(c.system["mem1"]["GBps"].get<double>(), 3350.0);
        QCOMPARE(c.system["processing_mode"], Json("roofline"));
        const Json& nets = c.system["networks"];
        QCOMPARE(nets.size(), std::size_t(3));                // NVLink, leaf, spine
        QCOMPARE(nets[0]["bandwidth"].get<double>(), 450.0);  // 900 GB/s both ways
        QCOMPARE(nets[0]["size"].get<std::int64_t>(), std::int64_t(8));
        QCOMPARE(nets[0]["efficiency"].get<double>(), 0.81);
        QVERIFY(nets[0]["must_be_filled"].get<bool>());
        QCOMPARE(nets[1]["bandwidth"].get<double>(), 50.0);                // one 400 Gb/s NIC per GPU
        QCOMPARE(nets[1]["size"].get<std::int64_t>(), std::int64_t(256));  // a scalable unit's rail
        QCOMPARE(nets[2]["size"].get<std::int64_t>(), std::int64_t(1024));
        QCOMPARE(nets[1]["latency"].get<double>(), 5e-6);
        QCOMPARE(c.execution["tensor_par"].get<std::int64_t>(), std::int64_t(8));
        QCOMPARE(c.execution["tensor_par_net"].get<std::int64_t>(), std::int64_t(0));
        QCOMPARE(c.execution["data_par"].get<std::int64_t>(), std::int64_t(32));
        QCOMPARE(c.execution["tensor_par_comm_type"], Json("rs_ag"));
        QCOMPARE(c.execution["activation_recompute"], Json("attn_only"));
        auto noted = [&c](const char* words) {
            return std::any_of(c.notes.begin(), c.notes.end(),
                               [&](const std::string& n) { return n.find(words) != std::string::npos; });
        };
        QVERIFY(noted("SwiGLU"));
        QVERIFY(noted("grouped-query attention (8 KV heads of 64)"));
        QVERIFY(noted("vocab 128,256"));
    }

    void aServingDesignIsNoCalculonRun()
    {
        const DesignExport e = exportDesign(loadPreset("serving-llama3-70b-dgx-h100.cluster.json"), Catalog::builtin(),
                                            ExportTarget::Calculon);
        QCOMPARE(e.error, std::string("Calculon times training steps; this design's workload is serving"));
        QVERIFY(e.files.empty());
        const DesignExport ok =
            exportDesign(loadPreset("dgx-a100-superpod.cluster.json"), Catalog::builtin(), ExportTarget::Calculon);
        std::vector<std::string> names;
        for (const auto& f : ok.files)
            names.push_back(f.name);
        QCOMPARE(names, (std::vector<std::string>{"model.json", "system.json", "execution.json", "README.md"}));
        QVERIFY(ok.files[3].text.find(calculonCommand("DIR")) != std::string::npos);
        for (const std::string& n : ok.notes)
            QVERIFY(ok.files[3].text.find("- " + n + "\n") != std::string::npos);
    }
};

QTEST_APPLESS_MAIN(TestExport)
#include "tst_export.moc"
