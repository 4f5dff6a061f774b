// Kernel profiles (docs/kernel-profiles.md): the grid's interpolation in
// log space, the reader's errors, the shipped profiles, and the catalog
// holding them. How the step time and serving use them is tested in
// tst_step_time and tst_serving.
#include <QtTest>

#include <cmath>
#include <random>

#include "core/analysis/hierarchy.h"
#include "core/catalog/catalog.h"
#include "core/json/json_text.h"
#include "core/kernels/kernel_profile.h"
#include "core/model/analysis.h"
#include "core/serving/serving.h"
#include "tests/core/hand_built.h"
#include "tests/core/presets.h"

using namespace studio;
using Json = nlohmann::ordered_json;
using test::kExact;

namespace {

// A small valid profile for the H100: one bf16 GEMM table, attention,
// one collective.
Json smallProfile()
{
    return Json::parse(R"({
      "format": "cluster-studio.kernels", "format_version": 1,
      "gpu": "Test H100", "parts": ["gpu.h100-sxm"],
      "source": "hand-written test profile", "data_version": "test", "license": "none", "date": "2026-11-27",
      "peaks_tflops": {"bf16": 989.4}, "hbm_tb_per_s": 3.35, "scaleup_gb_per_s": 900,
      "gemm": {"bf16": {"m": [1, 1024], "n": [1024, 4096], "k": [1024, 4096],
                        "efficiency": [[[0.01, 0.02], [0.03, 0.04]], [[0.5, 0.6], [0.7, 0.8]]]}},
      "attention": {"forward": {"head_dim": [64, 128], "seq": [1024, 8192],
                                "efficiency": [[0.3, 0.5], [0.4, 0.6]]}},
      "collectives": {"all_reduce": {"gpus": [8], "bytes": [1e6, 1e9], "bus_gb_per_s": [[50, 400]]}}
    })");
}

// The built-in catalog with the shipped H100 profile less the table at
// `pointer` ("/activation_scale").
Catalog builtinWithout(const std::string& pointer)
{
    const auto names = builtinKernelProfileNames();
    const auto h100 = std::find(names.begin(), names.end(), "h100-sxm.json");
    if (h100 == names.end())
        qFatal("no h100-sxm.json among the shipped profiles");
    Json doc = parseJsonText(builtinKernelProfileJsons()[std::size_t(h100 - names.begin())]).doc;
    const Json::json_pointer ptr(pointer);
    doc[ptr.parent_pointer()].erase(ptr.back());
    Catalog c = Catalog::builtin();
    if (hasErrors(c.mergeKernels(doc, "h100 without " + pointer)))
        qFatal("the H100 profile without %s does not read", pointer.c_str());
    return c;
}

bool knownAccelerator(std::string_view id)
{
    const Part* p = Catalog::builtin().find(id);
    return p && p->kind == PartKind::Accelerator;
}

// The first error's "pointer: message", or "" when the profile reads.
std::string firstError(const Json& doc)
{
    std::vector<Problem> problems;
    const auto p = readKernelProfile(doc, "test.kernels.json", knownAccelerator, problems);
    for (const Problem& pr : problems)
        if (pr.severity == Severity::Error) {
            if (p)
                return "returned a profile despite: " + pr.message;
            return pr.pointer + ": " + pr.message;
        }
    return p ? "" : "no profile and no error";
}

}  // namespace

class TestKernels : public QObject {
    Q_OBJECT
private slots:
    void aGridPointIsMeasured()
    {
        const KernelGrid g({{1, 1024}, {1024, 4096}, {1024, 4096}}, {0.01, 0.02, 0.03, 0.04, 0.5, 0.6, 0.7, 0.8});
        // Row-major, the last axis fastest: [m][n][k].
        const KernelValue v = g.at(1024, 4096, 1024);
        QCOMPARE(v.value, 0.7);
        QCOMPARE(v.tier, KernelTier::Measured);
        QCOMPARE(g.at(1, 1024, 4096).value, 0.02);
    }

