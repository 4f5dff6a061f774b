// The layout search (core/search): the pruned search finds exactly what
// brute force finds, the best is never worse than a preset's own layout,
// every candidate's figures are the design analysis's own with that layout
// applied, and a search that finds nothing says why.
#include <QtTest>

#include <atomic>

#include "core/format/design_reader.h"
#include "core/model/analysis.h"
#include "core/search/layout_search.h"
#include "core/search/search_report.h"
#include "core/text.h"
#include "tests/core/hand_built.h"
#include "tests/core/presets.h"
#include "tests/test_support.h"

using namespace studio;
using studio::test::loadPreset;

namespace {

QString describe(const Layout& l)
{
    return QString::fromStdString(describeLayout(l)) + " batch " + QString::number(l.globalBatch);
}

// The pruned and the brute-force search agree on every count but the
// pruning ones, on the top K (layouts and objectives, in order) and on the
// current layout's rank.
void compareWithBruteForce(const Design& design, SearchOptions options)
{
    options.prune = true;
    const SearchResult pruned = searchLayouts(design, Catalog::builtin(), options);
    options.prune = false;
    const SearchResult brute = searchLayouts(design, Catalog::builtin(), options);
    QVERIFY2(pruned.ok(), pruned.error.c_str());
    QCOMPARE(brute.pruned, 0);
    QCOMPARE(brute.evaluated, brute.feasible);
    QCOMPARE(pruned.space, brute.space);
    QCOMPARE(pruned.feasible, brute.feasible);
    QCOMPARE(pruned.evaluated + pruned.pruned, pruned.feasible);
    QVERIFY(pruned.feasible > options.top);
    QVERIFY2(pruned.pruned > 0, "the bound prunes something");
    QCOMPARE(pruned.rejected.indivisible, brute.rejected.indivisible);
    QCOMPARE(pruned.rejected.forbiddenTier, brute.rejected.forbiddenTier);
    QCOMPARE(pruned.rejected.outOfMemory, brute.rejected.outOfMemory);
    QCOMPARE(pruned.space, pruned.feasible + pruned.rejected.total());
    QCOMPARE(pruned.top.size(), brute.top.size());
    for (std::size_t i = 0; i < brute.top.size(); ++i) {
        QCOMPARE(describe(pruned.top[i].layout), describe(brute.top[i].layout));
        QCOMPARE(pruned.top[i].objective, brute.top[i].objective);
    }
    QCOMPARE(pruned.current.feasible, brute.current.feasible);
    QCOMPARE(pruned.current.rank, brute.current.rank);
    QCOMPARE(pruned.current.gap, brute.current.gap);
}

}  // namespace

class TestLayoutSearch : public QObject {
    Q_OBJECT
private slots:
    void prunedEqualsBruteForce_data()
    {
        QTest::addColumn<QString>("preset");
        QTest::addColumn<int>("objective");
        QTest::addColumn<qlonglong>("gpus");
        QTest::addColumn<qlonglong>("batchMin");
        QTest::addColumn<qlonglong>("batchMax");
        QTest::addColumn<int>("top");
        QTest::addColumn<QString>("tp16");  // a current layout with tp 16 (forbidden unless tp may cross the leaf)
        const QString budget = "budget-8node-100gbe.cluster.json";
        QTest::newRow("64 GPUs, time") << budget << int(Objective::Time) << 0LL << 0LL << 0LL << 10 << QString();
        QTest::newRow("16 of 64 GPUs, time, top 1")
            << budget << int(Objective::Time) << 16LL << 0LL << 0LL << 1 << QString();
        QTest::newRow("32 GPUs, energy") << budget << int(Objective::Energy) << 32LL << 0LL << 0LL << 5 << QString();
        QTest::newRow("64 GPUs, days") << budget << int(Objective::Days) << 0LL << 0LL << 0LL << 10 << QString();
        QTest::newRow("16 GPUs, batch 64-512")
            << budget << int(Objective::Time) << 16LL << 64LL << 512LL << 10 << QString();
        QTest::newRow("current layout infeasible") << "budget-8node-100gbe.cluster.json" << int(Objective::Time) << 0LL
                                                   << 0LL << 0LL << 10 << QString("tp 16");
        QTest::newRow("MoE on 256 GPUs") << "dgx-b200-superpod-8su.cluster.json" << int(Objective::Time) << 256LL << 0LL
                                         << 0LL << 10 << QString();
    }
    void prunedEqualsBruteForce()
    {
        QFETCH(QString, preset);
        QFETCH(int, objective);
        QFETCH(qlonglong, gpus);
        QFETCH(qlonglong, batchMin);
        QFETCH(qlonglong, batchMax);
        QFETCH(int, top);
        QFETCH(QString, tp16);
        Design design = loadPreset(preset);
        SearchOptions options;
        if (!tp16.isEmpty()) {
            // The current layout is not feasible (tp 16 crosses the leaf):
            // nothing to hold the pruning threshold but the top K.
            design.workload.parallelism.tp = 16;
            design.workload.parallelism.dp = 4;
            const SearchResult r = searchLayouts(design, Catalog::builtin(), options);
            QVERIFY(!r.current.feasible);
            QVERIFY(r.pruned > 0);
        }
        options.objective = Objective(objective);
        options.gpus = gpus;
        options.batchMin = batchMin;
        options.batchMax = batchMax;
        options.top = top;
        compareWithBruteForce(design, options);
    }

