// The performance model against published runs (docs/validation.md): the
// frozen calibration runs within 10% each and 5% mean; the check runs, on
// which no factor was fit, reported apart against issue 35's target; the
// error bands drawn from both; and the behaviours the issue that set them
// up asked for (a single-node 8B run in the published range, MFU falling as
// tensor-parallel communication grows). Serving runs are checks evaluated by
// the serving model, apart from the training figures and the error bands.
#include <fstream>
#include <set>

#include <QTemporaryDir>
#include <QtTest>

#include "core/design/model_presets.h"
#include "core/design/resize.h"
#include "core/format/design_reader.h"
#include "core/metrics/error_band.h"
#include "core/metrics/serving_error_band.h"
#include "core/metrics/serving_report.h"
#include "core/metrics/serving_samples.h"
#include "core/metrics/validation_runs.h"
#include "core/serving/serving.h"
#include "tests/core/hand_built.h"
#include "tests/test_support.h"

using namespace studio;

namespace {
const std::string kRuns = "tests/data/published/runs.json";
const ValidationReport& report()
{
    static const ValidationReport r =
        runValidation(test::sourcePath(QString::fromStdString(kRuns)).toStdString(), Catalog::builtin());
    return r;
}

// The check runs the model misses by more than 10% today, each with what
// docs/model.md ("Validation status") says is missing. A run leaving this
// list when the model improves makes checkRunsWithinTenPercent XPASS, so the
// list cannot go stale.
const std::map<std::string, const char*> kKnownMisses = {
    {"L2 Llama 3 405B, 16,384 GPUs (extra check)", "H100 BF16 at measured GEMM speed: too fast (as L1)"},
    {"F1 MPT-7B, FSDP, 8 H100", "no TP: the model runs a small FSDP model too fast"},
    {"F2 MPT-13B, FSDP, 64 H100", "no TP: the model runs a small FSDP model too fast"},
    {"F3 MPT-70B, FSDP + full recompute, 64 H100", "H100 BF16 at measured GEMM speed, FSDP: too fast"},
    {"L3 Llama 3 405B, 131,072-token context, CP 16", "long context: published FLOP convention unverified"},
    {"N3 Llama 3 8B, FP8, 8 H100, CP 2", "no TP, FP8: too fast"},
    {"M 1.7B GPT, Megatron-LM weak scaling, 48 H100", "no TP: too fast"},
    {"M 7.1B GPT, Megatron-LM weak scaling, 96 H100", "little TP: too fast"},
    {"M 32B GPT, Megatron-LM weak scaling, 384 H100",
     "DP reduction exposed behind one micro-batch of 1 (assumed): too slow"},
    {"E1 Mixtral 8x7B, FP8, 64 B200, EP 8",
     "mixture of experts: grouped-GEMM efficiency and expert load imbalance not modelled, too fast"},
};

// The calibration runs beyond 10%: H100's gemm_efficiency (0.65) was fit on
// L1, and the measured GEMM tables (about 0.78 of peak at L1's shapes)
// replace it; nothing is refit to L1, so what the 0.65 absorbed shows.
const std::map<std::string, const char*> kCalibrationMisses = {
    {"L1 Llama 3 405B, 8,192 GPUs",
     "H100 BF16 at measured GEMM speed: 13% of the step the factor absorbed is not accounted for"},
};

// The studio's new-design workload (Llama 3 8B, FSDP) on one DGX H100 of
// the Llama 3 base design.
Analysis singleNode8B(std::int64_t tp, std::int64_t zero, const char* recompute = "selective")
{
    DesignLoad loaded = loadDesignFile(test::sourcePath("tests/data/published/llama3-h100.cluster.json").toStdString(),
                                       Catalog::builtin());
    Design d = *loaded.design;
    const ModelPreset* preset = findModelPreset("llama3-8b");
    d.workload.model = preset->model;
    d.workload.training.global_batch = 256;
    d.workload.training.micro_batch = 1;
    d.workload.parallelism = {};
    d.workload.parallelism.tp = tp;
    d.workload.parallelism.zero = zero;
    d.workload.parallelism.recompute = recompute;
    if (auto p = resizeToGpus(d, *loaded.catalog, 8))
        qFatal("%s", p->message.c_str());
    return analyzeDesign(d, *loaded.catalog);
}

// One data row per run of `role`, named by its id.
void addRowsOf(const std::string& role)
{
    QTest::addColumn<int>("row");
    for (std::size_t i = 0; i < report().rows.size(); ++i)
        if (report().rows[i].role == role)
            QTest::newRow(report().rows[i].id.c_str()) << int(i);
}

const ServingValidationRow* servingRow(const std::string& id)
{
    for (const auto& r : report().serving)
        if (r.id == id)
            return &r;
    return nullptr;
}

// The published runs file's run `id`, edited by `edit`, alone in a runs file
// of its own (its base design by absolute path), validated.
template <typename Edit>
ValidationReport validateAlone(const std::vector<std::string>& ids, Edit edit)
{
    const QString published = test::sourcePath("tests/data/published");
    Json doc = Json::parse(test::readBytes(test::sourcePath(QString::fromStdString(kRuns))));
    Json runs = Json::array();
    for (Json run : doc["runs"])
        if (std::find(ids.begin(), ids.end(), run["id"].get<std::string>()) != ids.end()) {
            run["design"] = (published + "/").toStdString() + run["design"].get<std::string>();
            edit(run);
            runs.push_back(run);
        }
    static QTemporaryDir dir;
    const std::string path = (dir.path() + "/runs.json").toStdString();
    std::ofstream(path) << Json{{"runs", runs}}.dump(2);
    return runValidation(path, Catalog::builtin());
}

// One replica of `model` at tp on one node of the base design `base`
// (tests/data/published/), serving `prompt` in / `output` out at `batch`,
// as analyzeServing sees it: the hand-built counterpart of a serving run.
Serving serveOnBase(const char* base, const ModelSpec& model, std::int64_t tp, std::int64_t prompt,
                    std::int64_t output, std::int64_t batch, const char* kvPrecision)
{
    DesignLoad loaded = loadDesignFile(
        test::sourcePath(QString("tests/data/published/") + base).toStdString(), Catalog::builtin());
    Design d = *loaded.design;
    d.workload.kind = "serving";
    d.workload.model = model;
    ServingSpec spec;
    spec.prompt_tokens = prompt;
    spec.output_tokens = output;
    spec.batch = batch;
    spec.weight_precision = "fp8";
    spec.kv_precision = kvPrecision;
    d.workload.serving = spec;
    d.workload.parallelism = {};
    d.workload.parallelism.tp = tp;
    if (auto p = resizeToGpus(d, *loaded.catalog, 8))
        qFatal("%s", p->message.c_str());
    return analyzeServing(d, *loaded.catalog);
}

std::vector<const ValidationRow*> rowsOf(const std::string& role)
{
    std::vector<const ValidationRow*> out;
    for (const auto& r : report().rows)
        if (r.role == role)
            out.push_back(&r);
    return out;
}
}  // namespace

