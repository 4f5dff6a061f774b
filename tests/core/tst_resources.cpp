// The resource models on hand-built inputs, every expected number worked
// out from docs/model.md: memory per GPU (section 7), storage and
// checkpoints (section 8), power and PUE (section 9) and failure cadence
// (section 10).
#include <QtTest>

#include <cmath>

#include "core/analysis/data_pipeline.h"
#include "core/analysis/inventory.h"
#include "core/analysis/memory.h"
#include "core/analysis/power.h"
#include "core/analysis/reliability.h"
#include "core/analysis/workload_shape.h"
#include "tests/core/hand_built.h"

using namespace studio;
using test::cable;
using test::kExact;
using test::onlyProblem;
using test::part;
using test::shapeOf;
using test::toyWorkload;

namespace {

// Section 7's worked example: Llama 3 70B on the DGX H100 SuperPOD preset's
// 1,024 GPUs with t 8, p 4, v 5, dp 32, ZeRO 1, selective, flash.
Workload llama70b()
{
    Workload w;
    w.model.name = "Llama 3 70B";
    w.model.layers = 80;
    w.model.hidden = 8192;
    w.model.heads = 64;
    w.model.kv_heads = 8;
    w.model.ffn_hidden = 28672;
    w.model.ffn_type = "swiglu";
    w.model.vocab = 128256;
    w.model.seq_len = 8192;
    w.training.global_batch = 512;
    w.training.micro_batch = 1;
    w.training.tokens = 1.4e12;
    w.parallelism.tp = 8;
    w.parallelism.pp = 4;
    w.parallelism.interleave = 5;
    w.parallelism.zero = 1;
    w.parallelism.sequence_parallel = true;
    w.parallelism.recompute = "selective";
    return w;
}

HardwareProfile gpuWithHbm(double gib)
{
    HardwareProfile hw;
    hw.gpu.name = "Test GPU";
    hw.gpu.hbmGb = {gib, "test"};
    return hw;
}

MemoryUse memory(const Workload& w, std::int64_t gpus, double hbmGib = 80)
{
    std::vector<Problem> warnings;
    return modelMemory(gpuWithHbm(hbmGib), shapeOf(w, gpus), warnings);
}

constexpr double h = 8192, s = 8192;

// Failure rates chosen to sum to 0.032 per hour (section 10): 100 GPUs, 10
// nodes, 20 NICs against MTTFs of 10,000 (gpu), 20,000 (hbm), 1,000 (host),
// 10,000 (nic), 50,000 (network), 5,000 (psu) and 100,000 h (software):
// 0.01 + 0.005 + 0.01 + 0.002 + 0.002 + 0.002 + 0.001 = 0.032/h, so the
// cluster MTBF M = 31.25 h = 1,875 min.
Inventory fleet()
{
    Inventory inv;
    inv.gpus = 100;
    inv.nodes = 10;
    inv.nics = 20;
    return inv;
}

Operations roundRates()
{
    Operations ops;
    auto& m = ops.failure_mttf_h;
    m.gpu = 10000;
    m.hbm = 20000;
    m.host = 1000;
    m.nic = 10000;
    m.network = 50000;
    m.psu = 5000;
    m.software = 100000;
    return ops;
}

constexpr double kMtbfMin = 1875;

// Goodput at interval tau (section 10), minutes: stall/(tau + stall) +
// ((tau + delta)/2 + R)/M + maintenance lost.
double goodputAt(double tau, double stall, double delta, double restart = 10, double maintenance = 0.05)
{
    return 1 - stall / (tau + stall) - ((tau + delta) / 2 + restart) / kMtbfMin - maintenance;
}

HardwareProfile storageProfile()
{
    HardwareProfile hw;
    StorageProfile& st = hw.storage;
    st.systems = 2;
    st.readGbPerS = {100, "test"};
    st.writeGbPerS = {40, "test"};
    st.metadataKiops = {0.5, "test"};
    st.connected = true;
    st.nodePathGbPerS = 60;
    st.localReadGbPerSPerNode = 7;
    return hw;
}

WorkloadShape sevenBillion()
{
    WorkloadShape w;
    w.params = 7e9;
    return w;
}

// 3 racks x 2 DGX H100, each with 8 H100, 8 ConnectX-7, 2 BlueField-3 and a
// local NVMe drive; 2 placed QM9700 switches; one PFS appliance; the NICs
// cabled to the switches with NDR optics.
Design powerDesign(std::int64_t nodesPerRack = 2)
{
    Design d = test::emptyDesign();
    d.components = {part("rack", "rack.air-42u", "", 3, "Compute rack"),
                    part("dgx", "node.dgx-h100", "rack", nodesPerRack),
                    part("gpu", "gpu.h100-sxm", "dgx", 8),
                    part("nic", "nic.connectx-7", "dgx", 8),
                    part("dpu", "nic.bluefield-3", "dgx", 2),
                    part("ssd", "storage.local-nvme", "dgx", 1),
                    part("tor", "switch.qm9700", "", 2),
                    part("storage", "storage.pfs-appliance")};
    d.links = {cable("nic-tor", "nic", "tor", "link.ib-ndr-optical")};
    return d;
}

Power power(const Design& d, std::vector<Problem>& warnings)
{
    const DesignIndex index(d, Catalog::builtin());
    return modelPower(index, takeInventory(index), d.facility, warnings);
}

}  // namespace

