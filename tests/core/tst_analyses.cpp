// The analyses on designs: breakdowns that add up, pipeline bubbles,
// parallelism placed on the right tier, memory by Korthikanti, failure
// cadence from the Llama 3 data, power with PUE, and a roofline no
// operation climbs over.
#include <QtTest>

#include "core/analysis/fleet_formulas.h"
#include "core/format/design_reader.h"
#include "core/metrics/metrics.h"
#include "core/metrics/metrics_text.h"
#include "core/model/analysis.h"
#include "tests/test_support.h"

using namespace studio;

namespace {

struct Loaded {
    Design design;
    std::shared_ptr<const Catalog> catalog;
    Analysis analyse() const { return analyzeDesign(design, *catalog); }
};

Loaded preset(const char* name)
{
    DesignLoad l = loadDesignFile(test::sourcePath(QString("presets/") + name).toStdString(), Catalog::builtin());
    if (!l.ok())
        qFatal("%s does not load", name);
    return {*l.design, l.catalog};
}

bool hasWarning(const Analysis& a, const std::string& code)
{
    return std::any_of(a.warnings.begin(), a.warnings.end(), [&](const Problem& p) { return p.code == code; });
}

const char* kPresets[] = {"budget-8node-100gbe.cluster.json",   "dgx-a100-superpod.cluster.json",
                          "dgx-b200-superpod-8su.cluster.json", "dgx-h100-superpod-4su.cluster.json",
                          "gb200-nvl72-8rack.cluster.json",     "h100-16k-roce-llama3.cluster.json",
                          "mi300x-roce-128node.cluster.json"};

}  // namespace

class TestAnalyses : public QObject {
    Q_OBJECT
private slots:
    void breakdownAndWaterfallAddUp_data()
    {
        QTest::addColumn<QString>("file");
        for (const char* p : kPresets)
            QTest::newRow(p) << p;
    }
    void breakdownAndWaterfallAddUp()
    {
        QFETCH(QString, file);
        const Analysis a = preset(file.toUtf8().constData()).analyse();
        QVERIFY(a.step.valid);
        double sum = 0;
        for (const auto& p : a.step.breakdown) {
            QVERIFY2(p.seconds >= 0, std::string(p.name()).c_str());
            sum += p.seconds;
        }
        QCOMPARE(sum, a.step.stepS);
        // Peak less every loss is MFU; MFU times goodput is what is delivered.
        double level = 1;
        bool passedMfu = false;
        for (const auto& b : a.utilization.waterfall) {
            // Where each bar is drawn: levels stand on 0, losses hang from
            // what the bars above them leave.
            if (b.level) {
                QCOMPARE(b.from, 0.0);
                QCOMPARE(b.to, b.fraction);
            } else {
                QVERIFY2(std::fabs(b.to - level) < 1e-9, std::string(b.name).c_str());
                QVERIFY2(std::fabs(b.to - b.from - b.fraction) < 1e-12, std::string(b.name).c_str());
            }
            if (b.key == "peak")
                continue;
            if (b.level) {
                QVERIFY2(std::fabs(level - b.fraction) < 1e-9, std::string(b.name).c_str());
                passedMfu = passedMfu || b.key == "mfu";
            } else {
                QVERIFY2(b.fraction >= 0, std::string(b.name).c_str());
                level -= b.fraction;
            }
        }
        QVERIFY(passedMfu);
        QCOMPARE(a.utilization.delivered, a.step.mfu * a.reliability.goodput);
        // MFU by its definition.
        QCOMPARE(a.step.mfu,
                 a.step.modelFlopsPerStep /
                     (a.step.stepS * double(a.workload.gpusUsed) * a.hardware.gpu.trainingPeakTflops.value * 1e12));
        QVERIFY(a.step.hfu >= a.step.mfu);
    }

    void noOperationClimbsOverTheRoof()
    {
        for (const char* p : kPresets) {
            const Analysis a = preset(p).analyse();
            for (const auto& pt : a.roofline.points)
                QVERIFY2(pt.achievedTflops <= pt.attainableTflops * (1 + 1e-9),
                         (std::string(p) + ": " + std::string(pt.name)).c_str());
        }
    }

