// The scale sweep (core/scale): the design at its own size is exactly what
// `metrics` says, the best layout at each size is what `metrics --set` of
// it says, tokens/s never beats ideal linear scaling, failures come faster
// as the GPUs grow, and rho, Amdahl and Gustafson are the seed's formulas.
#include <QtTest>

#include <atomic>

#include "core/analysis/fleet_formulas.h"
#include "core/compare/comparison.h"
#include "core/metrics/metrics.h"
#include "core/model/analysis.h"
#include "core/scale/scale_sweep.h"
#include "core/scale/sweep_report.h"
#include "tests/core/presets.h"

using namespace studio;
using studio::test::loadPreset;

namespace {

const char* const kLlama = "h100-16k-roce-llama3.cluster.json";
const char* const kBudget = "budget-8node-100gbe.cluster.json";
const char* const kH100Pod = "dgx-h100-superpod-4su.cluster.json";

void compareFigures(const ScaleFigures& f, const Analysis& a)
{
    QCOMPARE(f.tokensPerS, a.step.tokensPerS);
    QCOMPARE(f.mfu, a.step.mfu);
    QCOMPARE(f.stepS, a.step.stepS);
    QCOMPARE(f.daysToTrain, a.step.daysToTrain);
    QCOMPARE(f.wallDays, a.reliability.wallDays);
    QCOMPARE(f.clusterMtbfH, a.reliability.clusterMtbfH);
    QCOMPARE(f.goodput, a.reliability.goodput);
    QCOMPARE(f.facilityKw, a.power.facilityKw);
    QCOMPARE(f.trainingRunMwh, a.trainingRunMwh);
    QCOMPARE(f.runCostUsd, a.trainingRunMwh * 1000 * a.power.pricePerKwh.value);
    QCOMPARE(f.ownedRunCostUsd.value_or(-1), a.cost.runCost ? a.cost.runCost->typical : -1);
    QCOMPARE(f.costComplete, a.cost.complete());
}

SweepResult sweep(const Design& d, Scaling scaling = Scaling::Strong, std::int64_t to = kSweepMaxGpus)
{
    SweepOptions o;
    o.scaling = scaling;
    o.to = to;
    SweepResult r = sweepScale(d, Catalog::builtin(), o);
    if (!r.ok())
        qFatal("sweep failed: %s", r.error.c_str());
    return r;
}

}  // namespace

class TestScaleSweep : public QObject {
    Q_OBJECT
private slots:
    void sizesAreALogGridOfTheGrowthUnit()
    {
        // Two sizes per doubling (2^k and 3 x 2^k units) while that gives
        // at most 22, the design's own size always among them.
        const auto fine = sweepSizes(16, 128, 16384, 16384);
        QCOMPARE(fine.front(), 128);
        QCOMPARE(fine.back(), 16384);
        QCOMPARE(fine.size(), std::size_t(15));  // 128, 192, 256, ..., 12,288, 16,384
        QCOMPARE(fine[1], 192);
        for (std::size_t i = 1; i < fine.size(); ++i) {
            QVERIFY(fine[i] % 16 == 0);
            QVERIFY(fine[i] > fine[i - 1] && fine[i] <= 2 * fine[i - 1]);
        }
        // 8 to 131,072: 29 on the fine grid, so the 15 doublings, plus the
        // design's 1,000 (not on the grid).
        const auto coarse = sweepSizes(8, 8, kSweepMaxGpus, 1000);
        QCOMPARE(coarse.size(), std::size_t(16));
        QVERIFY(std::find(coarse.begin(), coarse.end(), 1000) != coarse.end());
        QVERIFY(std::find(coarse.begin(), coarse.end(), 24) == coarse.end());
        QVERIFY(sweepSizes(16, 100, 10, 0).empty());
    }

