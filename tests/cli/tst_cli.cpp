// The command line, run as a user runs it: the real executable, its output
// and its exit codes (0 success, 1 invalid input, 2 usage error).
#include <QtTest>

#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>

#include <nlohmann/json.hpp>

#include "tests/test_support.h"

using studio::test::sourcePath;

namespace {

struct Run {
    int code = -1;
    QString out, err;
};

Run cli(const QStringList& args)
{
    QProcess p;
    p.setProgram(QStringLiteral(STUDIO_CLI));
    p.setArguments(args);
    p.setProcessChannelMode(QProcess::SeparateChannels);
    p.start();
    p.waitForFinished(60000);
    return {p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1, QString::fromUtf8(p.readAllStandardOutput()),
            QString::fromUtf8(p.readAllStandardError())};
}

const QString kH100 = sourcePath("presets/dgx-h100-superpod-4su.cluster.json");

nlohmann::ordered_json metricsOf(const QStringList& extra)
{
    const Run r = cli(QStringList{"metrics", kH100} + extra);
    if (r.code != 0)
        qWarning("%s", qPrintable(r.err));
    return nlohmann::ordered_json::parse(r.out.toStdString());
}

}  // namespace

class TestCli : public QObject {
    Q_OBJECT
private slots:
    void validateAcceptsEveryPreset()
    {
        const Run r = cli(QStringList{"validate"} + studio::test::presetFiles());
        QCOMPARE(r.code, 0);
        QCOMPARE(r.out.count(": valid\n"), studio::test::presetFiles().size());
        QVERIFY(r.err.isEmpty());
    }

    void validatePrintsOneLinePerProblemAndExits1()
    {
        const QString bad = sourcePath("tests/data/bad/count-negative.cluster.json");
        const QString good = sourcePath("tests/data/good/small-h100-pod.cluster.json");
        const Run r = cli({"validate", good, bad});
        QCOMPARE(r.code, 1);
        const QStringList lines = r.out.split('\n', Qt::SkipEmptyParts);
        QCOMPARE(lines.size(), 2);
        QCOMPARE(lines[0], good + ": valid");
        QCOMPARE(lines[1], bad + ": /components/1/count: must be at least 1, got -3");
    }

    void validateReportsEveryProblemOfAFile()
    {
        const QString bad = sourcePath("tests/data/bad/id-with-space.cluster.json");
        const Run r = cli({"validate", bad});
        QCOMPARE(r.code, 1);
        QCOMPARE(r.out.split('\n', Qt::SkipEmptyParts).size(), 3);
    }

