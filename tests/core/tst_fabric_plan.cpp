// "Generate fabric" (core/design/fabric_plan) on hand-built designs: which
// NICs it wires, the fabric component and links it proposes, and the sizing
// by the fat-tree generator of docs/model.md section 2.
#include <QtTest>

#include "core/analysis/hardware_profile.h"
#include "core/analysis/inventory.h"
#include "core/design/fabric_plan.h"
#include "tests/core/hand_built.h"

using namespace studio;
using test::cable;
using test::part;

namespace {

// 2 racks x 2 DGX H100, each with 8 H100, 8 ConnectX-7 (the platform's
// compute NIC) and 2 BlueField-3 DPUs: 4 nodes, 32 compute NICs.
Design dgxPod()
{
    Design d = test::emptyDesign();
    d.components = {part("rack", "rack.air-42u", "", 2), part("dgx", "node.dgx-h100", "rack", 2),
                    part("gpu", "gpu.h100-sxm", "dgx", 8), part("nic", "nic.connectx-7", "dgx", 8),
                    part("dpu", "nic.bluefield-3", "dgx", 2)};
    return d;
}

Design withPlan(Design d, const FabricPlan& plan)
{
    d.components.push_back(plan.fabric);
    d.links.insert(d.links.end(), plan.links.begin(), plan.links.end());
    return d;
}

FabricPlan plan(const Design& d, const std::string& scope = {}, const FabricOptions& options = {})
{
    return planFabric(d, Catalog::builtin(), scope, options);
}

}  // namespace

class TestFabricPlan : public QObject {
    Q_OBJECT
private slots:
    void wiresEveryComputeNicToARailOptimizedFatTree()
    {
        const Design d = dgxPod();
        REQUIRE_VALID(d);
        const FabricPlan p = plan(d);
        QVERIFY2(p.error.empty(), p.error.c_str());
        // One link per NIC component, the DPUs left out.
        QCOMPARE(p.links.size(), std::size_t(1));
        QCOMPARE(p.links[0].id, std::string("nic-fabric"));
        QCOMPARE(p.links[0].from, std::string("nic"));
        QCOMPARE(p.links[0].to, std::string("fabric"));
        QCOMPARE(p.links[0].count, std::int64_t(1));
        // The cheapest cable that carries 400 Gb/s InfiniBand, optical over
        // copper at the same speed: NDR optics, not the NDR DAC or XDR.
        QCOMPARE(p.links[0].part, std::string("link.ib-ndr-optical"));
        QCOMPARE(p.nodes, std::int64_t(4));
        QCOMPARE(p.nics, std::int64_t(32));
        const Component& f = p.fabric;
        QCOMPARE(f.id, std::string("fabric"));
        QCOMPARE(f.part, std::string("fabric.rail-optimized"));
        QCOMPARE(f.name, std::string("Compute fabric"));
        QVERIFY(f.parent.empty());
        QCOMPARE(f.props.at("switch").get<std::string>(), std::string("switch.qm9700"));
        QCOMPARE(f.props.at("cable").get<std::string>(), std::string("link.ib-ndr-optical"));
        QCOMPARE(f.props.size(), std::size_t(2));  // defaults are not written
        // Section 2: 4 nodes x 8 rails are 32 ports, which one 64-port
        // switch holds: one tier, every rail on it.
        const FatTree& t = p.sizing;
        QCOMPARE(t.endpoints, std::int64_t(32));
        QCOMPARE(t.tiers, 1);
        QCOMPARE(t.leaf, std::int64_t(1));
        QCOMPARE(t.leafSpineCables, std::int64_t(0));
        QCOMPARE(t.spine, std::int64_t(0));
        QCOMPARE(t.core, std::int64_t(0));

        // Added to the design it validates, the inventory sizes the same
        // fabric, and the nodes see 8 x 50 GB/s / 8 GPUs each.
        const Design wired = withPlan(d, p);
        REQUIRE_VALID(wired);
        const DesignIndex index(wired, Catalog::builtin());
        const Inventory inv = takeInventory(index);
        QCOMPARE(inv.fabrics.size(), std::size_t(1));
        QCOMPARE(inv.fabrics[0].tree.leaf, t.leaf);
        QCOMPARE(inv.fabrics[0].tree.spine, t.spine);
        QCOMPARE(inv.fabrics[0].rails, std::int64_t(8));
        std::vector<Problem> warnings;
        QCOMPARE(profileHardware(index, inv, "bf16", warnings).scaleOut.nicGbPerSPerGpu.value, 50.0);

        // Planning again finds nothing left to wire.
        const FabricPlan again = plan(wired);
        QCOMPARE(again.error, std::string("no node NICs to wire (nodes already on a compute fabric are skipped)"));
        QVERIFY(again.links.empty());
    }

