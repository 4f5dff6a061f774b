// The comparison the compare view, the `compare` verb and the comparison PDF
// share: every key figure of every preset has a value and an explanation,
// deltas are the differences of the designs' own analyses, better and worse
// follow each figure's direction, and the JSON, text and CSV carry them.
// Designs compare on one workload, each at its best layout (or its own);
// on different workloads the figures of the run are not compared; the
// precision is named; no two figures share a name.
#include <QtTest>

#include <cmath>
#include <map>
#include <set>
#include <stdexcept>

#include "core/compare/comparison.h"
#include "core/design/resize.h"
#include "core/format/design_reader.h"
#include "core/metrics/explanations.h"
#include "core/metrics/figure_names.h"
#include "core/metrics/warning_rank.h"
#include "core/scale/scale_sweep.h"
#include "core/search/layout_search.h"
#include "core/text.h"
#include "tests/test_support.h"

using namespace studio;

namespace {

ComparedDesign entryFor(const QString& preset)
{
    const QString path = test::sourcePath("presets/" + preset);
    DesignLoad l = loadDesignFile(path.toStdString(), Catalog::builtin());
    if (!l.ok())
        throw std::runtime_error("cannot load " + path.toStdString());
    return compareEntry(*l.design, *l.catalog, path.toStdString());
}

DesignLoad presetLoad(const QString& preset)
{
    DesignLoad l = loadDesignFile(test::sourcePath("presets/" + preset).toStdString(), Catalog::builtin());
    if (!l.ok())
        throw std::runtime_error("cannot load " + preset.toStdString());
    return l;
}

// The presets as the compare verb prepares them: every one on the
// baseline's workload (or `other`'s), at the layout `setup` asks for.
std::vector<ComparedDesign> onOneWorkload(const QStringList& presets, std::size_t baseline, CompareSetup setup = {},
                                          const Workload* other = nullptr)
{
    if (other) {
        setup.workload = WorkloadFrom::Other;
        setup.other = *other;
        setup.otherSource = "other.cluster.json";
    }
    std::vector<DesignLoad> loads;
    for (const QString& p : presets)
        loads.push_back(presetLoad(p));
    std::vector<CompareInput> inputs;
    for (std::size_t i = 0; i < loads.size(); ++i)
        inputs.push_back({&*loads[i].design, loads[i].catalog.get(), presets[int(i)].toStdString()});
    return *prepareComparison(inputs, baseline, setup);
}

const QString kH100 = "dgx-h100-superpod-4su.cluster.json", kB200 = "dgx-b200-superpod-8su.cluster.json";

const FigureComparison& rowOf(const Comparison& c, const std::string& key)
{
    for (const auto& row : c.figures)
        if (row.figure.key == key)
            return row;
    throw std::runtime_error("no row " + key);
}

}  // namespace

class TestComparison : public QObject {
    Q_OBJECT
private slots:
    void everyKeyFigureHasAValueAndExplainsItself_data()
    {
        QTest::addColumn<QString>("file");
        for (const QString& f : test::presetFiles())
            QTest::newRow(qPrintable(QFileInfo(f).fileName())) << f;
    }
    void everyKeyFigureHasAValueAndExplainsItself()
    {
        QFETCH(QString, file);
        DesignLoad l = loadDesignFile(file.toStdString(), Catalog::builtin());
        QVERIFY(l.ok());
        const ComparedDesign d = compareEntry(*l.design, *l.catalog, file.toStdString());
        const auto explained = explainCompared(d);
        const WorkloadKind workload = d.design.workload.kindOf();
        for (const auto& f : keyFigures()) {
            const auto v = figureValue(d.metrics, f);
            // The other workload's figures say why they are not there.
            if (f.workload && f.workload != workload) {
                QVERIFY2(!figureUnavailable(d.metrics, f).empty(), f.key.c_str());
                continue;
            }
            QVERIFY2(v && std::isfinite(*v), f.key.c_str());
            QVERIFY2(findExplanation(explained, f.key), f.key.c_str());
        }
        // The peak is the one at the precision the design trains at (or
        // serves its weights at).
        const auto peak = figureValue(d.metrics, *findKeyFigure("compute.cluster_peak_pflops"));
        const double perGpu = d.serving ? d.serving->peakTflops : d.analysis.hardware.gpu.trainingPeakTflops.value;
        QCOMPARE(*peak, perGpu * double(d.analysis.inventory.gpus) / 1000);
    }

