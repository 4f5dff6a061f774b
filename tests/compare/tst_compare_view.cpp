// The compare view as an architect uses it: two presets side by side give a
// column per design, what each runs (one workload, each at its best layout,
// or each its own) and a row per key figure; each difference matches one
// worked out here from the two analyses, tinted by whether it is better for
// that figure, and flips when the baseline does; different workloads are
// said so, not compared; a fifth design, a broken
// file and a design with errors are refused with the reason; the same design
// twice is told apart; the open document comes from the studio when asked;
// the bill of materials shows a part only one design has with 0 for the
// other; every analysis' overlay draws a series per design with the
// analyses' numbers, redraws cleanly, paints offscreen and explains itself
// on hover; the Scale tab overlays each design's own scale sweep, swept
// only while shown; the CSV is one rectangular table and the PDF a
// PDF; tinted cells follow the theme and stay readable in both.
// STUDIO_COMPARE_SHOTS=DIR saves screenshots of every tab in both themes and
// the PDF there, to look at.
#include <QtTest>

#include <QComboBox>
#include <QLabel>
#include <QRegularExpression>
#include <QScrollArea>
#include <QTabWidget>
#include <QTableWidget>
#include <QTemporaryDir>

#include <qcustomplot.h>

#include <cmath>
#include <set>

#include "core/compare/comparison.h"
#include "core/format/design_reader.h"
#include "core/model/analysis.h"
#include "core/scale/scale_sweep.h"
#include "core/text.h"
#include "tests/chart_support.h"
#include "tests/gui_test_main.h"
#include "tests/test_support.h"
#include "widgets/analysis/background_job.h"
#include "widgets/charts/analysis_registry.h"
#include "widgets/charts/chart_plot.h"
#include "widgets/charts/chart_style.h"
#include "widgets/charts/chart_view.h"
#include "widgets/common/qt_string.h"
#include "widgets/compare/compare_window.h"
#include "widgets/panels/background_registry.h"
#include "widgets/scale/scale_overlay.h"
#include "widgets/style/theme.h"

using namespace studio;
using test::legendNames;
using test::legendSeries;
using test::named;
using test::pixelsLike;

namespace {

const char* kH100 = "presets/dgx-h100-superpod-4su.cluster.json";
const char* kB200 = "presets/dgx-b200-superpod-8su.cluster.json";
const char* kGb200 = "presets/gb200-nvl72-8rack.cluster.json";
const char* kMi300 = "presets/mi300x-roce-128node.cluster.json";
const char* kBudget = "presets/budget-8node-100gbe.cluster.json";

struct Loaded {
    Design design;
    std::shared_ptr<const Catalog> catalog;
};

Loaded load(const char* relative)
{
    DesignLoad l = loadDesignFile(test::sourcePath(relative).toStdString(), Catalog::builtin());
    if (!l.ok())
        qFatal("%s does not load", relative);
    return {*l.design, l.catalog};
}

// The row of a figure by its metrics key, which its header carries.
int rowOf(const QTableWidget* table, const QString& key)
{
    for (int r = 0; r < table->rowCount(); ++r)
        if (table->verticalHeaderItem(r) && table->verticalHeaderItem(r)->data(Qt::UserRole).toString() == key)
            return r;
    return -1;
}

int bomRowOf(const QTableWidget* table, const QString& part)
{
    for (int r = 0; r < table->rowCount(); ++r)
        if (table->item(r, 0) && table->item(r, 0)->text() == part)
            return r;
    return -1;
}

// The difference a cell shows in brackets, as a number: "41.2 %  (+2.1 pts)" -> 2.1.
double shownDelta(const QTableWidgetItem* item, const QString& unit)
{
    static const QRegularExpression number(R"(\(([+-]?[0-9][0-9,]*(?:\.[0-9]+)?)(?: (pts|%))?\)$)");
    const auto m = number.match(item->text());
    if (!m.hasMatch() || m.captured(2) != unit)
        qFatal("no delta in '%s' with unit '%s'", qPrintable(item->text()), qPrintable(unit));
    return m.captured(1).remove(',').toDouble();
}

bool greenish(const QColor& c)
{
    return c.green() > c.red() + 15;
}

bool reddish(const QColor& c)
{
    return c.red() > c.green() + 15;
}

double luminance(const QColor& c)
{
    auto lin = [](double v) { return v <= 0.03928 ? v / 12.92 : std::pow((v + 0.055) / 1.055, 2.4); };
    return 0.2126 * lin(c.redF()) + 0.7152 * lin(c.greenF()) + 0.0722 * lin(c.blueF());
}

double contrast(const QColor& a, const QColor& b)
{
    const double la = luminance(a), lb = luminance(b);
    return (std::max(la, lb) + 0.05) / (std::min(la, lb) + 0.05);
}

// A plot of the compare view's chart of an analysis, drawn now (a chart
// draws when seen; the tests look without showing the window).
QCustomPlot* chartPlot(const CompareWindow& w, const QString& key, const QString& plot)
{
    ChartView* view = w.chart(key);
    if (!view)
        qFatal("no chart %s", qPrintable(key));
    view->refreshNow();
    return view->plot(plot);
}

bool hasData(const QCPBars* bars, double value)
{
    for (auto it = bars->data()->constBegin(); it != bars->data()->constEnd(); ++it)
        if (std::fabs(it->value - value) <= 1e-9 * std::max(1.0, std::fabs(value)))
            return true;
    return false;
}

}  // namespace

