// Inventory through replication, and resizing a design to a GPU count.
#include <QtTest>

#include "core/analysis/inventory.h"
#include "core/design/id_table.h"
#include "core/design/resize.h"
#include "core/format/design_reader.h"
#include "tests/core/hand_built.h"
#include "tests/test_support.h"

using namespace studio;

namespace {

Design loadPreset(const char* name)
{
    DesignLoad loaded = loadDesignFile(test::sourcePath(QString("presets/") + name).toStdString(), Catalog::builtin());
    if (!loaded.ok())
        qFatal("%s does not load", name);
    return *loaded.design;
}

const FabricSizing* fabric(const Inventory& inv, const std::string& id)
{
    for (const auto& f : inv.fabrics)
        if (f.component == id)
            return &f;
    return nullptr;
}

}  // namespace

class TestInventory : public QObject {
    Q_OBJECT
private slots:
    void idTableFindsWhatItFiledAndNothingElse()
    {
        // Grown well past its first size, with ids that differ in one
        // character and a prefix of another (probing past a neighbour).
        std::vector<std::string> ids;
        for (int i = 0; i < 5000; ++i)
            ids.push_back("node." + std::to_string(i / 100) + "." + std::to_string(i % 100));
        ids.push_back("node.1");
        IdTable table(3);
        for (std::size_t i = 0; i < ids.size(); ++i)
            QVERIFY(!table.insert(ids[i], i * 7));
        QCOMPARE(table.size(), ids.size());
        for (std::size_t i = 0; i < ids.size(); ++i)
            QCOMPARE(table.find(ids[i]), std::optional<std::size_t>(i * 7));
        QCOMPARE(table.find("node.50.0"), std::nullopt);
        QCOMPARE(table.find("node."), std::nullopt);
        QCOMPARE(table.find(""), std::nullopt);
        // A second filing keeps the first and says where it is.
        const std::string again = "node.3.4";
        QCOMPARE(table.insert(again, 1), std::optional<std::size_t>(304 * 7));
        QCOMPARE(table.find(again), std::optional<std::size_t>(304 * 7));
        QCOMPARE(table.size(), ids.size());
    }