    void betweenPointsIsLinearInTheLogarithm()
    {
        const KernelGrid g({{1, 1024}}, {0.1, 0.6});
        // 32 is half-way between 1 and 1,024 in log2 (5 of 10): the
        // logarithm of the value half-way too, the geometric mean.
        const KernelValue v = g.at(32);
        COMPARE_REL(v.value, std::sqrt(0.1 * 0.6), kExact);  // 0.2449
        QCOMPARE(v.tier, KernelTier::Interpolated);
        // 3/10 of the way: 0.1^0.7 x 0.6^0.3.
        COMPARE_REL(g.at(8).value, std::pow(0.1, 0.7) * std::pow(0.6, 0.3), 1e-12);
        // Two axes: bilinear in log space. At (sqrt(64 x 128), sqrt(1024 x 8192)),
        // the middle of both: the geometric mean of the four corners.
        const KernelGrid a({{64, 128}, {1024, 8192}}, {0.3, 0.5, 0.4, 0.6});
        COMPARE_REL(a.at(std::sqrt(64.0 * 128), std::sqrt(1024.0 * 8192)).value, std::pow(0.3 * 0.5 * 0.4 * 0.6, 0.25),
                    1e-12);
        // Three axes, one coordinate on a point, two between.
        const KernelGrid g3({{1, 1024}, {1024, 4096}, {1024, 4096}}, {0.01, 0.02, 0.03, 0.04, 0.5, 0.6, 0.7, 0.8});
        // m at 1,024; n and k half-way (2,048): of 0.5, 0.6, 0.7, 0.8.
        COMPARE_REL(g3.at(1024, 2048, 2048).value, std::pow(0.5 * 0.6 * 0.7 * 0.8, 0.25), 1e-12);
    }

    void aKernelsTimeIsMonotoneBetweenPoints()
    {
        // A GEMM's time is m / efficiency: 1 / 0.004 at one row and
        // 64 / 0.2 = 320 at 64 rows. Linear efficiency would dip below 250
        // between them; in log space the time runs straight from 250 to 320.
        const KernelGrid g({{1, 64}}, {0.004, 0.2});
        double last = 0;
        for (double m = 1; m <= 64; m *= 1.05) {
            const double t = m / g.at(m).value;
            QVERIFY(t >= last * (1 - 1e-12));
            last = t;
        }
    }

    void beyondTheRangeHoldsTheEdge()
    {
        const KernelGrid g({{1, 1024}}, {0.1, 0.6});
        QCOMPARE(g.at(1e6).value, 0.6);
        QCOMPARE(g.at(1e6).tier, KernelTier::Edge);
        QCOMPARE(g.at(0.5).value, 0.1);
        QCOMPARE(g.at(0.5).tier, KernelTier::Edge);
        // The worse tier wins: one axis beyond, one between.
        const KernelGrid a({{64, 128}, {1024, 8192}}, {0.3, 0.5, 0.4, 0.6});
        QCOMPARE(a.at(256, 2048).tier, KernelTier::Edge);
        QCOMPARE(a.at(128, 2048).tier, KernelTier::Interpolated);
    }

    void interpolationIsMonotoneBetweenPoints()
    {
        // Along any axis, between two points the value moves from one to
        // the other without overshooting, whatever the other coordinates.
        const KernelGrid g({{1, 16, 256, 4096}, {128, 1024, 8192}},
                           {0.01, 0.02, 0.05, 0.1, 0.3, 0.35, 0.4, 0.7, 0.75, 0.5, 0.8, 0.78});
        std::mt19937 rng(35);
        std::uniform_real_distribution<double> logM(0, std::log(4096.0)), logN(std::log(128.0), std::log(8192.0));
        for (int i = 0; i < 2000; ++i) {
            const double n = std::exp(logN(rng));
            double m1 = std::exp(logM(rng)), m2 = std::exp(logM(rng));
            if (m1 > m2)
                std::swap(m1, m2);
            // Between the same two m points: the order of the values follows
            // the order of the points' values.
            const auto& ms = g.axis(0);
            const auto cell = [&](double m) { return std::upper_bound(ms.begin(), ms.end(), m) - ms.begin(); };
            if (cell(m1) != cell(m2) || cell(m1) == 0 || cell(m1) == std::ptrdiff_t(ms.size()))
                continue;
            const double lo = ms[std::size_t(cell(m1) - 1)], hi = ms[std::size_t(cell(m1))];
            const double vLo = g.at(lo, n).value, vHi = g.at(hi, n).value;
            const double v1 = g.at(m1, n).value, v2 = g.at(m2, n).value;
            QVERIFY(std::min(vLo, vHi) - 1e-12 <= v1 && v1 <= std::max(vLo, vHi) + 1e-12);
            if (vHi >= vLo)
                QVERIFY(v1 <= v2 + 1e-12);
            else
                QVERIFY(v1 >= v2 - 1e-12);
        }
    }