class TestCompareView : public QObject {
    Q_OBJECT

    // A window comparing the H100 SuperPOD (baseline) with the B200 one.
    static std::unique_ptr<CompareWindow> twoPresets()
    {
        auto w = std::make_unique<CompareWindow>();
        QString error;
        if (!w->addFile(test::sourcePath(kH100), &error) || !w->addFile(test::sourcePath(kB200), &error))
            qFatal("%s", qPrintable(error));
        w->waitForComparison();
        return w;
    }

    // Every design on the H100 file's workload, whichever is the baseline:
    // a new baseline then changes no design.
    static void onTheH100sWorkload(CompareWindow& w)
    {
        CompareSetup setup;
        setup.workload = WorkloadFrom::Other;
        setup.other = load(kH100).design.workload;
        setup.otherSource = kH100;
        w.setSetup(setup);
        w.waitForComparison();
    }

private slots:
    void initTestCase() { applyTheme(Theme::Light); }

    void aColumnPerDesignAndARowPerKeyFigure()
    {
        CompareWindow w;
        QVERIFY(!w.comparison());
        QCOMPARE(w.figureTable()->columnCount(), 0);
        QString error;
        QVERIFY2(w.addFile(test::sourcePath(kH100), &error), qPrintable(error));
        QVERIFY(!w.comparison());  // one design is nothing to compare
        QVERIFY2(w.addFile(test::sourcePath(kB200), &error), qPrintable(error));
        w.waitForComparison();
        QVERIFY(w.comparison());
        const Loaded h = load(kH100), b = load(kB200);
        QTableWidget* t = w.figureTable();
        QCOMPARE(t->columnCount(), 2);
        // What each design runs, then every key figure but the serving ones
        // (two training designs).
        QCOMPARE(t->verticalHeaderItem(0)->text(), QString("Workload"));
        QCOMPARE(t->verticalHeaderItem(1)->text(), QString("Layout"));
        int r = 2;
        for (const auto& row : w.comparison()->figures) {
            QVERIFY(row.figure.workload != WorkloadKind::Serving);
            QCOMPARE(t->verticalHeaderItem(r++)->text(), QString::fromStdString(row.label));
        }
        QCOMPARE(t->rowCount(), r);
        // The B200 runs the baseline's workload, at the layout the search
        // found for it; the window says so above the table.
        const QString run = QString::fromStdString(describeRun(h.design.workload));
        QCOMPARE(t->item(0, 1)->text(), run);
        QCOMPARE(t->item(1, 1)->text(), QString::fromStdString(layoutText(w.comparison()->designs[1], false)));
        QVERIFY2(t->item(1, 1)->toolTip().contains("layout search's first"), qPrintable(t->item(1, 1)->toolTip()));
        QVERIFY2(w.setupLabel()->text().contains("Every design runs <b>" + run.toHtmlEscaped() + "</b>"),
                 qPrintable(w.setupLabel()->text()));
        QVERIFY(w.setupLabel()->text().contains("the baseline's workload"));
        QCOMPARE(t->verticalHeaderItem(rowOf(t, "training.mfu"))->text(), QString("MFU, BF16"));
        // Headings may break a long name over two lines.
        auto heading = [t](int column) { return t->horizontalHeaderItem(column)->text().replace('\n', ' '); };
        QCOMPARE(heading(0), QString::fromStdString(h.design.name) + " (baseline)");
        QCOMPARE(heading(1), QString::fromStdString(b.design.name));
        QCOMPARE(w.designTable()->rowCount(), 2);
        QCOMPARE(w.baselineBox()->count(), 2);
    }

    void cellsShowTheDifferenceFromTheBaseline()
    {
        auto w = twoPresets();
        const Analysis &h = w->comparison()->designs[0].analysis, &b = w->comparison()->designs[1].analysis;
        QTableWidget* t = w->figureTable();

        // MFU moves in points.
        const int mfu = rowOf(t, "training.mfu");
        QVERIFY(mfu >= 0);
        const double points = (b.step.mfu - h.step.mfu) * 100;
        QVERIFY(std::fabs(points) > 0.1);
        QVERIFY(std::fabs(shownDelta(t->item(mfu, 1), "pts") - points) <= std::max(0.05, 0.05 * std::fabs(points)));
        QVERIFY(t->item(mfu, 1)->text().startsWith(QString::fromStdString(formatReadable(b.step.mfu * 100)) + " %"));
        QVERIFY(!t->item(mfu, 0)->text().contains('('));  // the baseline has no difference

        // Facility power relative to the baseline.
        const int facility = rowOf(t, "power.facility_kw");
        const double relative = (b.power.facilityKw - h.power.facilityKw) / h.power.facilityKw * 100;
        QVERIFY(std::fabs(shownDelta(t->item(facility, 1), "%") - relative) <= 0.005 * std::fabs(relative) + 0.05);

        // GPUs as a count.
        const int gpus = rowOf(t, "inventory.gpus");
        QCOMPARE(shownDelta(t->item(gpus, 1), ""), double(b.inventory.gpus - h.inventory.gpus));

        // The tip explains the figure for that design and spells out the difference.
        const QString tip = t->item(mfu, 1)->toolTip();
        QVERIFY2(tip.contains("MFU = "), qPrintable(tip));  // the core's formula
        QVERIFY(tip.contains(w->comparison()->designs[1].label.c_str()));
        QVERIFY(tip.contains("Baseline"));
        QVERIFY(tip.contains("higher is better"));
        QVERIFY(t->item(mfu, 0)->toolTip().contains("The baseline"));
    }

