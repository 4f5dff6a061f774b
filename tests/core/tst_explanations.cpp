// Every number the studio shows explains itself: each key the panels, the
// KPI strip and the CLI look up has a formula and inputs with a value and a
// source, for every preset; and the numbers read as the panels print them.
#include <QtTest>

#include <cmath>

#include "core/format/design_reader.h"
#include "core/metrics/explanations.h"
#include "core/metrics/metrics.h"
#include "core/model/analysis.h"
#include "core/text.h"
#include "tests/test_support.h"

using namespace studio;

namespace {

// The keys the studio's panels and status bar ask for (widgets/panels/).
const char* kShownKeys[] = {"compute.cluster_peak_pflops",
                            "compute.peak_tflops_per_gpu",
                            "compute.ridge_flop_per_byte",
                            "roofline.decode_tokens_per_s",
                            "roofline.ridge_batch",
                            "hierarchy.hbm",
                            "hierarchy.nvlink",
                            "hierarchy.storage",
                            "training.step_time_s",
                            "training.tokens_per_s",
                            "training.mfu",
                            "training.hfu",
                            "training.tflops_per_gpu_model",
                            "training.tflops_per_gpu_hardware",
                            "training.days_to_train",
                            "training.delivered_fraction",
                            "training.memory_gb_per_gpu.total",
                            "training.memory_gb_per_gpu.activations",
                            "power.it_kw",
                            "power.pue",
                            "power.facility_kw",
                            "power.energy_mwh_per_year",
                            "power.cost_usd_per_year",
                            "power.co2_tonnes_per_year",
                            "power.training_run_mwh",
                            "power.air_cooling_limit_kw",
                            "reliability.cluster_mtbf_h",
                            "reliability.failures_per_day",
                            "reliability.p_failure_24h",
                            "reliability.checkpoint_interval_min",
                            "reliability.goodput",
                            "reliability.wall_days",
                            "reliability.expected_interruptions",
                            "storage.checkpoint_write_s"};

}  // namespace

class TestExplanations : public QObject {
    Q_OBJECT
private slots:
    void everyShownNumberExplainsItself_data()
    {
        QTest::addColumn<QString>("file");
        for (const QString& f : test::presetFiles())
            QTest::newRow(qPrintable(QFileInfo(f).fileName())) << f;
    }

    void everyShownNumberExplainsItself()
    {
        QFETCH(QString, file);
        DesignLoad l = loadDesignFile(file.toStdString(), Catalog::builtin());
        QVERIFY(l.ok());
        const Analysis a = analyzeDesign(*l.design, *l.catalog);
        const auto explained = explainMetrics(a);
        std::vector<std::string> wanted(std::begin(kShownKeys), std::end(kShownKeys));
        for (const auto& b : a.utilization.waterfall)
            wanted.push_back("training.waterfall." + std::string(b.key));
        for (const auto& c : a.reliability.classes)
            wanted.push_back("reliability.by_class." + c.key);
        for (const auto& r : a.power.racks)
            wanted.push_back("power.racks." + r.component);
        if (!a.power.racks.empty())
            wanted.push_back("power.max_rack_kw");
        for (const std::string& key : wanted)
            QVERIFY2(findExplanation(explained, key), key.c_str());
        for (const auto& [key, e] : explained) {
            QVERIFY2(!e.formula.empty(), key.c_str());
            // A figure that cannot exist (a serving design's training run)
            // says why instead of showing inputs without values.
            QVERIFY2(!e.inputs.empty() || !e.unavailable.empty(), key.c_str());
            for (const auto& in : e.inputs) {
                QVERIFY2(!in.name.empty() && !in.source.empty(), (key + ": " + in.name).c_str());
                QVERIFY2(std::isfinite(in.value), (key + ": " + in.name).c_str());
            }
        }
        QVERIFY(findExplanation(explained, "no.such.key") == nullptr);
    }