    // Unfused attention makes selective recompute a choice of its own and
    // its memory a term of its own: the bounds must still hold.
    void prunedEqualsBruteForceWithUnfusedAttention()
    {
        Design d = loadPreset("budget-8node-100gbe.cluster.json");
        d.workload.training.attention_kernel = "unfused";
        d.workload.model.dropout = 0.1;
        SearchOptions options;
        options.gpus = 32;
        compareWithBruteForce(d, options);
        const SearchResult r = searchLayouts(d, Catalog::builtin(), options);
        bool selective = false;
        for (const auto& c : r.top)
            selective |= c.layout.recompute == Recompute::Selective;
        QVERIFY2(selective || r.top.size() < 3, "selective recompute is searched with unfused attention");
    }

    // The floor the search prunes by never exceeds a modelled step.
    void stepTimeFloorIsAFloor()
    {
        const Design d = loadPreset("budget-8node-100gbe.cluster.json");
        SearchOptions options;
        options.gpus = 16;
        options.prune = false;
        options.top = 100000;
        const SearchResult r = searchLayouts(d, Catalog::builtin(), options);
        QVERIFY(r.top.size() > 100);
        QCOMPARE(std::int64_t(r.top.size()), r.feasible);
        const Analysis a = analyzeDesign(d, Catalog::builtin());
        const double cv = d.operations.straggler_cv.value_or(defaults::kStragglerCv.value);
        for (const auto& c : r.top) {
            WorkloadShape shape = a.workload;
            shapeLayout(shape, c.layout);
            const double floor = stepTimeFloor(a.hardware, shape, cv);
            QVERIFY2(floor > 0 && floor <= c.stepS, qPrintable(describe(c.layout)));
        }
    }

    // Over every preset: the best candidate is never worse than the
    // preset's own layout, and its rank and gap say how far it is.
    void bestIsNeverWorseThanThePresetsLayout()
    {
        for (const QString& file : test::trainingPresetFiles()) {
            const DesignLoad loaded = loadDesignFile(file.toStdString(), Catalog::builtin());
            QVERIFY(loaded.ok());
            const SearchResult r = searchLayouts(*loaded.design, *loaded.catalog, {});
            QVERIFY2(r.ok(), qPrintable(file));
            QVERIFY2(!r.top.empty(), qPrintable(file));
            QVERIFY2(r.current.feasible, qPrintable(file + ": " + QString::fromStdString(r.current.whyNot)));
            QVERIFY2(r.top.front().objective <= r.current.figures.objective, qPrintable(file));
            QVERIFY(r.current.rank >= 1 && r.current.rank <= r.feasible);
            QVERIFY(r.current.gap >= 0);
            QCOMPARE(r.current.gap, r.current.figures.objective / r.top.front().objective - 1);
            for (std::size_t i = 1; i < r.top.size(); ++i)
                QVERIFY(r.top[i - 1].objective <= r.top[i].objective);
        }
    }