    void tintsFollowEachFiguresDirection()
    {
        auto w = twoPresets();
        const Analysis &h = w->comparison()->designs[0].analysis, &b = w->comparison()->designs[1].analysis;
        QTableWidget* t = w->figureTable();
        auto check = [&](const QString& label, double base, double other, bool higherIsBetter) {
            const QTableWidgetItem* item = t->item(rowOf(t, label), 1);
            const bool better = (other > base) == higherIsBetter;
            QCOMPARE(item->data(Qt::UserRole).toString(), QString(better ? "better" : "worse"));
            const QColor bg = item->background().color();
            QVERIFY2(better ? greenish(bg) : reddish(bg), qPrintable(label + ": " + bg.name()));
        };
        check("training.mfu", h.step.mfu, b.step.mfu, true);
        check("training.days_to_train", h.step.daysToTrain, b.step.daysToTrain, false);
        check("power.facility_kw", h.power.facilityKw, b.power.facilityKw, false);
        check("reliability.cluster_mtbf_h", h.reliability.clusterMtbfH, b.reliability.clusterMtbfH, true);
        // A size is neither better nor worse: no tint.
        const QTableWidgetItem* gpus = t->item(rowOf(t, "inventory.gpus"), 1);
        QCOMPARE(gpus->data(Qt::UserRole).toString(), QString("changed"));
        QCOMPARE(gpus->background().style(), Qt::NoBrush);
    }

    void changingTheBaselineFlipsTheSigns()
    {
        auto w = twoPresets();
        QTableWidget* t = w->figureTable();
        const int mfu = rowOf(t, "training.mfu"), days = rowOf(t, "training.days_to_train");
        onTheH100sWorkload(*w);
        const double before = shownDelta(t->item(mfu, 1), "pts");
        const QString verdict = t->item(days, 1)->data(Qt::UserRole).toString();
        QSignalSpy changed(w.get(), &CompareWindow::comparisonChanged);
        w->baselineBox()->setCurrentIndex(1);
        emit w->baselineBox()->activated(1);
        w->waitForComparison();
        QCOMPARE(changed.count(), 1);
        QCOMPARE(w->baseline(), 1);
        QCOMPARE(w->comparison()->baseline, std::size_t(1));
        QCOMPARE(shownDelta(t->item(mfu, 0), "pts"), -before);
        QVERIFY(!t->item(mfu, 1)->text().contains('('));
        QVERIFY(t->horizontalHeaderItem(1)->text().contains("baseline"));
        QCOMPARE(t->item(days, 0)->data(Qt::UserRole).toString(), QString(verdict == "better" ? "worse" : "better"));
    }

    // Issue 39: at equal capex the B200 SuperPOD is resized to the H100
    // one's capex, its column named for its new size, the window saying so.
    void atEqualCapexTheOthersAreResized()
    {
        auto w = twoPresets();
        auto* box = w->findChild<QComboBox*>("budget");
        QVERIFY(box);
        QCOMPARE(box->currentData().toInt(), int(Budget::AsDesigned));
        const int capex = box->findData(int(Budget::Capex));
        QCOMPARE(box->itemText(capex), QString("at equal capex"));
        box->setCurrentIndex(capex);
        emit box->activated(capex);
        w->waitForComparison();
        QCOMPARE(w->setup().budget, Budget::Capex);
        const Comparison& c = *w->comparison();
        const EqualBudget& e = *c.designs[1].equalBudget;
        QVERIFY(e.gpus < e.designGpus);
        QCOMPARE(c.designs[1].analysis.inventory.gpus, e.gpus);
        QVERIFY(c.designs[1].label.ends_with(" at " + formatCount(e.gpus) + " GPUs"));
        const QString said = w->setupLabel()->text();
        QVERIFY2(said.contains(QString::fromStdString(describeBudgets(c)).toHtmlEscaped()), qPrintable(said));
        QVERIFY(said.contains("At equal capex"));
        // The GPUs row shows the size it was compared at.
        QTableWidget* t = w->figureTable();
        QCOMPARE(t->item(rowOf(t, "inventory.gpus"), 1)->text().section(' ', 0, 0),
                 QString::fromStdString(formatCount(e.gpus)));
        // Back to as designed.
        box->setCurrentIndex(box->findData(int(Budget::AsDesigned)));
        emit box->activated(box->currentIndex());
        w->waitForComparison();
        QVERIFY(!w->comparison()->designs[1].equalBudget);
        QCOMPARE(w->comparison()->designs[1].analysis.inventory.gpus, std::int64_t(2048));
    }

    void aFifthDesignIsRefused()
    {
        CompareWindow w;
        QString error;
        for (const char* p : {kH100, kB200, kGb200, kMi300})
            QVERIFY2(w.addFile(test::sourcePath(p), &error), qPrintable(error));
        w.waitForComparison();
        QCOMPARE(w.designCount(), 4);
        QCOMPARE(w.figureTable()->columnCount(), 4);
        QVERIFY(!w.addFile(test::sourcePath(kBudget), &error));
        QVERIFY2(error.contains("At most 4"), qPrintable(error));
        const Loaded extra = load(kBudget);
        QVERIFY(!w.addDesign(extra.design, extra.catalog, "open document", &error));
        QCOMPARE(w.designCount(), 4);
        // Room again after a removal; the baseline stays the design it was.
        w.setBaseline(2);
        w.waitForComparison();
        const std::string baseline = w.comparison()->designs[2].label;
        w.removeDesign(0);
        w.waitForComparison();
        QCOMPARE(w.designCount(), 3);
        QCOMPARE(w.comparison()->designs[std::size_t(w.baseline())].label, baseline);
        QVERIFY2(w.addDesign(extra.design, extra.catalog, "open document", &error), qPrintable(error));
        w.waitForComparison();
        QCOMPARE(w.comparison()->designs.back().source, std::string("open document"));
    }