    void pipelineBubble1F1BAndInterleaved()
    {
        Loaded l = preset("dgx-h100-superpod-4su.cluster.json");
        auto& par = l.design.workload.parallelism;
        par.pp = 4;
        par.interleave = 1;
        l.design.workload.training.global_batch = 512;  // dp 32 -> 16 micro-batches
        Analysis a = l.analyse();
        QCOMPARE(a.step.microBatches, 16.0);
        // (p - 1) / (m + p - 1) of the pipeline time.
        QCOMPARE(a.step.bubbleFraction, 3.0 / 19.0);
        par.interleave = 2;
        a = l.analyse();
        QCOMPARE(a.step.bubbleFraction, 1.5 / 17.5);
    }

    void tensorParallelAcrossNodesIsFlaggedAndSlow()
    {
        Loaded l = preset("dgx-h100-superpod-4su.cluster.json");
        const Analysis before = l.analyse();
        l.design.workload.parallelism.tp = 16;
        l.design.workload.parallelism.pp = 2;
        const Analysis after = l.analyse();
        QVERIFY(hasWarning(after, "tp_on_slow_tier"));
        QVERIFY(!hasWarning(before, "tp_on_slow_tier"));
        const auto tp = std::find_if(after.hierarchy.axes.begin(), after.hierarchy.axes.end(),
                                     [](const AxisPlacement& x) { return x.axis == "tp"; });
        QCOMPARE(tp->tier, std::string("leaf"));
        auto tpSeconds = [](const Analysis& a) {
            for (const auto& p : a.step.breakdown)
                if (p.id == StepPartId::TpComm)
                    return p.seconds;
            return 0.0;
        };
        QVERIFY(tpSeconds(after) > 3 * tpSeconds(before));
    }

    void layoutMismatchIsReportedWithNumbers()
    {
        Loaded l = preset("dgx-h100-superpod-4su.cluster.json");
        l.design.workload.parallelism.dp = 16;  // 8 x 4 x 16 = 512 of 1,024
        const Analysis a = l.analyse();
        const auto it = std::find_if(a.warnings.begin(), a.warnings.end(),
                                     [](const Problem& p) { return p.code == "layout_mismatch"; });
        QVERIFY(it != a.warnings.end());
        QCOMPARE(it->message,
                 std::string("tp x pp x cp x dp = 8 x 4 x 1 x 16 = 512 GPUs, but the design has 1,024; "
                             "the analyses use the layout's 512"));
    }

    void activationsFollowKorthikanti()
    {
        // GPT-3 style: MHA, GeLU with 4h, dropout, unfused attention:
        // sbh(34 + 5as/h) without parallelism.
        Workload w;
        w.model = {"GPT", 96, 12288, 96};
        w.model.vocab = 51200;
        w.model.seq_len = 2048;
        w.model.dropout = 0.1;
        w.training.global_batch = 64;
        w.training.tokens = 1e9;
        w.training.attention_kernel = "unfused";
        std::vector<Problem> warnings;
        WorkloadShape s = shapeWorkload(w, 8, warnings);
        const ActivationTerms t = activationTerms(s);
        const double h = 12288, a = 96, sq = 2048;
        QCOMPARE(t.unsplitPerToken + t.splitPerToken, 34 * h);
        QCOMPARE(t.attentionCorePerToken, 5 * a * sq);
        QCOMPARE(t.unsplitPerToken, 10 * h);  // the sbh(10 + 24/t) split of TP without SP
        // With tensor + sequence parallelism and selective recompute: 34 sbh / t.
        w.parallelism.tp = 8;
        w.parallelism.sequence_parallel = true;
        w.parallelism.recompute = "selective";
        s = shapeWorkload(w, 8, warnings);
        HardwareProfile hw;
        hw.gpu.hbmGb = {80, "test"};
        const MemoryUse m = modelMemory(hw, s, warnings);
        QCOMPARE(m.activationGbPerLayer, 34 * sq * h / 8 / 1e9);
        // Full recompute keeps only the layer input: 2 sbh / t.
        w.parallelism.recompute = "full";
        s = shapeWorkload(w, 8, warnings);
        QCOMPARE(modelMemory(hw, s, warnings).activationGbPerLayer, 2 * sq * h / 8 / 1e9);
    }

    void zeroStagesShardModelState()
    {
        Loaded l = preset("dgx-h100-superpod-4su.cluster.json");
        double previous = 1e18;
        for (int zero = 0; zero <= 3; ++zero) {
            l.design.workload.parallelism.zero = zero;
            const MemoryUse m = l.analyse().memory;
            const double state = m.weightsGb + m.gradientsGb + m.optimizerGb;
            QVERIFY2(state < previous, qPrintable(QString::number(zero)));
            previous = state;
        }
    }