class TestValidation : public QObject {
    Q_OBJECT
private slots:
    void runsLoad()
    {
        for (const auto& p : report().problems)
            qWarning("%s", formatProblem(kRuns, p).c_str());
        QVERIFY(report().problems.empty());
        QCOMPARE(rowsOf("calibration").size(), std::size_t(10));  // K1, K2, K4 (x2 each), N1 (x3), L1
        QVERIFY(rowsOf("check").size() >= 16);
    }

    // The check set reaches past H100 on one fabric: Blackwell, mixture of
    // experts, RoCE, and a run that uses part of its design (64 GPUs of a
    // 72-GPU NVL72 rack) counts the GPUs it used.
    void checkRunsCoverTheIssueCategories()
    {
        std::set<std::string> parts;
        bool moe = false, roce = false;
        for (const auto* r : rowsOf("check")) {
            parts.insert(r->gpuPart);
            moe = moe || r->ep > 1;
            roce = roce || r->system.find("RoCE") != std::string::npos;
            if (r->id.rfind("B2 ", 0) == 0) {
                QCOMPARE(r->gpus, std::int64_t(64));
                QCOMPARE(r->system, std::string("GB200 NVL72 cluster"));
            }
        }
        QVERIFY(parts.count("gpu.b200") && parts.count("gpu.gb200") && parts.count("gpu.h100-sxm"));
        QVERIFY(moe);
        QVERIFY(roce);
        const std::string md = validationMarkdown(report(), "cmd");
        QVERIFY(md.find("| E1 Mixtral 8x7B, FP8, 64 B200, EP 8 | DGX B200 InfiniBand cluster | 64 | tp 1, pp 1, "
                        "ep 8, dp 64, ZeRO-1, fp8 |") != std::string::npos);
    }

    void calibrationRunsWithinTenPercent_data() { addRowsOf("calibration"); }
    void calibrationRunsWithinTenPercent()
    {
        QFETCH(int, row);
        const ValidationRow& r = report().rows[std::size_t(row)];
        if (const auto miss = kCalibrationMisses.find(r.id); miss != kCalibrationMisses.end())
            QEXPECT_FAIL("", miss->second, Continue);
        QVERIFY2(
            std::fabs(r.error()) <= 0.10,
            qPrintable(QString("%1: measured %2, predicted %3").arg(r.id.c_str()).arg(r.measured).arg(r.predicted)));
    }

    void calibrationSetWithinTarget()
    {
        QVERIFY2(report().meanAbsError <= 0.05, qPrintable(QString::number(report().meanAbsError)));
        double worst = 0;  // of the runs not listed as misses
        for (const auto* r : rowsOf("calibration"))
            if (!kCalibrationMisses.count(r->id))
                worst = std::max(worst, std::fabs(r->error()));
        QVERIFY2(worst <= 0.10, qPrintable(QString::number(worst)));
    }