    void theSameDesignTwiceIsToldApart()
    {
        CompareWindow w;
        const Loaded h = load(kH100);
        QVERIFY(w.addDesign(h.design, h.catalog, "open document"));
        QVERIFY(w.addFile(test::sourcePath(kH100)));
        w.waitForComparison();
        const QString name = QString::fromStdString(h.design.name);
        const QStringList expected{name, name + " (2)"};
        QCOMPARE(legendNames(chartPlot(w, "failures", "mtbf")), expected);
        QCOMPARE(w.figureTable()->horizontalHeaderItem(1)->text().replace('\n', ' '), name + " (2)");
        // Identical designs differ in nothing: "=" and no tint.
        const QTableWidgetItem* mfu = w.figureTable()->item(rowOf(w.figureTable(), "training.mfu"), 1);
        QVERIFY(mfu->text().endsWith("(=)"));
        QCOMPARE(mfu->background().style(), Qt::NoBrush);
    }

    void theOpenDocumentComesFromTheStudio()
    {
        CompareWindow w;
        QAction* addOpen = nullptr;
        for (QAction* a : w.findChildren<QAction*>())
            if (a->text() == "Add Open Document")
                addOpen = a;
        QVERIFY(addOpen);
        QVERIFY(!addOpen->isVisible());  // nothing to ask yet
        Loaded doc = load(kH100);
        doc.design.name = "Edited in the studio";
        w.setOpenDocumentProvider([&doc] {
            return std::optional(CompareWindow::OpenDocument{doc.design, doc.catalog});
        });
        QVERIFY(addOpen->isVisible());
        addOpen->trigger();
        QCOMPARE(w.designCount(), 1);
        QCOMPARE(w.designTable()->item(0, 0)->text(), QString("Edited in the studio"));
        QVERIFY(w.designTable()->item(0, 4)->text().startsWith("open document as of "));  // a snapshot
    }

    // The live entry follows the design being edited; snapshots and files
    // stay as they were; a broken edit keeps the last valid state.
    void theLiveOpenDocumentFollowsEdits()
    {
        CompareWindow w;
        Loaded doc = load(kH100);
        QVERIFY(w.addDesign(doc.design, doc.catalog, CompareWindow::liveSource()));
        QVERIFY(w.addDesign(doc.design, doc.catalog, "open document as of 10:00:00"));
        QVERIFY(w.addFile(test::sourcePath(kB200)));
        w.waitForComparison();
        auto pueOf = [&](int design) {
            for (const auto& row : w.comparison()->figures)
                if (row.figure.key == "power.pue")
                    return *row.cells[std::size_t(design)].value;
            return -1.0;
        };
        const double before = pueOf(0);
        doc.design.facility.pue = before + 0.2;
        QVERIFY(w.updateOpenDocument(doc.design, doc.catalog));
        w.waitForComparison();
        QCOMPARE(pueOf(0), before + 0.2);
        QCOMPARE(pueOf(1), before);  // the snapshot
        QCOMPARE(w.designCount(), 3);
        Design broken = doc.design;
        broken.components.front().count = 0;
        QVERIFY(w.updateOpenDocument(broken, doc.catalog));
        w.waitForComparison();
        QCOMPARE(pueOf(0), before + 0.2);
        w.removeDesign(0);
        QVERIFY(!w.updateOpenDocument(doc.design, doc.catalog));  // nothing live left
    }

    void presetsAndBrokenFiles()
    {
        CompareWindow w;
        QString error;
        QVERIFY2(w.addFile(":/presets/dgx-h100-superpod-4su.cluster.json", &error), qPrintable(error));
        QCOMPARE(w.designTable()->item(0, 4)->text(), QString("preset dgx-h100-superpod-4su.cluster.json"));
        // The reader's message: the file and the JSON pointer of what is wrong.
        QVERIFY(!w.addFile(test::sourcePath("tests/data/bad/count-zero.cluster.json"), &error));
        QVERIFY2(error.contains("count-zero.cluster.json: /components/2/count: must be at least 1, got 0"),
                 qPrintable(error));
        QVERIFY(!w.addFile(test::sourcePath("tests/data/no-such-file.cluster.json"), &error));
        QVERIFY2(error.contains("no-such-file.cluster.json"), qPrintable(error));
        // A design with errors from the open document is refused the same way.
        Loaded bad = load(kH100);
        bad.design.workload.model.heads = 0;
        QVERIFY(!w.addDesign(bad.design, bad.catalog, "open document", &error));
        QVERIFY2(error.contains("open document: /workload/"), qPrintable(error));
        QCOMPARE(w.designCount(), 1);
    }