    void aValidProfileReads()
    {
        std::vector<Problem> problems;
        const auto p = readKernelProfile(smallProfile(), "test.kernels.json", knownAccelerator, problems);
        QVERIFY(p);
        QVERIFY(!hasErrors(problems));
        QCOMPARE(p->parts, std::vector<std::string>{"gpu.h100-sxm"});
        QVERIFY(p->gemmTable("bf16"));
        QVERIFY(!p->gemmTable("fp8"));
        QCOMPARE(p->gemmTable("bf16")->at(1024, 4096, 4096).value, 0.8);
        QCOMPARE(p->attentionForward->at(128, 8192).value, 0.6);
        QCOMPARE(p->collective("all_reduce")->at(8, 1e9).value, 400.0);
        QVERIFY(!p->attentionBackward);
    }

    void badProfilesAreRefusedNamingTheField_data()
    {
        QTest::addColumn<QString>("pointer");
        QTest::addColumn<QString>("value");  // JSON to put there; "" deletes it
        QTest::addColumn<QString>("error");
        QTest::newRow("missing axis") << "/gemm/bf16/k"
                                      << ""
                                      << "/gemm/bf16/k: missing";
        QTest::newRow("negative time") << "/gemm/bf16/efficiency/1/0/1"
                                       << "-0.5"
                                       << "/gemm/bf16/efficiency/1/0/1: must be greater than 0, got -0.5";
        QTest::newRow("NaN as text") << "/attention/forward/efficiency/0/0"
                                     << "\"NaN\""
                                     << "/attention/forward/efficiency/0/0: must be a number, got string \"NaN\"";
        QTest::newRow("efficiency of a unit mistake") << "/attention/forward/efficiency/1/1"
                                                      << "60"
                                                      << "/attention/forward/efficiency/1/1: is 60, above the limit "
                                                         "of 1.5";
        QTest::newRow("unknown GPU") << "/parts/0"
                                     << "\"gpu.h900\""
                                     << "/parts/0: unknown GPU 'gpu.h900': no accelerator of the catalog has this id";
        QTest::newRow("a switch is no GPU") << "/parts/0"
                                            << "\"switch.qm9700\""
                                            << "/parts/0: unknown GPU 'switch.qm9700': no accelerator of the catalog "
                                               "has this id";
        QTest::newRow("unknown precision") << "/gemm/fp7"
                                           << "{}"
                                           << "/gemm/fp7: unknown GEMM precision 'fp7': one of bf16, fp16, fp8, "
                                              "fp8_block, fp4, tf32";
        QTest::newRow("unknown collective") << "/collectives/broadcast"
                                            << "{}"
                                            << "/collectives/broadcast: unknown collective 'broadcast': one of "
                                               "all_reduce, all_gather, reduce_scatter, all_to_all, engine_all_reduce";
        QTest::newRow("grid not ascending") << "/gemm/bf16/m/1"
                                            << "1"
                                            << "/gemm/bf16/m/1: must be larger than the point before it (1): a grid "
                                               "ascends";
        QTest::newRow("values short of the grid") << "/gemm/bf16/efficiency/1"
                                                  << "[[0.5, 0.6]]"
                                                  << "/gemm/bf16/efficiency/1: must hold 2 values, one per grid "
                                                     "point, got 1";
        QTest::newRow("peak of a table missing") << "/peaks_tflops/bf16"
                                                 << ""
                                                 << "/peaks_tflops/bf16: missing: the gemm table 'bf16' needs the "
                                                    "peak it is a share of";
        QTest::newRow("collectives without their link")
            << "/scaleup_gb_per_s"
            << ""
            << "/scaleup_gb_per_s: missing: the scale-up link the collectives "
               "were measured on (GB/s, both directions)";
        QTest::newRow("activation scale of no GEMM table") << "/activation_scale"
                                                           << "{\"fp8\": {\"m\": [1], \"k\": [1024], "
                                                              "\"hbm_efficiency\": [[0.01]]}}"
                                                           << "/activation_scale/fp8: the GEMM table 'fp8' it is "
                                                              "part of is missing from /gemm";
        QTest::newRow("wrong format") << "/format"
                                      << "\"cluster-studio.catalog\""
                                      << "/format: must be 'cluster-studio.kernels', got 'cluster-studio.catalog'";
        QTest::newRow("newer version") << "/format_version"
                                       << "2"
                                       << "/format_version: version 2 is newer than this studio reads (1): update "
                                          "Cluster Studio";
    }