    // A candidate's figures are the analysis's own with its layout applied:
    // Apply in the studio and `metrics --set` show the same numbers.
    void candidatesEqualTheAnalysisOfTheirLayout()
    {
        for (const QString& file : test::trainingPresetFiles()) {
            const DesignLoad loaded = loadDesignFile(file.toStdString(), Catalog::builtin());
            QVERIFY(loaded.ok());
            SearchOptions options;
            options.top = 4;
            const SearchResult r = searchLayouts(*loaded.design, *loaded.catalog, options);
            for (const auto& c : r.top) {
                Design d = *loaded.design;
                applyLayout(d.workload, c.layout);
                const Analysis a = analyzeDesign(d, *loaded.catalog);
                const QString what = file + ": " + describe(c.layout);
                QVERIFY2(a.runnable(), qPrintable(what + ": " + QString::fromStdString(stepUnavailable(a))));
                QVERIFY2(a.memory.fits, qPrintable(what));
                QCOMPARE(a.step.stepS, c.stepS);
                QCOMPARE(a.step.mfu, c.mfu);
                QCOMPARE(a.step.tokensPerS, c.tokensPerS);
                QCOMPARE(a.memory.totalGb, c.memoryGb);
                QVERIFY(layoutOf(a.workload) == c.layout);
            }
        }
    }

    // Ranked by cost, each candidate's objective is what `metrics` says its
    // run costs (cost.run_cost_usd) on the design with its layout.
    void theCostObjectiveIsTheRunsCost()
    {
        const Design d = loadPreset("dgx-h100-superpod-4su.cluster.json");
        SearchOptions options;
        options.top = 3;
        options.objective = Objective::Cost;
        const SearchResult r = searchLayouts(d, Catalog::builtin(), options);
        QVERIFY(r.error.empty() && !r.top.empty());
        for (const auto& c : r.top) {
            Design run = d;
            applyLayout(run.workload, c.layout);
            const Analysis a = analyzeDesign(run, Catalog::builtin());
            QVERIFY(a.cost.runCost);
            COMPARE_REL(c.objective, a.cost.runCost->typical, 1e-9);
        }
        QCOMPARE(QString::fromStdString(objectiveUnit(Objective::Cost)), QString("USD"));
        Objective parsed{};
        QVERIFY(objectiveFromName("cost", &parsed) && parsed == Objective::Cost);
    }

    void aModelThatFitsNowhereSaysSo()
    {
        Design d = loadPreset("budget-8node-100gbe.cluster.json");
        d.workload.model.layers = 400;  // far beyond 64 GPUs' HBM
        d.workload.model.hidden = 32768;
        d.workload.model.heads = 256;
        d.workload.model.kv_heads = 16;
        d.workload.model.ffn_hidden = 131072;
        const SearchResult r = searchLayouts(d, Catalog::builtin(), {});
        QVERIFY(r.ok());
        QCOMPARE(r.feasible, 0);
        QVERIFY(r.top.empty());
        QVERIFY(r.rejected.outOfMemory > 0);
        QVERIFY(!r.current.feasible);
        QVERIFY2(r.nothingFits.find("has no feasible layout on 64") != std::string::npos, r.nothingFits.c_str());
        QVERIFY2(r.nothingFits.find("GB per GPU") != std::string::npos, r.nothingFits.c_str());
        const Json j = searchJson(r);
        QCOMPARE(QString::fromStdString(j.at("nothing_fits").get<std::string>()),
                 QString::fromStdString(r.nothingFits));
        QVERIFY(j.at("candidates").empty());
        QVERIFY(j.at("current").at("rank").is_null());
    }