    void llama3LayoutFitsOnlyWithShardedGradients()
    {
        Loaded l = preset("h100-16k-roce-llama3.cluster.json");
        QVERIFY(l.analyse().memory.fits);
        l.design.workload.parallelism.zero = 1;
        const Analysis a = l.analyse();
        QVERIFY(!a.memory.fits);
        QVERIFY(hasWarning(a, "memory_exceeds_hbm"));
    }

    void hierarchyTiersAndAxes()
    {
        const Analysis a = preset("dgx-h100-superpod-4su.cluster.json").analyse();
        std::vector<std::string> keys;
        for (const auto& t : a.hierarchy.tiers)
            keys.push_back(t.key);
        QCOMPARE(keys, (std::vector<std::string>{"hbm", "nvlink", "leaf", "spine", "storage"}));
        QCOMPARE(a.hierarchy.tier("nvlink")->scopeGpus, std::int64_t(8));
        QCOMPARE(a.hierarchy.tier("leaf")->scopeGpus, std::int64_t(256));  // one SU's rail
        QCOMPARE(a.hierarchy.tier("leaf")->name, std::string("Scale-out inside a leaf"));
        QCOMPARE(a.hierarchy.tier("hbm")->gbPerSPerGpu, 3350.0);
        QCOMPARE(a.hierarchy.tier("nvlink")->axes, std::vector<std::string>{"tp"});
        QCOMPARE(a.hierarchy.tier("leaf")->axes, std::vector<std::string>{"dp"});  // tp 8 x dp 32 = one SU
        // Storage: 12 appliances x 90 GB/s read over 1,024 GPUs.
        QCOMPARE(a.hierarchy.tier("storage")->gbPerSPerGpu, 12 * 90.0 / 1024);
    }

    // Eight nodes' 64 NICs fit one 64-port switch: the scale-out tier is
    // that switch, with no leaf or spine to name, and reaches every GPU.
    void aFabricOfOneSwitchIsNamedSo()
    {
        const Analysis a = preset("budget-8node-100gbe.cluster.json").analyse();
        QCOMPARE(a.inventory.fabrics.front().tree.tiers, 1);
        QCOMPARE(a.hierarchy.tier("leaf")->name, std::string("Scale-out on one switch"));
        QCOMPARE(a.hierarchy.tier("leaf")->scopeGpus, std::int64_t(64));
        QVERIFY(!a.hierarchy.tier("spine"));
    }

    void failureRatesReproduceLlama3()
    {
        // 16,384 GPUs, 2,048 nodes, 16,384 NICs for 54 days: 419 interruptions.
        Inventory inv;
        inv.gpus = 16384;
        inv.nodes = 2048;
        inv.nics = 16384;
        const Reliability r = modelReliability(inv, Operations{}, 60, 30);
        QCOMPARE(std::round(r.failuresPerDay * 54), 419.0);
        QCOMPARE(std::round(r.clusterMtbfH * 10) / 10, 3.1);  // "about one every 3.1 h"
        QVERIFY(r.pFailure24h > 0.999);
        // The GPU class alone: 196 of the 419.
        QCOMPARE(std::round(r.classes[0].perDay * 54), 196.0);
    }

    void checkpointIntervalYoungAndDaly()
    {
        const double delta = 1, m = 60;  // minutes
        QCOMPARE(fleet::youngInterval(delta, m), std::sqrt(120.0));
        QCOMPARE(fleet::dalyInterval(delta, m), std::sqrt(120.0) * (1 + std::sqrt(1 / 120.0) / 3 + 1 / 1080.0) - 1);
        QCOMPARE(fleet::dalyInterval(200, 60), 60.0);  // delta >= 2M: checkpoint every MTBF
        // The design's goodput curve peaks near the Daly interval.
        const Analysis a = preset("h100-16k-roce-llama3.cluster.json").analyse();
        const auto& curve = a.reliability.goodputCurve;
        QVERIFY(curve.size() > 10);
        const auto best = std::max_element(curve.begin(), curve.end(),
                                           [](const auto& x, const auto& y) { return x.second < y.second; });
        QVERIFY(best->first > a.reliability.dalyIntervalMin / 2 && best->first < a.reliability.dalyIntervalMin * 2);
        QCOMPARE(a.reliability.intervalMin, a.reliability.dalyIntervalMin);
        QVERIFY(a.reliability.goodput > 0.8 && a.reliability.goodput < 1);
    }