    void badProfilesAreRefusedNamingTheField()
    {
        QFETCH(QString, pointer);
        QFETCH(QString, value);
        QFETCH(QString, error);
        Json doc = smallProfile();
        const Json::json_pointer ptr(pointer.toStdString());
        if (value.isEmpty())
            doc[ptr.parent_pointer()].erase(ptr.back());
        else
            doc[ptr] = Json::parse(value.toStdString());
        QCOMPARE(QString::fromStdString(firstError(doc)), error);
    }

    void aProfileWithNoTableIsRefused()
    {
        Json doc = smallProfile();
        doc.erase("gemm");
        doc.erase("attention");
        doc.erase("collectives");
        QCOMPARE(QString::fromStdString(firstError(doc)),
                 QString(": holds no table: a profile needs at least one of gemm, attention, decode_attention, "
                         "collectives, memory, ops"));
    }

    void aBadProfileChangesNothingInTheCatalog()
    {
        Catalog c = Catalog::builtin();
        const KernelProfile* before = c.kernels("gpu.h100-sxm");
        Json doc = smallProfile();
        doc["gemm"]["bf16"]["efficiency"][0][0][0] = -1;
        QVERIFY(hasErrors(c.mergeKernels(doc, "bad.json")));
        QCOMPARE(c.kernels("gpu.h100-sxm"), before);
        // A good one replaces the part's profile, and only that part's.
        const KernelProfile* a100 = c.kernels("gpu.a100-sxm-80gb");
        QVERIFY(!hasErrors(c.mergeKernels(smallProfile(), "good.json")));
        QCOMPARE(c.kernels("gpu.h100-sxm")->gpu, std::string("Test H100"));
        QCOMPARE(c.kernels("gpu.h100-sxm")->origin, std::string("good.json"));
        QCOMPARE(c.kernels("gpu.a100-sxm-80gb"), a100);
    }

    void theSensitivityScalesTheTablesNotTheCollectives()
    {
        // The tornado's "kernel efficiency" input: on a GPU with a profile
        // the tables set the kernels' speed, so they scale, capped at 1.
        Catalog c = Catalog::builtin();
        const KernelProfile* before = c.kernels("gpu.h100-sxm");
        const double gemm = before->gemmTable("bf16")->at(4096, 8192, 8192).value;
        const double bus = before->collective("all_reduce")->at(8, 256e6).value;
        c.scaleKernelEfficiencies(0.5, 1.0);
        const KernelProfile* half = c.kernels("gpu.h100-sxm");
        COMPARE_REL(half->gemmTable("bf16")->at(4096, 8192, 8192).value, gemm / 2, 1e-12);
        QCOMPARE(half->collective("all_reduce")->at(8, 256e6).value, bus);  // links are another input
        c.scaleKernelEfficiencies(4, 1.0);
        QCOMPARE(c.kernels("gpu.h100-sxm")->gemmTable("bf16")->at(4096, 8192, 8192).value, 1.0);
        // The built-in catalog is untouched.
        QCOMPARE(Catalog::builtin().kernels("gpu.h100-sxm")->gemmTable("bf16")->at(4096, 8192, 8192).value, gemm);
    }

