// What-if upgrades (core/scale/upgrades): each is the design with only the
// parts, cables and facility fields it names changed, valid, and analysed
// as `metrics` would analyse that design; the hardware it buys shows in the
// analysis (faster GPUs, twice the NIC bandwidth per GPU, 72-GPU NVLink
// domains, a lower PUE); an upgrade that cannot apply says why.
#include <QtTest>

#include <cmath>

#include "core/format/design_validator.h"
#include "core/model/analysis.h"
#include "core/scale/upgrades.h"
#include "core/search/layout_search.h"
#include "tests/core/presets.h"

using namespace studio;
using studio::test::loadPreset;

namespace {

const UpgradeOutcome& outcome(const UpgradesResult& r, UpgradeKind kind)
{
    for (const auto& o : r.upgrades)
        if (o.proposal.kind == kind)
            return o;
    qFatal("no upgrade %s", upgradeKey(kind));
}

// Components whose fields differ between two designs, by id.
QStringList changedComponents(const Design& a, const Design& b)
{
    QStringList out;
    for (std::size_t i = 0; i < a.components.size(); ++i)
        if (!(a.components[i] == b.components[i]))
            out << QString::fromStdString(a.components[i].id);
    return out;
}

}  // namespace

class TestUpgrades : public QObject {
    Q_OBJECT
    Design h100_;
    UpgradesResult result_;

private slots:
    void initTestCase()
    {
        h100_ = loadPreset("dgx-h100-superpod-4su.cluster.json");
        result_ = analyzeUpgrades(h100_, Catalog::builtin());
        QVERIFY(result_.ok());
        QCOMPARE(int(result_.upgrades.size()), 4);
    }

    void todayIsMetrics()
    {
        const Analysis a = analyzeDesign(h100_, Catalog::builtin());
        QCOMPARE(result_.today.tokensPerS, a.step.tokensPerS);
        QCOMPARE(result_.today.wallDays, a.reliability.wallDays);
        QCOMPARE(result_.gpus, a.inventory.gpus);
        SearchOptions o;
        o.top = 1;
        QCOMPARE(*result_.todayBest, searchLayouts(h100_, Catalog::builtin(), o).top.front().layout);
    }

    void everyUpgradeIsAValidDesignAnalysedAsMetrics()
    {
        for (const auto& o : result_.upgrades) {
            QVERIFY2(o.proposal.ok(), o.proposal.unavailable.c_str());
            QVERIFY(!hasErrors(validateDesign(o.proposal.design, Catalog::builtin())));
            // Edits only: the same components and links, in the same order.
            QCOMPARE(o.proposal.design.components.size(), h100_.components.size());
            QCOMPARE(o.proposal.design.links.size(), h100_.links.size());
            for (std::size_t i = 0; i < h100_.components.size(); ++i)
                QCOMPARE(o.proposal.design.components[i].id, h100_.components[i].id);
            QVERIFY(!o.proposal.changes.empty());
            const Analysis a = analyzeDesign(o.proposal.design, Catalog::builtin());
            QVERIFY(o.after);
            QCOMPARE(o.after->tokensPerS, a.step.tokensPerS);
            QCOMPARE(o.after->runCostUsd, scaleFiguresOf(a).runCostUsd);
            QCOMPARE(o.gpus, a.inventory.gpus);
        }
    }

    void nextGpuGenerationSwapsTheGpusAndTheirPlatform()
    {
        const UpgradeOutcome& o = outcome(result_, UpgradeKind::NextGpu);
        const Design& d = o.proposal.design;
        QCOMPARE(d.component("dgx.gpu")->part, std::string("gpu.b200"));
        QCOMPARE(d.component("dgx")->part, std::string("node.dgx-b200"));
        QCOMPARE(d.component("dgx")->name, std::string("DGX B200"));
        QCOMPARE(changedComponents(h100_, d), QStringList({"dgx", "dgx.gpu"}));
        QVERIFY(d.links == h100_.links);
        QVERIFY(d.workload == h100_.workload && d.facility == h100_.facility);
        // B200's 2,250 against H100's 989.4 dense BF16 TFLOP/s.
        QVERIFY(o.after->tokensPerS > 1.5 * result_.today.tokensPerS);
        QVERIFY(o.after->wallDays < result_.today.wallDays);
        QVERIFY(o.after->facilityKw > result_.today.facilityKw);
    }