class TestResources : public QObject {
    Q_OBJECT
private slots:
    // ---- memory per GPU (docs/model.md section 7) ---------------------------

    void memoryOfTheDocumentedLlama70bExample()
    {
        const WorkloadShape w = shapeOf(llama70b(), 1024);
        // P = 20 x (150,994,944 + 704,643,072) / 8 + 128,256 x 8,192 / 8.
        QCOMPARE(w.paramsPerGpu, 2270429184.0);
        std::vector<Problem> warnings;
        const MemoryUse m = modelMemory(gpuWithHbm(80), w, warnings);
        COMPARE_REL(m.weightsGb, 2 * 2270429184.0 / 1e9, kExact);          // 4.54
        COMPARE_REL(m.gradientsGb, 4 * 2270429184.0 / 1e9, kExact);        // 9.08
        COMPARE_REL(m.optimizerGb, 12 * 2270429184.0 / 32 / 1e9, kExact);  // 0.85 (ZeRO 1 over dp 32)
        // (U + S) / t = (65,536 + 208,896) / 8 = 34,304 B per token x 8,192
        // tokens = 0.281 GB per layer.
        COMPARE_REL(m.activationGbPerLayer, 34304.0 * 8192 / 1e9, kExact);
        // min(m 16, p 4) x (1 + 3 / (4 x 5)) = 4.6 in flight on the first stage.
        COMPARE_REL(m.microBatchesInFlight, 4.6, kExact);
        COMPARE_REL(m.activationsGb, 20 * 0.281018368 * 4.6, kExact);  // 25.85
        QCOMPARE(m.workspaceGb, 2.0);
        COMPARE_REL(m.totalGb, 42.327675904, kExact);         // "total 42.33 GB"
        COMPARE_REL(m.capacityGb, 80 * 1.073741824, kExact);  // "against 85.9 GB"
        QCOMPARE(m.hbmGb, 80.0);
        QVERIFY(m.fits);
        QVERIFY(warnings.empty());
    }

    void zeroStagesShardModelStateOverDpTimesCp_data()
    {
        // The toy's P = 2^31 = 2,147,483,648 over D = dp x cp = 4 x 2 = 8:
        // weights 2P, gradients 4P, optimizer 12P bytes, each divided by D
        // from its ZeRO stage on (3, 2 and 1).
        QTest::addColumn<int>("zero");
        QTest::addColumn<double>("weights");
        QTest::addColumn<double>("gradients");
        QTest::addColumn<double>("optimizer");
        const double w = 4.294967296, g = 8.589934592, o = 25.769803776;
        QTest::newRow("ZeRO 0") << 0 << w << g << o;
        QTest::newRow("ZeRO 1") << 1 << w << g << o / 8;
        QTest::newRow("ZeRO 2") << 2 << w << g / 8 << o / 8;
        QTest::newRow("ZeRO 3") << 3 << w / 8 << g / 8 << o / 8;
    }
    void zeroStagesShardModelStateOverDpTimesCp()
    {
        QFETCH(int, zero);
        QFETCH(double, weights);
        QFETCH(double, gradients);
        QFETCH(double, optimizer);
        Workload w = toyWorkload();
        w.parallelism.dp = 4;
        w.parallelism.cp = 2;
        w.parallelism.zero = zero;
        w.training.global_batch = 16;
        const MemoryUse m = memory(w, 8);
        COMPARE_REL(m.weightsGb, weights, kExact);
        COMPARE_REL(m.gradientsGb, gradients, kExact);
        COMPARE_REL(m.optimizerGb, optimizer, kExact);
    }