    void billOfMaterialsShowsPartsOfOneDesignOnly()
    {
        auto w = twoPresets();
        const Analysis &h = w->comparison()->designs[0].analysis, &b = w->comparison()->designs[1].analysis;
        // The H100 GPU is in one bill only.
        const BomLine* only = nullptr;
        for (const auto& line : h.inventory.bom)
            if (std::none_of(b.inventory.bom.begin(), b.inventory.bom.end(),
                             [&](const BomLine& l) { return l.part == line.part; }) &&
                line.kind == PartKind::Accelerator)
                only = &line;
        QVERIFY(only);
        QTableWidget* t = w->bomTable();
        QCOMPARE(t->columnCount(), 4);
        const int row = bomRowOf(t, QString::fromStdString(only->name));
        QVERIFY(row >= 0);
        QCOMPARE(t->item(row, 2)->data(Qt::UserRole).toLongLong(), qlonglong(only->count));
        QCOMPARE(t->item(row, 3)->data(Qt::UserRole).toLongLong(), 0LL);
        QVERIFY(t->item(row, 3)->text().startsWith("0  ("));
        QVERIFY(t->item(row, 3)->font().bold());  // highlighted: differs from the baseline
        // Both bills in full.
        std::set<std::string> parts;
        for (const auto& l : h.inventory.bom)
            parts.insert(l.part);
        for (const auto& l : b.inventory.bom)
            parts.insert(l.part);
        QCOMPARE(t->rowCount(), int(parts.size()));
    }

    void everyChartHasASeriesPerDesign()
    {
        auto w = twoPresets();
        const Analysis &h = w->comparison()->designs[0].analysis, &b = w->comparison()->designs[1].analysis;
        const std::vector<const Analysis*> analyses{&h, &b};
        QStringList labels, roofs;
        for (const auto& d : w->comparison()->designs) {
            labels << QString::fromStdString(d.label);
            roofs << QString::fromStdString(d.label) + " (BF16)";  // a roof is at a precision: the legend says which
        }
        QCOMPARE(int(w->charts().size()), int(analysisRegistry().size()));
        // The plots whose legend names the designs, each in its colour.
        const std::pair<const char*, const char*> legends[] = {
            {"roofline", "roofline"}, {"hierarchy", "hierarchy"}, {"mfu", "waterfall"},
            {"failures", "mtbf"},     {"failures", "goodput"},    {"failures", "failures by class"}};
        for (const auto& [key, name] : legends) {
            QCustomPlot* plot = chartPlot(*w, key, name);
            QVERIFY2(plot, name);
            const QStringList& expected = QString(key) == "roofline" ? roofs : labels;
            QVERIFY2(legendNames(plot) == expected, qPrintable(QString(name) + ": " + legendNames(plot).join(", ")));
            for (int i = 0; i < 2; ++i) {
                QCPAbstractPlottable* p = legendSeries(plot, expected[i]);
                QVERIFY(p);
                const QColor drawn = qobject_cast<QCPBars*>(p) ? p->brush().color() : p->pen().color();
                QCOMPARE(drawn, designColor(i));
            }
        }
        // The numbers are the analyses'.
        QCustomPlot* memory = chartPlot(*w, "mfu", "memory");
        QCustomPlot* racks = chartPlot(*w, "power", "racks");
        QCustomPlot* facility = chartPlot(*w, "power", "facility");
        auto at = [](QCPBars* bars, double key) {
            for (auto it = bars->data()->constBegin(); it != bars->data()->constEnd(); ++it)
                if (it->key == key)
                    return it->value;
            return -1.0;
        };
        for (int i = 0; i < 2; ++i) {
            const Analysis& a = *analyses[std::size_t(i)];
            auto* roof = static_cast<QCPGraph*>(legendSeries(chartPlot(*w, "roofline", "roofline"), roofs[i]));
            QCOMPARE(roof->data()->size(), 3);
            QCOMPARE(roof->data()->at(1)->key, a.roofline.ridgeFlopPerByte);
            QCOMPARE(roof->data()->at(1)->value, a.roofline.peakTflops);
            auto* tiers = static_cast<QCPBars*>(legendSeries(chartPlot(*w, "hierarchy", "hierarchy"), labels[i]));
            for (const auto& tier : a.hierarchy.tiers)
                QVERIFY(tier.gbPerSPerGpu <= 0 || hasData(tiers, tier.gbPerSPerGpu));
            auto* steps = static_cast<QCPBars*>(legendSeries(chartPlot(*w, "mfu", "waterfall"), labels[i]));
            QVERIFY(hasData(steps, a.utilization.mfu * 100));
            QVERIFY(hasData(steps, a.utilization.delivered * 100));
            // A memory column and a facility row per design, in column order.
            const double key = i + 1;
            QCOMPARE(at(named<QCPBars>(memory, "activations"), key), a.memory.activationsGb);
            QCOMPARE(at(named<QCPBars>(memory, "weights"), key), a.memory.weightsGb);
            QCOMPARE(at(named<QCPBars>(facility, "compute"), key), a.power.computeKw / 1000);  // both in megawatts
            QCOMPARE(at(named<QCPBars>(facility, "facility overhead"), key), a.power.overheadKw / 1000);
            bool densest = false;
            for (int p = 0; p < racks->plottableCount(); ++p)
                if (auto* bars = qobject_cast<QCPBars*>(racks->plottable(p)); bars && bars->name() == labels[i])
                    densest = at(bars, key) == a.power.maxRackKw;
            QVERIFY(densest);
            auto* mtbf = static_cast<QCPGraph*>(legendSeries(chartPlot(*w, "failures", "mtbf"), labels[i]));
            QCOMPARE(mtbf->data()->size(), int(a.reliability.mtbfCurve.size()));
            auto* perDay =
                static_cast<QCPBars*>(legendSeries(chartPlot(*w, "failures", "failures by class"), labels[i]));
            for (const auto& c : a.reliability.classes)
                QVERIFY2(hasData(perDay, c.perDay), c.key.c_str());
        }
        // Tiers line up by key: the HBM bars of both designs share a category.
        QCustomPlot* hierarchy = chartPlot(*w, "hierarchy", "hierarchy");
        auto* h0 = static_cast<QCPBars*>(legendSeries(hierarchy, labels[0]));
        auto* h1 = static_cast<QCPBars*>(legendSeries(hierarchy, labels[1]));
        QCOMPARE(h0->data()->at(0)->key, h1->data()->at(0)->key);
        QCOMPARE(h0->data()->at(0)->value, h.hierarchy.tiers[0].gbPerSPerGpu);
        QCOMPARE(h1->data()->at(0)->value, b.hierarchy.tiers[0].gbPerSPerGpu);
    }