    // tp beyond the NVLink domain is rejected by default and allowed when
    // the limit is lifted; the current layout is judged by the same rule.
    void tierLimits()
    {
        Design d = loadPreset("budget-8node-100gbe.cluster.json");
        const SearchResult byDefault = searchLayouts(d, Catalog::builtin(), {});
        QVERIFY(byDefault.rejected.forbiddenTier > 0);
        for (const auto& c : byDefault.top)
            QVERIFY(c.layout.tp <= 8);
        SearchOptions any;
        any.within = {{"tp", "any"}};
        const SearchResult lifted = searchLayouts(d, Catalog::builtin(), any);
        QCOMPARE(lifted.rejected.forbiddenTier, 0);
        QCOMPARE(lifted.space, byDefault.space);
        QVERIFY(lifted.feasible > byDefault.feasible);

        d.workload.parallelism.tp = 16;
        d.workload.parallelism.dp = 4;
        const SearchResult current = searchLayouts(d, Catalog::builtin(), {});
        QVERIFY(!current.current.feasible);
        QVERIFY2(current.current.whyNot.find("tp = 16 crosses the") != std::string::npos,
                 current.current.whyNot.c_str());

        SearchOptions bad;
        bad.within = {{"tp", "rack"}};
        QCOMPARE(QString::fromStdString(searchLayouts(d, Catalog::builtin(), bad).error),
                 QString("no tier 'rack' to keep tp within (tiers: nvlink, leaf, spine, core, any)"));
        bad.within = {{"xp", "leaf"}};
        QCOMPARE(QString::fromStdString(searchLayouts(d, Catalog::builtin(), bad).error),
                 QString("no parallelism axis 'xp' to limit (axes: tp, cp, ep, dp, pp)"));
    }

    // By days to train, a layout the failures never let finish ranks
    // nowhere: it had an infinite objective, and the gap to the best was
    // infinity over infinity.
    void byDaysARunThatNeverCompletesIsNotRanked()
    {
        Design d = loadPreset("budget-8node-100gbe.cluster.json");
        d.operations.failure_mttf_h.gpu = 0.01;
        SearchOptions o;
        o.objective = Objective::Days;
        const SearchResult r = searchLayouts(d, Catalog::builtin(), o);
        QVERIFY(r.ok());
        QVERIFY(r.feasible > 0);
        QCOMPARE(r.neverComplete, r.evaluated);
        QVERIFY(r.top.empty());
        QVERIFY(!r.current.feasible);
        QVERIFY2(QString::fromStdString(r.current.whyNot).startsWith("never completes: "), r.current.whyNot.c_str());
        QVERIFY2(QString::fromStdString(r.nothingFits)
                     .endsWith("whose run completes: failures leave none of them time "
                               "to train"),
                 r.nothingFits.c_str());
        QCOMPARE(searchJson(r)["never_complete"].get<std::int64_t>(), r.neverComplete);
        // By time the same layouts rank as ever.
        o.objective = Objective::Time;
        const SearchResult byTime = searchLayouts(d, Catalog::builtin(), o);
        QCOMPARE(byTime.neverComplete, std::int64_t(0));
        QVERIFY(!byTime.top.empty());
    }

    void badOptionsAreRefused()
    {
        const Design d = loadPreset("budget-8node-100gbe.cluster.json");
        SearchOptions o;
        o.gpus = 65;
        QCOMPARE(QString::fromStdString(searchLayouts(d, Catalog::builtin(), o).error),
                 QString("cannot search 65 GPUs: the design has 64"));
        o = {};
        o.batchMin = 512;
        o.batchMax = 64;
        QCOMPARE(QString::fromStdString(searchLayouts(d, Catalog::builtin(), o).error),
                 QString("the global batch range 512-64 is empty"));
        // Doubling up to the largest int64 overflowed (fuzz_search).
        o.batchMin = 1;
        o.batchMax = std::numeric_limits<std::int64_t>::max();
        QCOMPARE(QString::fromStdString(searchLayouts(d, Catalog::builtin(), o).error),
                 QString("the global batch range 1-9,223,372,036,854,775,807 goes past 1,000,000,000 sequences, the "
                         "largest global batch"));
        o.batchMin = 500'000'000;
        o.batchMax = 1'000'000'000;
        QVERIFY(searchLayouts(d, Catalog::builtin(), o).ok());
        Design empty = test::emptyDesign();
        QCOMPARE(QString::fromStdString(searchLayouts(empty, Catalog::builtin(), {}).error),
                 QString("the design has no GPUs to search layouts on"));
    }