    void usageErrorsExit2_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("message");
        QTest::newRow("validate without files") << QStringList{"validate"} << "validate: no FILE given";
        QTest::newRow("metrics without file") << QStringList{"metrics"} << "metrics: expected one FILE";
        QTest::newRow("metrics with two files") << QStringList{"metrics", kH100, kH100} << "metrics: expected one FILE";
        QTest::newRow("unknown option") << QStringList{"metrics", kH100, "--colour"} << "Unknown option 'colour'";
        QTest::newRow("bad format") << QStringList{"metrics", kH100, "--format", "xml"}
                                    << "--format xml: expected json or text";
        QTest::newRow("set without =") << QStringList{"metrics", kH100, "--set", "/name"}
                                       << "--set /name: expected POINTER=VALUE";
        QTest::newRow("gpus not a number")
            << QStringList{"metrics", kH100, "--gpus", "many"} << "--gpus many: expected a whole number of GPUs";
        QTest::newRow("gpus zero") << QStringList{"metrics", kH100, "--gpus", "0"}
                                   << "--gpus 0: expected a whole number of GPUs";
        QTest::newRow("report without -o") << QStringList{"report", kH100} << "report: expected -o OUT.pdf";
        QTest::newRow("report page size")
            << QStringList{"report", kH100, "-o", "x.pdf", "--page", "a3"} << "--page a3: expected a4 or letter";
        QTest::newRow("compare one file") << QStringList{"compare", kH100} << "compare: expected 2 to 4 FILEs, got 1";
        QTest::newRow("compare five files")
            << QStringList{"compare", kH100, kH100, kH100, kH100, kH100} << "compare: expected 2 to 4 FILEs, got 5";
        QTest::newRow("compare output type")
            << QStringList{"compare", kH100, kH100, "-o", "x.xlsx"} << "-o x.xlsx: expected a .pdf or .csv file";
        QTest::newRow("search top") << QStringList{"search", kH100, "--top", "0"}
                                    << "--top 0: expected a whole number from 1 to 10000";
        QTest::newRow("search objective") << QStringList{"search", kH100, "--objective", "money"}
                                          << "--objective money: expected time, energy, days or cost";
        QTest::newRow("search format") << QStringList{"search", kH100, "--format", "xml"}
                                       << "--format xml: expected json, text or csv";
        QTest::newRow("search batch range")
            << QStringList{"search", kH100, "--batch-range", "512"} << "--batch-range 512: expected MIN-MAX";
        QTest::newRow("search within") << QStringList{"search", kH100, "--within", "tp"}
                                       << "--within tp: expected AXIS=TIER";
        QTest::newRow("search fix two values")
            << QStringList{"search", kH100, "--fix", "tp=4,8"} << "--fix tp=4,8: expected AXIS=VALUE, e.g. --fix tp=8";
        QTest::newRow("search allow empty value")
            << QStringList{"search", kH100, "--allow", "recompute=none,"}
            << "--allow recompute=none,: expected AXIS=V1,V2,..., e.g. --allow recompute=none,full";
        QTest::newRow("search axis twice") << QStringList{"search", kH100, "--fix", "tp=8", "--allow", "tp=4,8"}
                                           << "--allow tp=4,8: tp is constrained twice";
        QTest::newRow("export without --to")
            << QStringList{"export", kH100} << "export: expected --to netbox|slurm|calculon";
        QTest::newRow("export to what") << QStringList{"export", kH100, "--to", "excel"}
                                        << "--to excel: expected netbox|slurm|calculon";
        QTest::newRow("export netbox without a folder")
            << QStringList{"export", kH100, "--to", "netbox"}
            << "export --to netbox: expected -o DIR, the folder its files go into";
        QTest::newRow("compare normalize") << QStringList{"compare", kH100, kH100, "--normalize", "money"}
                                           << "--normalize money: expected capex or power";
        QTest::newRow("compare baseline") << QStringList{"compare", kH100, kH100, "--baseline", "3"}
                                          << "--baseline 3: expected a position from 1 to 2";
        // A mistyped verb fails at once (a script must not wait on a window),
        // naming the verbs and the nearest one.
        QTest::newRow("mistyped verb") << QStringList{"metirc", kH100}
                                       << "unknown verb 'metirc' (did you mean 'metrics'?); the verbs are validate, "
                                          "metrics, search";
        QTest::newRow("unknown verb") << QStringList{"frobnicate"} << "unknown verb 'frobnicate'; the verbs are";
    }
    void usageErrorsExit2()
    {
        QFETCH(QStringList, args);
        QFETCH(QString, message);
        const Run r = cli(args);
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains(message), qPrintable(r.err));
        QVERIFY(r.out.isEmpty());
    }

    void helpAndVersion()
    {
        Run r = cli({"--help"});
        QCOMPARE(r.code, 0);
        QVERIFY(r.out.contains("cluster-studio metrics FILE"));
        r = cli({"metrics", "--help"});
        QCOMPARE(r.code, 0);
        QVERIFY(r.out.contains("--gpus <N>"));
        r = cli({"--version"});
        QCOMPARE(r.code, 0);
        QVERIFY(QRegularExpression("^cluster-studio \\d+\\.\\d+\\.\\d+\n$").match(r.out).hasMatch());
    }

    void metricsPrintsTheInventory()
    {
        const auto m = metricsOf({});
        const auto& inv = m["inventory"];
        QCOMPARE(inv["gpus"].get<int>(), 1024);
        QCOMPARE(inv["nodes"].get<int>(), 128);
        QCOMPARE(inv["racks"].get<int>(), 64);
        QCOMPARE(inv["nics"].get<int>(), 1280);
        QCOMPARE(inv["gpu_part"].get<std::string>(), std::string("gpu.h100-sxm"));
        QCOMPARE(inv["switches"]["leaf"].get<int>(), 32 + 11);  // compute + storage fabric
        QCOMPARE(inv["storage_systems"].get<int>(), 12);
        QVERIFY(inv["cables"]["total"].get<int>() > 1024);
        QVERIFY(m["warnings"].is_array());
    }

    // The keys issue 3 fixes, each with its type.
    void metricsHasEveryAnalysisKey()
    {
        const auto m = metricsOf({});
        const char* numbers[] = {"/compute/peak_tflops_per_gpu/bf16",
                                 "/compute/cluster_peak_pflops/bf16",
                                 "/compute/hbm_tb_per_s",
                                 "/compute/hbm_gb",
                                 "/compute/ridge_flop_per_byte",
                                 "/training/step_time_s",
                                 "/training/tokens_per_s",
                                 "/training/tflops_per_gpu_model",
                                 "/training/tflops_per_gpu_hardware",
                                 "/training/mfu",
                                 "/training/hfu",
                                 "/training/days_to_train",
                                 "/training/memory_gb_per_gpu/total",
                                 "/power/it_kw",
                                 "/power/facility_kw",
                                 "/power/pue",
                                 "/power/max_rack_kw",
                                 "/power/racks_over_cooling_limit",
                                 "/power/energy_mwh_per_year",
                                 "/power/training_run_mwh",
                                 "/reliability/cluster_mtbf_h",
                                 "/reliability/p_failure_24h",
                                 "/reliability/failures_per_day",
                                 "/reliability/checkpoint_gb",
                                 "/reliability/checkpoint_write_s",
                                 "/reliability/checkpoint_interval_min",
                                 "/reliability/goodput",
                                 "/reliability/expected_interruptions"};
        for (const char* ptr : numbers) {
            const nlohmann::ordered_json::json_pointer p(ptr);
            QVERIFY2(m.contains(p) && m.at(p).is_number(), ptr);
            QVERIFY2(m.at(p).get<double>() >= 0, ptr);
        }
        QVERIFY(m["training"]["fits_in_hbm"].is_boolean());
        QVERIFY(m["training"]["breakdown"].size() > 5);
        for (const auto& part : m["training"]["breakdown"])
            QVERIFY(part["name"].is_string() && part["seconds"].is_number());
        // Parts and waterfall bars carry keys; the labels are for people.
        QCOMPARE(m["training"]["breakdown"][5]["key"].get<std::string>(), std::string("tp_comm"));
        QCOMPARE(m["training"]["breakdown"][5]["name"].get<std::string>(), std::string("TP communication"));
        QCOMPARE(m["training"]["waterfall"][1]["key"].get<std::string>(), std::string("kernel_efficiency"));
        QVERIFY(m["explain"].contains("training.waterfall.pipeline_bubble"));
        QVERIFY(m["hierarchy"].size() >= 4);
        for (const auto& tier : m["hierarchy"])
            for (const char* key : {"tier", "gb_per_s_per_gpu", "latency_us", "scope_gpus", "axes"})
                QVERIFY2(tier.contains(key), key);
        QCOMPARE(m["hierarchy"][1]["tier"].get<std::string>(), std::string("nvlink"));
        QCOMPARE(m["hierarchy"][1]["axes"][0].get<std::string>(), std::string("tp"));
        QVERIFY(m["warnings"].is_array());
        // Every headline number can explain itself.
        QVERIFY(m["explain"]["training.step_time_s"]["formula"].is_string());
        QVERIFY(m["explain"]["training.step_time_s"]["inputs"].size() > 3);
        // And carries its expected error from the nearest published runs:
        // the 1,024-GPU H100 preset is nearest the Megatron-LM 2,304-GPU run.
        const auto& band = m["explain"]["training.mfu"]["error_band"];
        QCOMPARE(band["runs"].size(), std::size_t(1));
        QVERIFY(band["runs"][0].get<std::string>().starts_with("M 177B"));
        QVERIFY(band["basis"].get<std::string>().find("within 4x of 1,024 GPUs") != std::string::npos);
        QCOMPARE(band["real_over_shown"][0].get<double>(), 1 + band["model_error"][0].get<double>());
        QVERIFY(m["explain"]["training.step_time_s"].contains("error_band"));
        QVERIFY(!m["explain"]["power.it_kw"].contains("error_band"));  // not from the step time
    }

    void aScaleNoPublishedRunReachesSaysSo()
    {
        // The largest published H100 run has 16,384 GPUs; 131,072 is 8x it.
        const auto m = metricsOf({"--gpus", "131072", "--set", "/workload/training/global_batch=16384"});
        const auto& band = m["explain"]["training.mfu"]["error_band"];
        QVERIFY(band["runs"].empty());
        QVERIFY(!band.contains("model_error"));
        QCOMPARE(band["text"].get<std::string>(),
                 std::string("Expected error unknown: no published run within 4x of this scale (131,072 GPUs) on "
                             "H100 SXM 80GB; the nearest is L2 Llama 3 405B, 16,384 GPUs (extra check) at 16,384 "
                             "GPUs."));
    }

    void layoutProblemsAreWarningsWithNumbers()
    {
        const auto m = metricsOf({"--set", "/workload/parallelism/dp=3"});
        bool found = false;
        for (const auto& w : m["warnings"])
            if (w["code"] == "layout_mismatch") {
                found = true;
                QCOMPARE(w["severity"].get<std::string>(), std::string("warning"));
                QVERIFY(w["message"].get<std::string>().find("= 96 GPUs, but the design has 1,024") !=
                        std::string::npos);
            }
        QVERIFY(found);
    }

    void validationReportPrintsTheTable()
    {
        const Run r = cli({"validation-report", sourcePath("tests/data/published/runs.json")});
        QCOMPARE(r.code, 0);
        QVERIFY(r.out.startsWith("# Validation"));
        QVERIFY(r.out.contains(
            "| K1 full recompute | Selene-style DGX A100 cluster | 8 | tp 8, pp 1, dp 1, fp16 | step time | 1.42 |"));
        QVERIFY(r.out.contains("## Check runs (no factor fit on them)"));
        QCOMPARE(cli({"validation-report"}).code, 2);
        // As json: the error bands' data, one record per run.
        const Run j = cli({"validation-report", sourcePath("tests/data/published/runs.json"), "--format", "json"});
        QCOMPARE(j.code, 0);
        const auto runs = nlohmann::ordered_json::parse(j.out.toStdString())["runs"];
        QCOMPARE(runs[0]["id"].get<std::string>(), std::string("K1 full recompute"));
        QCOMPARE(runs[0]["gpu_part"].get<std::string>(), std::string("gpu.a100-sxm-80gb"));
        // The same error the table prints for the run, to its 0.1%.
        const QString row = r.out.section("| K1 full recompute |", 1, 1).section('\n', 0, 0);
        const double printed = row.section('|', -2, -2).trimmed().chopped(1).toDouble();  // "+1.2%"
        QCOMPARE(std::round(runs[0]["step_error"].get<double>() * 1000) / 10, printed);
        const Run bad = cli({"validation-report", sourcePath("tests/data/published/runs.json"), "--format", "csv"});
        QCOMPARE(bad.code, 2);
        QVERIFY(bad.err.contains("--format csv: expected markdown or json"));
    }

    void kernelsTakesAProfileOrNone()
    {
        // --kernels FILE: the profile tools/collect-kernels.py wrote for an
        // H100 replaces the published one; none: every kernel at the
        // catalog's factors, the model before kernel profiles.
        const QString fixture = sourcePath("tests/data/kernels/collected-fixture.kernels.json");
        const double published = metricsOf({})["training"]["step_time_s"].get<double>();
        const double own = metricsOf({"--kernels", fixture})["training"]["step_time_s"].get<double>();
        const double none = metricsOf({"--kernels", "none"})["training"]["step_time_s"].get<double>();
        QVERIFY(published != own && published != none && own != none);
        // The GEMMs' explanation names the profile it used.
        const auto m = metricsOf({"--kernels", fixture});
        const auto& inputs = m["explain"]["training.step_time_s"]["inputs"];
        bool cited = false;
        for (const auto& in : inputs)
            if (in["name"] == "GEMMs per step")
                cited = in["source"].get<std::string>().find("collected-fixture.kernels.json") != std::string::npos;
        QVERIFY(cited);
    }

    void kernelsRefusesABadProfileNamingTheField()
    {
        QTemporaryDir dir;
        const QString bad = dir.filePath("my.kernels.json");
        QFile f(bad);
        QVERIFY(f.open(QIODevice::WriteOnly));
        QByteArray text = QByteArray::fromStdString(
            studio::test::readBytes(sourcePath("tests/data/kernels/collected-fixture.kernels.json")));
        text.replace("\"parts\": [\"gpu.h100-sxm\"]", "\"parts\": [\"gpu.h900\"]");
        f.write(text);
        f.close();
        for (const char* verb : {"metrics", "search", "sweep", "sensitivity", "kernel-shapes"}) {
            const Run r = cli({verb, kH100, "--kernels", bad});
            QCOMPARE(r.code, 1);
            QVERIFY2(r.err.contains(bad + ": /parts/0: unknown GPU 'gpu.h900'"), qPrintable(r.err));
            QVERIFY(r.out.isEmpty());
        }
        const Run missing = cli({"metrics", kH100, "--kernels", dir.filePath("nothing.json")});
        QCOMPARE(missing.code, 1);
        QVERIFY2(missing.err.contains("nothing.json"), qPrintable(missing.err));
    }

    void kernelShapesListsEveryGemmForwardAndBackward()
    {
        const Run r = cli({"kernel-shapes", kH100});
        QCOMPARE(r.code, 0);
        const auto shapes = nlohmann::ordered_json::parse(r.out.toStdString());
        QCOMPARE(shapes["format"].get<std::string>(), std::string("cluster-studio.kernel-shapes"));
        QCOMPARE(shapes["gpu_part"].get<std::string>(), std::string("gpu.h100-sxm"));
        // The preset trains Llama 3 70B (hidden 8,192, 8 KV heads of 128)
        // with micro-batches of one 8,192-token sequence on tp 8: the QKV
        // projection's forward is 8,192 x 8,192 by 8,192 x (8,192 + 2 x 1,024) / 8,
        // and its two backward GEMMs are there at their own shapes.
        std::map<std::string, std::array<std::int64_t, 3>> qkv;
        for (const auto& g : shapes["gemm"])
            if (g["name"] == "QKV projection")
                qkv[g["pass"].get<std::string>()] = {g["m"].get<std::int64_t>(), g["n"].get<std::int64_t>(),
                                                     g["k"].get<std::int64_t>()};
        QCOMPARE(qkv.size(), std::size_t(3));
        QCOMPARE(qkv["forward"], (std::array<std::int64_t, 3>{8192, 1280, 8192}));
        QCOMPARE(qkv["backward data"], (std::array<std::int64_t, 3>{8192, 8192, 1280}));
        QCOMPARE(qkv["backward weight"], (std::array<std::int64_t, 3>{8192, 1280, 8192}));
        QVERIFY(!shapes["attention"].empty());
        QVERIFY(!shapes["memory"].empty());
        QCOMPARE(shapes["collectives"][0]["gpus"].get<int>(), 8);
    }

    void setChangesWhatItNames()
    {
        auto m = metricsOf({"--set", "/components/1/count=8"});  // the scalable unit
        QCOMPARE(m["inventory"]["gpus"].get<int>(), 2048);
        m = metricsOf({"--set", "/components/4/count=4", "--set", "/name=Half-populated"});  // GPUs per node
        QCOMPARE(m["inventory"]["gpus"].get<int>(), 512);
        QCOMPARE(m["design"]["name"].get<std::string>(), std::string("Half-populated"));
    }

    // The search's JSON keys (issue 13), and every candidate's layout fed
    // back through `metrics --set` gives the candidate's own step time.
    void searchCandidatesReproduceThroughMetrics()
    {
        const Run r = cli({"search", kH100, "--top", "3"});
        QCOMPARE(r.code, 0);
        const auto j = nlohmann::ordered_json::parse(r.out.toStdString());
        for (const char* key : {"evaluated", "feasible", "rejected", "current", "candidates"})
            QVERIFY2(j.contains(key), key);
        for (const char* key : {"out_of_memory", "indivisible", "forbidden_tier"})
            QVERIFY2(j["rejected"].contains(key), key);
        QVERIFY(j["current"]["rank"].get<int>() >= 1);
        QCOMPARE(j["candidates"].size(), std::size_t(3));
        for (const auto& c : j["candidates"]) {
            QStringList sets;
            for (const auto& [key, value] : c["layout"].items())
                sets << "--set" << QString::fromStdString("/workload/parallelism/" + key + "=" + value.dump());
            // micro_batch is a training field, not a parallelism one.
            const int at = int(sets.indexOf(QRegularExpression(".*/micro_batch=.*")));
            sets[at].replace("/parallelism/", "/training/");
            const auto m = metricsOf(sets);
            QCOMPARE(m["training"]["step_time_s"].get<double>(), c["step_time_s"].get<double>());
            QCOMPARE(m["training"]["memory_gb_per_gpu"]["total"].get<double>(), c["memory_gb_per_gpu"].get<double>());
        }
    }

    void searchTextCsvAndErrors()
    {
        Run r = cli({"search", kH100, "--format", "text", "--top", "2", "--objective", "energy"});
        QCOMPARE(r.code, 0);
        QVERIFY2(r.out.contains("Objective: energy (J/token)"), qPrintable(r.out));
        QVERIFY2(
            QRegularExpression("Current: tp 8 · pp 4 · v 5 · dp 32 .* - #[0-9,]+ of [0-9,]+").match(r.out).hasMatch(),
            qPrintable(r.out));
        r = cli({"search", kH100, "--format", "csv", "--top", "2", "--gpus", "512"});
        QCOMPARE(r.code, 0);
        const auto rows = studio::test::parseCsv(r.out);
        QCOMPARE(rows.size(), 3);
        QCOMPARE(rows[0][1], QString("tp"));
        const int gpus = rows[1][1].toInt() * rows[1][2].toInt() * rows[1][3].toInt() * rows[1][4].toInt();
        QCOMPARE(gpus, 512);
        r = cli({"search", kH100, "--gpus", "2048"});
        QCOMPARE(r.code, 1);
        QVERIFY2(r.err.contains("cannot search 2,048 GPUs: the design has 1,024"), qPrintable(r.err));
        r = cli({"search", kH100, "--fix", "tq=8"});
        QCOMPARE(r.code, 1);
        QVERIFY2(r.err.contains("no layout axis 'tq' to constrain"), qPrintable(r.err));
        r = cli({"search", kH100, "--format", "text", "--top", "2", "--fix", "tp=2"});
        QCOMPARE(r.code, 0);
        QVERIFY2(r.out.contains("Within what the software runs: tp 2\n"), qPrintable(r.out));
        QVERIFY2(r.out.contains("not ranked: outside what the software runs: tp 8 (allowed: 2)"), qPrintable(r.out));
        r = cli({"search", kH100, "--within", "tp=rack"});
        QCOMPARE(r.code, 1);
        QVERIFY2(r.err.contains("no tier 'rack' to keep tp within"), qPrintable(r.err));
        // The largest range --batch-range parses never ended (fuzz_search).
        r = cli({"search", kH100, "--batch-range", "1-9223372036854775807"});
        QCOMPARE(r.code, 1);
        QVERIFY2(r.err.contains("goes past 1,000,000,000 sequences, the largest global batch"), qPrintable(r.err));
    }

    // `search` on a serving design (issue 37): the training search's JSON
    // shape plus each candidate's mode, latencies, KV move and rates; an
    // aggregated candidate fed back through `metrics --set` gives its own
    // TTFT, TPOT and tokens/s; text and CSV carry the same rows.
    void searchOnAServingDesign()
    {
        const QString serving = sourcePath("presets/serving-llama3-70b-dgx-h100.cluster.json");
        Run r = cli({"search", serving, "--top", "3"});
        QCOMPARE(r.code, 0);
        const auto j = nlohmann::ordered_json::parse(r.out.toStdString());
        QCOMPARE(j["objective"].get<std::string>(), std::string("tokens_per_s_per_gpu"));
        QVERIFY(j["constraints"].is_object() && j["constraints"].empty());
        for (const char* key : {"gpus", "space", "evaluated", "feasible", "pruned", "rejected", "current", "candidates",
                                "best_aggregated", "best_disaggregated", "verdict"})
            QVERIFY2(j.contains(key), key);
        QVERIFY(j["current"]["feasible"].get<bool>());
        QVERIFY(!j["candidates"].empty());
        double previous = 1e300;
        for (const auto& c : j["candidates"]) {
            const std::string mode = c["mode"].get<std::string>();
            QVERIFY2(mode == "aggregated" || mode == "disaggregated", mode.c_str());
            for (const char* key : {"ttft_s", "tpot_s", "kv_transfer_s", "tokens_per_s_per_gpu", "tokens_per_s_per_kw"})
                QVERIFY2(c[key].is_number(), key);
            const double perGpu = c["tokens_per_s_per_gpu"].get<double>();
            QVERIFY(perGpu <= previous);  // best first
            previous = perGpu;
            QCOMPARE(c["kv_transfer_s"].get<double>() > 0, mode == "disaggregated");
            if (mode != "aggregated")
                continue;
            QStringList sets;
            for (const char* key : {"tp", "pp", "ep"})
                sets << "--set" << QString("/workload/parallelism/%1=%2").arg(key).arg(c["layout"][key].get<int>());
            for (const char* key : {"weight_precision", "kv_precision"})
                sets << "--set"
                     << QString("/workload/serving/%1=\"%2\"")
                            .arg(key, QString::fromStdString(c[key].get<std::string>()));
            const Run m = cli(QStringList{"metrics", serving} + sets);
            QCOMPARE(m.code, 0);
            const auto s = nlohmann::ordered_json::parse(m.out.toStdString())["serving"];
            QCOMPARE(s["batch"].get<std::int64_t>(), c["batch"].get<std::int64_t>());
            QCOMPARE(s["ttft_s"].get<double>(), c["ttft_s"].get<double>());
            QCOMPARE(s["tpot_s"].get<double>(), c["tpot_s"].get<double>());
        }
        r = cli({"search", serving, "--format", "csv", "--top", "3"});
        QCOMPARE(r.code, 0);
        const auto rows = studio::test::parseCsv(r.out);
        QCOMPARE(rows.size(), qsizetype(j["candidates"].size() + 1));
        QCOMPARE(rows[0][1], QString("mode"));
        QCOMPARE(rows[0].last(), QString("tokens_per_s_per_kw"));
        // The CSV writes 8 significant digits.
        QVERIFY(qAbs(rows[1].last().toDouble() / j["candidates"][0]["tokens_per_s_per_kw"].get<double>() - 1) < 1e-7);
        r = cli({"search", serving, "--format", "text", "--top", "3"});
        QCOMPARE(r.code, 0);
        QVERIFY2(r.out.contains("tok/s/kW"), qPrintable(r.out));
        QVERIFY2(r.out.contains(QString::fromStdString(j["verdict"].get<std::string>())), qPrintable(r.out));
    }

    // The sweep's JSON keys (issue 14); a point's layout fed back through
    // `metrics --gpus N --set` gives the point's own tokens/s.
    void sweepPointsReproduceThroughMetrics()
    {
        const Run r = cli({"sweep", kH100, "--to", "4096"});
        QCOMPARE(r.code, 0);
        const auto j = nlohmann::ordered_json::parse(r.out.toStdString());
        QVERIFY(j["amdahl_serial_fraction"].is_number());
        QCOMPARE(j["scaling"].get<std::string>(), std::string("strong"));
        QCOMPARE(j["points"].back()["gpus"].get<int>(), 4096);
        const auto& p = j["points"].back();
        for (const char* key :
             {"gpus", "layout", "tokens_per_s", "mfu", "step_time_s", "days_to_train", "cluster_mtbf_h",
              "expected_interruptions", "goodput", "facility_kw", "training_run_mwh", "run_cost_usd"})
            QVERIFY2(p.contains(key), key);
        QStringList args = {"--gpus", "4096"};
        for (const auto& [key, value] : p["layout"].items())
            args << "--set"
                 << QString::fromStdString((key == "micro_batch" ? "/workload/training/" : "/workload/parallelism/") +
                                           key + "=" + value.dump());
        const auto m = metricsOf(args);
        QCOMPARE(m["training"]["tokens_per_s"].get<double>(), p["tokens_per_s"].get<double>());
        QCOMPARE(m["reliability"]["cluster_mtbf_h"].get<double>(), p["cluster_mtbf_h"].get<double>());
    }

    void sweepTextCsvAndErrors()
    {
        Run r = cli({"sweep", kH100, "--to", "2048", "--weak", "--format", "text"});
        QCOMPARE(r.code, 0);
        QVERIFY2(r.out.startsWith("Weak scaling by 'Scalable unit' (256 GPUs each)"), qPrintable(r.out));
        QVERIFY(r.out.contains("this design"));
        r = cli({"sweep", kH100, "--from", "512", "--to", "2048", "--format", "csv"});
        QCOMPARE(r.code, 0);
        const auto rows = studio::test::parseCsv(r.out);
        QCOMPARE(rows[0][0], QString("gpus"));
        QCOMPARE(rows[1][0], QString("512"));
        QCOMPARE(rows.back()[0], QString("2048"));
        r = cli({"sweep", kH100, "--to", "200000"});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains("--to 200000: expected a whole number of GPUs from 1 to 131,072"), qPrintable(r.err));
        r = cli({"sweep", kH100, "--from", "4096", "--to", "1024"});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains("--from 4,096 is above --to 1,024"), qPrintable(r.err));
        QCOMPARE(cli({"sweep", kH100, "--format", "xml"}).code, 2);
    }

    void sensitivityTornadoAndErrors()
    {
        Run r = cli({"sensitivity", kH100});
        QCOMPARE(r.code, 0);
        const auto j = nlohmann::ordered_json::parse(r.out.toStdString());
        QVERIFY(j["binding"].get<std::string>().rfind("Days to train are most sensitive to ", 0) == 0);
        const auto& inputs = j["inputs"];
        QVERIFY(inputs.size() >= 12);
        for (const char* key : {"name", "low", "high", "days_low", "days_high", "cost_low", "cost_high"})
            QVERIFY2(inputs[0].contains(key), key);
        for (std::size_t i = 1; i < inputs.size(); ++i)
            QVERIFY(inputs[i - 1]["effect_days"].get<double>() >= inputs[i]["effect_days"].get<double>());
        // The electricity price moves the cost by exactly its change.
        for (const auto& in : inputs)
            if (in["name"] == "electricity_price")
                QVERIFY(qAbs(in["cost_high"].get<double>() / j["cost_usd"].get<double>() - 1.5) < 1e-12);
        // The what-if upgrades, each reproducible with `metrics --set`: liquid
        // cooling is the liquid rack, the liquid facility and its PUE.
        const auto& upgrades = j["upgrades"];
        QCOMPARE(upgrades.size(), std::size_t(4));
        QCOMPARE(upgrades[0]["name"], "next_gpu");
        QCOMPARE(upgrades[3]["name"], "liquid_cooling");
        for (const char* key : {"title", "available", "why_not", "changes", "gpus", "tokens_per_s", "days_to_train",
                                "run_cost_usd", "capex_usd", "cost_complete", "facility_kw", "best_layout"})
            QVERIFY2(upgrades[3].contains(key), key);
        const Run liquid = cli({"metrics", kH100, "--set", "/facility/pue=1.06", "--set",
                                "/facility/cooling=\"liquid\"", "--set", "/components/2/part=\"rack.liquid-48u\""});
        QCOMPARE(liquid.code, 0);
        const auto m = nlohmann::ordered_json::parse(liquid.out.toStdString());
        QCOMPARE(upgrades[3]["facility_kw"].get<double>(), m["power"]["facility_kw"].get<double>());
        QCOMPARE(upgrades[3]["tokens_per_s"].get<double>(), m["training"]["tokens_per_s"].get<double>());
        // What the upgrade costs to buy; the liquid rack has no price, so
        // the capex is over the priced parts and says so.
        QCOMPARE(upgrades[3]["capex_usd"].get<double>(), m["cost"]["capex_usd"]["typical"].get<double>());
        QCOMPARE(upgrades[3]["cost_complete"].get<bool>(), false);
        QCOMPARE(upgrades[1]["cost_complete"].get<bool>(), true);
        r = cli({"sensitivity", kH100, "--format", "text"});
        QCOMPARE(r.code, 0);
        QVERIFY2(r.out.contains("Change from today: days to train at each change;"), qPrintable(r.out));
        QVERIFY2(r.out.contains("run cost with ownership $"), qPrintable(r.out));
        QVERIFY2(r.out.contains("What-if upgrades, each against today's design:"), qPrintable(r.out));
        QVERIFY2(r.out.contains("Next GPU generation: GPUs: 1,024 H100 SXM 80GB -> B200 (HGX)"), qPrintable(r.out));
        r = cli({"sensitivity", kH100, "--set", "/workload/parallelism/tp=3"});
        QCOMPARE(r.code, 1);
        QVERIFY2(r.err.contains("not runnable: "), qPrintable(r.err));
        QCOMPARE(cli({"sensitivity", kH100, "--format", "csv"}).code, 2);
    }

    // A serving workload: `metrics` adds the serving object with the issue's
    // keys; what cannot be served is an error at its pointer, exit 1.
    void servingMetricsAndErrors()
    {
        const QString file = sourcePath("tests/data/good/serving-70b-h100-node.cluster.json");
        Run r = cli({"metrics", file});
        QCOMPARE(r.code, 0);
        const auto j = nlohmann::ordered_json::parse(r.out.toStdString());
        const auto& s = j["serving"];
        for (const char* key : {"prefill_s", "ttft_s", "tpot_s", "tokens_per_s_per_replica", "tokens_per_s_per_gpu",
                                "tokens_per_s_per_user", "batch", "max_batch", "kv_cache_gb_per_replica",
                                "weights_gb_per_gpu", "mfu", "concurrent_requests", "replicas_needed", "gpus_needed",
                                "meets_latency_targets", "kwh_per_million_tokens", "usd_per_million_tokens", "curve"})
            QVERIFY2(s.contains(key), key);
        for (const char* key : {"batch", "tokens_per_s_per_gpu", "tokens_per_s_per_user", "tpot_s"})
            QVERIFY2(s["curve"][0].contains(key), key);
        QVERIFY(s["meets_latency_targets"].get<bool>());
        QVERIFY(s["tpot_s"].get<double>() <= 0.05);
        QCOMPARE(s["tokens_per_s_per_gpu"].get<double>(), s["tokens_per_s_per_replica"].get<double>() / 8);
        QCOMPARE(j["training"]["runnable"], false);
        // Each serving figure explains itself, as the studio's rows do.
        for (const char* key : {"serving.ttft_s", "serving.tpot_s", "serving.tokens_per_s_per_gpu", "serving.batch"}) {
            QVERIFY2(j["explain"].contains(key), key);
            QVERIFY2(!j["explain"][key]["formula"].get<std::string>().empty(), key);
            QVERIFY2(!j["explain"][key]["inputs"].empty(), key);
        }
        QVERIFY(j["explain"]["serving.tpot_s"]["formula"].get<std::string>().find("the decode step alone") !=
                std::string::npos);
        QVERIFY(cli({"metrics", file, "--format", "text"}).out.contains("tokens_per_s_per_user"));
        // The first token as the users' requests line up: the engine
        // replayed, as the Serving panel and the review give it.
        const auto& arrivals = j["explain"]["serving.ttft_s"]["arrival_band"];
        const double spread = arrivals["spread_s"].get<double>(), together = arrivals["together_s"].get<double>();
        QVERIFY(spread > 0 && together > 0 && std::isfinite(spread) && std::isfinite(together));
        QCOMPARE(arrivals["measured_rounds"].get<int>(), 20);
        QCOMPARE(arrivals["warmup_rounds"].get<int>(), 2);
        const QString arrivalText = QString::fromStdString(arrivals["text"].get<std::string>());
        QVERIFY2(arrivalText.startsWith("As the users' requests line up: ") &&
                     arrivalText.contains(" spread evenly, ") &&
                     arrivalText.contains(" sent together (this engine replayed step by step, 20 rounds after 2"),
                 qPrintable(arrivalText));
        // One engine is replayed: a disaggregated layout has none.
        const auto split = nlohmann::ordered_json::parse(
            cli({"metrics", sourcePath("tests/data/good/serving-70b-disaggregated-2node.cluster.json")})
                .out.toStdString());
        QVERIFY(split["explain"].contains("serving.ttft_s"));
        QVERIFY(!split["explain"]["serving.ttft_s"].contains("arrival_band"));
        // What cannot be served, at its pointer.
        r = cli({"metrics", file, "--set", "/workload/serving/batch=5000"});
        QCOMPARE(r.code, 1);
        QVERIFY2(r.err.startsWith(file + ": /workload/serving/batch: a batch of 5,000 does not fit: at most "),
                 qPrintable(r.err));
        // `validate` refuses what `metrics` refuses, with the same line
        // (fuzz_set found them disagreeing).
        const QString unservable = sourcePath("tests/data/bad/serving-batch-does-not-fit.cluster.json");
        r = cli({"validate", unservable});
        QCOMPARE(r.code, 1);
        QVERIFY2(r.out.startsWith(unservable + ": /workload/serving/batch: a batch of 5,000 does not fit: at most "),
                 qPrintable(r.out));
        QVERIFY(!r.out.contains(": valid"));
        r = cli({"metrics", unservable});
        QCOMPARE(r.code, 1);
        QVERIFY2(r.err.startsWith(unservable + ": /workload/serving/batch: a batch of 5,000 does not fit: at most "),
                 qPrintable(r.err));
        r = cli({"metrics", file, "--set", "/workload/serving/output_tokens=0"});
        QCOMPARE(r.code, 1);
        QCOMPARE(r.err.trimmed(), file + ": /workload/serving/output_tokens: must be at least 1, got 0");
        r = cli({"metrics", file, "--set", "/workload/parallelism/tp=3"});
        QCOMPARE(r.code, 1);
        QCOMPARE(r.err.trimmed(),
                 file + ": /workload/parallelism/tp: 64 attention heads do not split evenly over tp = 3");
    }

    void setToAnInvalidValueIsReportedAtItsPointer()
    {
        Run r = cli({"metrics", kH100, "--set", "/components/1/count=-1"});
        QCOMPARE(r.code, 1);
        QCOMPARE(r.err.trimmed(), kH100 + ": /components/1/count: must be at least 1, got -1");
        r = cli({"metrics", kH100, "--set", "/workload/parallelism/recompute=\"most\""});
        QCOMPARE(r.code, 1);
        QVERIFY(
            r.err.contains("/workload/parallelism/recompute: must be one of 'none', 'selective', 'full', got 'most'"));
        r = cli({"metrics", kH100, "--set", "/nowhere/at/all=1"});
        QCOMPARE(r.code, 1);
        QCOMPARE(r.err.trimmed(), kH100 + ": /nowhere/at/all: --set: nothing at /nowhere/at to set a value in");
        // An empty array index stopped the program (fuzz_set).
        r = cli({"metrics", kH100, "--set", "/components//props={}"});
        QCOMPARE(r.code, 1);
        QCOMPARE(r.err.trimmed(), kH100 + ": /components//props: --set: nothing at /components/ to set a value in");
    }

    void gpusResizesTheReplicatedNodeCount()
    {
        const auto m = metricsOf({"--gpus", "2048"});
        QCOMPARE(m["inventory"]["gpus"].get<int>(), 2048);
        QCOMPARE(m["inventory"]["nodes"].get<int>(), 256);
        const auto& compute = m["inventory"]["fabrics"][0];
        QCOMPARE(compute["leaf"].get<int>(), 64);
        QCOMPARE(compute["spine"].get<int>(), 32);
        // 16 SUs need a third tier, as in the SuperPOD table.
        const auto big = metricsOf({"--gpus", "4096"});
        QCOMPARE(big["inventory"]["fabrics"][0]["core"].get<int>(), 64);
    }

    void gpusThatAreNotWholeNodesAreRefused()
    {
        Run r = cli({"metrics", kH100, "--gpus", "1030"});
        QCOMPARE(r.code, 1);
        QCOMPARE(r.err.trimmed(),
                 kH100 + ": /components/1/count: 1,030 GPUs is not a whole number of nodes (8 GPUs each)");
        QVERIFY(r.out.isEmpty());
    }

    void textFormatIsAlignedTables()
    {
        const Run r = cli({"metrics", kH100, "--format", "text"});
        QCOMPARE(r.code, 0);
        QVERIFY(r.out.startsWith("design\n"));
        QVERIFY(r.out.contains(QRegularExpression("\ninventory\n")));
        QVERIFY(r.out.contains(QRegularExpression("\n  gpus +1,024\n")));
        QVERIFY(r.out.contains(QRegularExpression("\n  switches.spine +22\n")));
        // The fabrics table has a header, a rule and one row per fabric.
        QVERIFY(r.out.contains(QRegularExpression("\n    id +name +switch .*\n    -+ +-+")));
    }

    void missingFileIsInvalidInput()
    {
        const Run r = cli({"validate", "/nonexistent/x.cluster.json"});
        QCOMPARE(r.code, 1);
        QCOMPARE(r.out.trimmed(), QString("/nonexistent/x.cluster.json: /: cannot open: No such file or directory"));
    }

    void userCatalogOption()
    {
        QTemporaryDir dir;
        const QString catalog = dir.filePath("lab.catalog.json");
        QFile f(catalog);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(R"json({"format": "cluster-studio.catalog", "format_version": "1.0", "parts": [
            {"id": "rack.air-42u", "kind": "rack", "name": "bad", "attributes": {"cooling": "water"},
             "figures": {"max_kw": {"value": 30, "source": "seed-002-rack"}, "rack_units": {"value": 42, "source": "eia-310"}}}]})json");
        f.close();
        const Run r = cli({"validate", "--catalog", catalog, kH100});
        QCOMPARE(r.code, 1);
        QCOMPARE(r.err.trimmed(),
                 catalog + ": /parts/0/attributes/cooling: must be one of 'air', 'liquid', got 'water'");
    }

    void reportWritesAPdfWithoutADisplay()
    {
        QTemporaryDir dir;
        const QString out = dir.filePath("h100.pdf");
        // --set and --gpus shape the design reported on, as for metrics.
        const Run r =
            cli({"report", kH100, "-o", out, "--gpus", "2048", "--set", "/facility/pue=1.2", "--page", "letter"});
        QCOMPARE(r.code, 0);
        QVERIFY(r.out.isEmpty());
        QFile f(out);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QByteArray pdf = f.readAll();
        QVERIFY(pdf.startsWith("%PDF-"));
        QVERIFY(pdf.contains("612"));  // Letter is 612 x 792 pt
        QProcess text;
        text.start("pdftotext", {"-f", "1", "-l", "1", out, "-"});
        QVERIFY(text.waitForFinished(30000));
        const QString cover = QString::fromUtf8(text.readAllStandardOutput());
        QVERIFY2(cover.contains("2,048"), qPrintable(cover));  // the resized GPU count
        QVERIFY2(cover.contains("1.20"), qPrintable(cover));   // the PUE set
    }

    void reportOfAnInvalidDesignNamesTheProblemAndWritesNothing()
    {
        QTemporaryDir dir;
        const QString out = dir.filePath("bad.pdf");
        const QString bad = sourcePath("tests/data/bad/count-negative.cluster.json");
        const Run r = cli({"report", bad, "-o", out});
        QCOMPARE(r.code, 1);
        QVERIFY2(r.err.contains(bad + ": /components/1/count: must be at least 1, got -3"), qPrintable(r.err));
        QVERIFY(!QFile::exists(out));
    }

    void anOutputNeverReplacesTheDesign()
    {
        QTemporaryDir dir;
        const QString design = dir.filePath("mine.cluster.json");
        QVERIFY(QFile::copy(kH100, design));
        const std::string before = studio::test::readBytes(design);
        Run r = cli({"report", design, "-o", design});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains("that is the design"), qPrintable(r.err));
        QCOMPARE(studio::test::readBytes(design), before);
        // A design may have any name, even one -o accepts.
        const QString oddName = dir.filePath("candidate.csv");
        QVERIFY(QFile::copy(kH100, oddName));
        r = cli({"compare", kH100, oddName, "-o", dir.filePath("./candidate.csv")});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains("that is the design"), qPrintable(r.err));
        QCOMPARE(studio::test::readBytes(oddName), before);
    }

    void compareJsonHasEveryDesignAndItsDeltas()
    {
        const QString b200 = sourcePath("presets/dgx-b200-superpod-8su.cluster.json");
        const Run r = cli({"compare", kH100, b200});
        QCOMPARE(r.code, 0);
        const auto designs = nlohmann::ordered_json::parse(r.out.toStdString());
        QVERIFY(designs.is_array());
        QCOMPARE(designs.size(), std::size_t(2));
        QCOMPARE(designs[0]["baseline"].get<bool>(), true);
        QCOMPARE(designs[1]["source"].get<std::string>(), b200.toStdString());
        const auto& base = designs[0];
        const auto& other = designs[1];
        // The deltas are the differences of the two designs' own metrics.
        const double mfu = other["training"]["mfu"].get<double>() - base["training"]["mfu"].get<double>();
        QCOMPARE(other["deltas"]["training.mfu"]["delta"].get<double>(), mfu);
        QCOMPARE(other["deltas"]["training.mfu"]["verdict"].get<std::string>(),
                 std::string(mfu > 0 ? "better" : "worse"));
        const double kw = other["power"]["facility_kw"].get<double>() - base["power"]["facility_kw"].get<double>();
        QCOMPARE(other["deltas"]["power.facility_kw"]["delta"].get<double>(), kw);
        QCOMPARE(other["deltas"]["power.facility_kw"]["relative"].get<double>(),
                 kw / base["power"]["facility_kw"].get<double>());
        QCOMPARE(other["deltas"]["inventory.gpus"]["delta"].get<double>(), 1024.0);
        QCOMPARE(base["deltas"]["training.mfu"]["verdict"].get<std::string>(), std::string("baseline"));

        // --baseline 2 compares the first with the second (on one workload
        // whichever is the baseline: the H100's, from its file).
        const Run fixed = cli({"compare", kH100, b200, "--workload", kH100});
        const Run flipped = cli({"compare", kH100, b200, "--workload", kH100, "--baseline", "2"});
        const auto one = nlohmann::ordered_json::parse(fixed.out.toStdString());
        const auto again = nlohmann::ordered_json::parse(flipped.out.toStdString());
        QCOMPARE(one[1]["workload_source"].get<std::string>(), kH100.toStdString());
        QCOMPARE(again[0]["deltas"]["training.mfu"]["delta"].get<double>(),
                 -one[1]["deltas"]["training.mfu"]["delta"].get<double>());
    }

    // Issue 18: every design on the baseline's workload, each at its best
    // layout; each column reproduced alone by `search` and `metrics`.
    void compareColumnsAreReproducibleAlone()
    {
        const QString b200 = sourcePath("presets/dgx-b200-superpod-8su.cluster.json");
        Run r = cli({"compare", kH100, b200});
        QCOMPARE(r.code, 0);
        const auto designs = nlohmann::ordered_json::parse(r.out.toStdString());
        const auto& column = designs[1];
        // The B200 runs the H100's model at the H100's precision.
        QCOMPARE(column["training"]["model"], designs[0]["training"]["model"]);
        QCOMPARE(column["compute"]["precision"].get<std::string>(), std::string("bf16"));
        QCOMPARE(column["workload_source"].get<std::string>(), std::string("baseline"));
        QCOMPARE(column["layout_source"].get<std::string>(), std::string("best"));
        // Its step time is the search's best for that workload there...
        r = cli({"search", b200, "--workload", kH100, "--top", "1"});
        QCOMPARE(r.code, 0);
        const auto best = nlohmann::ordered_json::parse(r.out.toStdString())["candidates"][0];
        QCOMPARE(column["training"]["step_time_s"].get<double>(), best["step_time_s"].get<double>());
        // ... and `metrics` with that workload and layout gives the column.
        QStringList args{"metrics", b200, "--workload", kH100};
        for (const auto& [key, value] : column["training"]["layout"].items()) {
            if (key == "gpus_used")
                continue;
            const std::string section = key == "micro_batch" ? "training" : "parallelism";
            args << "--set" << QString::fromStdString("/workload/" + section + "/" + key + "=" + value.dump());
        }
        r = cli(args);
        QCOMPARE(r.code, 0);
        const auto alone = nlohmann::ordered_json::parse(r.out.toStdString());
        for (const char* key : {"step_time_s", "mfu", "tokens_per_s", "days_to_train"})
            QCOMPARE(alone["training"][key].get<double>(), column["training"][key].get<double>());
        QCOMPARE(alone["reliability"]["wall_days"].get<double>(), column["reliability"]["wall_days"].get<double>());

        // --layout own keeps each file's layout, but for the experts a dense
        // model does not have to spread.
        r = cli({"compare", kH100, b200, "--layout", "own"});
        QCOMPARE(r.code, 0);
        const auto own = nlohmann::ordered_json::parse(r.out.toStdString());
        const auto file = nlohmann::ordered_json::parse(studio::test::readBytes(b200));
        for (const char* key : {"tp", "pp"})
            QCOMPARE(own[1]["training"]["layout"][key], file["workload"]["parallelism"][key]);
        QCOMPARE(file["workload"]["parallelism"]["ep"].get<int>(), 8);
        QCOMPARE(own[1]["training"]["layout"]["ep"].get<int>(), 1);
        QCOMPARE(own[1]["layout_source"].get<std::string>(), std::string("own"));

        // --workload own: each its own; the run's figures are not compared.
        r = cli({"compare", kH100, b200, "--workload", "own", "--format", "text"});
        QCOMPARE(r.code, 0);
        QVERIFY2(r.out.startsWith("The designs run different workloads"), qPrintable(r.out));
        QVERIFY(r.out.contains("different workloads)"));
    }

    void exportWritesForSlurmAndNetBox()
    {
        // Printed without -o; written into a folder with it, each path said.
        Run r = cli({"export", kH100, "--to", "slurm"});
        QCOMPARE(r.code, 0);
        QVERIFY2(r.out.contains("\nSwitchName=fabric-leaf-01 Nodes=rack-01-node-[01-02],"), qPrintable(r.out));
        QTemporaryDir dir;
        const QString folder = dir.filePath("slurm/conf");
        r = cli({"export", kH100, "--to", "slurm", "-o", folder});
        QCOMPARE(r.code, 0);
        const QString file = QDir(folder).filePath("topology.conf");
        QCOMPARE(r.out.trimmed(), QDir::toNativeSeparators(file));
        QCOMPARE(QString::fromUtf8(studio::test::readBytes(file)), cli({"export", kH100, "--to", "slurm"}).out);
        // --gpus resizes first, as for every verb: two scalable units.
        r = cli({"export", kH100, "--to", "slurm", "--gpus", "512"});
        QCOMPARE(r.code, 0);
        QVERIFY(r.out.contains("SwitchName=fabric-leaf-16 "));
        QVERIFY(!r.out.contains("SwitchName=fabric-leaf-17 "));
        // NetBox: six CSVs and the device types YAML in import order, each path said.
        const QString netbox = dir.filePath("netbox");
        r = cli({"export", kH100, "--to", "netbox", "-o", netbox});
        QCOMPARE(r.code, 0);
        const QStringList written = r.out.trimmed().split('\n');
        QCOMPARE(written.size(), 7);
        QVERIFY(written.front().endsWith("01-manufacturers.csv"));
        QVERIFY(written.back().endsWith("07-cables.csv"));
        QVERIFY(QString::fromStdString(studio::test::readBytes(QDir(netbox).filePath("06-devices.csv")))
                    .startsWith("name,role,manufacturer,device_type,status,site,rack,position,face,description\n"
                                "rack-01-node-01,"));
        // Calculon: its three inputs and the README, each path said; what it
        // cannot represent on stderr, a line per note.
        const QString calculon = dir.filePath("calculon");
        r = cli({"export", kH100, "--to", "calculon", "-o", calculon});
        QCOMPARE(r.code, 0);
        QCOMPARE(r.out.trimmed().split('\n').size(), 4);
        QVERIFY2(r.err.contains(": note: SwiGLU's three MLP matrices (ffn_hidden 28,672) are written as Calculon's two "
                                "with feedforward 43,008"),
                 qPrintable(r.err));
        const auto execution =
            nlohmann::json::parse(studio::test::readBytes(QDir(calculon).filePath("execution.json")));
        QCOMPARE(execution["num_procs"].get<int>(), 1024);
        r = cli({"export", kH100, "--to", "calculon"});
        QCOMPARE(r.code, 2);
        QVERIFY(r.err.contains("export --to calculon: expected -o DIR, the folder its files go into"));
    }

    void importReadsCalculonsFiles()
    {
        // Calculon's own example, in any order: a design that validates,
        // what it left out on stderr.
        const QString data = sourcePath("tests/data/calculon");
        QTemporaryDir dir;
        const QString design = dir.filePath("gpt3.cluster.json");
        Run r = cli({"import", "--from", "calculon", data + "/gpt3-175B.json", data + "/3072_t4_p64_d12_mbs4_full.json",
                     data + "/a100_80g.json", "-o", design});
        QCOMPARE(r.code, 0);
        QCOMPARE(r.out.trimmed(), QDir::toNativeSeparators(design));
        QVERIFY2(r.err.contains("calculon: note: mem2 (512 GiB at 32 GB/s), Calculon's offload tier, is left out"),
                 qPrintable(r.err));
        r = cli({"metrics", design});
        QCOMPARE(r.code, 0);
        const auto metrics = nlohmann::json::parse(r.out.toStdString());
        QCOMPARE(metrics["inventory"]["gpus"].get<int>(), 3072);
        // A bad file: every problem named, nothing written.
        const QString bad = dir.filePath("bad-system.json");
        auto system = nlohmann::json::parse(studio::test::readBytes(data + "/a100_80g.json"));
        system["networks"][1]["bandwidth"] = -25;
        QFile f(bad);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(QByteArray::fromStdString(system.dump()));
        f.close();
        const QString refused = dir.filePath("refused.cluster.json");
        r = cli({"import", "--from", "calculon", bad, data + "/gpt3-175B.json", "--gpus", "8", "-o", refused});
        QCOMPARE(r.code, 1);
        QVERIFY2(r.err.contains(bad + ": /networks/1/bandwidth: must be greater than 0, got -25"), qPrintable(r.err));
        QVERIFY(!QFileInfo::exists(refused));
        r = cli({"import", data + "/a100_80g.json"});
        QCOMPARE(r.code, 2);
        QVERIFY(r.err.contains("import: expected --from calculon or --from netbox"));
    }

    void importReadsNetBoxDeviceTypesAsParts()
    {
        // A switch and a server as a catalog file; a design then uses them
        // through --catalog.
        const QString data = sourcePath("tests/data/netbox");
        QTemporaryDir dir;
        const QString switches = dir.filePath("switch.catalog.json");
        Run r = cli({"import", "--from", "netbox", data + "/example-xs-64-ndr.yaml", "-o", switches});
        QCOMPARE(r.code, 0);
        QVERIFY2(r.err.contains("note: " + data +
                                "/example-xs-64-ndr.yaml: Example Networks XS-64 NDR: power is left "
                                "unset"),
                 qPrintable(r.err));
        r = cli({"metrics", kH100, "--catalog", switches, "--set",
                 "/components/8/props/switch=\"netbox.example-networks-xs-64-ndr\""});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        r = cli({"import", "--from", "netbox", data + "/example-gx-8-h100.yaml", "--accelerator", "gpu.h100-sxm"});
        QCOMPARE(r.code, 0);
        const auto catalog = nlohmann::json::parse(r.out.toStdString());
        QCOMPARE(catalog["parts"][0]["kind"].get<std::string>(), std::string("node"));
        r = cli({"import", "--from", "netbox", data + "/example-gx-8-h100.yaml", "--accelerator", "gpu.h1000"});
        QCOMPARE(r.code, 1);
        QVERIFY(r.err.contains("--accelerator gpu.h1000: no accelerator part of that id"));
    }

    void compareAtEqualPowerResizesTheOthers()
    {
        const QString b200 = sourcePath("presets/dgx-b200-superpod-8su.cluster.json");
        const Run r = cli({"compare", kH100, b200, "--normalize", "power", "--layout", "own"});
        QCOMPARE(r.code, 0);
        const auto designs = nlohmann::ordered_json::parse(r.out.toStdString());
        const auto& budget = designs[1]["equal_budget"];
        QCOMPARE(budget["budget"].get<std::string>(), std::string("power"));
        QCOMPARE(budget["design_gpus"].get<int>(), 2048);
        QCOMPARE(designs[1]["inventory"]["gpus"], budget["gpus"]);
        QCOMPARE(budget["target"].get<double>(), designs[0]["power"]["facility_kw"].get<double>());
        QCOMPARE(budget["value"].get<double>(), designs[1]["power"]["facility_kw"].get<double>());
        QVERIFY(budget["value"].get<double>() <= budget["target"].get<double>());
        const Run text = cli({"compare", kH100, b200, "--normalize", "capex", "--layout", "own", "--format", "text"});
        QVERIFY2(text.out.contains("At equal capex (the baseline's, $"), qPrintable(text.out));
    }

    void aDesignTheWorkloadCannotRunOnSaysWhy()
    {
        const QString big = sourcePath("presets/h100-16k-roce-llama3.cluster.json");
        const QString small = sourcePath("presets/budget-8node-100gbe.cluster.json");
        const Run r = cli({"compare", big, small});
        QCOMPARE(r.code, 0);
        const auto designs = nlohmann::ordered_json::parse(r.out.toStdString());
        QVERIFY(designs[1]["training"]["mfu"].is_null());
        const std::string why = designs[1]["deltas"]["training.mfu"]["unavailable"].get<std::string>();
        QVERIFY2(why.starts_with("not runnable: no layout of Llama 3 405B runs on this design"), why.c_str());
        const Run text = cli({"compare", big, small, "--format", "text"});
        QVERIFY2(text.out.contains("not runnable"), qPrintable(text.out));
        // Bad choices are usage errors.
        Run bad = cli({"compare", big, small, "--layout", "fastest"});
        QCOMPARE(bad.code, 2);
        QVERIFY2(bad.err.contains("--layout fastest: expected best or own"), qPrintable(bad.err));
        bad = cli({"compare", big, small, "--workload", sourcePath("tests/data/bad/count-negative.cluster.json")});
        QCOMPARE(bad.code, 1);
        QVERIFY2(bad.err.contains("count-negative.cluster.json: /components/1/count"), qPrintable(bad.err));
    }

    void compareTextCsvAndPdf()
    {
        const QString mi300 = sourcePath("presets/mi300x-roce-128node.cluster.json");
        const QString budget = sourcePath("presets/budget-8node-100gbe.cluster.json");
        Run r = cli({"compare", kH100, mi300, budget, "--format", "text"});
        QCOMPARE(r.code, 0);
        QVERIFY(r.out.contains("DGX H100 SuperPOD (4 SUs, 1,024 GPUs, NDR) (baseline)"));
        QVERIFY(r.out.contains("MFU"));
        QVERIFY(r.out.contains("bill of materials"));
        QTemporaryDir dir;
        const QString csv = dir.filePath("c.csv");
        r = cli({"compare", kH100, mi300, budget, "-o", csv});
        QCOMPARE(r.code, 0);
        QVERIFY(r.out.isEmpty());  // -o writes the file; --format would print as well
        QFile f(csv);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QStringList lines = QString::fromUtf8(f.readAll()).split('\n', Qt::SkipEmptyParts);
        QVERIFY(lines.size() > 20);
        QVERIFY(lines[0].startsWith("figure,key,unit,"));
        QVERIFY(std::any_of(lines.begin(), lines.end(),
                            [](const QString& l) { return l.startsWith("\"MFU, BF16\",training.mfu,%,"); }));
        const QString pdf = dir.filePath("c.pdf");
        r = cli({"compare", kH100, mi300, "-o", pdf});
        QCOMPARE(r.code, 0);
        QFile p(pdf);
        QVERIFY(p.open(QIODevice::ReadOnly));
        QVERIFY(p.readAll().startsWith("%PDF-"));
        // An invalid design is named, with its problem; nothing is written.
        const QString bad = sourcePath("tests/data/bad/count-negative.cluster.json");
        r = cli({"compare", kH100, bad, "-o", dir.filePath("none.csv")});
        QCOMPARE(r.code, 1);
        QVERIFY2(r.err.contains(bad + ": /components/1/count"), qPrintable(r.err));
        QVERIFY(!QFile::exists(dir.filePath("none.csv")));
    }

    void normalizeRewritesInCanonicalForm()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath("d.cluster.json");
        auto doc = nlohmann::ordered_json::parse(
            studio::test::readBytes(sourcePath("tests/data/good/small-h100-pod.cluster.json")));
        nlohmann::ordered_json reversed = nlohmann::ordered_json::object();
        for (auto it = doc.rbegin(); it != doc.rend(); ++it)
            reversed[it.key()] = it.value();
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(QByteArray::fromStdString(reversed.dump()));
        f.close();
        QCOMPARE(cli({"normalize", path}).code, 0);
        const auto after = nlohmann::ordered_json::parse(studio::test::readBytes(path));
        QCOMPARE(after.begin().key(), std::string("format"));
        QCOMPARE(cli({"validate", path}).code, 0);
        // Normalizing again changes nothing.
        const std::string once = studio::test::readBytes(path);
        QCOMPARE(cli({"normalize", path}).code, 0);
        QCOMPARE(studio::test::readBytes(path), once);
    }
};

QTEST_GUILESS_MAIN(TestCli)
#include "tst_cli.moc"