    void scopeLimitsThePlanToOneContainer()
    {
        Design d = test::emptyDesign();
        d.components = {part("pod-a", "group.pod"),
                        part("rack-a", "rack.air-42u", "pod-a", 2),
                        part("dgx-a", "node.dgx-h100", "rack-a", 2),
                        part("nic-a", "nic.connectx-7", "dgx-a", 8),
                        part("pod-b", "group.pod"),
                        part("rack-b", "rack.air-42u", "pod-b"),
                        part("dgx-b", "node.dgx-h100", "rack-b", 2),
                        part("nic-b", "nic.connectx-7", "dgx-b", 8)};
        REQUIRE_VALID(d);
        const FabricPlan p = plan(d, "pod-b");
        QVERIFY2(p.error.empty(), p.error.c_str());
        QCOMPARE(p.links.size(), std::size_t(1));
        QCOMPARE(p.links[0].from, std::string("nic-b"));
        QCOMPARE(p.nodes, std::int64_t(2));
        QCOMPARE(p.nics, std::int64_t(16));
        QCOMPARE(p.fabric.parent, std::string("pod-b"));
        // 2 nodes x 8 rails: 16 ports on one switch.
        QCOMPARE(p.sizing.tiers, 1);
        QCOMPARE(p.sizing.switches(), std::int64_t(1));
        REQUIRE_VALID(withPlan(d, p));

        QCOMPARE(plan(d, "nowhere").error, std::string("no component 'nowhere'"));
        // Once pod-b is wired, nothing is left inside it.
        const Design wired = withPlan(d, p);
        QCOMPARE(plan(wired, "pod-b").error,
                 std::string("no node NICs to wire inside 'pod-b' (nodes already on a compute fabric are skipped)"));
        // The whole design still has pod-a's 32 NICs to wire; "fabric" is
        // taken, so the new one is "fabric-2".
        const FabricPlan rest = plan(wired);
        QCOMPARE(rest.nics, std::int64_t(32));
        QCOMPARE(rest.fabric.id, std::string("fabric-2"));
        QCOMPARE(rest.links[0].id, std::string("nic-a-fabric-2"));
    }

    void optionsShapeTheFabric()
    {
        const Design d = dgxPod();
        FabricOptions o;
        o.switchPart = "switch.qm9700";
        o.cablePart = "link.ib-ndr-dac";
        o.oversubscription = 2;
        o.railOptimized = false;
        o.tiers = 2;
        o.role = "storage";
        const FabricPlan p = plan(d, {}, o);
        QVERIFY2(p.error.empty(), p.error.c_str());
        const Component& f = p.fabric;
        QCOMPARE(f.part, std::string("fabric.fat-tree"));
        QCOMPARE(f.name, std::string("Storage fabric"));
        QCOMPARE(f.props.at("cable").get<std::string>(), std::string("link.ib-ndr-dac"));
        QCOMPARE(f.props.at("oversubscription").get<double>(), 2.0);
        QCOMPARE(f.props.at("tiers").get<int>(), 2);
        QCOMPARE(f.props.at("role").get<std::string>(), std::string("storage"));
        QCOMPARE(p.links[0].part, std::string("link.ib-ndr-dac"));
        // Section 2: at 2:1 a 64-port leaf splits floor(64 x 2/3) = 42 down,
        // 22 up; not rail-optimized, 32 endpoints need ceil(32/42) = 1 leaf,
        // and with 2 tiers forced, 22 uplinks to ceil(22/64) = 1 spine.
        QCOMPARE(p.sizing.leafDown, std::int64_t(42));
        QCOMPARE(p.sizing.leafUp, std::int64_t(22));
        QCOMPARE(p.sizing.tiers, 2);
        QCOMPARE(p.sizing.leaf, std::int64_t(1));
        QCOMPARE(p.sizing.spine, std::int64_t(1));
        REQUIRE_VALID(withPlan(d, p));

        // A storage fabric does not count as wiring for a compute one.
        const FabricPlan compute = plan(withPlan(d, p));
        QVERIFY2(compute.error.empty(), compute.error.c_str());
        QCOMPARE(compute.fabric.id, std::string("fabric-2"));
        QCOMPARE(compute.nics, std::int64_t(32));

        o = FabricOptions{};
        o.role = "frontend";
        QCOMPARE(plan(d, {}, o).fabric.name, std::string("Frontend network"));
        // A 40-port switch with 2 tiers set: a unit is 20 nodes; 8 leaves,
        // each with the 4 nodes' 4 uplinks, 32 / 40 = 1 spine.
        o = FabricOptions{};
        o.switchPart = "switch.qm8700";
        o.tiers = 2;
        const FabricPlan hdr = plan(d, {}, o);
        QCOMPARE(hdr.sizing.nodesPerUnit, std::int64_t(20));
        QCOMPARE(hdr.sizing.leaf, std::int64_t(8));
        QCOMPARE(hdr.sizing.leafSpineCables, std::int64_t(32));
        QCOMPARE(hdr.sizing.spine, std::int64_t(1));
    }