    void eachWorkloadShowsItsOwnRows()
    {
        auto keysOf = [](const Comparison& c) {
            std::set<std::string> keys;
            for (const auto& row : c.figures)
                keys.insert(row.figure.key);
            return keys;
        };
        const ComparedDesign h100 = entryFor("dgx-h100-superpod-4su.cluster.json");
        const ComparedDesign node = entryFor("serving-llama3-70b-dgx-h100.cluster.json");
        const ComparedDesign nvl72 = entryFor("serving-grok1-moe-gb200-nvl72.cluster.json");
        // Training designs only: no serving rows, as before serving existed.
        const auto training = keysOf(compareDesigns({h100, entryFor("dgx-b200-superpod-8su.cluster.json")}));
        QVERIFY(training.contains("training.mfu") && training.contains("reliability.goodput"));
        QVERIFY(!training.contains("serving.tpot_s"));
        // Serving designs only: no training run, so no step, days or goodput.
        const Comparison served = compareDesigns({node, nvl72});
        const auto serving = keysOf(served);
        QVERIFY(serving.contains("serving.tpot_s") && serving.contains("power.facility_kw"));
        QVERIFY(!serving.contains("training.mfu") && !serving.contains("reliability.goodput"));
        // The serving rows are the serving analyses' figures; two models
        // served are not compared...
        const FigureComparison& perGpu = rowOf(served, "serving.tokens_per_s_per_gpu");
        QCOMPARE(*perGpu.cells[0].value, node.serving->decode.tokensPerSPerGpu);
        QCOMPARE(perGpu.cells[1].verdict, Verdict::DifferentWorkloads);
        QCOMPARE(rowOf(served, "serving.tpot_s").cells[1].text(rowOf(served, "serving.tpot_s").figure),
                 formatReadable(nvl72.serving->decode.tpotS * 1000) + " ms");
        // ... one model served on both is: the NVL72 rack serves Llama 3 70B
        // in the baseline's replica.
        const Comparison one = compareDesigns(onOneWorkload(
            {"serving-llama3-70b-dgx-h100.cluster.json", "serving-grok1-moe-gb200-nvl72.cluster.json"}, 0));
        const double a = one.designs[0].serving->decode.tokensPerSPerGpu,
                     b = one.designs[1].serving->decode.tokensPerSPerGpu;
        QCOMPARE(a, node.serving->decode.tokensPerSPerGpu);
        const FigureComparison& shared = rowOf(one, "serving.tokens_per_s_per_gpu");
        QCOMPARE(*shared.cells[1].delta, b - a);
        QCOMPARE(shared.cells[1].verdict, b > a ? Verdict::Better : Verdict::Worse);
        QCOMPARE(one.designs[1].design.workload.parallelism.tp, node.serving->tp);
        // Mixed: both sets of rows; each design says why the other's are empty.
        const Comparison mixed = compareDesigns({h100, node});
        QCOMPARE(rowOf(mixed, "serving.tpot_s").cells[0].unavailable,
                 std::string("not serving: the workload is training"));
        QVERIFY(rowOf(mixed, "training.mfu").cells[1].unavailable.find("serving") != std::string::npos);
        QVERIFY(!rowOf(mixed, "training.mfu").cells[1].value);
    }

    void aServingDesignThatCannotBeServedSaysWhy()
    {
        DesignLoad l = loadDesignFile(
            test::sourcePath("presets/serving-llama3-70b-dgx-h100.cluster.json").toStdString(), Catalog::builtin());
        QVERIFY(l.ok());
        l.design->workload.serving->batch = 100000;
        const ComparedDesign d = compareEntry(*l.design, *l.catalog, "too big");
        const std::string why = figureUnavailable(d.metrics, *findKeyFigure("serving.tpot_s"));
        QVERIFY2(why.starts_with("not servable: a batch of 100,000 does not fit"), why.c_str());
        QVERIFY(!figureValue(d.metrics, *findKeyFigure("serving.tpot_s")));
    }

    void deltasAreTheDifferencesOfTheAnalyses()
    {
        const Comparison c = compareDesigns(onOneWorkload({kH100, kB200}, 0), 0);
        const Analysis& a = c.designs[0].analysis;
        const Analysis& b = c.designs[1].analysis;
        const FigureComparison& mfu = rowOf(c, "training.mfu");
        QCOMPARE(mfu.cells[0].verdict, Verdict::Baseline);
        QCOMPARE(*mfu.cells[1].delta, b.step.mfu - a.step.mfu);
        QCOMPARE(*mfu.cells[1].relative, (b.step.mfu - a.step.mfu) / a.step.mfu);
        QCOMPARE(mfu.cells[1].verdict, b.step.mfu > a.step.mfu ? Verdict::Better : Verdict::Worse);
        const FigureComparison& step = rowOf(c, "training.step_time_s");
        QCOMPARE(step.cells[1].verdict, b.step.stepS < a.step.stepS ? Verdict::Better : Verdict::Worse);
        const FigureComparison& mw = rowOf(c, "power.facility_kw");
        QCOMPARE(*mw.cells[1].delta, b.power.facilityKw - a.power.facilityKw);
        QCOMPARE(mw.cells[1].verdict, Verdict::Worse);  // twice the GPUs draw more
        // Sizes are neither better nor worse.
        QCOMPARE(rowOf(c, "inventory.gpus").cells[1].verdict, Verdict::Changed);
        QCOMPARE(*rowOf(c, "inventory.gpus").cells[1].delta, double(b.inventory.gpus - a.inventory.gpus));
    }