    void activationsByRecomputeAndSequenceParallelism_data()
    {
        // The toy on tp 2 (h = s = 8,192, a 64, f = 4h, MHA): per token per
        // layer, U = 8h (+2h with dropout), S = 4h + 4kv + 4f = 24h,
        // A = a s (5 with dropout, else 2) with unfused attention only.
        // (Selective and full with sequence parallelism, 34 sbh/t and
        // 2 sbh/t, are tst_analyses' activationsFollowKorthikanti.)
        QTest::addColumn<QString>("recompute");
        QTest::addColumn<bool>("sp");
        QTest::addColumn<bool>("unfused");
        QTest::addColumn<double>("perToken");
        QTest::newRow("selective, no SP: U + S/t = 8h + 12h") << "selective" << false << false << 20 * h;
        QTest::newRow("full, no SP: 2h") << "full" << false << false << 2 * h;
        QTest::newRow("none, flash, SP: no score tensors, (U + S)/t") << "none" << true << false << 16 * h;
        // Korthikanti: s b h (34 + 5 a s / h) / t, with dropout.
        QTest::newRow("none, unfused, dropout: (34h + 5as)/t") << "none" << true << true << (34 * h + 5 * 64 * s) / 2;
        QTest::newRow("selective, unfused, dropout: 34h/t") << "selective" << true << true << 34 * h / 2;
    }
    void activationsByRecomputeAndSequenceParallelism()
    {
        QFETCH(QString, recompute);
        QFETCH(bool, sp);
        QFETCH(bool, unfused);
        QFETCH(double, perToken);
        Workload w = toyWorkload();
        w.parallelism.tp = 2;
        w.parallelism.sequence_parallel = sp;
        w.parallelism.recompute = recompute.toStdString();
        if (unfused) {
            w.training.attention_kernel = "unfused";
            w.model.dropout = 0.1;
        }
        const MemoryUse m = memory(w, 2);
        // b s / c = 8,192 tokens per micro-batch.
        COMPARE_REL(m.activationGbPerLayer, perToken * 8192 / 1e9, kExact);
    }

    void activationTermsOfGqaSwigluAndExperts()
    {
        // h 4,096, 32 heads, 8 KV heads (kv = 1,024), SwiGLU f 14,336,
        // 8 experts top-2, no dropout, s 4,096.
        Workload w;
        w.model = {"moe", 32, 4096, 32};
        w.model.kv_heads = 8;
        w.model.ffn_hidden = 14336;
        w.model.ffn_type = "swiglu";
        w.model.experts = 8;
        w.model.experts_per_token = 2;
        w.model.vocab = 32000;
        w.model.seq_len = 4096;
        w.training.global_batch = 8;
        ActivationTerms a = activationTerms(shapeOf(w, 8));
        QCOMPARE(a.unsplitPerToken, 8 * 4096.0);                             // norm, QKV and MLP inputs
        QCOMPARE(a.splitPerToken, 4 * 4096.0 + 4 * 1024 + 2 * 6 * 14336.0);  // 192,512
        QCOMPARE(a.attentionCorePerToken, 0.0);                              // flash keeps no scores
        w.training.attention_kernel = "unfused";
        w.model.dropout = 0.1;
        a = activationTerms(shapeOf(w, 8));
        QCOMPARE(a.unsplitPerToken, 10 * 4096.0);  // + two 1-byte masks
        QCOMPARE(a.attentionCorePerToken, 32 * 4096 * 5.0);
    }

    void microBatchesInFlightAndTheLastStage()
    {
        // The toy, tp 1, selective, flash: U + S = 32h = 262,144 B per token
        // x 8,192 tokens = 2.147483648 GB per layer.
        const double perLayer = 32 * h * 8192 / 1e9;
        // p = 1: one micro-batch in flight; the last stage adds its fp32
        // logits 4 x 8,192 x 32,768 / 1e9 = 1.073741824 GB and wins.
        MemoryUse m = memory(toyWorkload(), 1);
        QCOMPARE(m.microBatchesInFlight, 1.0);
        COMPARE_REL(m.activationsGb, 2 * perLayer + 4 * 8192 * 32768 / 1e9, kExact);  // 5.36870912
        // 8 layers on 4 stages, v 2, m = 2 < p: every chunk's forward runs
        // before the first backward, min(m v 4, p v + p - 1 = 11) / v = 2.
        Workload w = toyWorkload();
        w.model.layers = 8;
        w.parallelism.pp = 4;
        w.parallelism.interleave = 2;
        w.training.global_batch = 2;
        m = memory(w, 4);
        COMPARE_REL(m.microBatchesInFlight, 2.0, kExact);
        COMPARE_REL(m.activationsGb, 2 * perLayer * 2.0, kExact);  // first stage: 8.59 GB
        // m = 16: rank 0 holds (p v + p - 1) / v = 11 / 2 = 5.5 stages' worth.
        w.training.global_batch = 16;
        m = memory(w, 4);
        COMPARE_REL(m.microBatchesInFlight, 5.5, kExact);
        COMPARE_REL(m.activationsGb, 2 * perLayer * 5.5, kExact);
        // No interleaving, m = 16: min(16, 4) = 4.
        w.parallelism.interleave = 1;
        w.training.global_batch = 16;
        QCOMPARE(memory(w, 4).microBatchesInFlight, 4.0);
        // 10 chunks (p 5, v 2) for 8 layers, 2 per stage: rank 0's first
        // chunk holds the embedding, so rank 0 holds 1 layer x 14/2 = 7 and
        // rank 1, two chunks fewer in flight, 2 layers x 12/2 = 12.
        w.parallelism.pp = 5;
        w.parallelism.interleave = 2;
        m = memory(w, 5);
        QCOMPARE(m.microBatchesInFlight, 7.0);
        COMPARE_REL(m.activationsGb, perLayer * 12, kExact);
    }