    // What the user's software runs (search --fix, --allow, issue 38): a
    // constrained axis never takes another value; the pruned search still
    // equals brute force within the constraints; the current layout ranks
    // among the constrained candidates alone (counted by hand over every
    // feasible one); a constraint that excludes it says so; a bad one is
    // refused with the axis and the values it takes.
    void theSearchStaysWithinWhatTheSoftwareRuns()
    {
        const Design d = loadPreset("budget-8node-100gbe.cluster.json");
        SearchOptions o;
        o.top = 50;
        o.allowed = {{"zero", {"1"}}, {"recompute", {"selective", "full"}}, {"micro_batch", {"1", "2"}}};
        const SearchResult r = searchLayouts(d, Catalog::builtin(), o);
        QVERIFY2(r.ok(), r.error.c_str());
        QVERIFY(r.top.size() > 10);
        for (const Candidate& c : r.top) {
            QCOMPARE(c.layout.zero, 1);
            QVERIFY(c.layout.recompute != Recompute::None);
            QVERIFY(c.layout.microBatch <= 2);
        }
        QVERIFY(r.space < searchLayouts(d, Catalog::builtin(), {}).space);
        compareWithBruteForce(d, o);

        SearchOptions all = o;
        all.keepPoints = true;
        const SearchResult every = searchLayouts(d, Catalog::builtin(), all);
        QVERIFY(every.current.feasible);
        std::int64_t better = 0;
        for (const SearchPoint& p : every.points) {
            QCOMPARE(p.layout.zero, 1);
            better += p.objective < every.current.figures.objective;
        }
        QCOMPARE(every.current.rank, 1 + better);
        QCOMPARE(std::int64_t(every.points.size()), every.feasible);

        SearchOptions other;
        other.allowed = {{"tp", {std::to_string(d.workload.parallelism.tp.value_or(1) * 2)}}};
        const SearchResult outside = searchLayouts(d, Catalog::builtin(), other);
        QVERIFY(outside.ok());
        QVERIFY(!outside.current.feasible);
        QCOMPARE(QString::fromStdString(outside.current.whyNot),
                 QString("outside what the software runs: tp %1 (allowed: %2)")
                     .arg(d.workload.parallelism.tp.value_or(1))
                     .arg(d.workload.parallelism.tp.value_or(1) * 2));
        for (const Candidate& c : outside.top)
            QCOMPARE(c.layout.tp, d.workload.parallelism.tp.value_or(1) * 2);
        const QString json = QString::fromStdString(searchJson(r).dump());
        QVERIFY2(json.contains("\"constraints\":{\"micro_batch\":[1,2],\"recompute\":[\"selective\",\"full\"],"
                               "\"zero\":[1]}"),
                 qPrintable(json));

        SearchOptions none;
        none.allowed = {{"tp", {"3"}}};
        const SearchResult nothing = searchLayouts(d, Catalog::builtin(), none);
        QCOMPARE(nothing.space, 0);
        QVERIFY2(QString::fromStdString(nothing.nothingFits)
                     .endsWith("within what the software runs: no combination of the values allowed uses 64 GPUs"),
                 nothing.nothingFits.c_str());
        const auto error = [&](std::map<std::string, std::vector<std::string>> allowed) {
            SearchOptions bad;
            bad.allowed = std::move(allowed);
            return QString::fromStdString(searchLayouts(d, Catalog::builtin(), bad).error);
        };
        QCOMPARE(error({{"pipeline", {"2"}}}),
                 QString("no layout axis 'pipeline' to constrain (axes: tp, pp, dp, cp, ep, micro_batch, interleave, "
                         "zero, recompute, sequence_parallel)"));
        QCOMPARE(error({{"zero", {"4"}}}), QString("zero=4: expected a ZeRO stage, 0 to 3"));
        QCOMPARE(error({{"tp", {"08"}}}), QString("tp=08: expected a whole number of at least 1"));
        QCOMPARE(error({{"sequence_parallel", {"yes"}}}), QString("sequence_parallel=yes: expected true or false"));
    }