    void aMissingFileSaysWhy()
    {
        Catalog c = Catalog::builtin();
        const auto problems = c.mergeKernelsFile("/nonexistent/my.kernels.json");
        QVERIFY(hasErrors(problems));
        QVERIFY2(problems.front().message.find("/nonexistent/my.kernels.json") != std::string::npos ||
                     problems.front().message.find("No such file") != std::string::npos,
                 problems.front().message.c_str());
    }

    void aCollectedProfileRoundTrips()
    {
        // tools/collect-kernels.py turned tests/data/kernels/fixture-timings.json
        // into this profile (tests/tools/test_collect_kernels.py checks it is
        // the script's output byte for byte); the studio reads it as --kernels.
        Catalog c = Catalog::builtin();
        const std::string file = STUDIO_SOURCE_DIR "/tests/data/kernels/collected-fixture.kernels.json";
        const auto problems = c.mergeKernelsFile(file);
        for (const Problem& p : problems)
            qWarning("%s", formatProblem(file, p).c_str());
        QVERIFY(!hasErrors(problems));
        const KernelProfile* k = c.kernels("gpu.h100-sxm");
        QVERIFY(k);
        QCOMPARE(k->origin, file);
        // The timing of a 4,096-cube bf16 GEMM, 186 us: 2 x 4096^3 / (186e-6 x 989.4e12),
        // rounded to the 5 digits the script writes.
        const KernelValue v = k->gemmTable("bf16")->at(4096, 4096, 4096);
        QCOMPARE(v.tier, KernelTier::Measured);
        COMPARE_REL(v.value, 2 * std::pow(4096.0, 3) / (186e-6 * 989.4e12), 5e-5);
        QVERIFY(k->attentionBackward);
        QVERIFY(!k->ops.empty() && !k->opsCompiled.empty());
    }

    void theShippedProfilesReadAndCoverTheirGpus()
    {
        const auto names = builtinKernelProfileNames();
        const auto texts = builtinKernelProfileJsons();
        QCOMPARE(names.size(), texts.size());
        QVERIFY(names.size() >= 5);
        for (const char* id : {"gpu.a100-sxm-80gb", "gpu.h100-sxm", "gpu.h200-sxm", "gpu.b200", "gpu.gb200"}) {
            const KernelProfile* k = Catalog::builtin().kernels(id);
            QVERIFY2(k, id);
            QVERIFY2(k->gemmTable("bf16"), id);
            QVERIFY2(!k->license.empty() && !k->source.empty() && !k->date.empty() && !k->dataVersion.empty(), id);
            // The peaks the efficiencies are shares of are the catalog's.
            const Part* part = Catalog::builtin().find(id);
            QCOMPARE(k->peaksTflops.at("bf16"), part->figure("bf16_tflops")->value);
            if (k->gemmTable("fp8"))
                QCOMPARE(k->peaksTflops.at("fp8"), part->figure("fp8_tflops")->value);
        }
        // Parts with no published tables have none.
        for (const char* id : {"gpu.mi300x", "tpu.v5p", "gaudi.3"})
            QVERIFY2(!Catalog::builtin().kernels(id), id);
    }