    void chartsRedrawCleanlyOffscreen()
    {
        auto w = twoPresets();
        const Comparison& c = *w->comparison();
        std::vector<ChartDesign> two;
        for (const auto& d : c.designs)
            two.push_back({&d.analysis, QString::fromStdString(d.label)});
        // Views never shown, as the report draws them: every analysis paints
        // both designs' colours.
        for (const AnalysisEntry& entry : analysisRegistry()) {
            ChartView view(entry, false);
            view.setAttribute(Qt::WA_DontShowOnScreen);
            view.resize(900, 560);
            view.setDesigns(two);
            view.refreshNow();
            std::vector<int> found(2, 0);
            for (QCustomPlot* plot : view.plots()) {
                QImage image(std::max(plot->width(), 300), std::max(plot->height(), 200), QImage::Format_RGB32);
                image.fill(Qt::white);
                QCPPainter painter(&image);
                plot->toPainter(&painter, image.width(), image.height());
                painter.end();
                for (int i = 0; i < 2; ++i)
                    found[std::size_t(i)] += pixelsLike(image, designColor(i));
            }
            for (int i = 0; i < 2; ++i)
                QVERIFY2(found[std::size_t(i)] > 150, qPrintable(entry.key + " lacks design " + QString::number(i)));
            // Drawn again and again, one design between (the view keeps the
            // one-design picture it made, hidden): nothing piles up.
            auto counts = [&view] {
                std::vector<int> n;
                for (QCustomPlot* plot : view.plots())
                    n.push_back(plot->plottableCount() * 1000 + plot->itemCount() +
                                int(plot->findChildren<QCPBarsGroup*>().size()) * 100000);
                return n;
            };
            auto cycle = [&] {
                view.setDesigns({two.front()});
                view.refreshNow();
                view.setDesigns(two);
                view.refreshNow();
                return counts();
            };
            const auto once = cycle();
            QCOMPARE(cycle(), once);
            view.setDesigns(two);
            view.refreshNow();
            QCOMPARE(counts(), once);
        }
    }

    void chartsExplainThemselvesOnHover()
    {
        auto w = twoPresets();
        w->resize(1400, 900);
        w->show();
        w->tabs()->setCurrentIndex(1);
        QVERIFY(QTest::qWaitForWindowExposed(w.get()));
        const QString label = QString::fromStdString(w->comparison()->designs[1].label);

        ChartView* view = w->chart("hierarchy");
        QCustomPlot* hierarchy = chartPlot(*w, "hierarchy", "hierarchy");
        hierarchy->replot();
        auto* bars = static_cast<QCPBars*>(legendSeries(hierarchy, label));
        const QPointF top = bars->dataPixelPosition(0);  // HBM, the first tier
        QString tip = view->tipAt(hierarchy, top + QPointF(0, 6));
        QVERIFY2(tip.contains(label + ": HBM"), qPrintable(tip));
        QVERIFY(tip.contains("GB/s per GPU"));

        view = w->chart("failures");
        QCustomPlot* mtbf = chartPlot(*w, "failures", "mtbf");
        mtbf->replot();
        const Analysis& b = w->comparison()->designs[1].analysis;
        const QPointF at(mtbf->xAxis->coordToPixel(double(b.inventory.gpus)),
                         mtbf->yAxis->coordToPixel(b.reliability.clusterMtbfH));
        tip = view->tipAt(mtbf, at);
        QVERIFY2(tip.contains("cluster MTBF = 1 / sum over classes of devices / MTTF"), qPrintable(tip));
        QVERIFY(tip.contains(label));
        QVERIFY(view->tipAt(mtbf, QPointF(2, 2)).isEmpty());
    }

    void everyBackgroundAnalysisThatComparesHasATab()
    {
        // A tab per background analysis that compares designs, titled by its
        // entry, between the plots and the bill of materials; each runs only
        // while shown and says what it found for every design.
        auto w = twoPresets();
        onTheH100sWorkload(*w);
        int tabs = 0;
        for (const BackgroundEntry& e : backgroundRegistry()) {
            CompareRunTab* tab = w->runTab(e.key);
            QCOMPARE(tab != nullptr, bool(e.makeCompareTab));
            if (!tab)
                continue;
            ++tabs;
            const int index = w->tabs()->indexOf(tab);
            QCOMPARE(w->tabs()->tabText(index), e.title);
            QVERIFY(index > w->tabs()->indexOf(w->figureTable()) + 1);  // after the key figures and the plots
            QVERIFY(index < w->tabs()->indexOf(w->bomTable()));
            QCOMPARE(tab->job()->runsStarted(), std::uint64_t(0));
            w->tabs()->setCurrentIndex(index);
            tab->job()->waitForIdle();
            QCOMPARE(tab->job()->runsStarted(), std::uint64_t(1));
            for (const ComparedDesign& d : w->comparison()->designs)
                QVERIFY2(tab->summaryLabel()->text().contains(q(d.label).toHtmlEscaped()), qPrintable(e.key));
        }
        QCOMPARE(int(w->runTabs().size()), tabs);
        QVERIFY(tabs >= 1);
    }