    void withoutStorageAFailureRestartsTheRun()
    {
        Loaded l = preset("dgx-h100-superpod-4su.cluster.json");
        const Analysis with = l.analyse();
        l.design.components.erase(std::remove_if(l.design.components.begin(), l.design.components.end(),
                                                 [](const Component& c) { return c.part == "storage.pfs-appliance"; }),
                                  l.design.components.end());
        l.design.links.erase(std::remove_if(l.design.links.begin(), l.design.links.end(),
                                            [](const Link& k) { return k.from == "storage"; }),
                             l.design.links.end());
        const Analysis without = l.analyse();
        QVERIFY(hasWarning(without, "no_storage"));
        QVERIFY(!without.reliability.canCheckpoint);
        // Nearly 20 compute days against a 49-hour MTBF: without checkpoints
        // the run practically never finishes.
        QVERIFY(without.reliability.goodput < 0.01);
        QVERIFY(with.reliability.goodput > 0.9);
        QVERIFY(std::isfinite(without.reliability.wallDays));
    }

    void powerIsItTimesPueAndRacksAreSummed()
    {
        Loaded l = preset("dgx-h100-superpod-4su.cluster.json");
        const Analysis a = l.analyse();
        QCOMPARE(a.power.facilityKw, a.power.itKw * 1.3);
        QCOMPARE(a.power.gpuKw, 1024 * 0.7);
        // Two DGX H100 per rack: 2 x (10.2 kW less the catalog's GPUs, NICs
        // and DPUs, plus the design's 8 GPUs, 8 ConnectX-7 and 2 BlueField-3).
        const double dgx = 10200 - 8 * 700 - 8 * 25 - 2 * 75 + 8 * 700 + 8 * 25 + 2 * 75;
        QCOMPARE(a.power.racks.at(0).kwEach, 2 * dgx / 1000);
        QCOMPARE(a.power.racks.at(0).count, std::int64_t(64));
        QCOMPARE(a.power.racksOverLimit, std::int64_t(0));
        QCOMPARE(a.power.energyMwhPerYear, a.power.facilityKw * 8760 / 1000);
        l.design.facility.pue = 1.06;
        QVERIFY(l.analyse().power.facilityKw < a.power.facilityKw);
        // A GPU's TDP override flows into the rack.
        l.design.component("dgx.gpu")->props["tdp_w"] = 500;
        QCOMPARE(l.analyse().power.racks.at(0).kwEach, 2 * (dgx - 8 * 200) / 1000);
    }

    void checkpointSizeAndWritePath()
    {
        const Analysis a = preset("dgx-h100-superpod-4su.cluster.json").analyse();
        QCOMPARE(a.data.checkpointGb, 14 * a.workload.params / 1e9);
        // 12 appliances x 65 GB/s write against 128 nodes x 2 x 400G storage NICs.
        QCOMPARE(a.data.writePathGbPerS, std::min(12 * 65.0, 128 * 2 * 50.0));
        QCOMPARE(a.data.writeAtNicsS, a.data.checkpointGb / a.data.writePathGbPerS);
        QCOMPARE(a.reliability.checkpointWriteS, a.data.writeAtNicsS);
    }

    void mixtureOfExpertsUsesExpertParallelism()
    {
        const Analysis a = preset("dgx-b200-superpod-8su.cluster.json").analyse();
        QVERIFY(a.workload.moe());
        const auto ep = std::find_if(a.hierarchy.axes.begin(), a.hierarchy.axes.end(),
                                     [](const AxisPlacement& x) { return x.axis == "ep"; });
        QVERIFY(ep != a.hierarchy.axes.end());
        QCOMPARE(ep->tier, std::string("nvlink"));
        double epSeconds = 0;
        for (const auto& p : a.step.breakdown)
            if (p.id == StepPartId::EpComm)
                epSeconds = p.seconds;
        QVERIFY(epSeconds > 0);
        // Active parameters per token: 2 of 8 experts.
        QVERIFY(a.workload.activeParamsPerToken < a.workload.params / 2);
    }

