// Every row of ../shared/reference/seed-numbers.md, one named test each,
// to the printed precision, from the catalog's default data where the row
// is about a part.
#include <QtTest>

#include "core/analysis/collectives.h"
#include "core/analysis/fleet_formulas.h"
#include "core/format/design_reader.h"
#include "core/model/analysis.h"
#include "tests/test_support.h"

using namespace studio;

namespace {

double figure(const char* part, const char* key)
{
    return Catalog::builtin().find(part)->figure(key)->value;
}

// Rounds to the printed number of decimals, as the seed prints them.
double rounded(double v, int decimals)
{
    const double f = std::pow(10.0, decimals);
    return std::round(v * f) / f;
}

Analysis analysePreset(const char* name)
{
    const DesignLoad loaded =
        loadDesignFile(test::sourcePath(QString("presets/") + name).toStdString(), Catalog::builtin());
    if (!loaded.ok())
        qFatal("%s does not load", name);
    return analyzeDesign(*loaded.design, *loaded.catalog);
}

}  // namespace

class TestSeedNumbers : public QObject {
    Q_OBJECT
private slots:
    void R1_ridgePointH100Bf16()
    {
        // 989 TFLOP/s / 3.35 TB/s = 295.2 FLOP/byte (the seed rounds the peak to 989).
        QCOMPARE(rounded(fleet::ridgeFlopPerByte(989e12, 3.35e12), 1), 295.2);
        // From the catalog's 989.4: the same ridge to the seed's precision of "~295".
        const double ridge = fleet::ridgeFlopPerByte(figure("gpu.h100-sxm", "bf16_tflops") * 1e12,
                                                     figure("gpu.h100-sxm", "hbm_tb_per_s") * 1e12);
        QCOMPARE(std::round(ridge), 295.0);
        // And the design-level metric the panels show.
        QCOMPARE(std::round(analysePreset("dgx-h100-superpod-4su.cluster.json").roofline.ridgeFlopPerByte), 295.0);
    }

    void R2_attainableIsMinOfPeakAndSlope()
    {
        const double peak = 989e12, bw = 3.35e12;
        QCOMPARE(fleet::attainableFlopsPerS(10, peak, bw), 10 * bw);      // on the slope
        QCOMPARE(fleet::attainableFlopsPerS(1000, peak, bw), peak);       // under the flat roof
        QCOMPARE(fleet::attainableFlopsPerS(peak / bw, peak, bw), peak);  // the ridge joins them
    }

    void R3_singleStreamDecode8B()
    {
        const double params = 8.03e9;
        QCOMPARE(rounded(params * 2 / 1e9, 1), 16.1);  // GB read per token
        // 2 FLOPs per weight per token over 2 bytes per weight: 1 FLOP/byte.
        QCOMPARE(2 * params / (params * 2), 1.0);
        QCOMPARE(rounded(fleet::decodeTokensPerS(params, 2, 3.35e12), 1), 208.6);
    }

    // Seed 004 (after SemiAnalysis): 8 x H100 cannot serve a 1-trillion-
    // parameter dense model at 33.33 tokens/s, and at 20 tokens/s uses under
    // 5% of its FLOP/s.
    void R4_oneTrillionDenseOnEightH100()
    {
        const double params = 1e12, hbm = 8 * 3.35e12;
        // Even in FP8 with every byte of the eight GPUs' bandwidth: 26.8.
        QCOMPARE(rounded(fleet::decodeTokensPerS(params, 1, hbm), 1), 26.8);
        QVERIFY(fleet::decodeTokensPerS(params, 1, hbm) < 33.33);
        QVERIFY(fleet::decodeTokensPerS(params, 2, hbm) < 33.33 / 2);
        // 2 FLOPs per parameter per token at 20 tokens/s against 8 dense
        // BF16 peaks: 0.51%.
        const double u = fleet::decodeFlopUtilization(params, 20, 8, 989.4e12);
        QCOMPARE(rounded(100 * u, 2), 0.51);
        QVERIFY(u < 0.05);
    }

    // Little's law (seed 002): requests in flight = arrival rate x latency.
    void littlesLaw()
    {
        QCOMPARE(fleet::littleConcurrency(100, 2.5), 250.0);
        QCOMPARE(fleet::littleConcurrency(0, 2.5), 0.0);
    }

    void B1_nvlinkVersusNdrPerGpu()
    {
        // Convention: bidirectional per GPU. NVLink 4 900 GB/s; NDR 50 GB/s x 2.
        const Analysis a = analysePreset("dgx-h100-superpod-4su.cluster.json");
        const Tier* nvlink = a.hierarchy.tier("nvlink");
        const Tier* leaf = a.hierarchy.tier("leaf");
        QVERIFY(nvlink && leaf);
        QCOMPARE(nvlink->gbPerSPerGpu, 900.0);
        QCOMPARE(leaf->gbPerSPerGpu, 100.0);
        QCOMPARE(leaf->ratioToAbove, 9.0);
    }