    // A design names its software (workload.software, a catalog profile):
    // the search proposes only what the profile allows, as if its axes were
    // constrained by hand; a current layout the profile excludes says so by
    // the profile's name; constraints of the search's own meet the
    // profile's, and none in both is refused naming each side.
    void theSearchStaysWithinTheDesignsSoftwareProfile()
    {
        Design d = loadPreset("budget-8node-100gbe.cluster.json");
        QCOMPARE(d.workload.parallelism.recompute.value_or("selective"), std::string("selective"));
        d.workload.software = "megatron-lm-2021";
        SearchOptions o;
        o.top = 50;
        const SearchResult r = searchLayouts(d, Catalog::builtin(), o);
        QVERIFY2(r.ok(), r.error.c_str());
        QCOMPARE(r.software, std::string("megatron-lm-2021"));
        QCOMPARE(r.allowedBy, std::string("Megatron-LM (2021)"));
        QVERIFY(r.top.size() > 10);
        for (const Candidate& c : r.top) {
            QCOMPARE(c.layout.zero, 0);
            QCOMPARE(c.layout.cp, 1);
            QVERIFY(!c.layout.sequenceParallel);
            QVERIFY(c.layout.recompute != Recompute::Selective);
        }
        QVERIFY(!r.current.feasible);
        QCOMPARE(QString::fromStdString(r.current.whyNot),
                 QString("outside what Megatron-LM (2021) runs: recompute selective (allowed: none, full)"));
        compareWithBruteForce(d, o);

        // The same search as the profile's axes constrained by hand.
        Design any = loadPreset("budget-8node-100gbe.cluster.json");
        SearchOptions byHand = o;
        byHand.allowed = Catalog::builtin().software("megatron-lm-2021")->allowed;
        const SearchResult hand = searchLayouts(any, Catalog::builtin(), byHand);
        QCOMPARE(hand.space, r.space);
        QCOMPARE(hand.feasible, r.feasible);
        QCOMPARE(hand.top.front().objective, r.top.front().objective);
        QCOMPARE(hand.allowedBy, std::string("the software"));
        QCOMPARE(QString::fromStdString(searchJson(r).at("software").get<std::string>()), QString("megatron-lm-2021"));
        QVERIFY(searchText(r).find("Within what Megatron-LM (2021) runs: cp 1; ep 1; recompute none, full; "
                                   "sequence_parallel false; zero 0\n") != std::string::npos);

        // Both: the values in both; none in both is an error naming each.
        SearchOptions both = o;
        both.allowed = {{"recompute", {"full", "selective"}}, {"tp", {"2"}}};
        const SearchResult met = searchLayouts(d, Catalog::builtin(), both);
        QVERIFY2(met.ok(), met.error.c_str());
        for (const Candidate& c : met.top) {
            QVERIFY(c.layout.recompute == Recompute::Full);
            QCOMPARE(c.layout.tp, 2);
        }
        both.allowed = {{"zero", {"1", "2"}}};
        QCOMPARE(QString::fromStdString(searchLayouts(d, Catalog::builtin(), both).error),
                 QString("zero 1, 2 asked for, but Megatron-LM (2021) runs zero 0"));

        // A profile the catalog lacks is refused, not searched as anything.
        d.workload.software = "gone";
        QCOMPARE(QString::fromStdString(searchLayouts(d, Catalog::builtin(), o).error),
                 QString("no software profile 'gone' in the catalog"));
    }

    // Every candidate uses exactly the GPUs searched and splits the model
    // evenly (the rules the search enumerates by, checked independently).
    void candidatesAreRunnable()
    {
        const Design d = loadPreset("h100-16k-roce-llama3.cluster.json");
        SearchOptions o;
        o.top = 50;
        o.gpus = 8192;
        const SearchResult r = searchLayouts(d, Catalog::builtin(), o);
        QCOMPARE(r.top.size(), std::size_t(50));
        const auto& m = d.workload.model;
        for (const auto& c : r.top) {
            const Layout& l = c.layout;
            QCOMPARE(l.tp * l.pp * l.cp * l.dp, 8192);
            QCOMPARE(m.heads % l.tp, 0);
            QVERIFY(m.kv_heads.value_or(m.heads) % l.tp == 0 || l.tp % m.kv_heads.value_or(m.heads) == 0);
            QVERIFY(m.layers % (l.pp * l.interleave) == 0 || (m.layers + 2) % (l.pp * l.interleave) == 0);
            QCOMPARE(l.globalBatch % (l.microBatch * l.dp), 0);
            QCOMPARE(m.seq_len % l.cp, 0);
            QVERIFY(l.interleave == 1 || l.pp > 1);
            QVERIFY(!l.sequenceParallel || l.tp > 1);
            Design applied = d;
            applyLayout(applied.workload, l);
            for (const auto& p : unrunnableLayout(applied.workload, 16384))
                QVERIFY2(p.code == "layout_mismatch", p.message.c_str());  // idle GPUs, never an error
        }
    }