    void memoryThatDoesNotFitIsWarnedAbout()
    {
        // The toy on one GPU: 4.29 + 8.59 + 25.8 + 5.37 + 2 = 46.02 GB.
        std::vector<Problem> warnings;
        MemoryUse m = modelMemory(gpuWithHbm(40), shapeOf(toyWorkload(), 1), warnings);
        COMPARE_REL(m.totalGb, 4.294967296 + 8.589934592 + 25.769803776 + 5.36870912 + 2, kExact);
        COMPARE_REL(m.capacityGb, 42.94967296, kExact);  // 40 GiB
        QVERIFY(!m.fits);
        QCOMPARE(onlyProblem(warnings),
                 QString("memory_exceeds_hbm /workload/parallelism: needs 46 GB per GPU but Test GPU has 42.9 GB (40 "
                         "GiB): weights 4.29, gradients 8.59, "
                         "optimizer 25.8, activations 5.37 GB (1 micro-batch in flight); try more tp/pp, ZeRO, "
                         "or recompute"));
        // 48 GiB = 51.5 GB holds it; an unknown capacity never fails.
        warnings.clear();
        QVERIFY(modelMemory(gpuWithHbm(48), shapeOf(toyWorkload(), 1), warnings).fits);
        QVERIFY(modelMemory(gpuWithHbm(0), shapeOf(toyWorkload(), 1), warnings).fits);
        QVERIFY(warnings.empty());
    }

    // ---- storage and checkpoints (docs/model.md section 8) ------------------

    void dataDemandCheckpointAndWritePath()
    {
        std::vector<Problem> warnings;
        HardwareProfile hw = storageProfile();
        DataPipeline d = modelDataPipeline(hw, sevenBillion(), Workload{}, 1e6, warnings);
        QVERIFY(warnings.empty());
        // 1e6 tokens/s x 4 B (default) = 0.004 GB/s; / 256 MB files x 1000.
        COMPARE_REL(d.demandGbPerS, 0.004, kExact);
        COMPARE_REL(d.filesPerS, 0.004 * 1000 / 256, kExact);
        // Connected: min(read 100, nodes' path 60).
        QCOMPARE(d.readSupplyGbPerS, 60.0);
        COMPARE_REL(d.readHeadroom, 60 / 0.004, kExact);
        QCOMPARE(d.metadataOpsPerS, 500.0);
        // 14 B per parameter: 98 GB, through min(write 40, path 60) = 40 GB/s.
        COMPARE_REL(d.checkpointGb, 98, kExact);
        QCOMPARE(d.writePathGbPerS, 40.0);
        COMPARE_REL(d.writeAtStorageS, 98 / 40.0, kExact);
        COMPARE_REL(d.writeAtNicsS, 98 / 40.0, kExact);
        QCOMPARE(d.localReadGbPerSPerNode, 7.0);
        // A 30 GB/s node path limits both.
        hw.storage.nodePathGbPerS = 30;
        d = modelDataPipeline(hw, sevenBillion(), Workload{}, 1e6, warnings);
        QCOMPARE(d.readSupplyGbPerS, 30.0);
        QCOMPARE(d.writePathGbPerS, 30.0);
        COMPARE_REL(d.writeAtStorageS, 98 / 40.0, kExact);
        COMPARE_REL(d.writeAtNicsS, 98 / 30.0, kExact);
        // Not connected: the storage's own bandwidth.
        hw.storage.connected = false;
        d = modelDataPipeline(hw, sevenBillion(), Workload{}, 1e6, warnings);
        QCOMPARE(d.readSupplyGbPerS, 100.0);
        QCOMPARE(d.writePathGbPerS, 40.0);
        // Workload inputs: 2 bytes per token, 1,000 MB files.
        Workload w;
        w.data.bytes_per_token = 2;
        w.data.file_mb = 1000;
        d = modelDataPipeline(hw, sevenBillion(), w, 1e6, warnings);
        COMPARE_REL(d.demandGbPerS, 0.002, kExact);
        COMPARE_REL(d.filesPerS, 0.002, kExact);
        QVERIFY(warnings.empty());
        // Nothing to load: no demand, and no infinite headroom.
        d = modelDataPipeline(hw, sevenBillion(), Workload{}, 0, warnings);
        QCOMPARE(d.demandGbPerS, 0.0);
        QCOMPARE(d.readHeadroom, 0.0);
    }

    void storageBottlenecksAreWarnedAbout()
    {
        std::vector<Problem> warnings;
        HardwareProfile hw = storageProfile();
        hw.storage.metadataKiops = {10, "test"};
        // 1e11 tokens/s x 4 B = 400 GB/s against 60.
        modelDataPipeline(hw, sevenBillion(), Workload{}, 1e11, warnings);
        QCOMPARE(
            onlyProblem(warnings),
            QString("storage_read_bottleneck /components: data loading needs 400 GB/s but storage delivers 60 GB/s"));
        // 1 KB files: 0.004 GB/s x 1000 / 0.001 MB = 4,000 files/s against 500.
        warnings.clear();
        Workload w;
        w.data.file_mb = 0.001;
        modelDataPipeline(storageProfile(), sevenBillion(), w, 1e6, warnings);
        QCOMPARE(onlyProblem(warnings),
                 QString("storage_metadata_bottleneck /workload/data/file_mb: data loading opens 4,000 files/s but "
                         "storage handles 500 metadata "
                         "operations/s: pack the data in larger files"));
    }