    void switchesMustBeSwitches()
    {
        const Design d = dgxPod();
        FabricOptions o;
        o.switchPart = "nic.connectx-7";
        QCOMPARE(plan(d, {}, o).error, std::string("no switch 'nic.connectx-7' in the catalog"));
        o.switchPart = "switch.nope";
        QCOMPARE(plan(d, {}, o).error, std::string("no switch 'switch.nope' in the catalog"));
    }

    void nodesWithoutTheirPlatformNicWireAllTheirNics()
    {
        // HGX A100 names a 100 GbE NIC; these carry two 200 GbE NICs instead,
        // so both are compute NICs: 2 rails, and a 200G Ethernet cable.
        Design d = test::emptyDesign();
        d.components = {part("node", "node.hgx-a100", "", 3), part("gpu", "gpu.a100-sxm-80gb", "node", 8),
                        part("eth", "nic.eth-200g", "node", 2)};
        REQUIRE_VALID(d);
        const FabricPlan p = plan(d);
        QCOMPARE(p.nics, std::int64_t(6));
        QCOMPARE(p.links[0].part, std::string("link.eth-200g-aoc"));
        // 3 nodes x 2 rails, rail-optimized: 6 ports, one switch.
        QCOMPARE(p.sizing.endpoints, std::int64_t(6));
        QCOMPARE(p.sizing.leaf, std::int64_t(1));
        QCOMPARE(p.sizing.tiers, 1);
    }

    void unevenNicsAreNotRails()
    {
        // 2 nodes with 8 NICs and 1 with 4: 20 ports over 3 nodes do not
        // divide, so they are plain endpoints, and 20 fit one 64-port switch.
        Design d = dgxPod();
        d.components.push_back(part("odd", "node.dgx-h100", "rack", 1));
        d.components.push_back(part("odd-nic", "nic.connectx-7", "odd", 4));
        d.components[0].count = 1;
        REQUIRE_VALID(d);
        const FabricPlan p = plan(d);
        QCOMPARE(p.nodes, std::int64_t(3));
        QCOMPARE(p.nics, std::int64_t(20));
        QCOMPARE(p.sizing.endpoints, std::int64_t(20));
        QCOMPARE(p.sizing.tiers, 1);
        QCOMPARE(p.sizing.leaf, std::int64_t(1));
        QCOMPARE(p.sizing.spine, std::int64_t(0));
    }

    void sizingErrorsAndNothingToWire()
    {
        // One tier forced: the pod's 32 ports fit one switch; 10 nodes' 80
        // do not.
        FabricOptions o;
        o.tiers = 1;
        QCOMPARE(plan(dgxPod(), {}, o).sizing.switches(), std::int64_t(1));
        Design ten = dgxPod();
        ten.components[0].count = 5;
        const FabricPlan p = plan(ten, {}, o);
        QCOMPARE(p.error, std::string("80 endpoints do not fit one 64-port switch (tiers is set to 1)"));
        // Nodes without NICs.
        Design d = test::emptyDesign();
        d.components = {part("node", "node.dgx-h100"), part("gpu", "gpu.h100-sxm", "node", 8)};
        QCOMPARE(plan(d).error, std::string("no node NICs to wire (nodes already on a compute fabric are skipped)"));
    }

    void idsAvoidThoseTaken()
    {
        // "fabric" and "fabric-2" are taken (a storage fabric and a group),
        // and a link "nic-fabric-3" exists: the plan takes the next free ids.
        Design d = dgxPod();
        d.components.push_back(part("fabric", "fabric.fat-tree"));
        d.component("fabric")->props["switch"] = "switch.qm9700";
        d.component("fabric")->props["role"] = "storage";
        d.components.push_back(part("fabric-2", "group.pod"));
        d.links.push_back(cable("nic-fabric-3", "dpu", "fabric", "link.ib-ndr-optical"));
        REQUIRE_VALID(d);
        const FabricPlan p = plan(d);
        QCOMPARE(p.fabric.id, std::string("fabric-3"));
        QCOMPARE(p.links[0].id, std::string("nic-fabric-3-2"));
        REQUIRE_VALID(withPlan(d, p));
    }
};

QTEST_APPLESS_MAIN(TestFabricPlan)
#include "tst_fabric_plan.moc"