    void placedSwitchesAndUnwiredNodesAreMarkedOnTheirItems()
    {
        Loaded l = preset("budget-8node-100gbe.cluster.json");
        // A placed 32-port switch with a 64-cable bundle into it.
        Component sw{"tor", "switch.sn2700", "ToR", "room", 1};
        l.design.components.push_back(sw);
        l.design.links.push_back({"bundle", "storage", "tor", "link.eth-100g-dac", 64});
        // A second server type with no link to the fabric.
        Component lonely{"lonely", "node.hgx-a100", "Lonely server", "rack", 1};
        l.design.components.push_back(lonely);
        l.design.components.push_back({"lonely.gpu", "gpu.a100-sxm-80gb", "GPU", "lonely", 8});
        const Analysis a = l.analyse();
        const auto find = [&](const std::string& code) {
            return std::find_if(a.warnings.begin(), a.warnings.end(), [&](const Problem& p) { return p.code == code; });
        };
        auto sw1 = find("switch_ports_exhausted");
        QVERIFY(sw1 != a.warnings.end());
        QCOMPARE(sw1->message, std::string("switch 'tor' has 32 ports but 64 cables plugged in"));
        QCOMPARE(sw1->pointer, "/components/" + std::to_string(l.design.components.size() - 3));
        auto un = find("nodes_unconnected");
        QVERIFY(un != a.warnings.end());
        QCOMPARE(un->pointer, "/components/" + std::to_string(l.design.components.size() - 2));
    }

    void zeroScaleUpBandwidthOnAUsedPathIsAnError()
    {
        Loaded l = preset("dgx-h100-superpod-4su.cluster.json");
        const std::size_t gpu = 4;
        QCOMPARE(l.design.components[gpu].part, std::string("gpu.h100-sxm"));
        l.design.components[gpu].props["scaleup_gb_per_s"] = 0;
        // tp 8 inside the node: its collectives would cost nothing (MFU 39%
        // -> 59% before this was an error).
        Analysis a = l.analyse();
        QVERIFY(!a.runnable());
        QCOMPARE(a.notRunnable.size(), std::size_t(1));
        QCOMPARE(a.notRunnable[0].code, std::string("zero_bandwidth"));
        QCOMPARE(a.notRunnable[0].pointer, std::string("/components/4/props/scaleup_gb_per_s"));
        QVERIFY2(a.notRunnable[0].message.rfind("tp = 8 moves data between GPUs of one 8-GPU scale-up domain", 0) == 0,
                 a.notRunnable[0].message.c_str());
        // Data parallelism reduces inside the node first: the same error.
        l.design.workload.parallelism.tp = 1;
        l.design.workload.parallelism.pp = 1;
        l.design.workload.parallelism.zero = 3;
        a = l.analyse();
        QVERIFY(hasWarning(a, "zero_bandwidth"));
        // One GPU per domain: no axis needs the scale-up links.
        l.design.components[gpu].props["scaleup_domain_gpus"] = 1;
        a = l.analyse();
        QVERIFY(!hasWarning(a, "zero_bandwidth"));
    }

    void aPipelineDeeperThanTheModelCannotRun()
    {
        Loaded l = preset("dgx-h100-superpod-4su.cluster.json");  // 80 layers
        auto& p = l.design.workload.parallelism;
        p.pp = 16;
        p.interleave = 5;  // 80 chunks: one layer each
        QVERIFY(l.analyse().runnable());
        p.dp = 2;
        p.tp = 8;
        p.pp = 41;  // 82 chunks: the embedding and the loss take one each
        p.interleave = 2;
        Analysis a = l.analyse();
        QVERIFY(!hasWarning(a, "pipeline_deeper_than_model"));
        p.interleave = 3;  // 123 chunks for 80 layers
        a = l.analyse();
        QVERIFY(!a.runnable());
        QCOMPARE(a.notRunnable.front().code, std::string("pipeline_deeper_than_model"));
        QCOMPARE(a.notRunnable.front().pointer, std::string("/workload/parallelism/pp"));
        QVERIFY(a.notRunnable.front().message.rfind("pp x interleave = 41 x 3 = 123 pipeline chunks, but the model has "
                                                    "only 80 layers",
                                                    0) == 0);
    }

