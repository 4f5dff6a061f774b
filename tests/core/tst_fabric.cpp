// The fat-tree generator against the DGX SuperPOD table (hardware.md) and
// its edge cases.
#include <QtTest>

#include "core/design/fat_tree.h"

using namespace studio;

class TestFabric : public QObject {
    Q_OBJECT
private slots:
    // NVIDIA DGX SuperPOD reference architecture: SU = 32 nodes, 8 rails,
    // QM9700 (64 ports), non-blocking.
    void superPodTable_data()
    {
        QTest::addColumn<int>("sus");
        QTest::addColumn<int>("leaf");
        QTest::addColumn<int>("spine");
        QTest::addColumn<int>("core");
        QTest::newRow("2 SUs, 512 GPUs") << 2 << 16 << 8 << 0;
        QTest::newRow("4 SUs, 1,024 GPUs") << 4 << 32 << 16 << 0;
        QTest::newRow("8 SUs, 2,048 GPUs") << 8 << 64 << 32 << 0;
        QTest::newRow("16 SUs, 4,096 GPUs") << 16 << 128 << 128 << 64;
        QTest::newRow("32 SUs, 8,192 GPUs") << 32 << 256 << 256 << 128;
        QTest::newRow("64 SUs, 16,384 GPUs") << 64 << 512 << 512 << 256;
    }
    void superPodTable()
    {
        QFETCH(int, sus);
        QFETCH(int, leaf);
        QFETCH(int, spine);
        QFETCH(int, core);
        FatTreeSpec spec;
        spec.nodes = sus * 32;
        spec.rails = 8;
        spec.radix = 64;
        const FatTree t = sizeFatTree(spec);
        QVERIFY(t.error.empty());
        QCOMPARE(t.nodesPerUnit, std::int64_t(32));
        QCOMPARE(t.leaf, std::int64_t(leaf));
        QCOMPARE(t.spine, std::int64_t(spine));
        QCOMPARE(t.core, std::int64_t(core));
        QCOMPARE(t.tiers, core ? 3 : 2);
        QCOMPARE(t.endpoints, std::int64_t(sus) * 32 * 8);
    }

    void oversubscriptionSplitsLeafPorts()
    {
        FatTreeSpec spec;
        spec.nodes = 96;
        spec.rails = 8;
        spec.radix = 64;
        spec.oversubscription = 3.0;  // 3:1 -> 48 down, 16 up
        const FatTree t = sizeFatTree(spec);
        QCOMPARE(t.leafDown, std::int64_t(48));
        QCOMPARE(t.leafUp, std::int64_t(16));
        QCOMPARE(t.leaf, std::int64_t(2 * 8));          // 96 nodes = 2 units of 48
        QCOMPARE(t.spine, std::int64_t(16 * 16 / 64));  // 256 uplinks over 64-port spines
    }

    void oneSwitchWhenEverythingFits()
    {
        FatTreeSpec spec;
        spec.nodes = 8;
        spec.rails = 2;
        spec.otherEndpoints = 2;
        spec.radix = 32;
        spec.railOptimized = false;
        const FatTree t = sizeFatTree(spec);
        QCOMPARE(t.tiers, 1);
        QCOMPARE(t.switches(), std::int64_t(1));
        QCOMPARE(t.leafSpineCables, std::int64_t(0));
    }

    // Rails that fit one switch take one: every rail on it is a hop from
    // every other. Set to two tiers, they get their rail leaves, each sent
    // up only what it holds; set to one, ports that do not fit are an error.
    void railsThatFitOneSwitchTakeOne()
    {
        FatTreeSpec spec;
        spec.nodes = 4;
        spec.rails = 8;
        spec.radix = 64;
        FatTree t = sizeFatTree(spec);
        QCOMPARE(t.tiers, 1);
        QCOMPARE(t.switches(), std::int64_t(1));
        QCOMPARE(t.leafSpineCables, std::int64_t(0));

        spec.tiers = 2;
        t = sizeFatTree(spec);
        QCOMPARE(t.tiers, 2);
        QCOMPARE(t.leaf, std::int64_t(8));  // one per rail
        // Each leaf has 4 of its 32 down-ports in use, so 4 up (1:1), not
        // the 32 a full unit takes: 32 uplinks, one spine.
        QCOMPARE(t.leafSpineCables, std::int64_t(8 * 4));
        QCOMPARE(t.spine, std::int64_t(1));

        spec.tiers = 1;
        spec.nodes = 9;  // 72 ports
        QCOMPARE(QString::fromStdString(sizeFatTree(spec).error),
                 QString("72 endpoints do not fit one 64-port switch (tiers is set to 1)"));
        spec.tiers = 0;  // left to choose: rail leaves and a spine
        t = sizeFatTree(spec);
        QCOMPARE(t.tiers, 2);
        QCOMPARE(t.leaf, std::int64_t(8));
        QCOMPARE(t.spine, std::int64_t(2));  // 8 x 9 = 72 up-links / 64
    }

