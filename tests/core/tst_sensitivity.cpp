// What limits a design (core/scale/sensitivity): today's point is exactly
// `metrics`, each change is the design with that input changed (checked
// against the same change made another way), the tornado is sorted by
// effect, and the binding constraint is the input at its top.
#include <QtTest>

#include <cmath>

#include "core/design/design_index.h"
#include "core/metrics/metrics.h"
#include "core/model/analysis.h"
#include "core/scale/sensitivity.h"
#include "core/scale/sensitivity_report.h"
#include "tests/core/presets.h"

using namespace studio;
using studio::test::loadPreset;

namespace {

const SensitivityInput& input(const SensitivityResult& r, const std::string& key)
{
    for (const auto& in : r.inputs)
        if (in.key == key)
            return in;
    qFatal("no input %s", key.c_str());
}

}  // namespace

class TestSensitivity : public QObject {
    Q_OBJECT
    Design design_;
    SensitivityResult result_;

private slots:
    void initTestCase()
    {
        design_ = loadPreset("h100-16k-roce-llama3.cluster.json");
        result_ = analyzeSensitivity(design_, Catalog::builtin());
        QVERIFY2(result_.ok(), result_.error.c_str());
    }

    void todayIsMetrics()
    {
        const Json m = computeMetrics(design_, Catalog::builtin());
        QCOMPARE(result_.days, m["reliability"]["wall_days"].get<double>());
        QCOMPARE(result_.costUsd,
                 m["power"]["training_run_mwh"].get<double>() * 1000 *
                     m["power"]["electricity_usd_per_kwh"].get<double>());
        QCOMPARE(result_.inputs.size(), std::size_t(16));
        QCOMPARE(result_.runCostUsd, m["cost"]["run_cost_usd"]["typical"].get<double>());
        QCOMPARE(result_.usdPerGpuHour, m["cost"]["usd_per_gpu_hour"]["typical"].get<double>());
        QVERIFY(result_.costComplete);
        for (const auto& in : result_.inputs)
            QCOMPARE(in.changes.size(), std::size_t(4));
    }

    void sortedByEffectAndTheBindingConstraintLeads()
    {
        for (std::size_t i = 1; i < result_.inputs.size(); ++i)
            QVERIFY(result_.inputs[i - 1].effectDays >= result_.inputs[i].effectDays);
        const SensitivityInput& top = result_.inputs.front();
        QVERIFY2(QString::fromStdString(result_.binding)
                     .startsWith(QString::fromStdString("Days to train are most sensitive to " + top.label + ":")),
                 result_.binding.c_str());
        // Compute is what a 16K-GPU Llama 3 run is bound by: peak or the
        // kernels' share of it, not power or storage.
        QVERIFY(top.key == "gpu_peak" || top.key == "kernel_efficiency");
        QCOMPARE(input(result_, "storage_bandwidth").effectDays, 0.0);
    }

    void facilityInputsMoveCostNotDays()
    {
        const SensitivityInput& price = input(result_, "electricity_price");
        for (const auto& c : price.changes) {
            QCOMPARE(c.days, result_.days);
            QVERIFY(qAbs(c.costUsd / result_.costUsd - (1 + c.change)) < 1e-12);
        }
        // PUE 1.1 cannot halve: it stops at 1.0.
        const SensitivityInput& pue = input(result_, "pue");
        QCOMPARE(pue.at(-0.5).value, 1.0);
        QVERIFY(qAbs(pue.at(-0.5).costUsd / result_.costUsd - 1.0 / 1.1) < 1e-12);
        QVERIFY(qAbs(pue.at(0.1).costUsd / result_.costUsd - 1.1) < 1e-12);
    }