    void withoutProfilesEveryPresetGivesTodaysNumbers_data()
    {
        // Each preset's figures as the model gave them before kernel
        // profiles existed (commit 9f4a711), every kernel at the catalog's
        // factors. Without a profile (the MI300X's, or --kernels none for
        // all) the model must give exactly these.
        QTest::addColumn<QString>("preset");
        QTest::addColumn<double>("figure");  // step time (training) or the decode step (serving), s
        QTest::addColumn<double>("rate");    // MFU (training) or the batch the targets allowed (serving)
        QTest::newRow("budget A100") << "budget-8node-100gbe.cluster.json" << 9.609834330620833 << 0.5625187416541351;
        QTest::newRow("DGX A100") << "dgx-a100-superpod.cluster.json" << 86.35186386083306 << 0.4174710910561267;
        QTest::newRow("DGX B200") << "dgx-b200-superpod-8su.cluster.json" << 1.159660508019269 << 0.38022699269321103;
        QTest::newRow("DGX H100") << "dgx-h100-superpod-4su.cluster.json" << 4.763411277530508 << 0.39041950076987714;
        QTest::newRow("GB200 NVL72") << "gb200-nvl72-8rack.cluster.json" << 7.9029637931100005 << 0.3725216164230686;
        QTest::newRow("H100 16k") << "h100-16k-roce-llama3.cluster.json" << 6.6791873872333785 << 0.3910985447197037;
        QTest::newRow("MI300X") << "mi300x-roce-128node.cluster.json" << 10.170162220498238 << 0.27676752057705206;
        QTest::newRow("serving Grok-1") << "serving-grok1-moe-gb200-nvl72.cluster.json" << 0.03999741132576343
                                        << 1573.0;
        QTest::newRow("serving Llama 3 70B")
            << "serving-llama3-70b-dgx-h100.cluster.json" << 0.049996474530240434 << 1124.0;
    }

    void withoutProfilesEveryPresetGivesTodaysNumbers()
    {
        QFETCH(QString, preset);
        QFETCH(double, figure);
        QFETCH(double, rate);
        Catalog none = Catalog::builtin();
        none.clearKernels();
        const Design d = test::loadPreset(preset);
        if (d.workload.isServing()) {
            // Since the engine's scheduler (docs/model.md section 19) the
            // targets choose the batch on the engine's latencies: at the
            // batch chosen then, the decode step is the same.
            Design atBatch = d;
            atBatch.workload.serving->batch = std::int64_t(rate);
            const Serving s = analyzeServing(atBatch, none);
            QVERIFY(s.ok());
            COMPARE_REL(s.decode.stepS, figure, kExact);
            QVERIFY(s.kernelSource.empty());
            return;
        }
        const Analysis a = analyzeDesign(d, none);
        COMPARE_REL(a.step.stepS, figure, kExact);
        COMPARE_REL(a.step.mfu, rate, kExact);
        // A GPU with no published tables keeps them with the built-in
        // catalog too.
        if (preset.startsWith("mi300x")) {
            const Analysis builtin = analyzeDesign(d, Catalog::builtin());
            QCOMPARE(builtin.step.stepS, a.step.stepS);
            QVERIFY(!builtin.hardware.gpu.kernels);
        }
    }

    void noMeasuredGemmIsFasterThanOneWithFewerRows()
    {
        // Along m, at fixed n and k, a GEMM's time m / efficiency never
        // falls: the reader speeds up the cells the tables' noise made
        // slower than a larger one (docs/model.md, "Measured kernels"), so a serving
        // step never shortens as its batch grows.
        for (const char* id : {"gpu.a100-sxm-80gb", "gpu.h100-sxm", "gpu.h200-sxm", "gpu.b200", "gpu.gb200"}) {
            const KernelProfile* k = Catalog::builtin().kernels(id);
            for (const auto& [precision, g] : k->gemm)
                for (double n : g.axis(1))
                    for (double kk : g.axis(2)) {
                        double last = 0;
                        for (double m = 1; m <= 65536; m *= 1.5) {
                            const double t = m / g.at(m, n, kk).value;
                            QVERIFY2(t >= last * (1 - 1e-9), (std::string(id) + " " + precision).c_str());
                            last = t;
                        }
                    }
        }
    }

    // One slow cell (a tiny GEMM timed at twice its larger neighbours, as
    // H200's FP8 table times 16 x 32 x 1024) is sped up to the larger
    // problem it could run padded; the cells past it keep their
    // measurements (slowing them instead carried the one slow cell to
    // every larger shape).
    void aSlowCellIsSpedUpNotCarriedToLargerShapes()
    {
        Json doc = smallProfile();
        // Times m / efficiency: 1,000, 500 and 667 (arbitrary units).
        doc["gemm"]["bf16"] = {
            {"m", {1, 2, 4}}, {"n", {1024}}, {"k", {1024}}, {"efficiency", {{{0.001}}, {{0.004}}, {{0.006}}}}};
        std::vector<Problem> problems;
        const auto p = readKernelProfile(doc, "test.kernels.json", knownAccelerator, problems);
        QVERIFY(p && !hasErrors(problems));
        const KernelGrid& g = p->gemm.at("bf16");
        QCOMPARE(g.at(1, 1024, 1024).value, 1 / 500.0);  // 1 row in the time 2 rows take
        QCOMPARE(g.at(2, 1024, 1024).value, 0.004);
        QCOMPARE(g.at(4, 1024, 1024).value, 0.006);
        QCOMPARE(p->cellsSped, std::size_t(1));
    }