    // The target is the same for the check runs; the ones the model still
    // misses are listed above with the reason.
    void checkRunsWithinTenPercent_data() { addRowsOf("check"); }
    void checkRunsWithinTenPercent()
    {
        QFETCH(int, row);
        const ValidationRow& r = report().rows[std::size_t(row)];
        if (const auto miss = kKnownMisses.find(r.id); miss != kKnownMisses.end())
            QEXPECT_FAIL("", miss->second, Continue);
        QVERIFY2(
            std::fabs(r.error()) <= 0.10,
            qPrintable(QString("%1: measured %2, predicted %3").arg(r.id.c_str()).arg(r.measured).arg(r.predicted)));
    }

    void checkRunsAreSummarisedApart()
    {
        double sum = 0, worst = 0;
        for (const auto* r : rowsOf("check")) {
            sum += std::fabs(r->error());
            worst = std::max(worst, std::fabs(r->error()));
        }
        QCOMPARE(report().checkMeanAbsError, sum / double(rowsOf("check").size()));
        QCOMPARE(report().checkMaxAbsError, worst);
        const std::string md = validationMarkdown(report(), "cmd");
        const auto calibration = md.find("## Calibration runs (frozen)"), checks = md.find("## Check runs");
        QVERIFY(calibration != std::string::npos && checks != std::string::npos && calibration < checks);
        // No check run sits in the calibration table.
        QVERIFY(md.substr(calibration, checks - calibration).find("| F1 MPT-7B") == std::string::npos);
        std::size_t within15 = 0;
        for (const auto* r : rowsOf("check"))
            within15 += std::fabs(r->error()) <= 0.15 ? 1 : 0;
        QVERIFY(md.find(std::to_string(within15) + " of " + std::to_string(rowsOf("check").size()) + " are within 15%",
                        checks) != std::string::npos);
    }

    void documentIsCurrent()
    {
        const std::string expected =
            validationMarkdown(report(), "cluster-studio validation-report " + kRuns + " > docs/validation.md");
        QVERIFY2(test::readBytes(test::sourcePath("docs/validation.md")) == expected,
                 "docs/validation.md is stale: regenerate it with the command at its top");
    }

    // The error bands' data is the current model's error on these runs.
    void errorBandDataIsCurrent()
    {
        const std::string command = "cluster-studio validation-report " + kRuns;
        const std::string expected =
            validationErrorsJson(report(), command + " --format json > resources/validation-errors.json").dump(2) +
            "\n";
        QVERIFY2(test::readBytes(test::sourcePath("resources/validation-errors.json")) == expected,
                 "resources/validation-errors.json is stale: regenerate it with the command in its 'about'");
        QCOMPARE(builtinValidationPoints().size(), report().rows.size());
    }

    void errorBandComesFromTheNearestRuns()
    {
        // One DGX H100 with FSDP: the nearest runs are the 8-GPU FSDP ones
        // on H100 (F1); the 64-GPU F2 is beyond 4x, the TP runs differ in
        // layout.
        const Analysis a = singleNode8B(1, 3);
        const auto band = errorBandFor(a, true);
        QVERIFY(band);
        QCOMPARE(band->runs, std::vector<std::string>{"F1 MPT-7B, FSDP, 8 H100"});
        const auto checks = rowsOf("check");
        const ValidationRow* f1 = *std::find_if(checks.begin(), checks.end(),
                                                [](const ValidationRow* r) { return r->id.starts_with("F1 "); });
        QCOMPARE(band->nearestLow, std::round(f1->error() * 1e4) / 1e4);
        // Widened on both sides by 1.645 x the check runs' RMS error.
        COMPARE_REL(band->spread, kErrorBandSpreads * checkRunSpread(builtinValidationPoints()), 1e-12);
        QVERIFY(band->spread > 0.2);
        COMPARE_REL(band->errorLow, band->nearestLow - band->spread, 1e-12);
        COMPARE_REL(band->errorHigh, band->nearestHigh + band->spread, 1e-12);
        // The model ran F1 fast, so the real step time is likely longer and
        // the real MFU lower than shown: the band leans that way.
        QCOMPARE(band->highFactor, 1 / (1 + band->errorLow));
        QCOMPARE(band->lowFactor, 1 / (1 + band->errorHigh));
        QVERIFY(band->highFactor - 1 > 1 - band->lowFactor);
        const auto rate = errorBandFor(a, false);
        QCOMPARE(rate->lowFactor, 1 + band->errorLow);
        const std::string tooShort = std::to_string(std::lround(-f1->error() * 100)) + "% too short";
        QVERIFY2(band->text.find(tooShort) != std::string::npos, band->text.c_str());
        QVERIFY(band->basis.find("same layout kind") != std::string::npos);
    }