    // Issue 39: prices, cost of capital and utilisation move what the run
    // and a GPU-hour cost, never the days; each change is the design with
    // that input changed another way.
    void ownershipInputsMoveTheCostNotTheDays()
    {
        for (const char* key : {"part_prices", "cost_of_capital", "utilization"})
            for (const auto& c : input(result_, key).changes)
                QCOMPARE(c.days, result_.days);
        // Every price x 1.5 through a user catalog that says so.
        Catalog dearer = Catalog::builtin();
        std::vector<std::string> priced;
        for (const Part& p : dearer.parts())
            if (p.price)
                priced.push_back(p.id);
        Json doc = dearer.subset(priced);
        for (Json& pj : doc["parts"])
            for (const char* band : {"low", "typical", "high"})
                pj["price"][band] = pj["price"][band].get<double>() * 1.5;
        for (const Problem& p : dearer.merge(doc, "dearer", false))
            QVERIFY2(p.severity != Severity::Error, p.message.c_str());
        const Analysis a = analyzeDesign(design_, dearer);
        const SensitivityInput& prices = input(result_, "part_prices");
        QCOMPARE(prices.value, analyzeDesign(design_, Catalog::builtin()).cost.itCapex.typical);
        QCOMPARE(prices.at(0.5).runCostUsd, a.cost.runCost->typical);
        QCOMPARE(prices.at(0.5).usdPerGpuHour, a.cost.usdPerGpuHour.typical);
        QVERIFY(prices.at(0.5).runCostUsd > result_.runCostUsd);
        QCOMPARE(prices.effectRunCost, std::abs(prices.at(0.5).runCostUsd - result_.runCostUsd));
        // Cost of capital x 1.1, set in the file.
        Design d = design_;
        d.facility.cost_of_capital = input(result_, "cost_of_capital").value * 1.1;
        QCOMPARE(input(result_, "cost_of_capital").at(0.1).runCostUsd,
                 analyzeDesign(d, Catalog::builtin()).cost.runCost->typical);
        // Utilisation cannot pass 1; half of it doubles what a GPU-hour costs
        // the fixed part of.
        const SensitivityInput& used = input(result_, "utilization");
        QCOMPARE(used.at(0.5).value, 1.0);
        d = design_;
        d.facility.utilization = used.value * 0.5;
        const Analysis half = analyzeDesign(d, Catalog::builtin());
        QCOMPARE(used.at(-0.5).usdPerGpuHour, half.cost.usdPerGpuHour.typical);
        QVERIFY(used.at(-0.5).usdPerGpuHour > result_.usdPerGpuHour);
        // Ownership is not electricity: the run's electricity stays.
        QCOMPARE(prices.at(0.5).costUsd, result_.costUsd);
        const Json j = sensitivityJson(result_);
        QCOMPARE(j["run_cost_usd"].get<double>(), result_.runCostUsd);
        for (const auto& in : j["inputs"])
            if (in["name"] == "part_prices")
                QCOMPARE(in["run_cost_high"].get<double>(), prices.at(0.5).runCostUsd);
    }

    void aFigureChangeIsTheDesignWithThatFigure()
    {
        // +50% GPU peak through the catalog equals +50% through the GPU
        // component's own override.
        Design d = design_;
        const DesignIndex index(d, Catalog::builtin());
        for (std::size_t i = 0; i < index.size(); ++i)
            if (index.kind(i) == PartKind::Accelerator)
                d.components[i].props["bf16_tflops"] = *index.figure(i, "bf16_tflops") * 1.5;
        const Analysis a = analyzeDesign(d, Catalog::builtin());
        const SensitivityChange& up = input(result_, "gpu_peak").at(0.5);
        QVERIFY(!up.reSearched);
        QCOMPARE(up.days, a.reliability.wallDays);
        QVERIFY(up.days < result_.days);
        QCOMPARE(input(result_, "gpu_peak").value, 989.4);  // H100 SXM, BF16 dense
        QCOMPARE(input(result_, "gpu_peak").at(0.5).value, 989.4 * 1.5);
        // Failure rates x 1.5: the cluster's failures per day x 1.5.
        QVERIFY(qAbs(input(result_, "failure_rates").at(0.5).value / input(result_, "failure_rates").value - 1.5) <
                1e-12);
        QVERIFY(input(result_, "failure_rates").at(0.5).days > result_.days);
    }

    void efficienciesStopAtOne()
    {
        for (const auto& c : input(result_, "kernel_efficiency").changes)
            QVERIFY(c.value <= 1.0);
    }

    void lessHbmThanTheLayoutNeedsIsSearchedAgain()
    {
        // Llama 3 405B's own layout needs most of 80 GB: at 40 GB it does
        // not fit, the best layout that does stands in, and the change is
        // charged what it costs that best layout.
        const SensitivityChange& half = input(result_, "hbm_capacity").at(-0.5);
        QVERIFY(half.reSearched);
        QVERIFY(std::isfinite(half.days));
        QVERIFY(half.days >= result_.days);
        const Json j = sensitivityJson(result_);
        for (const char* key : {"name", "low", "high", "days_low", "days_high", "cost_low", "cost_high"})
            QVERIFY2(j["inputs"][0].contains(key), key);
        QCOMPARE(j["binding"].get<std::string>(), result_.binding);
        QVERIFY(QString::fromStdString(sensitivityText(result_)).contains("the layout no longer fits"));
    }

    void aDesignThatDoesNotRunSaysWhy()
    {
        Design d = design_;
        d.workload.parallelism.tp = 3;  // 128 heads do not split over 3
        const SensitivityResult r = analyzeSensitivity(d, Catalog::builtin());
        QVERIFY2(QString::fromStdString(r.error).startsWith("not runnable: "), r.error.c_str());
    }

    // Changes in days against a run that never completes mean nothing: the
    // tornado says why instead of "Today: inf days" (fuzz_set's inputs).
    void aRunThatNeverCompletesSaysWhy()
    {
        Design d = design_;
        d.operations.failure_mttf_h.gpu = 1.0;  // 16,384 GPUs, each failing hourly
        const SensitivityResult r = analyzeSensitivity(d, Catalog::builtin());
        QVERIFY2(QString::fromStdString(r.error).startsWith("never completes: "), r.error.c_str());
    }
};

QTEST_APPLESS_MAIN(TestSensitivity)
#include "tst_sensitivity.moc"