    void withoutStorageCheckpointsHaveNowhereToGo()
    {
        std::vector<Problem> warnings;
        const DataPipeline d = modelDataPipeline(HardwareProfile{}, sevenBillion(), Workload{}, 1e6, warnings);
        QCOMPARE(onlyProblem(warnings),
                 QString("no_storage /components: the design has no shared storage: data loading and checkpoints have "
                         "nowhere to go"));
        COMPARE_REL(d.checkpointGb, 98, kExact);  // the size does not depend on storage
        QCOMPARE(d.writePathGbPerS, 0.0);
        QCOMPARE(d.writeAtNicsS, 0.0);
        QCOMPARE(d.readHeadroom, 0.0);
    }

    // ---- power and PUE (docs/model.md section 9) ----------------------------

    void hostShareOfNodePlatforms_data()
    {
        // max_power_kw x 1000 - gpus x TDP - compute_nics x NIC - dpus x DPU.
        QTest::addColumn<QString>("node");
        QTest::addColumn<double>("watts");
        QTest::newRow("DGX H100: 10,200 - 8 x 700 - 8 x 25 - 2 x 75") << "node.dgx-h100" << 4250.0;
        QTest::newRow("DGX A100: 6,500 - 8 x 400 - 8 x 20 - 2 x 20") << "node.dgx-a100" << 3100.0;
        QTest::newRow("HGX A100: 6,500 - 8 x 400 - 8 x 15") << "node.hgx-a100" << 3180.0;
        QTest::newRow("GB200 NVL72: 120,000 - 72 x 1,200 - 72 x 25 - 36 x 75") << "node.gb200-nvl72" << 29100.0;
        QTest::newRow("MI300X: 10,000 - 8 x 750 - 8 x 25") << "node.mi300x-platform" << 3800.0;
    }
    void hostShareOfNodePlatforms()
    {
        QFETCH(QString, node);
        QFETCH(double, watts);
        const Catalog& cat = Catalog::builtin();
        COMPARE_REL(hostWatts(*cat.find(node.toStdString()), cat), watts, kExact);
    }

    void powerOfRacksItAndFacility()
    {
        Design d = powerDesign();
        REQUIRE_VALID(d);
        std::vector<Problem> warnings;
        const Power p = power(d, warnings);
        QVERIFY(warnings.empty());
        // A node: host 4,250 + 8 x 700 + 8 x 25 + 2 x 75 + a 200 W drive = 10,400 W.
        QCOMPARE(p.racks.size(), std::size_t(1));
        const RackLoad& r = p.racks[0];
        QCOMPARE(r.count, std::int64_t(3));
        COMPARE_REL(r.kwEach, 2 * 10.4, kExact);
        QCOMPARE(r.limitKw, 30.0);
        QCOMPARE(r.cooling, std::string("air"));
        QCOMPARE(r.nodesEach, std::int64_t(2));
        QCOMPARE(r.gpusEach, std::int64_t(16));
        QVERIFY(!r.overLimit());
        COMPARE_REL(p.maxRackKw, 20.8, kExact);
        QCOMPARE(p.racksOverLimit, std::int64_t(0));
        // Per component, one instance with what it holds.
        COMPARE_REL(p.componentKw[0], 20.8, kExact);
        COMPARE_REL(p.componentKw[1], 10.4, kExact);
        COMPARE_REL(p.componentKw[2], 0.7, kExact);
        // Categories: 48 GPUs x 700 W; 6 nodes x 10.4 kW (everything in a node
        // is compute); switches 2 x 1,700 W + 48 NDR optics x 17 W; storage
        // 2.5 kW.
        COMPARE_REL(p.gpuKw, 33.6, kExact);
        COMPARE_REL(p.computeKw, 62.4, kExact);
        COMPARE_REL(p.networkKw, 3.4 + 0.816, kExact);
        COMPARE_REL(p.storageKw, 2.5, kExact);
        COMPARE_REL(p.itKw, 69.116, kExact);
        // Default PUE 1.4, 0.08 USD/kWh, 370 g/kWh.
        COMPARE_REL(p.pue.value, 1.4, kExact);
        COMPARE_REL(p.facilityKw, 69.116 * 1.4, kExact);                         // 96.7624
        COMPARE_REL(p.overheadKw, 69.116 * 0.4, 1e-9);                           // 27.6464
        COMPARE_REL(p.energyMwhPerYear, 96.7624 * 8760 / 1000, kExact);          // 847.638624
        COMPARE_REL(p.costUsdPerYear, 847.638624 * 1000 * 0.08, kExact);         // 67,811.09
        COMPARE_REL(p.co2TonnesPerYear, 847.638624 * 1000 * 370 / 1e6, kExact);  // 313.63
        QCOMPARE(p.airCoolingLimitKw.value, 30.0);

        // The facility's own figures.
        d.facility.pue = 1.1;
        d.facility.electricity_usd_per_kwh = 0.1;
        d.facility.carbon_g_per_kwh = 100;
        const Power q = power(d, warnings);
        COMPARE_REL(q.facilityKw, 76.0276, kExact);
        COMPARE_REL(q.energyMwhPerYear, 666.001776, kExact);
        COMPARE_REL(q.costUsdPerYear, 66600.1776, kExact);
        COMPARE_REL(q.co2TonnesPerYear, 66.6001776, kExact);
        QCOMPARE(q.pue.source, std::string("design input /facility/pue"));
    }