    // A serving engine's TP all-reduce comes from the profile's
    // engine_all_reduce table, scaled to the design's link as NCCL's is;
    // without that table, NCCL's all_reduce; hand-worked on one message.
    void engineAllReduceReadsItsOwnTable()
    {
        Json doc = smallProfile();
        doc["collectives"]["engine_all_reduce"] = {{"gpus", {8}}, {"bytes", {1e6, 1e9}}, {"bus_gb_per_s", {{100, 400}}}};
        std::vector<Problem> problems;
        const auto p = readKernelProfile(doc, "test.kernels.json", knownAccelerator, problems);
        QVERIFY(p && !hasErrors(problems));
        Tier nvlink;
        nvlink.gbPerSPerGpu = 1800;  // twice the measured system's link: collectives twice as fast
        nvlink.kernels = std::make_shared<const KernelProfile>(*p);
        // 1 MB on 8 GPUs: 2 x 7/8 x 1e6 bytes at 100 GB/s of the measured
        // 450 one way, on a link of 900 one way: 200 GB/s here.
        const KernelValue engine = engineAllReduceSeconds(nvlink, 1e6, 8);
        QCOMPARE_LE(std::fabs(engine.value - 2 * 7.0 / 8 * 1e6 / 200e9), 1e-15);
        QCOMPARE(engine.tier, KernelTier::Measured);
        const KernelValue nccl = collectiveSeconds(nvlink, Collective::AllReduce, 1e6, 8);
        QCOMPARE_LE(std::fabs(nccl.value - 2 * 7.0 / 8 * 1e6 / 100e9), 1e-15);  // 50 of 450 measured
        // No engine table: NCCL's.
        Tier plain = nvlink;
        plain.kernels = std::make_shared<const KernelProfile>(*readKernelProfile(smallProfile(), "t", knownAccelerator, problems));
        QCOMPARE(engineAllReduceSeconds(plain, 1e6, 8).value, collectiveSeconds(plain, Collective::AllReduce, 1e6, 8).value);
        QCOMPARE(engineAllReduceSeconds(plain, 1e6, 1).value, 0.0);
    }

    // Serving's TP all-reduces run on the engine's own kernels where the
    // profile has them: a tp 8 decode step of the 70B preset on H100
    // spends less in communication than on NCCL's, and the rest is the same.
    void servingTpAllReduceIsTheEngines()
    {
        Design d = test::loadPreset("serving-llama3-70b-dgx-h100.cluster.json");
        d.workload.serving->batch = 16;
        QCOMPARE(d.workload.parallelism.tp.value_or(1), std::int64_t(8));
        const Serving engine = analyzeServing(d, Catalog::builtin());
        const Serving nccl = analyzeServing(d, builtinWithout("/collectives/engine_all_reduce"));
        QVERIFY(engine.ok() && nccl.ok());
        QVERIFY2(engine.decode.commS < 0.6 * nccl.decode.commS,
                 qPrintable(QString("%1 vs %2").arg(engine.decode.commS).arg(nccl.decode.commS)));
        QCOMPARE(engine.decode.gemmS, nccl.decode.gemmS);
        QCOMPARE(engine.decode.attentionS, nccl.decode.attentionS);
    }