    void scaleSweepsAreOverlaidWhileTheTabIsShown()
    {
        auto w = twoPresets();
        onTheH100sWorkload(*w);
        auto* tab = qobject_cast<ScaleCompareTab*>(w->runTab("scale"));
        QVERIFY(tab);
        ScaleOverlay* overlay = tab->overlay();
        BackgroundJob* job = tab->job();
        // Nothing is swept while nobody looks at the Scale tab.
        QVERIFY(!job->running());
        QCOMPARE(overlay->throughputPlot()->graphCount(), 0);
        const int scaleTab = w->tabs()->indexOf(overlay->parentWidget());
        QVERIFY(scaleTab > 0);
        QCOMPARE(w->tabs()->tabText(scaleTab), QString("Scale"));
        w->tabs()->setCurrentIndex(scaleTab);
        QVERIFY(job->running());
        job->waitForIdle();
        QVERIFY(!job->running());
        // A line and a star per design: the design's own sweep, best layout
        // at each size, the star at its own size.
        QCOMPARE(overlay->throughputPlot()->graphCount(), 4);
        QCOMPARE(overlay->daysPlot()->graphCount(), 4);
        for (int i = 0; i < 2; ++i) {
            // Each design as compared: on the workload chosen.
            const SweepResult r = sweepScale(w->comparison()->designs[std::size_t(i)].design, Catalog::builtin());
            QVERIFY(r.ok());
            const QCPGraph* line = overlay->throughputPlot()->graph(2 * i);
            QCOMPARE(line->name(), q(w->comparison()->designs[std::size_t(i)].label));
            QCOMPARE(line->pen().color(), designColor(i));
            QCOMPARE(line->data()->size(), int(r.points.size()));
            for (std::size_t k = 0; k < r.points.size(); ++k) {
                const auto it = line->data()->at(int(k));
                QCOMPARE(it->key, double(r.points[k].gpus));
                if (r.points[k].best)
                    QCOMPARE(it->value, r.points[k].best->tokensPerS);
            }
            const QCPGraph* star = overlay->throughputPlot()->graph(2 * i + 1);
            QCOMPARE(star->data()->size(), 1);
            QCOMPARE(star->data()->at(0)->key, double(r.designGpus));
            QCOMPARE(star->data()->at(0)->value, r.designPoint()->best->tokensPerS);
            const QCPGraph* days = overlay->daysPlot()->graph(2 * i);
            const SweepPoint* own = r.designPoint();
            const auto at = days->data()->findBegin(double(own->gpus), false);
            QCOMPARE(at->value, own->best->wallDays);
            QVERIFY(tab->summaryLabel()->text().contains(q(r.stopsPaying).toHtmlEscaped()));
        }
        // A new baseline sweeps nothing again: the designs are the same.
        w->setBaseline(1);
        w->waitForComparison();
        QVERIFY(!job->running());
        QCOMPARE(overlay->throughputPlot()->graphCount(), 4);
        // A third design sweeps all three again.
        QVERIFY(w->addFile(test::sourcePath(kMi300)));
        w->waitForComparison();
        QVERIFY(job->running());
        job->waitForIdle();
        QCOMPARE(overlay->throughputPlot()->graphCount(), 6);
        QCOMPARE(overlay->throughputPlot()->graph(4)->pen().color(), designColor(2));
        // Removing one while another tab is shown leaves the sweep for later.
        w->tabs()->setCurrentIndex(0);
        w->removeDesign(0);
        w->waitForComparison();
        QVERIFY(!job->running());
        w->tabs()->setCurrentIndex(scaleTab);
        job->waitForIdle();
        QCOMPARE(overlay->throughputPlot()->graphCount(), 4);
        QCOMPARE(overlay->throughputPlot()->graph(0)->name(), q(w->comparison()->designs[0].label));
    }

    void csvIsOneRectangularTable()
    {
        auto w = twoPresets();
        QTemporaryDir dir;
        const QString path = dir.filePath("comparison.csv");
        QString error;
        QVERIFY2(w->exportCsv(path, &error), qPrintable(error));
        QFile f(path);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const auto rows = test::parseCsv(QString::fromUtf8(f.readAll()));
        const Comparison& c = *w->comparison();
        QCOMPARE(rows.size(), 1 + 2 + int(c.figures.size() + c.bom.size()));  // header, workload and layout, ...
        const QStringList& head = rows[0];
        QVERIFY(head.contains(QString::fromStdString(c.designs[0].label)));
        QVERIFY(head.contains(QString::fromStdString(c.designs[1].label)));
        for (const QStringList& row : rows)
            QCOMPARE(row.size(), head.size());
        QVERIFY(!w->exportCsv(dir.filePath("missing/dir/comparison.csv"), &error));
        QVERIFY(error.contains("missing"));
    }