    void designSizeEqualsMetrics()
    {
        const Design d = loadPreset(kLlama);
        const SweepResult r = sweep(d);
        const SweepPoint* own = r.designPoint();
        QVERIFY(own);
        QCOMPARE(own->gpus, 16384);
        QVERIFY(own->user && own->best);
        // The user's layout at its own size is the design itself ...
        const Analysis a = analyzeDesign(d, Catalog::builtin());
        compareFigures(*own->user, a);
        const Json m = computeMetrics(d, Catalog::builtin());
        QCOMPARE(own->user->tokensPerS, m["training"]["tokens_per_s"].get<double>());
        QCOMPARE(own->user->clusterMtbfH, m["reliability"]["cluster_mtbf_h"].get<double>());
        // ... and the best layout is the design with that layout applied
        // (what `metrics --set` gives).
        Design best = d;
        applyLayout(best.workload, own->best->layout);
        compareFigures(*own->best, analyzeDesign(best, Catalog::builtin()));
        QVERIFY(own->best->tokensPerS >= own->user->tokensPerS);
    }

    // The sweep searches each size within the design's software (issue
    // 38): DeepSpeed ZeRO has no tensor or pipeline parallelism of its own,
    // so no size's best layout uses either.
    void eachSizeIsSearchedWithinTheDesignsSoftware()
    {
        Design d = loadPreset("budget-8node-100gbe.cluster.json");
        d.workload.software = "deepspeed-zero";
        d.workload.parallelism.tp = 1;
        const SweepResult r = sweep(d, Scaling::Strong, 256);
        int searched = 0;
        for (const SweepPoint& p : r.points)
            if (p.best) {
                ++searched;
                QCOMPARE(p.best->layout.tp, 1);
                QCOMPARE(p.best->layout.pp, 1);
                QVERIFY(p.best->layout.recompute != Recompute::Selective);
            }
        QVERIFY(searched >= 3);
    }

    void tokensNeverExceedIdealLinear_data()
    {
        QTest::addColumn<QString>("preset");
        QTest::addColumn<bool>("weak");
        for (const QString& f : test::trainingPresetFiles()) {
            const QString name = QFileInfo(f).fileName();
            QTest::newRow(qPrintable(name + " strong")) << name << false;
            QTest::newRow(qPrintable(name + " weak")) << name << true;
        }
    }
    void tokensNeverExceedIdealLinear()
    {
        QFETCH(QString, preset);
        QFETCH(bool, weak);
        const SweepResult r = sweep(loadPreset(preset), weak ? Scaling::Weak : Scaling::Strong);
        // About 12-20 sizes; fewer where the sizes between the doublings
        // run no layout (a batch of 2^k sequences does not split in 3).
        QVERIFY2(r.points.size() >= 10, qPrintable(QString::number(r.points.size())));
        QVERIFY(r.points.size() <= 23);
        int withBest = 0;
        for (const auto& p : r.points) {
            if (!p.best)
                continue;
            ++withBest;
            const double ideal = idealTokensPerS(r, p.gpus);
            QVERIFY2(
                p.best->tokensPerS <= ideal * (1 + 1e-12),
                qPrintable(
                    QString("%1 GPUs: %2 tokens/s above ideal %3").arg(p.gpus).arg(p.best->tokensPerS).arg(ideal)));
            if (p.gpus == r.baseGpus)
                QCOMPARE(p.best->tokensPerS, ideal);
        }
        QVERIFY(withBest >= 10);
    }

    void clusterMtbfFallsAsGpusGrow()
    {
        const SweepResult r = sweep(loadPreset(kLlama));
        const SweepPoint* last = nullptr;
        for (const auto& p : r.points) {
            if (!p.best)
                continue;
            if (last) {
                QVERIFY(p.best->clusterMtbfH < last->best->clusterMtbfH);
                QVERIFY(p.best->expectedInterruptions > 0);
                // F1: MTBF of N independent parts is the part's over N.
                QCOMPARE(p.best->clusterMtbfH * double(p.gpus), last->best->clusterMtbfH * double(last->gpus));
            }
            last = &p;
        }
    }