    void costsCompareTheirTypicalValuesAndSayWhenIncomplete()
    {
        const Comparison c = compareDesigns(onOneWorkload({kH100, kB200}, 0), 0);
        const Analysis& a = c.designs[0].analysis;
        const Analysis& b = c.designs[1].analysis;
        const FigureComparison& capex = rowOf(c, "cost.capex_usd");
        QCOMPARE(*capex.cells[0].value, a.cost.capex.typical);
        QCOMPARE(*capex.cells[1].delta, b.cost.capex.typical - a.cost.capex.typical);
        QCOMPARE(capex.cells[1].verdict, Verdict::Worse);  // twice the GPUs cost more
        const FigureComparison& perToken = rowOf(c, "cost.usd_per_million_tokens");
        QCOMPARE(*perToken.cells[1].value, b.cost.usdPerMillionTokens->typical);
        QCOMPARE(perToken.cells[1].verdict,
                 b.cost.usdPerMillionTokens->typical < a.cost.usdPerMillionTokens->typical ? Verdict::Better
                                                                                           : Verdict::Worse);
        QVERIFY(a.cost.complete() && b.cost.complete());
        for (const FigureCell& cell : capex.cells)
            QVERIFY(cell.qualifier.empty());
        // A rack without a price: every cost cell of that design says so.
        std::vector<ComparedDesign> designs = onOneWorkload({kH100, kB200}, 0);
        for (Component& comp : designs[1].design.components)
            if (comp.part == "rack.air-42u")
                comp.part = "rack.air-48u";
        designs[1] = compareEntry(designs[1].design, Catalog::builtin(), designs[1].source);
        const Comparison partial = compareDesigns(designs, 0);
        QCOMPARE(rowOf(partial, "cost.capex_usd").cells[0].qualifier, std::string());
        QCOMPARE(rowOf(partial, "cost.capex_usd").cells[1].qualifier, std::string("incomplete"));
        QCOMPARE(rowOf(partial, "cost.usd_per_million_tokens").cells[1].qualifier, std::string("incomplete"));
        QVERIFY(rowOf(partial, "training.mfu").cells[1].qualifier.empty());
    }

    // Issue 39: at equal budget each other design is resized along its
    // growth unit to the largest size within the baseline's capex or power.
    void equalBudgetResizesTheOthersToTheBaselinesFigure()
    {
        const DesignLoad h100 = presetLoad(kH100), b200 = presetLoad(kB200);
        const auto unit = findScaleUnit(*b200.design, *b200.catalog).unit;
        QVERIFY(unit);
        for (Budget budget : {Budget::Capex, Budget::Power}) {
            CompareSetup setup;
            setup.budget = budget;
            setup.layout = LayoutFrom::Own;
            const auto designs = onOneWorkload({kH100, kB200}, 0, setup);
            const double target = budgetFigure(*h100.design, *h100.catalog, budget).value;
            const EqualBudget& base = *designs[0].equalBudget;
            QCOMPARE(base.target, target);
            QCOMPARE(base.value, target);
            QCOMPARE(base.gpus, base.designGpus);
            const EqualBudget& e = *designs[1].equalBudget;
            QCOMPARE(e.budget, budget);
            QCOMPARE(e.designGpus, std::int64_t(2048));
            QVERIFY(e.gpus < e.designGpus && e.gpus % unit->gpusPerInstance == 0);
            QVERIFY(e.value <= target);
            QVERIFY(e.note.empty());
            // One more growth unit would be over the budget.
            const SizedDesign next =
                sizeDesign(*b200.design, *b200.catalog, e.gpus + unit->gpusPerInstance, e.designGpus);
            QVERIFY(next.error.empty());
            QVERIFY(budgetFigure(next.design, *b200.catalog, budget).value > target);
            // The design is analysed at that size, and says so.
            QCOMPARE(designs[1].analysis.inventory.gpus, e.gpus);
            QCOMPARE(designs[1].metrics["equal_budget"]["gpus"].get<std::int64_t>(), e.gpus);
            QCOMPARE(designs[1].metrics["equal_budget"]["budget"].get<std::string>(), std::string(budgetName(budget)));
            const Comparison c = compareDesigns(designs, 0);
            const std::string label = b200.design->name + " at " + formatCount(e.gpus) + " GPUs";
            QCOMPARE(c.designs[1].label, label);
            QCOMPARE(c.designs[0].label, h100.design->name);
            const std::string said = describeComparison(c);
            const std::string expected = std::string("At equal ") + budgetLabel(budget) + " (the baseline's, " +
                formatBudget(budget, target) + "): " + label + ", resized from 2,048 GPUs: " + budgetLabel(budget) +
                " " + formatBudget(budget, e.value) + ".";
            QVERIFY2(said.ends_with(expected), said.c_str());
            QCOMPARE(describeBudgets(c), expected);
        }
        // As designed: nobody is resized, and nothing is said of it.
        const auto asDesigned = onOneWorkload({kH100, kB200}, 0, CompareSetup{.layout = LayoutFrom::Own});
        QVERIFY(!asDesigned[1].equalBudget && !asDesigned[1].metrics.contains("equal_budget"));
        QCOMPARE(describeBudgets(compareDesigns(asDesigned, 0)), std::string());
    }