    void errorBandsHoldLeaveOneOut()
    {
        // Each run's band drawn from the other runs alone: the run's own
        // error falls inside at least 80% of the time, and no band is
        // narrower than the spread on both sides.
        const auto& points = builtinValidationPoints();
        const BandCoverage c = leaveOneOutCoverage(points);
        QCOMPARE(c.runs, points.size());
        QVERIFY(c.banded >= c.runs - 4);
        QVERIFY2(c.share() >= 0.8, qPrintable(QString::number(c.share())));
        // The spread is the check runs' alone, and the markdown says the coverage.
        std::vector<ValidationPoint> calibration;
        for (const auto& p : points)
            if (p.role == "calibration")
                calibration.push_back(p);
        QCOMPARE(checkRunSpread(calibration), 0.0);
        const std::string md = validationMarkdown(report(), "cmd");
        QVERIFY(md.find(std::to_string(c.inside) + " of those fall inside theirs") != std::string::npos);
        for (const auto& p : points) {
            const ErrorBand b = nearestValidatedRuns(
                BandQuery{p.gpuPart, p.gpuPart, p.precision, p.gpus, p.tp, p.pp, p.cp, p.zero}, points);
            if (!b.runs.empty())
                QVERIFY(b.errorHigh - b.errorLow >= 2 * b.spread - 1e-12);
        }
    }

    void measuredKernelsAreReportedBesideTheFactors()
    {
        // Every training run is on an NVIDIA GPU with a published kernel
        // profile; the report gives each run's error both ways.
        for (const auto& r : report().rows) {
            QCOMPARE(r.kernels, std::string("measured"));
            QVERIFY(r.factorPredicted > 0 && r.factorPredicted != r.predicted);
        }
        const ServingValidationRow* mi300x = nullptr;
        for (const auto& r : report().serving)
            if (r.id.find("MI300X") != std::string::npos)
                mi300x = &r;
        QVERIFY(mi300x);
        QCOMPARE(mi300x->kernels, std::string("catalog factors"));
        QCOMPARE(mi300x->factorPredicted, mi300x->predicted);
        const std::string md = validationMarkdown(report(), "cmd");
        QVERIFY(md.find("## Measured kernels against the catalog factors") != std::string::npos);
        QVERIFY(md.find("| training, check | measured | ") != std::string::npos);
    }

    void errorBandSaysWhenNoRunIsNear()
    {
        std::vector<ValidationPoint> points = {{"far", "check", "gpu.h100-sxm", "bf16", 8192, 8, 16, 1, 64, 1, 0.02}};
        const Analysis a = singleNode8B(1, 3);
        auto band = errorBandFor(a, true, points);
        QVERIFY(band && band->runs.empty());
        QCOMPARE(band->text,
                 std::string("Expected error unknown: no published run within 4x of this scale (8 GPUs) on "
                             "H100 SXM 80GB; the nearest is far at 8,192 GPUs."));
        points.front().gpuPart = "gpu.mi300x";
        band = errorBandFor(a, true, points);
        QVERIFY(band->text.find("no published run on H100 SXM 80GB") != std::string::npos);
        // A run within 4x but of another layout kind counts, and says how it differs.
        points = {{"near", "check", "gpu.h100-sxm", "fp8", 32, 8, 1, 1, 4, 1, 0.1}};
        band = errorBandFor(a, true, points);
        QCOMPARE(band->runs, std::vector<std::string>{"near"});
        QVERIFY2(band->basis.find("differ in tensor parallelism, sharded weights (ZeRO-3), precision") !=
                     std::string::npos,
                 band->basis.c_str());
    }