    void B2_ringAllReduceBytesPerParticipant()
    {
        const double m = 1e9;
        QCOMPARE(ringAllReduceBytes(m, 2), m);  // 2(1)M/2
        QCOMPARE(ringAllReduceBytes(m, 256), 2 * 255 * m / 256);
        QVERIFY(std::fabs(ringAllReduceBytes(m, 1 << 20) - 2 * m) / (2 * m) < 1e-5);  // -> 2M
    }

    void B3_ringAllReduceLatencyTerm()
    {
        // With no data the time is the latency term alone: 2(N-1) alpha.
        QCOMPARE(ringAllReduceSeconds(0, 256, 50e9, 5e-6), 2 * 255 * 5e-6);
    }

    void B4_dataParallelAllReduce7B()
    {
        const double grads = 7e9 * 2;  // BF16
        QCOMPARE(rounded(ringAllReduceSeconds(grads, 256, 50e9, 5e-6) * 1000, 1), 560.4);
    }

    void B5_commComputeRatio()
    {
        // rho = T_comm / (T_compute / N): the seed's "~5 s (fwd+bwd)" is the
        // per-GPU share, i.e. T_compute / N = 5 s.
        const double comm = ringAllReduceSeconds(7e9 * 2, 256, 50e9, 5e-6);
        QCOMPARE(rounded(fleet::commComputeRatio(comm, 5.0 * 256, 256), 2), 0.11);
    }

    void C1_trainingState16BytesPerParam()
    {
        QCOMPARE(fleet::kTrainingStateBytesPerParam, 2.0 + 2 + 4 + 4 + 4);
        QCOMPARE(rounded(70e9 * fleet::kTrainingStateBytesPerParam / 1e12, 1), 1.1);  // TB
    }

    void C2_checkpoint14BytesPerParam()
    {
        QCOMPARE(fleet::checkpointBytes(7e9) / 1e9, 98.0);
        QCOMPARE(fleet::checkpointBytes(70e9) / 1e9, 980.0);
        QCOMPARE(fleet::checkpointBytes(175e9) / 1e9, 2450.0);
        QCOMPARE(fleet::checkpointBytes(1e12) / 1e12, 14.0);
    }

    void C3_checkpointWriteAt100GBps()
    {
        const double bw = 100e9;
        QCOMPARE(rounded(fleet::writeSeconds(fleet::checkpointBytes(7e9), bw), 2), 0.98);
        QCOMPARE(rounded(fleet::writeSeconds(fleet::checkpointBytes(70e9), bw), 1), 9.8);
        QCOMPARE(rounded(fleet::writeSeconds(fleet::checkpointBytes(175e9), bw), 1), 24.5);
        QCOMPARE(rounded(fleet::writeSeconds(fleet::checkpointBytes(1e12), bw) / 60, 1), 2.3);
    }

    void F1_clusterMtbf()
    {
        const double gpu = 50000;  // h, seed 002's per-GPU MTTF
        QCOMPARE(rounded(fleet::systemMtbf(gpu, 256), 1), 195.3);
        QCOMPARE(rounded(fleet::systemMtbf(gpu, 2048), 1), 24.4);
        QCOMPARE(rounded(fleet::systemMtbf(gpu, 8192) * 60, 1), 366.2);
        QCOMPARE(fleet::systemMtbf(gpu, 100000) * 60, 30.0);
    }

    void F2_failureWithin24Hours()
    {
        const double gpu = 50000;
        QCOMPARE(rounded(fleet::failureProbability(24, fleet::systemMtbf(gpu, 256)) * 100, 1), 11.6);
        QCOMPARE(rounded(fleet::failureProbability(24, fleet::systemMtbf(gpu, 2048)) * 100, 1), 62.6);
        QCOMPARE(rounded(fleet::failureProbability(24, fleet::systemMtbf(gpu, 8192)) * 100, 1), 98.0);
        QVERIFY(fleet::failureProbability(24, fleet::systemMtbf(gpu, 100000)) > 0.9999);
    }

    void F3_overheadBudgetGoodput() { QCOMPARE(rounded(fleet::goodputAfter(0.05, 0.03, 0.10, 0.05), 2), 0.77); }

    void U1_compoundUtilization1024H100()
    {
        const double delivered = fleet::compoundThroughput(1024, 989, 0.50, 0.50, 0.77);
        QCOMPARE(rounded(delivered, 1), 194951.7);  // TFLOP/s
        // 0.50 x 0.50 x 0.77 = 19.25% of peak, which the seed prints as 19.2%.
        QCOMPARE(std::floor(delivered / (1024 * 989) * 1000) / 10, 19.2);
    }