    void explanationsCarryTheDesignsOwnInputs()
    {
        DesignLoad l = loadDesignFile(test::sourcePath("presets/h100-16k-roce-llama3.cluster.json").toStdString(),
                                      Catalog::builtin());
        QVERIFY(l.ok());
        Design d = *l.design;
        d.facility.pue = 1.23;
        const Analysis a = analyzeDesign(d, *l.catalog);
        const auto explained = explainMetrics(a);
        const Explanation* facility = findExplanation(explained, "power.facility_kw");
        QVERIFY(facility);
        const auto pue = std::find_if(facility->inputs.begin(), facility->inputs.end(),
                                      [](const ExplainInput& in) { return in.name == "PUE"; });
        QVERIFY(pue != facility->inputs.end());
        QCOMPARE(pue->value, 1.23);
        QCOMPARE(pue->source, std::string("design input /facility/pue"));
        const Explanation* days = findExplanation(explained, "training.days_to_train");
        QCOMPARE(days->inputs.front().value, d.workload.training.tokens);
        QCOMPARE(days->inputs.front().source, std::string("/workload/training/tokens"));
        // TP communication says whether the GEMMs hide any of it, and
        // where its bandwidth came from.
        const std::string tpSource = findExplanation(explained, "training.waterfall.tp_comm")->inputs.front().source;
        QVERIFY2(tpSource.rfind("none hidden: /workload/parallelism/tp_comm_overlap is off (docs/model.md); ", 0) == 0,
                 tpSource.c_str());
        QVERIFY2(tpSource.find("kernel profile") != std::string::npos, tpSource.c_str());
        d.workload.parallelism.tp_comm_overlap = true;
        const Analysis overlapped = analyzeDesign(d, *l.catalog);
        QVERIFY(overlapped.step.stepS < a.step.stepS);
        QVERIFY(findExplanation(explainMetrics(overlapped), "training.waterfall.tp_comm")
                    ->inputs.front()
                    .source.rfind("what the GEMMs do not hide: /workload/parallelism/tp_comm_overlap is on "
                                  "(docs/model.md)",
                                  0) == 0);
        // The 30 kW line and what the PUE adds on top of IT.
        QCOMPARE(a.power.airCoolingLimitKw.value, 30.0);
        QVERIFY(a.power.airCoolingLimitKw.source.find("seed 002") != std::string::npos);
        QCOMPARE(a.power.overheadKw, a.power.facilityKw - a.power.itKw);
        // Goodput at the Daly optimum is the design's when it checkpoints there.
        QVERIFY(a.reliability.intervalIsOptimum);
        QCOMPARE(a.reliability.dalyGoodput, a.reliability.goodput);
        QVERIFY(a.reliability.youngGoodput <= a.reliability.dalyGoodput + 1e-12);
    }

    void numbersReadAsPrinted()
    {
        QCOMPARE(formatQuantity(1.234e18, "FLOP"), std::string("1.23e18 FLOP"));
        QCOMPARE(formatQuantity(9.9999e9, ""), std::string("1e10"));
        QCOMPARE(formatQuantity(950.4, "GB/s"), std::string("950 GB/s"));
        QCOMPARE(formatQuantity(0.4271, "GB/s"), std::string("0.427 GB/s"));
        QCOMPARE(formatQuantity(820922.4, "tokens/s"), std::string("820,922 tokens/s"));
        QCOMPARE(formatDuration(0.5), std::string("30.0 min"));
        QCOMPARE(formatDuration(3.09), std::string("3.09 h"));
        QCOMPARE(formatDuration(49.2), std::string("2.05 days"));
        // A KV cache move of 922 us read "0.000922 s" in the serving verdict.
        QCOMPARE(formatSeconds(0.000922), std::string("922 us"));
        QCOMPARE(formatSeconds(0.0216), std::string("21.6 ms"));
        QCOMPARE(formatSeconds(0), std::string("0 ms"));
        QCOMPARE(formatSeconds(13.04), std::string("13.0 s"));
        // The unit follows the figure as rounded: these read "1,000 ms",
        // "1,000 us" and "60.0 min".
        QCOMPARE(formatSeconds(0.9999), std::string("1.00 s"));
        QCOMPARE(formatSeconds(-0.9999), std::string("-1.00 s"));
        QCOMPARE(formatSeconds(0.00099996), std::string("1.00 ms"));
        QCOMPARE(formatSeconds(0.9994), std::string("999 ms"));
        // A denormal has no scale to round at: printed as it is, not NaN.
        QCOMPARE(formatSeconds(1e-310), formatReadable(1e-304) + " us");
        QCOMPARE(formatDuration(0.99999), std::string("1.00 h"));
        // Past 10^15 a figure is no exact whole number, and past 2^63 it
        // printed as -9,223,372,036,854,775,808 (fuzz_set's inputs).
        QCOMPARE(formatReadable(3.89e16), std::string("3.89e+16"));
        QCOMPARE(formatReadable(-1e300), std::string("-1e+300"));
        QCOMPARE(formatReadable(1e15), std::string("1e+15"));
        QCOMPARE(formatReadable(123'456'789'012'345.0), std::string("123,456,789,012,345"));
        // A change to hundredths of a percent at most: the sensitivity
        // table's restart-time row printed "+0.000722%" and wrapped.
        QCOMPARE(formatChange(0.1), std::string("+10.0%"));
        QCOMPARE(formatChange(-0.00524), std::string("-0.52%"));
        QCOMPARE(formatChange(0.000478), std::string("+0.048%"));
        QCOMPARE(formatChange(-7.22e-6), std::string("<0.01%"));
        QCOMPARE(formatChange(0), std::string("0%"));
        QCOMPARE(formatChange(0.758), std::string("+75.8%"));
    }