    // Serving runs go through the serving model: a row's figure is
    // analyzeServing's for the same replica, built here by hand.
    // A served figure's band: the real figure over the model's on the
    // measured points of its GPU and engine, 10th to 90th percentile.
    void servedFiguresCarryTheMeasuredPointsBand()
    {
        // Eleven points whose real TTFT is 1x to 11x the model's (TPOT 2x
        // to 12x, tokens/s 0.1x to 1.1x): the 10th and 90th percentiles of
        // eleven sorted values are the 2nd and the 10th.
        std::vector<ServingValidationRow> rows;
        for (int i = 1; i <= 11; ++i) {
            ServingValidationRow r;
            r.system = "H100 SXM 80GB";
            r.engine = i % 2 ? "trtllm 1.0.0rc3" : "trtllm (version not stated)";  // one engine, either version
            r.predictedTtftS = 0.1, r.measuredTtftS = 0.1 * i;
            r.predictedTpotS = 0.01, r.measuredTpotS = 0.01 * (i + 1);
            r.predicted = 1000, r.measured = 100.0 * i;
            rows.push_back(r);
        }
        rows.push_back(rows.front());
        rows.back().engine = "vllm";
        const std::vector<ServingBandGroup> groups =
            parseServingBands(Json{{"serving", servingBandsJson(servingBandGroups(rows))}}.dump());
        QCOMPARE(groups.size(), std::size_t(2));
        const ServingBandGroup& trt = groups[0];
        QCOMPARE(trt.engine, std::string("trtllm"));
        QCOMPARE(trt.points, std::int64_t(11));
        QCOMPARE(trt.realOverShown[0][0], 2.0);
        QCOMPARE(trt.realOverShown[0][1], 10.0);
        QCOMPARE(trt.realOverShown[1][0], 3.0);
        QCOMPARE(trt.realOverShown[2][1], 1.0);
        const ErrorBand ttft = servingErrorBand("H100 SXM 80GB", "trtllm", ServedFigure::Ttft, groups);
        QCOMPARE(ttft.lowFactor, 2.0);
        QCOMPARE(ttft.highFactor, 10.0);
        QVERIFY(test::relClose(ttft.errorLow, -0.9, 1e-12));  // the model 90% short where the real is 10x
        QVERIFY2(ttft.text.find("On 11 measured points of H100 SXM 80GB with TensorRT-LLM") == 0, ttft.text.c_str());
        QVERIFY2(ttft.text.find("time to first token was 2.0x to 10x the model's") != std::string::npos,
                 ttft.text.c_str());
        const ErrorBand none = servingErrorBand("B200 (HGX)", "sglang", ServedFigure::Tpot, groups);
        QVERIFY(none.runs.empty());
        QCOMPARE(none.text,
                 std::string("No measured serving point of B200 (HGX) with SGLang to check the model "
                             "against (docs/validation.md)"));
        // The built-in bands are the report's, and a serving design's
        // explanations carry its GPU and engine's.
        QCOMPARE(builtinServingBands().size(), servingBandGroups(report().samples.rows).size());
        const DesignLoad l = loadDesignFile(
            test::sourcePath("presets/serving-llama3-70b-dgx-h100.cluster.json").toStdString(), Catalog::builtin());
        QVERIFY(l.ok());
        const Serving served = analyzeServing(*l.design, *l.catalog);
        for (const auto& [key, e] : explainServing(served))
            for (ServedFigure figure : kServedFigures)
                if (key == servedFigureKey(figure)) {
                    QVERIFY2(e.errorBand && !e.errorBand->runs.empty(), key.c_str());
                    QCOMPARE(e.errorBand->text, servingErrorBand("H100 SXM 80GB", "trtllm", figure).text);
                }
    }

    void servingRunsAreEvaluatedByTheServingModel()
    {
        QVERIFY(report().serving.size() >= 20);
        const ServingValidationRow* row = servingRow("S11 Llama 2 70B FP8, 2 H100, batch 1,024, 128/128");
        QVERIFY(row);
        ModelSpec llama2{};
        llama2.name = "Llama 2 70B";
        llama2.layers = 80;
        llama2.hidden = 8192;
        llama2.heads = 64;
        llama2.kv_heads = 8;
        llama2.ffn_hidden = 28672;
        llama2.ffn_type = "swiglu";
        llama2.vocab = 32000;
        llama2.seq_len = 4096;
        const Serving s = serveOnBase("llama3-h100.cluster.json", llama2, 2, 128, 128, 1024, "fp8");
        QVERIFY(s.ok());
        QCOMPARE(row->predicted, s.decode.tokensPerSPerGpu);
        QCOMPARE(row->measured, 2657.0);
        QCOMPARE(row->gpus, std::int64_t(2));
        QCOMPARE(row->batch, std::int64_t(1024));
        QCOMPARE(row->system, std::string("Llama 3 H100 RoCE cluster"));
        // A run that leaves the batch at 0 gets the largest that fits, said so.
        const ServingValidationRow* chosen = servingRow("S13 Llama 3.3 70B FP8, 1 H200, 128/2048, max load");
        QVERIFY(chosen && chosen->batchChosen && chosen->batch > 1);
        const std::string md = validationMarkdown(report(), "cmd");
        const auto section = md.find("## Serving runs (checks; no factor fit on them)");
        QVERIFY(section != std::string::npos);
        QVERIFY(md.find("| S11 Llama 2 70B FP8, 2 H100, batch 1,024, 128/128 | Llama 3 H100 RoCE cluster | 2 | tp 2, "
                        "pp 1, fp8 weights, fp8 KV, batch 1,024, 128 in / 128 out | serving.tokens_per_s_per_gpu | "
                        "2,657 | ",
                        section) != std::string::npos);
        QVERIFY(md.find("within 25%", section) != std::string::npos);
        QVERIFY(md.find("not modelled: mean input length not published", section) != std::string::npos);
    }