    void twiceTheNicBandwidthChangesNicsCablesAndSwitches()
    {
        const UpgradeOutcome& o = outcome(result_, UpgradeKind::DoubleNic);
        const Design& d = o.proposal.design;
        QCOMPARE(d.component("dgx.nic")->part, std::string("nic.connectx-8"));
        QCOMPARE(d.component("dgx.snic")->part, std::string("nic.bluefield-3"));  // storage path kept
        QCOMPARE(d.component("fabric")->props.at("switch"), Json("switch.q3400"));
        QCOMPARE(d.component("fabric")->props.at("cable"), Json("link.ib-xdr-optical"));
        QCOMPARE(d.component("sfabric")->props, h100_.component("sfabric")->props);
        for (const Link& l : d.links)
            QCOMPARE(l.part, std::string(l.id == "dgx-fabric" ? "link.ib-xdr-optical" : "link.ib-ndr-optical"));
        const Analysis before = analyzeDesign(h100_, Catalog::builtin());
        const Analysis after = analyzeDesign(d, Catalog::builtin());
        QCOMPARE(after.hardware.scaleOut.nicGbPerSPerGpu.value, 2 * before.hardware.scaleOut.nicGbPerSPerGpu.value);
        QVERIFY(o.after->tokensPerS > result_.today.tokensPerS);
    }

    void nvl72DomainsRebuildTheRacks()
    {
        const UpgradeOutcome& o = outcome(result_, UpgradeKind::Nvl72);
        const Design& d = o.proposal.design;
        QCOMPARE(d.component("dgx")->part, std::string("node.gb200-nvl72"));
        QCOMPARE(d.component("dgx")->count, 1);
        QCOMPARE(d.component("dgx.gpu")->count, 72);
        QCOMPARE(d.component("dgx.nic")->count, 72);
        QCOMPARE(d.component("rack")->part, std::string("rack.nvl72"));
        // 1,024 GPUs need 15 NVL72 racks; four scalable units of 4 racks.
        QCOMPARE(d.component("rack")->count, 4);
        QCOMPARE(o.gpus, 1152);
        QCOMPARE(d.facility.cooling, std::optional<std::string>("liquid"));
        QVERIFY(!d.workload.parallelism.dp);
        const Analysis a = analyzeDesign(d, Catalog::builtin());
        QCOMPARE(a.hardware.scaleupDomainGpus, 72);
        QVERIFY(o.proposal.changes.back().find("air -> liquid") != std::string::npos);
    }

    void liquidCoolingLowersThePueNotTheSpeed()
    {
        const UpgradeOutcome& o = outcome(result_, UpgradeKind::LiquidCooling);
        const Design& d = o.proposal.design;
        QCOMPARE(*d.facility.pue, kLiquidCooledPue);
        QCOMPARE(d.component("rack")->part, std::string("rack.liquid-48u"));
        QCOMPARE(o.after->tokensPerS, result_.today.tokensPerS);
        // Facility power is IT x PUE: 1.3 today.
        QVERIFY(std::abs(o.after->facilityKw / result_.today.facilityKw - kLiquidCooledPue / 1.3) < 1e-9);
        QVERIFY(o.after->runCostUsd < result_.today.runCostUsd);
        QVERIFY(!o.best);  // the same best layout as today
    }

    void whatCannotApplySaysWhy()
    {
        const UpgradesResult r = analyzeUpgrades(loadPreset("gb200-nvl72-8rack.cluster.json"), Catalog::builtin());
        QVERIFY(r.ok());
        QVERIFY(outcome(r, UpgradeKind::NextGpu).proposal.unavailable.find("no next generation for 'GB200") !=
                std::string::npos);
        QVERIFY(outcome(r, UpgradeKind::DoubleNic).proposal.unavailable.find("no infiniband NIC of 1,600 Gb/s") !=
                std::string::npos);
        QVERIFY(outcome(r, UpgradeKind::Nvl72).proposal.unavailable.find("already form NVLink domains of 72") !=
                std::string::npos);
        QVERIFY(!outcome(r, UpgradeKind::NextGpu).after);
        QVERIFY(outcome(r, UpgradeKind::LiquidCooling).proposal.ok());  // PUE 1.1 -> 1.06
    }

    void cancelling()
    {
        std::atomic<bool> cancel{true};
        QVERIFY(analyzeUpgrades(h100_, Catalog::builtin(), &cancel).cancelled);
    }
};

QTEST_APPLESS_MAIN(TestUpgrades)
#include "tst_upgrades.moc"
