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
        QTest::newRow("gpus not a number") << QStringList{"metrics", kH100, "--gpus", "many"}
                                           << "--gpus many: expected a whole number of GPUs";
        QTest::newRow("gpus zero") << QStringList{"metrics", kH100, "--gpus", "0"}
                                   << "--gpus 0: expected a whole number of GPUs";
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
        const char* numbers[] = {
            "/compute/peak_tflops_per_gpu/bf16", "/compute/cluster_peak_pflops/bf16", "/compute/hbm_tb_per_s",
            "/compute/hbm_gb", "/compute/ridge_flop_per_byte", "/training/step_time_s", "/training/tokens_per_s",
            "/training/tflops_per_gpu_model", "/training/tflops_per_gpu_hardware", "/training/mfu", "/training/hfu",
            "/training/days_to_train", "/training/memory_gb_per_gpu/total", "/power/it_kw", "/power/facility_kw",
            "/power/pue", "/power/max_rack_kw", "/power/racks_over_cooling_limit", "/power/energy_mwh_per_year",
            "/power/training_run_mwh", "/reliability/cluster_mtbf_h", "/reliability/p_failure_24h",
            "/reliability/failures_per_day", "/reliability/checkpoint_gb", "/reliability/checkpoint_write_s",
            "/reliability/checkpoint_interval_min", "/reliability/goodput", "/reliability/expected_interruptions"};
        for (const char* ptr : numbers) {
            const nlohmann::ordered_json::json_pointer p(ptr);
            QVERIFY2(m.contains(p) && m.at(p).is_number(), ptr);
            QVERIFY2(m.at(p).get<double>() >= 0, ptr);
        }
        QVERIFY(m["training"]["fits_in_hbm"].is_boolean());
        QVERIFY(m["training"]["breakdown"].size() > 5);
        for (const auto& part : m["training"]["breakdown"])
            QVERIFY(part["name"].is_string() && part["seconds"].is_number());
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
    }

    void layoutProblemsAreWarningsWithNumbers()
    {
        const auto m = metricsOf({"--set", "/workload/parallelism/dp=3"});
        bool found = false;
        for (const auto& w : m["warnings"])
            if (w["code"] == "layout_mismatch") {
                found = true;
                QCOMPARE(w["severity"].get<std::string>(), std::string("warning"));
                QVERIFY(w["message"].get<std::string>().find("= 96 GPUs, but the design has 1,024") != std::string::npos);
            }
        QVERIFY(found);
    }

    void validationReportPrintsTheTable()
    {
        const Run r = cli({"validation-report", sourcePath("tests/data/published/runs.json")});
        QCOMPARE(r.code, 0);
        QVERIFY(r.out.startsWith("# Validation"));
        QVERIFY(r.out.contains("| K1 full recompute | 8 | `training.step_time_s` | 1.42 |"));
        QCOMPARE(cli({"validation-report"}).code, 2);
    }

    void setChangesWhatItNames()
    {
        auto m = metricsOf({"--set", "/components/1/count=8"});  // the scalable unit
        QCOMPARE(m["inventory"]["gpus"].get<int>(), 2048);
        m = metricsOf({"--set", "/components/4/count=4", "--set", "/name=Half-populated"});  // GPUs per node
        QCOMPARE(m["inventory"]["gpus"].get<int>(), 512);
        QCOMPARE(m["design"]["name"].get<std::string>(), std::string("Half-populated"));
    }

    void setToAnInvalidValueIsReportedAtItsPointer()
    {
        Run r = cli({"metrics", kH100, "--set", "/components/1/count=-1"});
        QCOMPARE(r.code, 1);
        QCOMPARE(r.err.trimmed(), kH100 + ": /components/1/count: must be at least 1, got -1");
        r = cli({"metrics", kH100, "--set", "/workload/parallelism/recompute=\"most\""});
        QCOMPARE(r.code, 1);
        QVERIFY(r.err.contains("/workload/parallelism/recompute: must be one of 'none', 'selective', 'full', got 'most'"));
        r = cli({"metrics", kH100, "--set", "/nowhere/at/all=1"});
        QCOMPARE(r.code, 1);
        QCOMPARE(r.err.trimmed(), kH100 + ": /nowhere/at/all: --set: nothing at /nowhere/at to set a value in");
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