    // A serving design's training analyses run on an empty training
    // section: its memory (184 GB of a run it has not got, "does not fit")
    // and that run's checkpoint are null in `metrics`, with why, and their
    // explanations, with the waterfall's of a step that cannot run, say so.
    // A training run's are numbers and explain themselves.
    void aServingDesignHasNoTrainingMemoryOrCheckpoint()
    {
        const auto metricsOf = [](const char* preset) {
            const DesignLoad l =
                loadDesignFile(test::sourcePath(QString("presets/") + preset).toStdString(), Catalog::builtin());
            if (!l.ok())
                qFatal("%s does not load", preset);
            return metricsJson(*l.design, analyzeDesign(*l.design, *l.catalog));
        };
        const Json serving = metricsOf("serving-llama3-70b-dgx-h100.cluster.json");
        QVERIFY(serving["training"]["memory_gb_per_gpu"].is_null());
        QVERIFY(serving["training"]["fits_in_hbm"].is_null());
        QCOMPARE(serving["training"]["hbm_gb"].get<double>(), 80.0);  // the GPU's, not the run's
        for (const char* key : {"checkpoint_gb", "checkpoint_write_s", "checkpoint_write_at_storage_s"})
            QVERIFY2(serving["storage"][key].is_null(), key);
        QCOMPARE(serving["storage"]["read_supply_gb_per_s"].get<double>(), 90.0);
        for (const char* key : {"training.memory_gb_per_gpu", "training.fits_in_hbm", "storage.checkpoint_gb"})
            QCOMPARE(serving["unavailable"][key].get<std::string>(), std::string(kNoTrainingRun));
        for (const char* key :
             {"training.memory_gb_per_gpu.total", "training.memory_gb_per_gpu.activations", "training.waterfall.peak",
              "training.waterfall.delivered", "storage.checkpoint_write_s"})
            QCOMPARE(serving["explain"][key]["unavailable"].get<std::string>(), std::string(kNoTrainingRun));
        QVERIFY(!serving["explain"]["hierarchy.hbm"].contains("unavailable"));

        const Json training = metricsOf("dgx-h100-superpod-4su.cluster.json");
        QVERIFY(training["training"]["memory_gb_per_gpu"]["total"].get<double>() > 10);
        QVERIFY(training["training"]["fits_in_hbm"].get<bool>());
        QVERIFY(training["storage"]["checkpoint_gb"].get<double>() > 100);
        for (const char* key :
             {"training.memory_gb_per_gpu.total", "training.waterfall.peak", "storage.checkpoint_write_s"})
            QVERIFY2(!training["explain"][key].contains("unavailable"), key);
        QVERIFY(!training["unavailable"].contains("training.memory_gb_per_gpu"));
    }
};

QTEST_APPLESS_MAIN(TestExplanations)
#include "tst_explanations.moc"