    void rackAboveItsCoolingLimit()
    {
        // Three DGX per air rack: 31.2 kW against 30.
        const Design d = powerDesign(3);
        REQUIRE_VALID(d);
        std::vector<Problem> warnings;
        const Power p = power(d, warnings);
        COMPARE_REL(p.racks[0].kwEach, 31.2, kExact);
        QCOMPARE(p.racksOverLimit, std::int64_t(3));
        const Problem* w = test::findProblem(warnings, "rack_over_cooling_limit");
        QVERIFY(w);
        QCOMPARE(w->pointer, std::string("/components/0"));
        QCOMPARE(w->message,
                 std::string("3 x 'Compute rack' draw 31.2 kW each, above the 30 kW their air cooling "
                             "removes; above ~30 kW a rack needs liquid cooling"));
    }

    void coolingMismatchesAndUnknownTdp()
    {
        Design d = test::emptyDesign();
        d.facility.cooling = "air";
        d.components = {part("row", "rack.air-48u", "", 1, "Row rack"),
                        part("nvl", "node.gb200-nvl72", "row"),
                        part("gb", "gpu.gb200", "nvl", 72),
                        part("cold", "rack.liquid-48u", "", 1, "Cold rack"),
                        part("pod", "group.nvlink-domain"),
                        part("tpu", "tpu.v5p", "pod", 4)};
        REQUIRE_VALID(d);
        std::vector<Problem> warnings;
        const Power p = power(d, warnings);
        const Problem* w = test::findProblem(warnings, "liquid_node_in_air_rack");
        QVERIFY(w);
        QCOMPARE(w->pointer, std::string("/components/1"));
        QCOMPARE(w->message,
                 std::string("'GB200 NVL72 rack' needs liquid cooling but sits in the air-cooled rack 'Row rack'"));
        w = test::findProblem(warnings, "liquid_rack_in_air_facility");
        QVERIFY(w);
        QCOMPARE(w->pointer, std::string("/components/3"));
        QCOMPARE(w->message, std::string("liquid-cooled rack 'Cold rack' in a facility whose cooling is air only"));
        // TPU v5p has no TDP in the catalog: counted as 0 W, and said so.
        w = test::findProblem(warnings, "unknown_tdp");
        QVERIFY(w);
        QCOMPARE(w->pointer, std::string("/components"));
        QCOMPARE(w->message,
                 std::string("an accelerator's TDP is not in the catalog, so its power is counted as 0; "
                             "set tdp_w on the component"));
        // The NVL72: host 29,100 + 72 x 1,200 = 115.5 kW; the TPUs add nothing.
        COMPARE_REL(p.gpuKw, 72 * 1.2, kExact);
        COMPARE_REL(p.racks[0].kwEach, 115.5, kExact);
        QCOMPARE(p.racks[1].kwEach, 0.0);  // an empty rack draws nothing
    }

    void fabricSwitchesAndOpticsAreNetworkPower()
    {
        // 6 DGX x 8 rails on a rail-optimized QM9700 fabric of two tiers
        // (set: 48 ports would fit one switch) with NDR optics: 8 leaves (one
        // per rail), each with 6 nodes below and 6 uplinks: 48 inter-switch
        // cables, 48 / 64 = 1 spine. 9 x 1,700 W + 48 x 17 W = 16.116 kW,
        // plus the 48 NIC cables x 17 W.
        Design d = test::emptyDesign();
        d.components = {part("rack", "rack.air-42u", "", 3), part("dgx", "node.dgx-h100", "rack", 2),
                        part("gpu", "gpu.h100-sxm", "dgx", 8), part("nic", "nic.connectx-7", "dgx", 8),
                        part("fabric", "fabric.rail-optimized")};
        d.component("fabric")->props["switch"] = "switch.qm9700";
        d.component("fabric")->props["cable"] = "link.ib-ndr-optical";
        d.component("fabric")->props["tiers"] = 2;
        d.links = {cable("nic-fabric", "nic", "fabric", "link.ib-ndr-optical")};
        REQUIRE_VALID(d);
        std::vector<Problem> warnings;
        const Power p = power(d, warnings);
        COMPARE_REL(p.componentKw[4], 16.116, kExact);
        COMPARE_REL(p.networkKw, 16.116 + 0.816, kExact);
    }