    void aBudgetOneGrowthUnitExceedsKeepsOneUnitAndSaysSo()
    {
        const DesignLoad b200 = presetLoad(kB200);
        const auto unit = findScaleUnit(*b200.design, *b200.catalog).unit;
        Design small = *b200.design;
        const EqualBudget e = scaleToBudget(small, *b200.catalog, Budget::Capex, 1000);
        QCOMPARE(e.gpus, unit->gpusPerInstance);
        QCOMPARE(small.components[unit->component].count, std::int64_t(1));
        QCOMPARE(e.note,
                 "one growth unit (" + formatCount(unit->gpusPerInstance) + " GPUs) is already over the budget");
        // A baseline with nothing priced sets no budget: the design keeps its size.
        Design same = *b200.design;
        const EqualBudget none = scaleToBudget(same, *b200.catalog, Budget::Capex, 0);
        QCOMPARE(none.gpus, std::int64_t(2048));
        QCOMPARE(same.components[unit->component].count, b200.design->components[unit->component].count);
        QCOMPARE(none.note,
                 std::string("kept at its own size: the baseline's capex is $0 (none of its parts has a price)"));
        Budget parsed = Budget::AsDesigned;
        QVERIFY(budgetFromName("power", &parsed) && parsed == Budget::Power);
        QVERIFY(!budgetFromName("money", &parsed));
    }

    void anotherBaselineFlipsTheSigns()
    {
        // One workload whichever design is the baseline: another file's.
        const Workload other = presetLoad("h100-16k-roce-llama3.cluster.json").design->workload;
        CompareSetup setup;
        setup.workload = WorkloadFrom::Other;
        const auto designs = onOneWorkload({kH100, kB200}, 0, setup, &other);
        const Comparison ab = compareDesigns(designs, 0);
        const Comparison ba = compareDesigns(designs, 1);
        for (std::size_t r = 0; r < ab.figures.size(); ++r) {
            const FigureCell& x = ab.figures[r].cells[1];
            const FigureCell& y = ba.figures[r].cells[0];
            QCOMPARE(*y.delta, -*x.delta);
            if (x.verdict == Verdict::Better)
                QCOMPARE(y.verdict, Verdict::Worse);
            if (x.verdict == Verdict::Worse)
                QCOMPARE(y.verdict, Verdict::Better);
        }
    }

    void theSameDesignTwiceIsTheSameEverywhereAndToldApart()
    {
        const Comparison c = compareDesigns(
            {entryFor("budget-8node-100gbe.cluster.json"), entryFor("budget-8node-100gbe.cluster.json")}, 0);
        QCOMPARE(c.designs[1].label, c.designs[0].label + " (2)");
        for (const auto& row : c.figures) {
            QCOMPARE(row.cells[1].verdict, Verdict::Same);
            QCOMPARE(formatDelta(row.figure, row.cells[1]), std::string("="));
        }
    }