    // Serving rows are neither calibration nor check runs of training: the
    // training figures and the error bands' data are those of the training
    // runs alone.
    void servingRunsStayOutOfTheTrainingFigures()
    {
        for (const auto& r : report().rows)
            QVERIFY2(!servingRow(r.id), r.id.c_str());
        for (const auto& point : builtinValidationPoints())
            QVERIFY2(!servingRow(point.id), point.id.c_str());
        const ValidationReport mixed =
            validateAlone({"F1 MPT-7B, FSDP, 8 H100", "S11 Llama 2 7B FP8, 1 H100, batch 768, 128/128"}, [](Json&) {});
        const ValidationReport alone = validateAlone({"F1 MPT-7B, FSDP, 8 H100"}, [](Json&) {});
        QVERIFY(mixed.problems.empty() && alone.problems.empty());
        QCOMPARE(mixed.rows.size(), std::size_t(1));
        QCOMPARE(mixed.serving.size(), std::size_t(1));
        QCOMPARE(mixed.checkMeanAbsError, alone.checkMeanAbsError);
        QCOMPARE(mixed.checkMaxAbsError, alone.checkMaxAbsError);
        QCOMPARE(validationErrorsJson(mixed, "cmd"), validationErrorsJson(alone, "cmd"));
        const ErrorSummary& sum = report().servingSummary;
        std::vector<double> errors;
        for (const auto& r : report().serving)
            errors.push_back(r.error());
        QCOMPARE(sum.runs, report().serving.size());
        QCOMPARE(sum.meanAbs, summarizeErrors(errors).meanAbs);
        QVERIFY(sum.within10 <= sum.within15 && sum.within15 <= sum.within25 && sum.within25 <= sum.runs);
    }

    // A published disaggregated-against-aggregated comparison: the ratio is
    // the serving model's two analyses of the same design, and the split
    // serves more per GPU, as Dynamo measured (1.6x).
    void disaggregatedComparisonsAreTheModelsTwoAnalyses()
    {
        QVERIFY(report().problems.empty());
        QCOMPARE(report().comparisons.size(), std::size_t(1));
        const ServingComparisonRow& c = report().comparisons.front();
        QVERIFY(c.layout.starts_with("split: 4 prefill workers of tp 1"));
        QCOMPARE(c.versus, std::string("replicas of tp 8 x pp 1"));
        QCOMPARE(c.predicted, c.perGpu / c.versusPerGpu);
        QVERIFY2(c.predicted > 1.2 && c.predicted < 1.6, std::to_string(c.predicted).c_str());
        QCOMPARE(c.measured, 1.6);
        // A comparison without `versus` names it.
        Json doc = Json::parse(test::readBytes(test::sourcePath(QString::fromStdString(kRuns))));
        Json comparison = doc["serving_comparisons"][0];
        comparison["design"] =
            (test::sourcePath("tests/data/published") + "/").toStdString() + comparison["design"].get<std::string>();
        comparison.erase("versus");
        QTemporaryDir dir;
        const std::string path = (dir.path() + "/runs.json").toStdString();
        std::ofstream(path) << Json{{"runs", Json::array()}, {"serving_comparisons", Json::array({comparison})}}.dump(2);
        const ValidationReport missing = runValidation(path, Catalog::builtin());
        QVERIFY(missing.comparisons.empty());
        bool said = false;
        for (const Problem& p : missing.problems)
            said = said || p.pointer == "/serving_comparisons/0/versus";
        QVERIFY(said);
    }

    // AIConfigurator's measured serving points (runs.json's serving_samples):
    // every one evaluated, none with a problem; a point's measured tokens/s
    // per GPU comes from its TTFT and TPOT by the closed loop, and its
    // prediction is analyzeServing's for the same replica, built here by hand.
    void aiconfiguratorPointsAreChecksOfTheServingModel()
    {
        const ServingSamples& set = report().samples;
        QCOMPARE(set.file, std::string("aic-silicon-sample.json"));
        QVERIFY(set.source.find("silicon_sample.csv") != std::string::npos);
        QCOMPARE(set.rows.size() + set.notServed.size(), std::size_t(685));
        QVERIFY(set.notServed.empty());
        QVERIFY(!set.leftOut.empty());
        const ServingValidationRow* row = nullptr;
        for (const auto& r : set.rows)
            if (r.id == "2026_04_06_llama_3_1_70b_h200_sxm_trtllm_fp8_agg_1024x1024_c4_tp4_ep1_670")
                row = &r;
        QVERIFY(row);
        // 4 requests of 1,024 tokens each in 230.372 ms + 1,023 x 7.9817 ms, over 4 GPUs.
        QVERIFY(test::relClose(row->measured, 4.0 * 1024 / (0.230372 + 1023 * 0.0079817) / 4, 1e-9));
        QCOMPARE(row->measuredTpotS, 0.0079817);
        QCOMPARE(row->engine, std::string("trtllm (version not stated)"));
        QCOMPARE(row->concurrency, std::int64_t(4));
        QCOMPARE(row->batch, std::int64_t(4));
        QVERIFY(!row->batchChosen);
        // Llama 3.1 70B: Llama 3 70B's shape with the 128K context.
        ModelSpec llama31 = findModelPreset("llama3-70b")->model;
        llama31.name = "Llama 3.1 70B";
        llama31.seq_len = 131072;
        const Serving s = serveOnBase("hgx-h200.cluster.json", llama31, 4, 1024, 1024, 4, "bf16");
        QVERIFY(s.ok());
        QCOMPARE(row->predicted, s.decode.tokensPerSPerGpu);
        QCOMPARE(row->predictedTpotS, s.decode.tpotS);
        QCOMPARE(row->kernels, std::string("measured"));
        // An engine admits no more requests than its KV cache holds: 64 in
        // flight of 9,216 tokens on one B200 serve as many as fit.
        for (const auto& r : set.rows)
            if (r.id == "2026_04_06_llama_3_1_70b_b200_sxm_trtllm_fp8_agg_1024x8192_c64_tp1_ep1_600") {
                QCOMPARE(r.concurrency, std::int64_t(64));
                QVERIFY(r.batch < 64 && r.batch > 0);
                QVERIFY(r.batchChosen);
            }
        // The sample points stay out of the runs' serving figures.
        QCOMPARE(report().servingSummary.runs, report().serving.size());
        const std::string md = validationMarkdown(report(), "cmd");
        QVERIFY(md.find("## Measured serving points of AIConfigurator (checks)") != std::string::npos);
        QVERIFY(md.find("| H200 SXM 141GB | trtllm (version not stated) | fp8 | 72 |") != std::string::npos);
        QVERIFY(md.find("| serving, AIConfigurator's measured points | measured | 685 |") != std::string::npos);
    }