    void rhoIsTheSeedsRatioOfTheModelsTimes()
    {
        // B5: rho = T_comm / (T_compute / N), with the model's own
        // communication and compute per step.
        QCOMPARE(fleet::commComputeRatio(0.5604, 5.0 * 256, 256), 0.11208);
        const Design d = loadPreset(kLlama);
        const Analysis a = analyzeDesign(d, Catalog::builtin());
        const ScaleFigures f = scaleFiguresOf(a);
        const StepTime& st = a.step;
        QVERIFY(st.computeS > 0 && st.computeS < st.stepS);
        QCOMPARE(f.rho.dp, st.commS.dp / st.computeS);
        QCOMPARE(f.rho.tp, st.commS.tp / st.computeS);
        QCOMPARE(f.rho.pp, st.commS.pp / st.computeS);
        QVERIFY(f.rho.tp > 0 && f.rho.pp > 0 && f.rho.dp > 0);
        QCOMPARE(f.rho.ep, 0.0);  // dense
        // The hidden share counts: TP with its communication overlapped
        // still moves the same bytes.
        Design overlapped = d;
        overlapped.workload.parallelism.tp_comm_overlap = true;
        const Analysis b = analyzeDesign(overlapped, Catalog::builtin());
        QCOMPARE(b.step.commS.tp, st.commS.tp);
        QVERIFY(b.step.stepS < st.stepS);
    }

    void amdahlAndGustafsonAreTheSeedsLaws()
    {
        // U2 through the sweep's curves: serial fraction 10%, anchored at
        // one GPU doing 1 token/s.
        SweepResult r;
        r.baseGpus = 1;
        r.baseTokensPerS = 1;
        r.amdahlSerialFraction = 0.1;
        QCOMPARE(QString::number(amdahlTokensPerS(r, 32), 'f', 1), QString("7.8"));
        QCOMPARE(QString::number(amdahlTokensPerS(r, 256), 'f', 1), QString("9.7"));
        QCOMPARE(QString::number(amdahlTokensPerS(r, 1024), 'f', 1), QString("9.9"));
        QCOMPARE(idealTokensPerS(r, 32), 32.0);
        QCOMPARE(gustafsonTokensPerS(r, 32), 32 - 0.1 * 31);  // Gustafson 1988: n - s (n - 1)

        // Karp-Flatt: the serial fraction reproduces the best layout's
        // speedup from the anchor to the design's size.
        const SweepResult s = sweep(loadPreset(kLlama));
        QVERIFY(s.amdahlSerialFraction);
        QVERIFY(*s.amdahlSerialFraction > 0 && *s.amdahlSerialFraction < 0.1);
        const SweepPoint* own = s.designPoint();
        QVERIFY(qAbs(amdahlTokensPerS(s, own->gpus) / own->best->tokensPerS - 1) < 1e-12);
        QVERIFY(gustafsonTokensPerS(s, own->gpus) >= amdahlTokensPerS(s, own->gpus));
    }

    void markersAndTheSentence()
    {
        const SweepResult r = sweep(loadPreset(kBudget));
        // The fabric grows a tier where its radix runs out, and says so once.
        int added = 0;
        for (std::size_t i = 1; i < r.points.size(); ++i) {
            QCOMPARE(r.points[i].tierAdded, r.points[i].fabricTiers > r.points[i - 1].fabricTiers);
            added += r.points[i].tierAdded;
        }
        QVERIFY(added >= 2);
        for (const auto& p : r.points)
            QCOMPARE(p.belowOneSequence, p.globalBatch < p.gpus);
        // A size slower than a smaller one names the fastest smaller size.
        for (std::size_t i = 0; i < r.points.size(); ++i) {
            const SweepPoint& p = r.points[i];
            std::int64_t fastest = 0;
            double most = 0;
            for (std::size_t k = 0; k < i; ++k)
                if (r.points[k].best && r.points[k].best->tokensPerS > most)
                    most = r.points[k].best->tokensPerS, fastest = r.points[k].gpus;
            QCOMPARE(p.slowerThanGpus, p.best && most > p.best->tokensPerS ? fastest : 0);
        }
        QVERIFY2(QString::fromStdString(r.stopsPaying).startsWith("Beyond "), r.stopsPaying.c_str());
        QVERIFY(QString::fromStdString(r.stopsPaying).contains("delivered tokens/s"));
    }