    void twoToFourDesigns()
    {
        const ComparedDesign d = entryFor("budget-8node-100gbe.cluster.json");
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, compareDesigns({d}, 0));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, compareDesigns({d, d, d, d, d}, 0));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, compareDesigns({d, d}, 2));
        QCOMPARE(compareDesigns({d, d, d, d}, 3).designs.size(), std::size_t(4));
    }

    void billsOfMaterialsPartByPart()
    {
        const Comparison c = compareDesigns(
            {entryFor("dgx-h100-superpod-4su.cluster.json"), entryFor("gb200-nvl72-8rack.cluster.json")}, 0);
        auto find = [&](const std::string& part) -> const BomComparison* {
            for (const auto& b : c.bom)
                if (b.part == part)
                    return &b;
            return nullptr;
        };
        const BomComparison* h100 = find("gpu.h100-sxm");
        QVERIFY(h100);
        QCOMPARE(h100->counts[0], c.designs[0].analysis.inventory.gpus);
        QCOMPARE(h100->counts[1], std::int64_t(0));
        const BomComparison* gb200 = find(c.designs[1].analysis.inventory.gpuPart);
        QVERIFY(gb200);
        QCOMPARE(gb200->counts[0], std::int64_t(0));
        QCOMPARE(gb200->counts[1], std::int64_t(576));
        QCOMPARE(gb200->kind, std::string("accelerator"));
    }

    void deltasReadAsPeopleSayThem()
    {
        const KeyFigure& mfu = *findKeyFigure("training.mfu");
        FigureCell cell{0.42, 0.021, 0.021 / 0.399, Verdict::Better};
        QCOMPARE(formatFigure(mfu, 0.42), std::string("42.0 %"));
        QCOMPARE(formatDelta(mfu, cell), std::string("+2.1 pts"));  // points, not a relative change
        const KeyFigure& mw = *findKeyFigure("power.facility_kw");
        QCOMPARE(formatFigure(mw, 1940), std::string("1.94 MW"));
        QCOMPARE(formatDelta(mw, {970, -970, -0.5, Verdict::Better}), std::string("-50.0 %"));
        // A change too small to matter reads as one, not "+0.00919 %" (two
        // serving designs held to the same TPOT target).
        QCOMPARE(formatDelta(mw, {1940.18, 0.18, 0.0000919, Verdict::Worse}), std::string("<0.01 %"));
        QCOMPARE(relativeChangeText(0.00919), std::string("+0.92 %"));
        QCOMPARE(relativeChangeText(21.74), std::string("+2,174 %"));
        const KeyFigure& gpus = *findKeyFigure("inventory.gpus");
        QCOMPARE(formatDelta(gpus, {2048, 1024, 1.0, Verdict::Changed}), std::string("+1,024"));
        QCOMPARE(formatFigure(*findKeyFigure("power.cost_usd_per_year"), 1360077), std::string("$1.36M"));
        QCOMPARE(formatFigure(*findKeyFigure("cost.capex_usd"), 5.13e6), std::string("$5.13M"));
        QCOMPARE(formatFigure(*findKeyFigure("cost.usd_per_million_tokens"), 0.0331), std::string("$0.0331"));
        QCOMPARE(formatDelta(mfu, {0.42, std::nullopt, std::nullopt, Verdict::Baseline}), std::string());
    }

    void jsonIsOneObjectPerDesignWithItsMetricsAndDeltas()
    {
        const Comparison c = compareDesigns(onOneWorkload({kH100, kB200, "gb200-nvl72-8rack.cluster.json"}, 1), 1);
        const Json j = comparisonJson(c);
        QVERIFY(j.is_array());
        QCOMPARE(j.size(), std::size_t(3));
        for (std::size_t i = 0; i < 3; ++i) {
            const Json& d = j[i];
            for (const char* key : {"design", "inventory", "compute", "training", "power", "reliability", "warnings"})
                QVERIFY2(d.contains(key), key);
            QCOMPARE(d["baseline"].get<bool>(), i == 1);
            // Every design ran the baseline's model, at the layout it says.
            QCOMPARE(d["workload_source"].get<std::string>(), std::string("baseline"));
            // Best where any layout runs; the GB200 rack holds no layout of
            // the MoE at batch 4,096 on its 576 GPUs, and says so.
            QCOMPARE(d["layout_source"].get<std::string>(),
                     std::string(c.designs[i].analysis.runnable() ? "best" : "none"));
            QCOMPARE(d["training"]["model"].get<std::string>(), j[1]["training"]["model"].get<std::string>());
            const Json ran = layoutJson(layoutOf(c.designs[i].analysis.workload));
            for (const auto& [key, value] : ran.items())
                QCOMPARE(d["training"]["layout"][key], value);
            QCOMPARE(d["design"]["name"].get<std::string>(), c.designs[i].label);
            // Every row shown; three training designs show no serving rows.
            QCOMPARE(d["deltas"].size(), c.figures.size());
            QCOMPARE(c.figures.size(),
                     std::size_t(std::count_if(keyFigures().begin(), keyFigures().end(),
                                               [](const auto& f) { return f.workload != WorkloadKind::Serving; })));
            const Json& mfu = d["deltas"]["training.mfu"];
            if (!c.designs[i].analysis.runnable()) {
                QVERIFY(mfu["value"].is_null() && mfu.contains("unavailable"));
                continue;
            }
            QCOMPARE(mfu["value"].get<double>(), d["training"]["mfu"].get<double>());
            QCOMPARE(mfu["baseline"].get<double>(), j[1]["training"]["mfu"].get<double>());
            QCOMPARE(mfu["delta"].get<double>(),
                     d["training"]["mfu"].get<double>() - j[1]["training"]["mfu"].get<double>());
            QCOMPARE(mfu["verdict"].get<std::string>(),
                     std::string(i == 1 ? "baseline" : verdictName(c.figures[4].cells[i].verdict)));
        }
    }

    void textNamesEveryDesignAndMarksTheBaseline()
    {
        const Comparison c = compareDesigns(onOneWorkload({kH100, "mi300x-roce-128node.cluster.json"}, 0), 0);
        const QString text = QString::fromStdString(comparisonText(c));
        QVERIFY2(text.startsWith("Every design runs " +
                                 QString::fromStdString(describeRun(c.designs[0].design.workload)) +
                                 " (the baseline's workload), each at the best layout"),
                 qPrintable(text));
        QVERIFY(text.contains(QString::fromStdString(layoutText(c.designs[1]))));
        QVERIFY(text.contains(QString::fromStdString(c.designs[0].label) + " (baseline)"));
        QVERIFY(text.contains(QString::fromStdString(c.designs[1].label)));
        const auto& mfu = rowOf(c, "training.mfu");
        QVERIFY(text.contains(QString::fromStdString(formatDelta(mfu.figure, mfu.cells[1]))));
        QVERIFY(text.contains("bill of materials"));
        // The figures' rows line up in characters, not bytes: the layouts
        // ("tp 8 · pp 4 ...") carry two-byte middle dots, and every value
        // is right-aligned, so each row is as wide as the table.
        QVERIFY(text.contains(QChar(0x00B7)));
        const QStringList lines = text.split('\n');
        const int head = int(lines.indexOf(QRegularExpression("^figure .*")));
        QVERIFY(head > 0);
        for (int i = head + 1; i < lines.size() && !lines[i].isEmpty(); ++i)
            QVERIFY2(lines[i].size() == lines[head].size() || lines[i].startsWith("---"),
                     qPrintable(lines[head] + "\n" + lines[i]));
    }

    void csvParsesIntoEqualRows()
    {
        const Comparison c = compareDesigns(onOneWorkload({kH100, kB200, "gb200-nvl72-8rack.cluster.json"}, 0), 0);
        const auto rows = test::parseCsv(QString::fromStdString(comparisonCsv(c)));
        // The header, what each design ran (workload, layout), the figures, the parts.
        QCOMPARE(rows.size(), qsizetype(1 + 2 + c.figures.size() + c.bom.size()));
        QCOMPARE(rows[2][1], QString("training.layout"));
        QCOMPARE(rows[2][4], QString::fromStdString(layoutText(c.designs[1])));
        // figure, key, unit, 3 values, 2 x (delta, delta %)
        for (const auto& row : rows)
            QCOMPARE(row.size(), qsizetype(3 + 3 + 2 * 2));
        QCOMPARE(rows[0][3], QString::fromStdString(c.designs[0].label));  // names with commas survive quoting
        for (const auto& row : rows)
            if (row[1] == "training.mfu") {
                QCOMPARE(row[2], QString("%"));
                QCOMPARE(row[3].toDouble(), c.designs[0].analysis.step.mfu * 100);
                QCOMPARE(row[6].toDouble(), (c.designs[1].analysis.step.mfu - c.designs[0].analysis.step.mfu) * 100);
            }
        QVERIFY(std::any_of(rows.begin(), rows.end(), [](const QStringList& r) { return r[1] == "bom.gpu.h100-sxm"; }));
    }

    void theBaselinesWorkloadRunsOnEveryDesignAtItsBestLayout()
    {
        // The H100 SuperPOD trains Llama 3 70B in BF16; the B200 preset a
        // Mixtral-style MoE in FP8. Compared, the B200 runs the H100's job.
        const DesignLoad h100 = presetLoad(kH100), b200 = presetLoad(kB200);
        QVERIFY(!(h100.design->workload.model == b200.design->workload.model));
        const Comparison c = compareDesigns(onOneWorkload({kH100, kB200}, 0), 0);
        QVERIFY(c.sameWorkload);
        const ComparedDesign& b = c.designs[1];
        QVERIFY(b.design.workload.model == h100.design->workload.model);
        QCOMPARE(b.design.workload.training.precision, h100.design->workload.training.precision);
        QCOMPARE(b.design.workload.training.tokens, h100.design->workload.training.tokens);
        QCOMPARE(b.design.workload.training.global_batch, h100.design->workload.training.global_batch);
        QCOMPARE(b.analysis.workload.precision, std::string("bf16"));
        QVERIFY(b.workloadFrom == WorkloadFrom::Baseline);
        QCOMPARE(b.metrics["workload_source"].get<std::string>(), std::string("baseline"));
        // At the layout the search ranks first for that workload there.
        Design onB200 = *b200.design;
        onB200.workload = runOn(b200.design->workload, h100.design->workload, false);
        SearchOptions options;
        options.top = 1;
        const SearchResult best = searchLayouts(onB200, *b200.catalog, options);
        QVERIFY(best.ok() && !best.top.empty());
        QVERIFY(b.layoutFrom == LayoutFrom::Best);
        QCOMPARE(b.metrics["layout_source"].get<std::string>(), std::string("best"));
        QCOMPARE(layoutOf(b.analysis.workload), best.top.front().layout);
        QCOMPARE(b.analysis.step.stepS, best.top.front().stepS);
        // Every figure of the run is compared.
        for (const auto& row : c.figures)
            QVERIFY2(row.cells[1].verdict != Verdict::DifferentWorkloads, row.figure.key.c_str());
    }

    void ownLayoutsKeepTheFilesParallelism()
    {
        CompareSetup setup;
        setup.layout = LayoutFrom::Own;
        const auto designs = onOneWorkload({kH100, kB200}, 0, setup);
        const DesignLoad b200 = presetLoad(kB200);
        // Its own layout but for ep: the dense model has no experts to spread.
        ParallelismSpec expected = b200.design->workload.parallelism;
        expected.ep = std::nullopt;
        QVERIFY(designs[1].design.workload.parallelism == expected);
        QVERIFY(designs[1].layoutFrom == LayoutFrom::Own);
        QVERIFY(layoutText(designs[1]).ends_with("(its own)") || !designs[1].analysis.runnable());
        // The baseline keeps its own too: its own file, unchanged.
        QVERIFY(designs[0].design.workload == presetLoad(kH100).design->workload);
    }

    // A serving design split into prefill and decode workers is the same
    // run as the whole one, at another layout: compared, and said so.
    void aDisaggregatedServingLayoutIsALayoutAndSaysSo()
    {
        const DesignLoad node = presetLoad("serving-llama3-70b-dgx-h100.cluster.json");
        Design split = *node.design;
        DisaggregatedSpec d;
        d.prefill = {1, 4, 1, 1};
        d.decode = {1, 4, 1, 1};
        split.workload.serving->disaggregated = d;
        QVERIFY(sameRun(node.design->workload, split.workload));
        CompareSetup setup;
        setup.layout = LayoutFrom::Own;
        const Workload shared = node.design->workload;
        const std::vector<ComparedDesign> designs = {
            *compareEntry(*node.design, *node.catalog, "whole", &shared, setup),
            *compareEntry(split, *node.catalog, "split", &shared, setup)};
        const Comparison c = compareDesigns(designs);
        QVERIFY(c.sameWorkload);
        QCOMPARE(layoutText(c.designs[0], false), std::string("replicas of tp 8 x pp 1"));
        QCOMPARE(layoutText(c.designs[1], false),
                 std::string("split: 1 prefill worker of tp 4 x pp 1 + 1 decode worker of tp 4 x pp 1, copies of 8 GPUs"));
        const FigureComparison& ttft = rowOf(c, "serving.ttft_s");
        QCOMPARE(*ttft.cells[1].value, c.designs[1].analysis.served->ttftS);
        QVERIFY(ttft.cells[1].verdict != Verdict::DifferentWorkloads);
    }

    void aWorkloadThatRunsNowhereOnADesignSaysWhy()
    {
        // Llama 3 405B on eight 100GbE nodes of 8 GPUs: no layout fits.
        const Comparison c = compareDesigns(
            onOneWorkload({"h100-16k-roce-llama3.cluster.json", "budget-8node-100gbe.cluster.json"}, 0), 0);
        const ComparedDesign& small = c.designs[1];
        QVERIFY(!small.analysis.runnable());
        QCOMPARE(small.analysis.notRunnable.front().code, std::string("no_layout"));
        const std::string why = small.analysis.notRunnable.front().message;
        QVERIFY2(why.starts_with("no layout of Llama 3 405B runs on this design: "), why.c_str());
        const FigureComparison& mfu = rowOf(c, "training.mfu");
        QVERIFY(!mfu.cells[1].value);
        QCOMPARE(mfu.cells[1].text(mfu.figure), std::string("not runnable"));
        QVERIFY(mfu.cells[1].unavailable.find(why) != std::string::npos);
        QVERIFY(layoutText(small).starts_with("not runnable: no layout of Llama 3 405B"));
        // The cluster's own figures are still there.
        QVERIFY(rowOf(c, "power.facility_kw").cells[1].value);
    }

    void differentWorkloadsAreNotComparedInTheFiguresOfTheRun()
    {
        const Comparison c = compareDesigns({entryFor(kH100), entryFor(kB200)}, 0);
        QVERIFY(!c.sameWorkload);
        for (const char* key : {"training.mfu", "training.tokens_per_s", "training.days_to_train",
                                "reliability.wall_days", "power.training_run_mwh", "compute.cluster_peak_pflops"}) {
            const FigureCell& cell = rowOf(c, key).cells[1];
            QCOMPARE(cell.verdict, Verdict::DifferentWorkloads);
            QVERIFY2(cell.value && !cell.delta, key);
            QCOMPARE(formatDelta(rowOf(c, key).figure, cell), std::string("different workloads"));
        }
        // The cluster itself still compares.
        QCOMPARE(rowOf(c, "inventory.gpus").cells[1].verdict, Verdict::Changed);
        QCOMPARE(rowOf(c, "power.facility_kw").cells[1].verdict, Verdict::Worse);
        QVERIFY(describeComparison(c).starts_with("The designs run different workloads"));
        QVERIFY(QString::fromStdString(comparisonText(c)).contains("different workloads"));
        // The same run on both, even each its own, is one workload.
        QVERIFY(compareDesigns({entryFor(kH100), entryFor(kH100)}, 0).sameWorkload);
    }

    void thePrecisionIsNamedWhereItChangesAFigure()
    {
        // One precision: in the row's name. Two: in each value.
        const Comparison shared = compareDesigns(onOneWorkload({kH100, kB200}, 0), 0);
        QCOMPARE(rowOf(shared, "training.mfu").label, figureName("training.mfu") + ", BF16");
        QCOMPARE(rowOf(shared, "compute.cluster_peak_pflops").label,
                 figureName("compute.cluster_peak_pflops") + ", BF16");
        QCOMPARE(rowOf(shared, "training.tokens_per_s").label, figureName("training.tokens_per_s"));
        const Comparison own = compareDesigns({entryFor(kH100), entryFor(kB200)}, 0);
        const FigureComparison& peak = rowOf(own, "compute.cluster_peak_pflops");
        QCOMPARE(peak.label, figureName("compute.cluster_peak_pflops"));
        QVERIFY2(peak.cells[0].text(peak.figure).ends_with(", BF16"), peak.cells[0].text(peak.figure).c_str());
        QVERIFY2(peak.cells[1].text(peak.figure).ends_with(", FP8"), peak.cells[1].text(peak.figure).c_str());
        QVERIFY(rowOf(own, "training.mfu").cells[1].text(rowOf(own, "training.mfu").figure).ends_with(", FP8"));
    }

    void everyFigureHasOneNameAndNoNameTwoFigures()
    {
        std::map<std::string_view, std::string_view> byName;
        std::set<std::string_view> keys;
        for (const auto& [key, name] : figureNames()) {
            QVERIFY2(keys.insert(key).second, std::string(key).c_str());
            const auto [it, fresh] = byName.emplace(name, key);
            QVERIFY2(fresh,
                     qPrintable(QString("'%1' names both %2 and %3")
                                    .arg(QString::fromUtf8(name.data(), qsizetype(name.size())),
                                         QString::fromUtf8(it->second.data(), qsizetype(it->second.size())),
                                         QString::fromUtf8(key.data(), qsizetype(key.size())))));
        }
        // The compare table's rows take their names from the table, and the
        // two days are told apart.
        for (const auto& f : keyFigures())
            QCOMPARE(f.label, figureName(f.key));
        QVERIFY(figureName("training.days_to_train") != figureName("reliability.wall_days"));
        QVERIFY(figureName("training.days_to_train").find("failure-free") != std::string::npos);
        QVERIFY(figureName("reliability.wall_days").find("wall clock") != std::string::npos);
    }

    void warningsRankByWhatTheyCost()
    {
        const std::vector<Problem> problems = {
            {Severity::Warning, "/components", "no storage", "no_storage"},
            {Severity::Warning, "/components/3", "rack too hot", "rack_over_cooling_limit"},
            {Severity::Warning, "/workload/parallelism", "does not fit", "memory_exceeds_hbm"},
            {Severity::Warning, "/workload/parallelism/dp", "dp on a slow tier", "dp_on_slow_tier"},
            {Severity::Error, "/links/0", "broken", ""}};
        const auto top = mostImportantWarnings(problems, 3);
        QCOMPARE(top.size(), std::size_t(3));
        QCOMPARE(top[0].message, std::string("broken"));
        QCOMPARE(top[1].code, std::string("memory_exceeds_hbm"));
        QCOMPARE(top[2].code, std::string("rack_over_cooling_limit"));  // ties keep the analyses' order
    }

    void noPercentageAgainstAVanishingBaseline()
    {
        // fuzz_serving: a baseline's carbon intensity of 5e-324 g/kWh made
        // the other design's CO2 change an infinite percentage.
        const QString path = test::sourcePath("presets/budget-8node-100gbe.cluster.json");
        DesignLoad l = loadDesignFile(path.toStdString(), Catalog::builtin());
        QVERIFY(l.ok());
        Design clean = *l.design;
        clean.facility.carbon_g_per_kwh = 5e-324;
        const Comparison c = compareDesigns({compareEntry(clean, *l.catalog, "clean"),
                                             compareEntry(*l.design, *l.catalog, path.toStdString())});
        bool seen = false;
        for (const FigureComparison& row : c.figures)
            if (row.figure.key == "power.co2_tonnes_per_year") {
                seen = true;
                QVERIFY(row.cells[1].delta && *row.cells[1].delta > 0);
                QVERIFY(!row.cells[1].relative);
            }
        QVERIFY(seen);
        QVERIFY(!QString::fromStdString(comparisonJson(c).dump()).contains("inf"));
    }
};

QTEST_GUILESS_MAIN(TestComparison)
#include "tst_comparison.moc"