    // ---- failure cadence (docs/model.md section 10) -------------------------

    void failureCadenceAndDalyCheckpointing()
    {
        // Checkpoint write delta = 60 s = 1 min; 10 compute days.
        const Reliability r = modelReliability(fleet(), roundRates(), 60, 10);
        QCOMPARE(r.classes.size(), std::size_t(7));
        const double perDay[] = {0.24, 0.12, 0.24, 0.048, 0.048, 0.048, 0.024};  // devices / MTTF x 24
        for (std::size_t i = 0; i < 7; ++i)
            COMPARE_REL(r.classes[i].perDay, perDay[i], kExact);
        COMPARE_REL(r.clusterMtbfH, 31.25, kExact);
        COMPARE_REL(r.failuresPerDay, 0.768, kExact);
        COMPARE_REL(r.pFailure24h, 1 - std::exp(-0.768), kExact);  // 0.536
        // Young sqrt(2 delta M) = sqrt(3,750) = 61.237 min; Daly with
        // x = delta / 2M = 1/3,750: sqrt(3,750)(1 + sqrt(x)/3 + x/9) - 1 = 60.572.
        const double x = 1.0 / 3750;
        COMPARE_REL(r.youngIntervalMin, std::sqrt(3750.0), kExact);
        COMPARE_REL(r.dalyIntervalMin, std::sqrt(3750.0) * (1 + std::sqrt(x) / 3 + x / 9) - 1, kExact);
        COMPARE_REL(r.dalyIntervalMin, 60.572391339759285, 1e-12);
        QVERIFY(r.intervalIsOptimum);
        COMPARE_REL(r.intervalMin, r.dalyIntervalMin, kExact);
        QVERIFY(r.canCheckpoint);
        QCOMPARE(r.checkpointStallS, 60.0);
        // Shares at tau = 60.572: 1/(tau + 1) = 0.01624; ((tau + 1)/2 + 10)/1,875
        // = 0.02175; maintenance 0.05; goodput 0.912006.
        const double tau = 60.572391339759285;
        COMPARE_REL(r.checkpointFraction, 1 / (tau + 1), 1e-12);
        COMPARE_REL(r.failureFraction, ((tau + 1) / 2 + 10) / kMtbfMin, 1e-12);
        COMPARE_REL(r.goodput, goodputAt(tau, 1, 1), 1e-12);  // 0.9120063
        COMPARE_REL(r.dalyGoodput, r.goodput, 1e-12);
        COMPARE_REL(r.youngGoodput, goodputAt(std::sqrt(3750.0), 1, 1), 1e-12);  // 0.9120025
        QVERIFY(r.dalyGoodput > r.youngGoodput);                                 // Daly's is the better optimum
        // Wall time and interruptions: 10 / 0.912 = 10.965 days, x 24 / M.
        COMPARE_REL(r.wallDays, 10 / goodputAt(tau, 1, 1), 1e-12);
        COMPARE_REL(r.expectedInterruptions, r.wallDays * 24 / 31.25, 1e-12);  // 8.42
        QCOMPARE(r.restartMin.value, 10.0);
        QCOMPARE(r.maintenanceFraction.value, 0.05);
    }

    void checkpointOptions()
    {
        // Asynchronous: no stall, but the write still counts in lost work.
        Operations ops = roundRates();
        ops.checkpoint.async = true;
        Reliability r = modelReliability(fleet(), ops, 60, 10);
        QCOMPARE(r.checkpointStallS, 0.0);
        QCOMPARE(r.checkpointFraction, 0.0);
        const double tau = 60.572391339759285;  // Daly, still for the full write
        COMPARE_REL(r.goodput, 1 - ((tau + 1) / 2 + 10) / kMtbfMin - 0.05, 1e-12);
        // A given interval, 30 min: 1/31 + (31/2 + 10)/1,875 + 0.05 lost.
        ops = roundRates();
        ops.checkpoint.interval_min = 30;
        r = modelReliability(fleet(), ops, 60, 10);
        QVERIFY(!r.intervalIsOptimum);
        QCOMPARE(r.intervalMin, 30.0);
        COMPARE_REL(r.goodput, goodputAt(30, 1, 1), 1e-12);  // 0.904142
        // An interval shorter than a write cannot be kept: tau = delta = 1 min.
        ops.checkpoint.interval_min = 0.5;
        QCOMPARE(modelReliability(fleet(), ops, 60, 10).intervalMin, 1.0);
        // Restart and maintenance as given: 20 min, 10%.
        ops = roundRates();
        ops.checkpoint.restart_min = 20;
        ops.maintenance_fraction = 0.1;
        r = modelReliability(fleet(), ops, 60, 10);
        COMPARE_REL(r.goodput, goodputAt(tau, 1, 1, 20, 0.1), 1e-12);
        // A write longer than 2M: Daly checkpoints every MTBF (1,875 min), but
        // the interval cannot be shorter than the 4,000-minute write.
        r = modelReliability(fleet(), roundRates(), 4000 * 60, 10);
        COMPARE_REL(r.dalyIntervalMin, kMtbfMin, kExact);
        QCOMPARE(r.intervalMin, 4000.0);
    }