    void aSizeSlowerThanASmallerOneSaysWhich()
    {
        // MT-NLG's 105 layers on the A100 SuperPOD: 61,440 GPUs (3 x 5 x
        // 2^12) take 15 pipeline stages; 81,920 (5 x 2^14) only 1 or 5, the
        // rest going to context parallelism, and train slower.
        const SweepResult r = sweep(loadPreset("dgx-a100-superpod.cluster.json"));
        QVERIFY(r.ok());
        const auto at = [&](std::int64_t gpus) {
            return std::find_if(r.points.begin(), r.points.end(), [&](const SweepPoint& p) { return p.gpus == gpus; });
        };
        QVERIFY(at(61'440) != r.points.end() && at(81'920) != r.points.end());
        QCOMPARE(at(61'440)->best->layout.pp, 15);
        QVERIFY(at(81'920)->best->tokensPerS < at(61'440)->best->tokensPerS);
        QCOMPARE(at(81'920)->slowerThanGpus, std::int64_t(61'440));
        QCOMPARE(at(61'440)->slowerThanGpus, std::int64_t(0));
    }

    void theSitesPowerBudget()
    {
        // The 16K preset draws 33.3 MW: a 30 MW site is passed at its own
        // size and beyond, a 40 MW one only beyond it.
        Design d = loadPreset(kLlama);
        d.facility.site_mw = 30;
        auto warned = [](const Analysis& a) {
            return std::any_of(a.warnings.begin(), a.warnings.end(),
                               [](const Problem& p) { return p.code == "over_site_power"; });
        };
        const Analysis a = analyzeDesign(d, Catalog::builtin());
        QVERIFY(warned(a));
        const SweepResult r = sweep(d, Scaling::Strong, 32768);
        QCOMPARE(*r.siteMw, 30.0);
        for (const auto& p : r.points) {
            QCOMPARE(p.overSiteBudget, p.facilityKw > 30'000);
            QCOMPARE(p.overSiteBudget, p.gpus >= 16384);
        }
        QCOMPARE(r.designPoint()->facilityKw, a.power.facilityKw);
        QVERIFY(QString::fromStdString(sweepText(r)).contains("from here over the site's 30.0 MW"));
        QVERIFY(sweepJson(r)["points"].back()["over_site_budget"].get<bool>());
        d.facility.site_mw = 40;
        QVERIFY(!warned(analyzeDesign(d, Catalog::builtin())));
    }

    void weakScalingGrowsTheBatchAndTokens()
    {
        const Design d = loadPreset(kLlama);
        const SweepResult r = sweep(d, Scaling::Weak, 32768);
        for (const auto& p : r.points) {
            const double ratio = double(p.gpus) / 16384;
            QCOMPARE(p.globalBatch, std::max<std::int64_t>(1, std::llround(2048 * ratio)));
            QCOMPARE(p.tokens, d.workload.training.tokens * ratio);
        }
        // Days to train stay near the design's while the work per GPU stays.
        const SweepPoint* own = r.designPoint();
        QCOMPARE(own->globalBatch, d.workload.training.global_batch);
    }

    // Past the cheapest size more GPUs buy time at a higher price: strong
    // scaling spends more GPU-hours per token as each GPU does less, so the
    // cheapest run is smaller than the fastest.
    void theCheapestRunIsNotTheFastest()
    {
        const SweepResult r = sweep(loadPreset(kH100Pod));
        QVERIFY(r.cheapestGpus > 0 && r.fastestGpus > 0);
        QVERIFY2(r.cheapestGpus < r.fastestGpus,
                 qPrintable(QString("cheapest %1, fastest %2").arg(r.cheapestGpus).arg(r.fastestGpus)));
        const SweepPoint *cheapest = nullptr, *fastest = nullptr;
        for (const SweepPoint& p : r.points) {
            if (!p.best || p.best->goodput <= 0)
                continue;
            QVERIFY(p.best->ownedRunCostUsd);
            if (p.gpus == r.cheapestGpus)
                cheapest = &p;
            if (p.gpus == r.fastestGpus)
                fastest = &p;
        }
        QVERIFY(cheapest && fastest);
        for (const SweepPoint& p : r.points)
            if (p.best && p.best->goodput > 0) {
                QVERIFY(*p.best->ownedRunCostUsd >= *cheapest->best->ownedRunCostUsd);
                QVERIFY(p.best->wallDays >= fastest->best->wallDays);
            }
        QVERIFY(*fastest->best->ownedRunCostUsd > *cheapest->best->ownedRunCostUsd);
        const Json j = sweepJson(r);
        QCOMPARE(j["cheapest_gpus"].get<std::int64_t>(), r.cheapestGpus);
        QCOMPARE(j["fastest_gpus"].get<std::int64_t>(), r.fastestGpus);
        const QString text = QString::fromStdString(sweepText(r));
        QVERIFY(text.contains("cheapest run"));
        QVERIFY(text.contains("fastest run"));
    }

    void reportsCarryTheInterfaceKeys()
    {
        const SweepResult r = sweep(loadPreset(kBudget), Scaling::Strong, 1024);
        const Json j = sweepJson(r);
        QVERIFY(j["amdahl_serial_fraction"].is_number());
        QCOMPARE(j["points"].size(), r.points.size());
        for (const char* key :
             {"gpus", "layout", "tokens_per_s", "mfu", "step_time_s", "days_to_train", "cluster_mtbf_h",
              "expected_interruptions", "goodput", "facility_kw", "training_run_mwh", "run_cost_usd"})
            QVERIFY2(j["points"][0].contains(key), key);
        QCOMPARE(j["points"][0]["layout"]["tp"].get<std::int64_t>(), r.points[0].best->layout.tp);
        const QStringList csv = QString::fromStdString(sweepCsv(r)).split('\n', Qt::SkipEmptyParts);
        QCOMPARE(csv.size(), int(r.points.size()) + 1);
        for (const QString& line : csv)
            QCOMPARE(line.count(','), csv.front().count(','));
        const QString text = QString::fromStdString(sweepText(r));
        QVERIFY(text.contains("this design"));
        QVERIFY(!text.contains(QRegularExpression(" \n")));  // no trailing blanks
    }

    void aSizeNoLayoutSplitsRunsOnAPowerOfTwoOfIt()
    {
        // GB200 NVL72 racks (72 GPUs each) on the DGX H100 preset's Llama 3
        // 70B: 576 = 64 x 9 and nothing in the model divides by 9, so the
        // sweep runs each size on the largest power of two of its GPUs, as
        // the compare view runs the design, instead of finding no size.
        Design d = loadPreset("gb200-nvl72-8rack.cluster.json");
        d.workload = runOn(d.workload, loadPreset("dgx-h100-superpod-4su.cluster.json").workload, false);
        const SweepResult r = sweep(d, Scaling::Strong, 1152);
        const SweepPoint* own = r.designPoint();
        QVERIFY(own && own->best);
        QCOMPARE(own->gpus, std::int64_t(576));
        QCOMPARE(own->best->gpusUsed, std::int64_t(512));
        const Layout& l = own->best->layout;
        QCOMPARE(l.tp * l.pp * l.cp * l.dp, std::int64_t(512));
        for (const SweepPoint& p : r.points) {
            QVERIFY2(p.best, p.whyNoBest.c_str());
            const std::int64_t used = p.best->gpusUsed;
            QVERIFY(used == p.gpus || (used < p.gpus && 2 * used >= p.gpus && (used & (used - 1)) == 0));
        }
        // The figures are those of the design run on that layout.
        Design run = d;
        applyLayout(run.workload, own->best->layout);
        const Analysis a = analyzeDesign(run, Catalog::builtin());
        QCOMPARE(a.workload.gpusUsed, std::int64_t(512));
        compareFigures(*own->best, a);

        QCOMPARE(spareGpusNote(*own), std::string("512 of 576 GPUs used: no layout splits all"));
        QVERIFY(QString::fromStdString(sweepText(r)).contains("512 of 576 GPUs used: no layout splits all"));
        const Json j = sweepJson(r);
        for (std::size_t i = 0; i < r.points.size(); ++i)
            QCOMPARE(j["points"][i]["gpus_used"].get<std::int64_t>(), r.points[i].best->gpusUsed);
        const QStringList csv = QString::fromStdString(sweepCsv(r)).split('\n', Qt::SkipEmptyParts);
        QVERIFY(csv.front().endsWith(",gpus_used,owned_run_cost_usd"));
        QVERIFY(csv.filter(QRegularExpression("^576,true,.*,512,[0-9.e+]+$")).size() == 1);
    }

    void aRunThatNeverCompletesHasNoWallClockFigures()
    {
        // fuzz_search: a sweep whose runs never complete (failures leave no
        // time to train) printed expected interruptions as NaN in its CSV.
        Design d = loadPreset(kBudget);
        d.operations.failure_mttf_h.gpu = 0.01;  // every GPU fails every 36 s
        const SweepResult r = sweep(d, Scaling::Strong, 256);
        QVERIFY(!r.points.empty());
        for (const SweepPoint& p : r.points)
            if (p.best)
                QCOMPARE(p.best->goodput, 0.0);
        const QString csv = QString::fromStdString(sweepCsv(r));
        QVERIFY2(!csv.contains("nan", Qt::CaseInsensitive) && !csv.contains("inf", Qt::CaseInsensitive),
                 qPrintable(csv));
        const QStringList lines = csv.split('\n', Qt::SkipEmptyParts);
        const QStringList header = lines.front().split(',');
        for (const char* key : {"wall_days", "expected_interruptions", "training_run_mwh", "run_cost_usd"}) {
            const qsizetype column = header.indexOf(key);
            QVERIFY(column > 0);
            for (qsizetype i = 1; i < lines.size(); ++i)
                QCOMPARE(lines[i].split(',').value(column), QString());
        }
        QCOMPARE(lines[1].count(','), lines[0].count(','));
    }

    void errorsAndCancel()
    {
        Design d = loadPreset(kBudget);
        SweepOptions o;
        o.from = 2048;
        o.to = 1024;
        QVERIFY(QString::fromStdString(sweepScale(d, Catalog::builtin(), o).error).contains("from <= to"));
        o = {};
        o.to = kSweepMaxGpus + 1;
        QVERIFY(!sweepScale(d, Catalog::builtin(), o).error.empty());

        // A model no size up to the limit can hold.
        Design huge = d;
        huge.workload.model.layers = 512;  // ~2.6e13 parameters: 420 TB of training state
        huge.workload.model.hidden = 65536;
        huge.workload.model.heads = 512;
        huge.workload.model.kv_heads.reset();
        huge.workload.model.ffn_hidden.reset();
        o = {};
        o.to = 256;
        const SweepResult none = sweepScale(huge, Catalog::builtin(), o);
        QVERIFY2(QString::fromStdString(none.error).contains("runs the model with any layout"), none.error.c_str());

        std::atomic<bool> cancel{true};
        o = {};
        o.cancel = &cancel;
        QVERIFY(sweepScale(d, Catalog::builtin(), o).cancelled);
    }
};

QTEST_APPLESS_MAIN(TestScaleSweep)
#include "tst_scale_sweep.moc"