    // Serving designs compared: their serving rows, no training rows, and
    // the training run's charts say why they are empty instead of drawing
    // the training figures serving designs do not have.
    void servingDesignsCompareTheirServingFigures()
    {
        CompareWindow w;
        QString error;
        // Each on its own workload: serving and training designs side by side.
        CompareSetup own;
        own.workload = WorkloadFrom::Own;
        w.setSetup(own);
        for (const char* f :
             {"presets/serving-llama3-70b-dgx-h100.cluster.json", "presets/serving-grok1-moe-gb200-nvl72.cluster.json"})
            QVERIFY2(w.addFile(test::sourcePath(f), &error), qPrintable(error));
        w.waitForComparison();
        QTableWidget* t = w.figureTable();
        QVERIFY(rowOf(t, "serving.tpot_s") >= 0);
        QVERIFY(rowOf(t, "serving.tokens_per_s_per_gpu") >= 0);
        QCOMPARE(rowOf(t, "training.mfu"), -1);
        QCOMPARE(rowOf(t, "training.days_to_train"), -1);
        // Two models served: their serving figures are not compared.
        QCOMPARE(t->item(rowOf(t, "serving.tpot_s"), 1)->data(Qt::UserRole).toString(), QString("different_workloads"));
        QVERIFY(w.setupLabel()->text().contains("The designs run different workloads"));
        for (ChartView* chart : w.charts()) {
            const bool training = !chart->entry().appliesTo(WorkloadKind::Serving);
            QCOMPARE(chart->designs().empty(), training);
        }
        // A training design joins: the training charts draw it alone, in its
        // own colour (the third), the others all three.
        QVERIFY(w.addFile(test::sourcePath(kH100), &error));
        w.waitForComparison();
        for (ChartView* chart : w.charts()) {
            const bool training = !chart->entry().appliesTo(WorkloadKind::Serving);
            QCOMPARE(chart->designs().size(), std::size_t(training ? 1 : 3));
            if (training) {
                QCOMPARE(chart->designs().front().color, 2);
                QCOMPARE(colorIndex(chart->designs(), 0), 2);
            }
        }
    }

    void pdfExportWritesTheReport()
    {
        auto w = twoPresets();
        QTemporaryDir dir;
        const QString path = dir.filePath("comparison.pdf");
        QString error;
        QVERIFY2(w->exportPdf(path, &error), qPrintable(error));
        QFile f(path);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QVERIFY(f.read(5) == "%PDF-");
        if (const QString shots = qEnvironmentVariable("STUDIO_COMPARE_SHOTS"); !shots.isEmpty())
            QFile::copy(path, QDir(shots).filePath("comparison.pdf"));
        CompareWindow one;
        QVERIFY(!one.exportPdf(path, &error));
        QVERIFY(error.contains("two designs"));
    }

    void followsTheTheme()
    {
        applyTheme(Theme::Light);
        auto w = twoPresets();
        QTableWidget* t = w->figureTable();
        const double lightBase = luminance(t->item(rowOf(t, "training.mfu"), 1)->background().color());
        applyTheme(Theme::Dark);
        QTRY_VERIFY(luminance(t->item(rowOf(t, "training.mfu"), 1)->background().color()) < lightBase / 3);
        QTRY_COMPARE(chartPlot(*w, "roofline", "roofline")->xAxis->labelColor(),
                     qApp->palette().color(QPalette::WindowText));
        applyTheme(Theme::Light);
    }

    void tintedCellsReadInBothThemes()
    {
        for (Theme theme : {Theme::Light, Theme::Dark}) {
            applyTheme(theme);
            auto w = std::make_unique<CompareWindow>();
            for (const char* p : {kH100, kB200, kGb200, kMi300})
                QVERIFY(w->addFile(test::sourcePath(p)));
            w->waitForComparison();
            QTableWidget* t = w->figureTable();
            int tinted = 0;
            for (int c = 1; c < t->columnCount(); ++c)
                for (int r = 0; r < t->rowCount(); ++r) {
                    const QTableWidgetItem* item = t->item(r, c);
                    if (item->background().style() == Qt::NoBrush)
                        continue;
                    ++tinted;
                    const double ratio = contrast(item->foreground().color(), item->background().color());
                    QVERIFY2(ratio >= 7,
                             qPrintable(themeName(theme) + ": " + item->text() + " " + QString::number(ratio)));
                }
            QVERIFY(tinted >= 30);
            // Screenshots on request, to look at: STUDIO_COMPARE_SHOTS=dir.
            if (const QString shots = qEnvironmentVariable("STUDIO_COMPARE_SHOTS"); !shots.isEmpty()) {
                w->resize(1400, 900);
                w->show();
                QVERIFY(QTest::qWaitForWindowExposed(w.get()));
                for (int tab = 0; tab < w->tabs()->count(); ++tab) {
                    w->tabs()->setCurrentIndex(tab);
                    for (CompareRunTab* run : w->runTabs())
                        run->job()->waitForIdle();
                    QTest::qWait(50);
                    w->grab().save(QDir(shots).filePath(QString("compare-%1-%2.png").arg(themeName(theme)).arg(tab)));
                }
                w->tabs()->setCurrentIndex(1);
                QTest::qWait(50);
                if (auto* scroll = qobject_cast<QScrollArea*>(w->tabs()->widget(1)))
                    scroll->widget()->grab().save(
                        QDir(shots).filePath(QString("compare-%1-plots.png").arg(themeName(theme))));
            }
        }
        applyTheme(Theme::Light);
    }
};

STUDIO_TEST_MAIN(TestCompareView)
#include "tst_compare_view.moc"