    // The last scalable unit is cabled for the nodes it holds: 40 nodes on
    // 64-port switches at 1:1 are a full unit of 32 and one of 8.
    void aPartlyFilledUnitIsCabledForWhatItHolds()
    {
        FatTreeSpec spec;
        spec.nodes = 40;
        spec.rails = 8;
        spec.otherEndpoints = 40;  // storage: one full leaf of 32 and one with 8
        spec.radix = 64;
        const FatTree t = sizeFatTree(spec);
        QCOMPARE(t.tiers, 2);
        QCOMPARE(t.leaf, std::int64_t(2 * 8 + 2));
        // 8 rails x (32 + 8) + (32 + 8) = 360 uplinks / 64 = 6 spines
        // (a full build of every leaf would be 18 x 32 = 576 and 9).
        QCOMPARE(t.leafSpineCables, std::int64_t(360));
        QCOMPARE(t.spine, std::int64_t(6));
    }

    // At 3:1 a leaf sends a third as much up as it takes down; a partly
    // filled one rounds its share up, so it is never more oversubscribed
    // than the fabric says.
    void aPartLeafKeepsTheOversubscription()
    {
        QCOMPARE(upLinksFor(48, 48, 16), std::int64_t(16));
        QCOMPARE(upLinksFor(10, 48, 16), std::int64_t(4));  // ceil(10 x 16 / 48)
        QCOMPARE(upLinksFor(3, 48, 16), std::int64_t(1));
        QCOMPARE(upLinksFor(0, 48, 16), std::int64_t(0));
        FatTreeSpec spec;
        spec.nodes = 58;  // a unit of 48 and one of 10
        spec.rails = 8;
        spec.radix = 64;
        spec.oversubscription = 3.0;
        const FatTree t = sizeFatTree(spec);
        QCOMPARE(t.leaf, std::int64_t(16));
        QCOMPARE(t.leafSpineCables, std::int64_t(8 * (16 + 4)));
        QCOMPARE(t.spine, std::int64_t(3));  // 160 / 64
    }

    // Three tiers: a spine splits its ports half down, half up, so it sends
    // up as many cables as it takes from the leaves.
    void threeTiersCarryOnlyWhatTheLeavesSend()
    {
        FatTreeSpec spec;
        spec.nodes = 16 * 32 + 1;  // 16 full SuperPOD units and one node
        spec.rails = 8;
        spec.radix = 64;
        const FatTree t = sizeFatTree(spec);
        QCOMPARE(t.tiers, 3);
        QCOMPARE(t.leaf, std::int64_t(17 * 8));
        QCOMPARE(t.leafSpineCables, std::int64_t(8 * (16 * 32 + 1)));  // 4,104
        QCOMPARE(t.spine, std::int64_t(129));                          // 4,104 / 32
        QCOMPARE(t.spineCoreCables, std::int64_t(4104));
        QCOMPARE(t.core, std::int64_t(65));  // 4,104 / 64
    }

    void fortyPortHdrSuperPod()
    {
        // DGX A100 SuperPOD: QM8700 has 40 ports, so an SU is 20 nodes.
        FatTreeSpec spec;
        spec.nodes = 140;
        spec.rails = 8;
        spec.radix = 40;
        const FatTree t = sizeFatTree(spec);
        QCOMPARE(t.nodesPerUnit, std::int64_t(20));
        QCOMPARE(t.leaf, std::int64_t(56));
        QCOMPARE(t.tiers, 3);
        QCOMPARE(t.spine, std::int64_t(56));
        QCOMPARE(t.core, std::int64_t(28));
        QCOMPARE(t.leafSpineCables, std::int64_t(56 * 20));
        QCOMPARE(t.spineCoreCables, std::int64_t(56 * 20));
    }

    void beyondThreeTiersIsAnError()
    {
        FatTreeSpec spec;
        spec.nodes = 8193;  // 64-port three-tier fat tree takes 2,048 leaves = 8,192 nodes x 8 rails
        spec.rails = 8;
        spec.radix = 64;
        const FatTree t = sizeFatTree(spec);
        QCOMPARE(QString::fromStdString(t.error),
                 QString("65,544 endpoints need 2,056 leaf switches; a three-tier fat tree of 64-port switches "
                         "takes at most 2,048 leaves"));
    }

    void forcedTiersThatDoNotFit()
    {
        FatTreeSpec spec;
        spec.nodes = 512;
        spec.rails = 8;
        spec.radix = 64;
        spec.tiers = 2;
        const FatTree t = sizeFatTree(spec);
        QCOMPARE(QString::fromStdString(t.error),
                 QString("4,096 endpoints need 128 leaf switches; a 2-tier fat tree of 64-port switches takes at "
                         "most 64 leaves"));
    }
};

QTEST_APPLESS_MAIN(TestFabric)
#include "tst_fabric.moc"