    void aLayoutThatCannotRunShowsNoFigures_data()
    {
        QTest::addColumn<QString>("pointer");
        QTest::addColumn<int>("value");
        QTest::addColumn<QString>("reason");
        QTest::newRow("tp does not divide the heads") << "tp" << 3 << "attention heads do not split evenly over tp = 3";
        QTest::newRow("memory over HBM") << "micro_batch" << 64 << "needs ";
    }

    void aLayoutThatCannotRunShowsNoFigures()
    {
        QFETCH(QString, pointer);
        QFETCH(int, value);
        QFETCH(QString, reason);
        Loaded l = preset("dgx-h100-superpod-4su.cluster.json");
        if (pointer == "tp")
            l.design.workload.parallelism.tp = value;
        else
            l.design.workload.training.micro_batch = value;
        const Analysis a = l.analyse();
        QVERIFY(!a.runnable());
        const Json m = metricsJson(l.design, a);
        for (const char* key : {"mfu", "step_time_s", "tokens_per_s", "days_to_train", "tflops_per_gpu_model"}) {
            QVERIFY2(m["training"][key].is_null(), key);
            const std::string why = m["unavailable"]["training." + std::string(key)].get<std::string>();
            QVERIFY2(why.rfind("not runnable: ", 0) == 0, why.c_str());
        }
        QCOMPARE(m["training"]["runnable"].get<bool>(), false);
        QVERIFY(m["training"]["not_runnable"].get<std::string>().find(reason.toStdString()) != std::string::npos);
        QVERIFY(m["reliability"]["wall_days"].is_null());
        QVERIFY(m["power"]["training_run_mwh"].is_null());
        QVERIFY(m["training"]["breakdown"].empty());
        // Text says it in words where the number would be.
        const std::string text = metricsText(m);
        QVERIFY(text.find("  mfu                            not runnable\n") != std::string::npos);
        QVERIFY(text.find("not_runnable") != std::string::npos);
        // The runnable preset has every figure and no reasons.
        const Loaded plain = preset("dgx-h100-superpod-4su.cluster.json");
        const Json ok = metricsJson(plain.design, plain.analyse());
        QVERIFY(ok["training"]["mfu"].is_number());
        QVERIFY(ok["unavailable"].empty());
        QVERIFY(!ok["training"].contains("not_runnable"));
    }

    void aRunThatNeverCompletesSaysSo()
    {
        // Each GPU failing every 2 hours: the 1,024-GPU cluster fails every
        // few seconds, faster than any checkpoint is written.
        Loaded l = preset("dgx-h100-superpod-4su.cluster.json");
        l.design.operations.failure_mttf_h.gpu = 2;
        const Analysis a = l.analyse();
        QVERIFY(a.runnable());
        QCOMPARE(a.reliability.goodput, 0.0);
        QVERIFY(!a.completes());
        const Json m = metricsJson(l.design, a);
        QVERIFY(m["training"]["mfu"].is_number());  // the step is fine
        for (const char* key :
             {"reliability.wall_days", "reliability.expected_interruptions", "power.training_run_mwh"}) {
            const std::string section = std::string(key).substr(0, std::string(key).find('.'));
            QVERIFY2(m[section][std::string(key).substr(section.size() + 1)].is_null(), key);
            QVERIFY2(m["unavailable"][key].get<std::string>().rfind("never completes: the cluster fails every ", 0) ==
                         0,
                     key);
        }
        QCOMPARE(m["reliability"]["completes"].get<bool>(), false);
        const std::string text = metricsText(m);
        QVERIFY(text.find("wall_days                never completes\n") != std::string::npos);
    }

    void designWithoutGpusAnalysesCleanly()
    {
        Loaded l = preset("budget-8node-100gbe.cluster.json");
        l.design.components.erase(std::remove_if(l.design.components.begin(), l.design.components.end(),
                                                 [](const Component& c) { return c.part == "gpu.a100-sxm-80gb"; }),
                                  l.design.components.end());
        const Analysis a = l.analyse();
        QVERIFY(hasWarning(a, "no_gpus"));
        QVERIFY(!a.step.valid);
        QVERIFY(!a.runnable());
        QCOMPARE(stepUnavailable(a),
                 std::string("not runnable: the design has no GPUs: add accelerators inside "
                             "nodes to see the analyses"));
        QCOMPARE(a.step.stepS, 0.0);
        QCOMPARE(a.reliability.expectedInterruptions, 0.0);
    }
};

QTEST_APPLESS_MAIN(TestAnalyses)
#include "tst_analyses.moc"