    // A GEMM with a calibrated activation scale takes the measured time
    // less the dynamic scaling step the table includes, floored at its
    // roofline; hand-worked on one shape.
    void aStaticActivationScaleTakesTheScalingStepOff()
    {
        const KernelGrid scale({{4, 8}, {1024}}, {0.001, 0.002});  // HBM efficiency over (m, k)
        const GemmRoofline gpu{1e15, 1e12};                          // 1 PFLOP/s, 1 TB/s
        // m 4, n 4096, k 1024: the scale step reads 2 x 4 x 1024 bytes at
        // 0.001 of 1 TB/s, 8.192 us; taken off a 20 us GEMM leaves 11.808 us.
        const double bytes = 4096.0 * 1024;  // fp8 weights
        const KernelValue t =
            withStaticActivationScale({20e-6, KernelTier::Measured}, scale, gpu, 4, 4096, 1024, bytes);
        QCOMPARE_LE(std::fabs(t.value - 11.808e-6), 1e-12);
        QCOMPARE(t.tier, KernelTier::Measured);
        // Between the grid's m: interpolated. A GEMM barely slower than its
        // roofline (bytes / 1 TB/s = 4.19 us) is held there, never less.
        const KernelValue floor =
            withStaticActivationScale({5e-6, KernelTier::Measured}, scale, gpu, 6, 4096, 1024, bytes);
        QCOMPARE_LE(std::fabs(floor.value - bytes / 1e12), 1e-15);
        QCOMPARE(floor.tier, KernelTier::Interpolated);
    }

    // The shipped Hopper and Blackwell profiles carry the fp8 GEMMs' dynamic
    // scale (AIConfigurator's compute_scale, from the GEMMs' own TensorRT-LLM
    // version); a served FP8 model's decode step is faster for it, and no
    // faster than its weights can be read.
    void servedFp8GemmsSkipTheDynamicScale()
    {
        for (const char* id : {"gpu.h100-sxm", "gpu.h200-sxm", "gpu.b200", "gpu.gb200"}) {
            const KernelProfile* k = Catalog::builtin().kernels(id);
            QVERIFY2(k && k->activationScale.count("fp8"), id);
            QVERIFY(k->source.find("computescale_perf.parquet") != std::string::npos);
        }
        QVERIFY(!Catalog::builtin().kernels("gpu.a100-sxm-80gb")->activationScale.count("fp8"));
        Design d = test::loadPreset("serving-llama3-70b-dgx-h100.cluster.json");
        d.workload.serving->weight_precision = "fp8";
        d.workload.serving->batch = 8;
        const Serving with = analyzeServing(d, Catalog::builtin());
        // The same H100 profile without the scale table: every GEMM as measured, dynamic scale included.
        const Serving without = analyzeServing(d, builtinWithout("/activation_scale"));
        QVERIFY(with.ok());
        QVERIFY(without.ok());
        QVERIFY(with.decode.gemmS < without.decode.gemmS * 0.95);
        // Never faster than reading the weights at the HBM's full bandwidth.
        QVERIFY(with.decode.gemmS >= with.weightsGbPerGpu * 1e9 / (with.hbmTbPerS * 1e12) * 0.9);
        QVERIFY(with.kernelSource.find("static activation scales") != std::string::npos);
        QVERIFY(without.kernelSource.find("static activation scales") == std::string::npos);
    }

    void publishedH100GemmsFollowTheirShape()
    {
        // The facts the issue rests on (docs/evidence/kernel-tables.md):
        // H100 BF16 GEMMs reach 75-85% of the dense peak at 1,024+ rows and
        // much less at 256 and below; FP8 per-tensor GEMMs keep a smaller
        // share of their doubled peak.
        const KernelProfile* k = Catalog::builtin().kernels("gpu.h100-sxm");
        QVERIFY(k);
        const KernelGrid& bf16 = *k->gemmTable("bf16");
        const double large = bf16.at(4096, 8192, 8192).value;
        QVERIFY2(large > 0.7 && large < 0.9, std::to_string(large).c_str());
        QVERIFY(bf16.at(256, 8192, 8192).value < large - 0.1);
        QVERIFY(bf16.at(1, 8192, 8192).value < 0.02);  // one row: bound by reading the weights
        const KernelGrid* fp8 = k->gemmTable("fp8");
        QVERIFY(fp8);
        QVERIFY(fp8->at(4096, 8192, 8192).value < large);
    }
};

QTEST_APPLESS_MAIN(TestKernels)
#include "tst_kernels.moc"