    void curvesOverClusterSizeAndInterval()
    {
        const Reliability r = modelReliability(fleet(), roundRates(), 60, 10);
        // MTBF against GPUs at this design's mix, 0.032 / 100 per GPU-hour:
        // n = 8, 12, 18, ... while n <= max(1e6, 4 x 100): 29 points, the last
        // 8 x 1.5^28 = 681,781.5.
        QCOMPARE(r.mtbfCurve.size(), std::size_t(29));
        QCOMPARE(r.mtbfCurve[0].first, 8.0);
        COMPARE_REL(r.mtbfCurve[0].second, 1 / (8 * 0.032 / 100), kExact);  // 390.625 h
        QCOMPARE(r.mtbfCurve[1].first, 12.0);
        COMPARE_REL(r.mtbfCurve.back().first, 8 * std::pow(1.5, 28), kExact);
        // Goodput against interval: 41 points from max(delta, 0.5) = 1 min to
        // max(10, 20 x Daly = 1,211.4) min, geometric.
        QCOMPARE(r.goodputCurve.size(), std::size_t(41));
        QCOMPARE(r.goodputCurve[0].first, 1.0);
        COMPARE_REL(r.goodputCurve[0].second, goodputAt(1, 1, 1), 1e-12);  // 1 - 0.5 - 11/1,875 - 0.05
        COMPARE_REL(r.goodputCurve.back().first, 20 * r.dalyIntervalMin, 1e-9);
        COMPARE_REL(r.goodputCurve[20].first, std::sqrt(20 * r.dalyIntervalMin), 1e-9);  // the geometric middle
    }

    void withoutCheckpointsAFailureRestartsTheRun()
    {
        // No storage (write time < 0), a 1-day job (J = 24 h) against
        // M = 31.25 h: e^(24/31.25) - 1 = 1.15545 failed attempts on average,
        // wall = (M + R)(e^(J/M) - 1) = 31.4167 x 1.15545 = 36.3004 h; useful
        // = 24 / 36.3004 = 0.66115; goodput = that - 0.05.
        const Reliability r = modelReliability(fleet(), roundRates(), -1, 1);
        QVERIFY(!r.canCheckpoint);
        QCOMPARE(r.checkpointWriteS, 0.0);
        QCOMPARE(r.intervalMin, 0.0);
        const double wall = (31.25 + 10.0 / 60) * std::expm1(24 / 31.25);
        COMPARE_REL(r.goodput, 24 / wall - 0.05, 1e-12);  // 0.61115
        COMPARE_REL(r.failureFraction, 1 - 24 / wall, 1e-12);
        QCOMPARE(r.checkpointFraction, 0.0);
        COMPARE_REL(r.wallDays, 1 / (24 / wall - 0.05), 1e-12);
        QCOMPARE(r.youngGoodput, 0.0);
        QCOMPARE(r.dalyGoodput, 0.0);
        QVERIFY(r.goodputCurve.empty());
        QVERIFY(!r.mtbfCurve.empty());

        // A 1,000-day job: the exponent J/M = 768 is capped at 50 so the
        // numbers stay finite; the run never completes, goodput 0.
        const Reliability never = modelReliability(fleet(), roundRates(), -1, 1000);
        QCOMPARE(never.goodput, 0.0);
        QVERIFY(std::isfinite(never.wallDays) && std::isfinite(never.expectedInterruptions));
        // It says so, with the numbers, rather than a wall time of 0 days.
        QVERIFY(!never.neverCompletes.empty());
        QVERIFY2(never.neverCompletes.find("leave no time to train") != std::string::npos,
                 never.neverCompletes.c_str());
        QVERIFY(r.neverCompletes.empty());
    }

    void withoutDevicesNothingFails()
    {
        const Reliability r = modelReliability(Inventory{}, Operations{}, 60, 10);
        QCOMPARE(r.clusterMtbfH, 0.0);
        QCOMPARE(r.failuresPerDay, 0.0);
        QCOMPARE(r.pFailure24h, 0.0);
        COMPARE_REL(r.goodput, 0.95, kExact);  // 1 - maintenance
        COMPARE_REL(r.wallDays, 10 / 0.95, kExact);
        QCOMPARE(r.expectedInterruptions, 0.0);
        QVERIFY(r.mtbfCurve.empty() && r.goodputCurve.empty());
    }
};

QTEST_APPLESS_MAIN(TestResources)
#include "tst_resources.moc"