    // How the first token moves with the output length, hand-worked: two
    // points alike but for their output, 100 more output steps of 10 ms
    // over 8 requests in flight are 125 ms more between two requests' ends,
    // and the measured TTFT 125 ms more: slope 1. The model's TTFT does not
    // move: 0. A point with no neighbour adds no pair.
    void theFirstTokensSlopeWithOutputLengthIsHandWorked()
    {
        ServingSamples set;
        set.file = "x.json";
        const auto point = [](std::int64_t output, std::int64_t inFlight, double ttftMs) {
            ServingValidationRow r;
            r.system = "G";
            r.engine = "e";
            r.model = "m";
            r.weightPrecision = "fp8";
            r.promptTokens = 1000;
            r.outputTokens = output;
            r.concurrency = r.batch = inFlight;
            r.measuredTpotS = 0.010;
            r.measuredTtftS = ttftMs / 1e3;
            r.predictedTpotS = 0.008;
            r.predictedTtftS = 0.050;
            r.measured = r.predicted = 1;
            return r;
        };
        set.rows = {point(201, 8, 225), point(101, 8, 100), point(101, 16, 90)};
        const std::string md = servingSamplesMarkdown(set);
        QVERIFY2(md.find("| G | e | 1 | 1.00 | 1.00 to 1.00 | 0.00 |") != std::string::npos, md.c_str());
        // On the shipped set, TensorRT-LLM 1.0.0rc3 on H100 is the one set
        // whose first token waits for about one more request to end.
        const std::string shipped = validationMarkdown(report(), "cmd");
        QVERIFY(shipped.find("| H100 SXM 80GB | trtllm 1.0.0rc3 | 115 | 0.96 |") != std::string::npos);
    }

    // A bad sample file: a clear problem naming runs.json's entry, the
    // sample file and the JSON pointer in it; no rows from it.
    void badServingSamplesNameTheFileAndPointer_data()
    {
        QTest::addColumn<QString>("pointer");
        QTest::addColumn<QString>("value");  // JSON to put there; "" deletes it
        QTest::addColumn<QString>("error");
        QTest::newRow("tp of zero") << "/points/0/tp"
                                    << "0"
                                    << "samples.json /points/0/tp: must be at least 1, got 0";
        QTest::newRow("negative TPOT") << "/points/1/tpot_ms"
                                       << "-3"
                                       << "samples.json /points/1/tpot_ms: must be greater than 0, got -3";
        QTest::newRow("missing concurrency") << "/points/0/concurrency"
                                             << ""
                                             << "samples.json /points/0/concurrency: missing (required)";
        QTest::newRow("unknown system") << "/points/0/system"
                                        << "\"tpu_v5\""
                                        << "samples.json /points/0/system: no base design for system 'tpu_v5' in "
                                           "/systems";
        QTest::newRow("unknown model") << "/points/0/model"
                                       << "\"acme/llm\""
                                       << "samples.json /points/0/model: no model 'acme/llm' in /models";
        QTest::newRow("wrong format") << "/format"
                                      << "\"cluster-studio.kernels\""
                                      << "samples.json /format: must be 'cluster-studio.serving-samples', got "
                                         "'cluster-studio.kernels'";
    }