    void presets_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<qint64>("gpus");
        QTest::addColumn<qint64>("nodes");
        QTest::addColumn<qint64>("racks");
        QTest::addColumn<qint64>("nics");
        QTest::addColumn<qint64>("computeLeaf");
        QTest::addColumn<qint64>("computeSpine");
        QTest::addColumn<qint64>("computeCore");
        QTest::addColumn<QString>("gpuPart");
        // nics: compute NICs plus storage/frontend NICs per node.
        QTest::newRow("DGX A100 SuperPOD") << "dgx-a100-superpod.cluster.json" << 1120LL << 140LL << 35LL << 140LL * 10
                                           << 56LL << 56LL << 28LL << "gpu.a100-sxm-80gb";
        QTest::newRow("DGX H100 4 SUs") << "dgx-h100-superpod-4su.cluster.json" << 1024LL << 128LL << 64LL << 128LL * 10
                                        << 32LL << 16LL << 0LL << "gpu.h100-sxm";
        QTest::newRow("DGX B200 8 SUs") << "dgx-b200-superpod-8su.cluster.json" << 2048LL << 256LL << 128LL
                                        << 256LL * 10 << 64LL << 32LL << 0LL << "gpu.b200";
        QTest::newRow("H100 16K RoCE") << "h100-16k-roce-llama3.cluster.json" << 16384LL << 2048LL << 1024LL
                                       << 2048LL * 9 << 256LL << 256LL << 128LL << "gpu.h100-sxm";
        QTest::newRow("GB200 NVL72 x 8") << "gb200-nvl72-8rack.cluster.json" << 576LL << 8LL << 8LL << 8LL * (72 + 36)
                                         << 8LL << 4LL << 0LL << "gpu.gb200";
        QTest::newRow("MI300X 128 nodes") << "mi300x-roce-128node.cluster.json" << 1024LL << 128LL << 64LL << 128LL * 10
                                          << 16LL << 8LL << 0LL << "gpu.mi300x";
        QTest::newRow("budget 8 nodes") << "budget-8node-100gbe.cluster.json" << 64LL << 8LL << 2LL << 16LL << 1LL
                                        << 0LL << 0LL << "gpu.a100-sxm-80gb";
    }
    void presets()
    {
        QFETCH(QString, file);
        const Design d = loadPreset(file.toUtf8().constData());
        const DesignIndex index(d, Catalog::builtin());
        const Inventory inv = takeInventory(index);
        QVERIFY(inv.problems.empty());
        QTEST(qint64(inv.gpus), "gpus");
        QTEST(qint64(inv.nodes), "nodes");
        QTEST(qint64(inv.racks), "racks");
        QTEST(qint64(inv.nics), "nics");
        QTEST(QString::fromStdString(inv.gpuPart), "gpuPart");
        const FabricSizing* f = fabric(inv, "fabric");
        QVERIFY(f);
        QTEST(qint64(f->tree.leaf), "computeLeaf");
        QTEST(qint64(f->tree.spine), "computeSpine");
        QTEST(qint64(f->tree.core), "computeCore");
        // The bill of materials counts what the inventory counts.
        std::int64_t bomGpus = 0;
        for (const auto& line : inv.bom)
            if (line.kind == PartKind::Accelerator)
                bomGpus += line.count;
        QCOMPARE(bomGpus, inv.gpus);
    }

    void cablesArePerInstanceOfTheMoreReplicatedEnd()
    {
        const Design d = loadPreset("dgx-h100-superpod-4su.cluster.json");
        const DesignIndex index(d, Catalog::builtin());
        const Inventory inv = takeInventory(index);
        // 1,024 compute NICs, 256 storage NICs, 12 appliances x 8 ports, plus
        // inter-switch cables of both fabrics.
        const FabricSizing* compute = fabric(inv, "fabric");
        const FabricSizing* storage = fabric(inv, "sfabric");
        const std::int64_t interSwitch = compute->tree.leafSpineCables + storage->tree.leafSpineCables;
        QCOMPARE(compute->tree.leafSpineCables, std::int64_t(32 * 32));
        QCOMPARE(inv.cables, std::int64_t(1024 + 256 + 96) + interSwitch);
        QCOMPARE(inv.cablesByPart.at("link.ib-ndr-optical"), inv.cables);
    }

    // A fabric is one network sized from the links into it: replicated (a
    // count of 4, or inside a replicated pod) it still takes one cable per
    // NIC, as its sizing has ports for. It took 4 per NIC, more than its
    // leaves held, and the NetBox export wrote past them.
    void aReplicatedFabricTakesItsCablesOnce()
    {
        Design d = loadPreset("dgx-h100-superpod-4su.cluster.json");
        d.component("sfabric")->count = 4;
        const DesignIndex index(d, Catalog::builtin());
        const Inventory inv = takeInventory(index);
        const FabricSizing* storage = fabric(inv, "sfabric");
        QCOMPARE(storage->tree.endpoints, std::int64_t(256 + 96));
        const std::int64_t interSwitch = fabric(inv, "fabric")->tree.leafSpineCables + storage->tree.leafSpineCables;
        QCOMPARE(inv.cables, std::int64_t(1024 + 256 + 96) + interSwitch);
    }

    // Cables between two fabrics take a port on each: 3 of them make each
    // fabric 3 endpoints larger and are 3 cables.
    void cablesBetweenFabricsArePortsOfBoth()
    {
        Design d = loadPreset("dgx-h100-superpod-4su.cluster.json");
        d.links.push_back(test::cable("fabric-sfabric", "fabric", "sfabric", "link.ib-ndr-optical", 3));
        const DesignIndex index(d, Catalog::builtin());
        const Inventory inv = takeInventory(index);
        QCOMPARE(index.cables(d.links.size() - 1), std::int64_t(3));
        QCOMPARE(fabric(inv, "fabric")->tree.endpoints, std::int64_t(1024 + 3));
        QCOMPARE(fabric(inv, "sfabric")->tree.endpoints, std::int64_t(256 + 96 + 3));
    }

    void bisectionBandwidthOfTheSuperPod()
    {
        const Design d = loadPreset("dgx-h100-superpod-4su.cluster.json");
        const DesignIndex index(d, Catalog::builtin());
        const Inventory inv = takeInventory(index);
        const FabricSizing* f = fabric(inv, "fabric");
        // Non-blocking: half of 1,024 NDR endpoints at 50 GB/s each.
        QCOMPARE(f->portGbps, 400.0);
        QCOMPARE(f->bisectionGbPerS(), 512 * 50.0);
        Design tapered = d;
        tapered.component("fabric")->props["oversubscription"] = 2.0;
        const DesignIndex tIndex(tapered, Catalog::builtin());
        const Inventory tInv = takeInventory(tIndex);
        const FabricSizing* t = fabric(tInv, "fabric");
        QCOMPARE(t->bisectionGbPerS(), 512 * 50.0 / 2);
        QCOMPARE(t->tree.leafUp, std::int64_t(22));  // 64 ports at 2:1 -> 42 down, 22 up
        // 128 nodes: 3 full units of 42 and one of 2, 8 rails each: 32
        // leaves. A full leaf sends 22 up, one with 2 nodes ceil(2 x 22 /
        // 42) = 2: 8 x (3 x 22 + 2) = 544 uplinks / 64 = 9 spines.
        QCOMPARE(t->tree.leaf, std::int64_t(32));
        QCOMPARE(t->tree.leafSpineCables, std::int64_t(544));
        QCOMPARE(t->tree.spine, std::int64_t(9));
    }

    void scaleUnitIsTheOutermostReplicatedContainer()
    {
        const Design d = loadPreset("dgx-h100-superpod-4su.cluster.json");
        const ScaleUnitResult r = findScaleUnit(d, Catalog::builtin());
        QVERIFY(r.unit);
        QCOMPARE(d.components[r.unit->component].id, std::string("su"));
        QCOMPARE(r.unit->gpusPerInstance, std::int64_t(256));
        QCOMPARE(r.unit->gpusPerNode, std::int64_t(8));
    }

    void resizeChangesOnlyTheScaleUnitAndTheFabricFollows()
    {
        Design d = loadPreset("dgx-h100-superpod-4su.cluster.json");
        const Design before = d;
        QVERIFY(!resizeToGpus(d, Catalog::builtin(), 2048));
        QCOMPARE(d.component("su")->count, std::int64_t(8));
        Design expected = before;
        expected.component("su")->count = 8;
        QVERIFY(d == expected);  // nothing else changed
        const DesignIndex index(d, Catalog::builtin());
        const Inventory inv = takeInventory(index);
        QCOMPARE(inv.gpus, std::int64_t(2048));
        QCOMPARE(fabric(inv, "fabric")->tree.leaf, std::int64_t(64));
        QCOMPARE(fabric(inv, "fabric")->tree.spine, std::int64_t(32));
    }

    void resizeRefusesCountsItCannotReach()
    {
        Design d = loadPreset("dgx-h100-superpod-4su.cluster.json");
        auto p = resizeToGpus(d, Catalog::builtin(), 1030);
        QVERIFY(p);
        QCOMPARE(p->pointer, std::string("/components/1/count"));
        QCOMPARE(p->message, std::string("1,030 GPUs is not a whole number of nodes (8 GPUs each)"));
        p = resizeToGpus(d, Catalog::builtin(), 1032);
        QVERIFY(p);
        QCOMPARE(p->message,
                 std::string("1,032 GPUs is 129 nodes, but this design grows by whole 'Scalable unit' of "
                             "256 GPUs; choose a multiple of 256"));
        QCOMPARE(d.component("su")->count, std::int64_t(4));  // unchanged on refusal
    }

    void resizeWhereNodesAreTheUnit()
    {
        // GB200: the rack (one NVL72 system) is replicated: steps of 72 GPUs.
        Design d = loadPreset("gb200-nvl72-8rack.cluster.json");
        QVERIFY(!resizeToGpus(d, Catalog::builtin(), 72 * 12));
        QCOMPARE(d.component("rack")->count, std::int64_t(12));
        const auto p = resizeToGpus(d, Catalog::builtin(), 100);
        QVERIFY(p);
        QCOMPARE(p->message, std::string("100 GPUs is not a whole number of nodes (72 GPUs each)"));
    }
};

QTEST_APPLESS_MAIN(TestInventory)
#include "tst_inventory.moc"