    void cancelStopsTheSearch()
    {
        const Design d = loadPreset("h100-16k-roce-llama3.cluster.json");
        std::atomic<bool> cancel{true};
        SearchOptions o;
        o.cancel = &cancel;
        const SearchResult r = searchLayouts(d, Catalog::builtin(), o);
        QVERIFY(r.cancelled);
        QVERIFY(!r.ok());
        cancel = false;
        double last = -1;
        int calls = 0;
        o.progress = [&](double done) {
            QVERIFY(done >= last && done <= 1);
            last = done;
            ++calls;
        };
        QVERIFY(searchLayouts(d, Catalog::builtin(), o).ok());
        QCOMPARE(last, 1.0);
        QVERIFY(calls > 2);
    }

    // The objectives agree on what they are: energy is the facility's power
    // share times time per token; days are the workload's tokens at that
    // pace, stretched by goodput.
    void objectivesAreTheirFormulas()
    {
        const Design d = loadPreset("dgx-h100-superpod-4su.cluster.json");
        const Analysis a = analyzeDesign(d, Catalog::builtin());
        SearchOptions o;
        o.top = 1;
        o.objective = Objective::Energy;
        const SearchResult energy = searchLayouts(d, Catalog::builtin(), o);
        const Candidate& e = energy.top.front();
        const double perToken = e.stepS / (double(e.layout.globalBatch) * double(d.workload.model.seq_len));
        QVERIFY(test::relClose(e.objective, a.power.facilityKw * 1000 * perToken, 1e-12));
        o.objective = Objective::Days;
        const SearchResult days = searchLayouts(d, Catalog::builtin(), o);
        const Candidate& w = days.top.front();
        QVERIFY(test::relClose(w.objective, d.workload.training.tokens / w.tokensPerS / 86400 / a.reliability.goodput,
                               1e-12));
        // With every GPU used and a fixed batch, all three rank by step time.
        o.objective = Objective::Time;
        QCOMPARE(describe(searchLayouts(d, Catalog::builtin(), o).top.front().layout), describe(w.layout));
        QCOMPARE(describe(e.layout), describe(w.layout));
    }

    void reportFormats()
    {
        const Design d = loadPreset("budget-8node-100gbe.cluster.json");
        SearchOptions o;
        o.top = 3;
        const SearchResult r = searchLayouts(d, Catalog::builtin(), o);
        const Json j = searchJson(r);
        QCOMPARE(j.at("candidates").size(), std::size_t(3));
        QCOMPARE(j.at("feasible").get<std::int64_t>(), r.feasible);
        QCOMPARE(j.at("rejected").at("out_of_memory").get<std::int64_t>(), r.rejected.outOfMemory);
        const Json& best = j.at("candidates").at(0);
        for (const char* key :
             {"tp", "pp", "dp", "cp", "ep", "micro_batch", "interleave", "zero", "recompute", "sequence_parallel"})
            QVERIFY2(best.at("layout").contains(key), key);
        QCOMPARE(best.at("step_time_s").get<double>(), r.top.front().stepS);
        QCOMPARE(j.at("current").at("rank").get<std::int64_t>(), r.current.rank);
        const QList<QStringList> csv = test::parseCsv(QString::fromStdString(searchCsv(r)));
        QCOMPARE(csv.size(), 4);
        QCOMPARE(csv[0].size(), csv[1].size());
        QCOMPARE(csv[1][0], QString("1"));
        const std::string text = searchText(r);
        QVERIFY2(text.find("Current: tp 2 · pp 1 · dp 32") != std::string::npos, text.c_str());
        QVERIFY2(text.find("#" + formatCount(r.current.rank) + " of " + formatCount(r.feasible)) != std::string::npos,
                 text.c_str());
    }
};

QTEST_APPLESS_MAIN(TestLayoutSearch)
#include "tst_layout_search.moc"