    void badServingSamplesNameTheFileAndPointer()
    {
        QFETCH(QString, pointer);
        QFETCH(QString, value);
        QFETCH(QString, error);
        const QString published = test::sourcePath("tests/data/published");
        Json samples = Json::parse(test::readBytes(published + "/aic-silicon-sample.json"));
        samples["points"] = Json::array({samples["points"][0], samples["points"][1]});
        for (auto& [system, design] : samples["systems"].items())
            design = (published + "/").toStdString() + design.get<std::string>();
        const Json::json_pointer ptr(pointer.toStdString());
        if (value.isEmpty())
            samples[ptr.parent_pointer()].erase(ptr.back());
        else
            samples[ptr] = Json::parse(value.toStdString());
        QTemporaryDir dir;
        std::ofstream(dir.filePath("samples.json").toStdString()) << samples.dump(1);
        std::ofstream(dir.filePath("runs.json").toStdString())
            << Json{{"serving_samples", "samples.json"}, {"runs", Json::array()}}.dump();
        const ValidationReport r = runValidation(dir.filePath("runs.json").toStdString(), Catalog::builtin());
        QVERIFY(!r.problems.empty());
        QCOMPARE(r.problems.front().pointer, std::string("/serving_samples"));
        QCOMPARE(QString::fromStdString(r.problems.front().message), error);
        QVERIFY(r.samples.rows.size() < 2);
    }

    void aMissingSampleFileSaysWhich()
    {
        QTemporaryDir dir;
        std::ofstream(dir.filePath("runs.json").toStdString())
            << Json{{"serving_samples", "nowhere.json"}, {"runs", Json::array()}}.dump();
        const ValidationReport r = runValidation(dir.filePath("runs.json").toStdString(), Catalog::builtin());
        QCOMPARE(r.problems.size(), std::size_t(1));
        QCOMPARE(r.problems.front().pointer, std::string("/serving_samples"));
        QVERIFY2(r.problems.front().message.find("nowhere.json") != std::string::npos,
                 r.problems.front().message.c_str());
    }

    // A serving run the model cannot give the figure for says which run and why.
    void badServingRunsNameTheRun()
    {
        const std::string id = "S11 Llama 2 70B FP8, 2 H100, batch 1,024, 128/128";
        auto problemOf = [&](const ValidationReport& r) {
            QVERIFY(r.serving.empty());
            QCOMPARE(r.problems.size(), std::size_t(1));
            QVERIFY2(r.problems.front().message.rfind(id + ": ", 0) == 0, r.problems.front().message.c_str());
        };
        const ValidationReport badMetric =
            validateAlone({id}, [](Json& run) { run["metric"] = "serving.no_such_figure"; });
        problemOf(badMetric);
        QCOMPARE(badMetric.problems.front().pointer, std::string("/runs/0/metric"));
        QVERIFY(badMetric.problems.front().message.find("no metric") != std::string::npos);
        const ValidationReport trainingMetric =
            validateAlone({id}, [](Json& run) { run["metric"] = "training.step_time_s"; });
        problemOf(trainingMetric);
        // 70B in bf16 on one H100: the weights alone do not fit.
        const ValidationReport unservable = validateAlone({id}, [](Json& run) {
            run["workload"]["parallelism"]["tp"] = 1;
            run["workload"]["serving"]["weight_precision"] = "bf16";
        });
        problemOf(unservable);
        QCOMPARE(unservable.problems.front().pointer, std::string("/runs/0/workload/parallelism/tp"));
        QCOMPARE(unservable.problems.front().code, std::string("out_of_memory"));
    }

    // Issue 12: a new user's one-node 8B run lands where published 8B-class
    // BF16 runs on 8 H100 do: 33.8% (TorchTitan, FSDP, 500 W parts) to
    // 46.4% (llm-foundry MPT-7B, FSDP). The model is still above it.
    void singleNode8BLandsInThePublishedRange()
    {
        const Analysis a = singleNode8B(1, 3);
        QVERIFY(a.runnable());
        QEXPECT_FAIL("", "the model runs no-TP layouts too fast (docs/model.md, Validation status)", Continue);
        QVERIFY2(a.step.mfu >= 0.33 && a.step.mfu <= 0.47, qPrintable(QString::number(a.step.mfu)));
    }

    // More tensor parallelism on the same node adds communication and
    // shrinks the GEMMs: MFU must fall with it.
    void mfuFallsAsTensorParallelCommunicationGrows()
    {
        double previous = 1, previousShare = -1;
        for (std::int64_t tp : {1, 2, 4, 8}) {
            const Analysis a = singleNode8B(tp, 1, "full");  // full recompute: every tp fits
            QVERIFY2(a.runnable(), qPrintable(QString("tp %1").arg(tp)));
            const double tpShare = [&] {
                for (const auto& part : a.step.breakdown)
                    if (part.id == StepPartId::TpComm)
                        return part.seconds / a.step.stepS;
                return 0.0;
            }();
            QVERIFY2(a.step.mfu < previous, qPrintable(QString("tp %1: %2").arg(tp).arg(a.step.mfu)));
            QVERIFY2(tpShare > previousShare, qPrintable(QString("tp %1: %2").arg(tp).arg(tpShare)));
            previous = a.step.mfu;
            previousShare = tpShare;
        }
    }
};

QTEST_APPLESS_MAIN(TestValidation)
#include "tst_validation.moc"