    void U2_amdahlSerialFraction10()
    {
        QCOMPARE(rounded(fleet::amdahlSpeedup(0.1, 32), 1), 7.8);
        QCOMPARE(rounded(fleet::amdahlSpeedup(0.1, 256), 1), 9.7);
        QCOMPARE(rounded(fleet::amdahlSpeedup(0.1, 1024), 1), 9.9);
        QCOMPARE(rounded(fleet::amdahlSpeedup(0.1, 8192), 0), 10.0);
        QCOMPARE(rounded(fleet::amdahlSpeedup(0.1, 1e12), 6), 10.0);  // the limit
    }

    void U3_scalingEfficiencyTable()
    {
        QCOMPARE(fleet::empiricalScalingEfficiency(32), 0.90);
        QCOMPARE(fleet::empiricalScalingEfficiency(256), 0.70);
        QCOMPARE(fleet::empiricalScalingEfficiency(1024), 0.50);
        QCOMPARE(fleet::empiricalScalingEfficiency(8192), 0.35);
        // Seed 002: 4,096 GPUs delivering 2.5x a 1,024-GPU run is ~31.2%
        // efficiency; the table interpolates to a value between its rows.
        const double e4096 = fleet::empiricalScalingEfficiency(4096);
        QVERIFY(e4096 < 0.50 && e4096 > 0.35);
    }

    void U4_stragglerTax() { QCOMPARE(rounded(fleet::stragglerTax(0.05, 16000) * 100, 0), 22.0); }

    void P1_itLoad() { QCOMPARE(fleet::itLoadWatts(10000, figure("gpu.h100-sxm", "tdp_w")) / 1e6, 7.0); }

    void P2_facilityLoad() { QCOMPARE(rounded(fleet::facilityLoad(7.0, 1.40), 1), 9.8); }

    void P3_rackDensityAgainstAirCooling()
    {
        QCOMPARE(figure("rack.air-42u", "max_kw"), 30.0);
        // Four DGX H100 in one air-cooled rack (~40.8 kW) need liquid: the
        // power analysis flags it.
        const DesignLoad loaded = loadDesignFile(
            test::sourcePath("presets/dgx-h100-superpod-4su.cluster.json").toStdString(), Catalog::builtin());
        Design d = *loaded.design;
        d.component("rack")->count = 8;
        d.component("dgx")->count = 4;
        const Analysis a = analyzeDesign(d, *loaded.catalog);
        QCOMPARE(a.power.maxRackKw, 4 * figure("node.dgx-h100", "max_power_kw"));  // 40.8 kW
        QCOMPARE(a.power.racksOverLimit, std::int64_t(4 * 8));
        const auto it = std::find_if(a.warnings.begin(), a.warnings.end(),
                                     [](const Problem& p) { return p.code == "rack_over_cooling_limit"; });
        QVERIFY(it != a.warnings.end());
        QVERIFY(it->message.find("needs liquid cooling") != std::string::npos);
    }

    void P4_pueOverheadPerMwIt()
    {
        QCOMPARE(rounded(fleet::pueOverheadPerItMw(1.06), 6), 60.0);
        QCOMPARE(rounded(fleet::pueOverheadPerItMw(1.12), 6), 120.0);
        QCOMPARE(rounded(fleet::pueOverheadPerItMw(1.40), 6), 400.0);
        QCOMPARE(rounded(fleet::pueOverheadPerItMw(1.58), 6), 580.0);
    }

    void M1_mfuFromTokensPerSecond()
    {
        // MFU = (6 x params) x tokens/s / (N x peak): a 7B model at 1,000
        // tokens/s/GPU on H100 is 6 x 7e9 x 1000 / 989.4e12 = 4.2%.
        QCOMPARE(rounded(fleet::mfu(6 * 7e9, 1000 * 8, 8, 989.4e12) * 100, 1), 4.2);
        // And the step-time model agrees with the same definition.
        const Analysis a = analysePreset("dgx-h100-superpod-4su.cluster.json");
        const double perToken = a.step.modelFlopsPerStep / a.workload.tokensPerStep;
        QCOMPARE(rounded(fleet::mfu(perToken, a.step.tokensPerS, double(a.workload.gpusUsed),
                                    a.hardware.gpu.trainingPeakTflops.value * 1e12),
                         9),
                 rounded(a.step.mfu, 9));
        // Dense transformer: 6 x params per token, plus attention's causal
        // half (6 L s h; the full square would be 12 L s h), less the input
        // embedding, which is a lookup, not a GEMM.
        const auto& w = a.workload;
        const double expected = 6 * w.params - 6 * double(w.vocab) * double(w.hidden) +
            6 * double(w.layers) * double(w.seq) * double(w.hidden);
        QCOMPARE(rounded(perToken / expected, 9), 1.0);
    }
};

QTEST_APPLESS_MAIN(TestSeedNumbers)
#include "tst_seed_numbers.moc"
