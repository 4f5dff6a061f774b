// The compare view as an architect uses it: two presets side by side give a
// column per design and a row per key figure; each difference matches one
// worked out here from the two analyses, tinted by whether it is better for
// that figure, and flips when the baseline does; a fifth design, a broken
// file and a design with errors are refused with the reason; the same design
// twice is told apart; the open document comes from the studio when asked;
// the bill of materials shows a part only one design has with 0 for the
// other; every overlay chart draws one named series per design with the
// analyses' numbers, redraws cleanly on the same plot, paints offscreen and
// explains itself on hover; the CSV is one rectangular table and the PDF a
// PDF; tinted cells follow the theme and stay readable in both.
// STUDIO_COMPARE_SHOTS=DIR saves screenshots of every tab in both themes and
// the PDF there, to look at.
#include <QtTest>

#include <QComboBox>
#include <QRegularExpression>
#include <QScrollArea>
#include <QTabWidget>
#include <QTableWidget>
#include <QTemporaryDir>

#include <qcustomplot.h>

#include <cmath>
#include <set>

#include "core/analysis/analysis.h"
#include "core/compare/comparison.h"
#include "core/format/design_reader.h"
#include "core/text.h"
#include "tests/gui_test_main.h"
#include "tests/test_support.h"
#include "widgets/compare/compare_plots.h"
#include "widgets/compare/compare_window.h"
#include "widgets/style/theme.h"

using namespace studio;

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

Analysis analyse(const char* relative)
{
    const Loaded l = load(relative);
    return analyzeDesign(l.design, *l.catalog);
}

int rowOf(const QTableWidget* table, const QString& label)
{
    for (int r = 0; r < table->rowCount(); ++r)
        if (table->verticalHeaderItem(r) && table->verticalHeaderItem(r)->text() == label)
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

// The plottables a chart lists in its legend, by name.
QStringList legendNames(QCustomPlot* plot)
{
    QStringList names;
    for (int i = 0; i < plot->legend->itemCount(); ++i)
        if (auto* item = qobject_cast<QCPPlottableLegendItem*>(plot->legend->item(i)))
            names << item->plottable()->name();
    return names;
}

// The legend's series of a design (the one plottable named after it that
// the legend lists).
QCPAbstractPlottable* legendSeries(QCustomPlot* plot, const QString& label)
{
    for (int i = 0; i < plot->legend->itemCount(); ++i)
        if (auto* item = qobject_cast<QCPPlottableLegendItem*>(plot->legend->item(i));
            item && item->plottable()->name() == label)
            return item->plottable();
    return nullptr;
}

bool hasData(const QCPBars* bars, double value)
{
    for (auto it = bars->data()->constBegin(); it != bars->data()->constEnd(); ++it)
        if (std::fabs(it->value - value) <= 1e-9 * std::max(1.0, std::fabs(value)))
            return true;
    return false;
}

// Pixels near a colour (antialiased edges blend into the background).
int pixelsLike(const QImage& image, const QColor& color)
{
    int n = 0;
    for (int y = 0; y < image.height(); ++y)
        for (int x = 0; x < image.width(); ++x) {
            const QColor p = image.pixelColor(x, y);
            if (std::abs(p.red() - color.red()) + std::abs(p.green() - color.green()) +
                    std::abs(p.blue() - color.blue()) <
                40)
                ++n;
        }
    return n;
}

} // namespace

class TestCompareView : public QObject {
    Q_OBJECT

    // A window comparing the H100 SuperPOD (baseline) with the B200 one.
    static std::unique_ptr<CompareWindow> twoPresets()
    {
        auto w = std::make_unique<CompareWindow>();
        QString error;
        if (!w->addFile(test::sourcePath(kH100), &error) || !w->addFile(test::sourcePath(kB200), &error))
            qFatal("%s", qPrintable(error));
        return w;
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
        QVERIFY(!w.comparison()); // one design is nothing to compare
        QVERIFY2(w.addFile(test::sourcePath(kB200), &error), qPrintable(error));
        QVERIFY(w.comparison());
        const Loaded h = load(kH100), b = load(kB200);
        QTableWidget* t = w.figureTable();
        QCOMPARE(t->columnCount(), 2);
        QCOMPARE(t->rowCount(), int(keyFigures().size()));
        for (std::size_t r = 0; r < keyFigures().size(); ++r)
            QCOMPARE(t->verticalHeaderItem(int(r))->text(), QString::fromStdString(keyFigures()[r].label));
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
        const Analysis h = analyse(kH100), b = analyse(kB200);
        QTableWidget* t = w->figureTable();

        // MFU moves in points.
        const int mfu = rowOf(t, "MFU");
        QVERIFY(mfu >= 0);
        const double points = (b.step.mfu - h.step.mfu) * 100;
        QVERIFY(std::fabs(points) > 0.1);
        QVERIFY(std::fabs(shownDelta(t->item(mfu, 1), "pts") - points) <= std::max(0.05, 0.05 * std::fabs(points)));
        QVERIFY(t->item(mfu, 1)->text().startsWith(QString::fromStdString(formatReadable(b.step.mfu * 100)) + " %"));
        QVERIFY(!t->item(mfu, 0)->text().contains('(')); // the baseline has no difference

        // Facility power relative to the baseline.
        const int facility = rowOf(t, "Facility power");
        const double relative = (b.power.facilityKw - h.power.facilityKw) / h.power.facilityKw * 100;
        QVERIFY(std::fabs(shownDelta(t->item(facility, 1), "%") - relative) <= 0.005 * std::fabs(relative) + 0.05);

        // GPUs as a count.
        const int gpus = rowOf(t, "GPUs");
        QCOMPARE(shownDelta(t->item(gpus, 1), ""), double(b.inventory.gpus - h.inventory.gpus));

        // The tip explains the figure for that design and spells out the difference.
        const QString tip = t->item(mfu, 1)->toolTip();
        QVERIFY2(tip.contains("MFU = "), qPrintable(tip)); // the core's formula
        QVERIFY(tip.contains(w->comparison()->designs[1].label.c_str()));
        QVERIFY(tip.contains("Baseline"));
        QVERIFY(tip.contains("higher is better"));
        QVERIFY(t->item(mfu, 0)->toolTip().contains("The baseline"));
    }

    void tintsFollowEachFiguresDirection()
    {
        auto w = twoPresets();
        const Analysis h = analyse(kH100), b = analyse(kB200);
        QTableWidget* t = w->figureTable();
        auto check = [&](const QString& label, double base, double other, bool higherIsBetter) {
            const QTableWidgetItem* item = t->item(rowOf(t, label), 1);
            const bool better = (other > base) == higherIsBetter;
            QCOMPARE(item->data(Qt::UserRole).toString(), QString(better ? "better" : "worse"));
            const QColor bg = item->background().color();
            QVERIFY2(better ? greenish(bg) : reddish(bg), qPrintable(label + ": " + bg.name()));
        };
        check("MFU", h.step.mfu, b.step.mfu, true);
        check("Days to train", h.step.daysToTrain, b.step.daysToTrain, false);
        check("Facility power", h.power.facilityKw, b.power.facilityKw, false);
        check("Cluster MTBF", h.reliability.clusterMtbfH, b.reliability.clusterMtbfH, true);
        // A size is neither better nor worse: no tint.
        const QTableWidgetItem* gpus = t->item(rowOf(t, "GPUs"), 1);
        QCOMPARE(gpus->data(Qt::UserRole).toString(), QString("changed"));
        QCOMPARE(gpus->background().style(), Qt::NoBrush);
    }

    void changingTheBaselineFlipsTheSigns()
    {
        auto w = twoPresets();
        QTableWidget* t = w->figureTable();
        const int mfu = rowOf(t, "MFU"), days = rowOf(t, "Days to train");
        const double before = shownDelta(t->item(mfu, 1), "pts");
        const QString verdict = t->item(days, 1)->data(Qt::UserRole).toString();
        QSignalSpy changed(w.get(), &CompareWindow::comparisonChanged);
        w->baselineBox()->setCurrentIndex(1);
        emit w->baselineBox()->activated(1);
        QCOMPARE(changed.count(), 1);
        QCOMPARE(w->baseline(), 1);
        QCOMPARE(w->comparison()->baseline, std::size_t(1));
        QCOMPARE(shownDelta(t->item(mfu, 0), "pts"), -before);
        QVERIFY(!t->item(mfu, 1)->text().contains('('));
        QVERIFY(t->horizontalHeaderItem(1)->text().contains("baseline"));
        QCOMPARE(t->item(days, 0)->data(Qt::UserRole).toString(), QString(verdict == "better" ? "worse" : "better"));
    }

    void aFifthDesignIsRefused()
    {
        CompareWindow w;
        QString error;
        for (const char* p : {kH100, kB200, kGb200, kMi300})
            QVERIFY2(w.addFile(test::sourcePath(p), &error), qPrintable(error));
        QCOMPARE(w.designCount(), 4);
        QCOMPARE(w.figureTable()->columnCount(), 4);
        QVERIFY(!w.addFile(test::sourcePath(kBudget), &error));
        QVERIFY2(error.contains("At most 4"), qPrintable(error));
        const Loaded extra = load(kBudget);
        QVERIFY(!w.addDesign(extra.design, extra.catalog, "open document", &error));
        QCOMPARE(w.designCount(), 4);
        // Room again after a removal; the baseline stays the design it was.
        w.setBaseline(2);
        const std::string baseline = w.comparison()->designs[2].label;
        w.removeDesign(0);
        QCOMPARE(w.designCount(), 3);
        QCOMPARE(w.comparison()->designs[std::size_t(w.baseline())].label, baseline);
        QVERIFY2(w.addDesign(extra.design, extra.catalog, "open document", &error), qPrintable(error));
        QCOMPARE(w.comparison()->designs.back().source, std::string("open document"));
    }

    void theSameDesignTwiceIsToldApart()
    {
        CompareWindow w;
        const Loaded h = load(kH100);
        QVERIFY(w.addDesign(h.design, h.catalog, "open document"));
        QVERIFY(w.addFile(test::sourcePath(kH100)));
        const QString name = QString::fromStdString(h.design.name);
        const QStringList expected{name, name + " (2)"};
        QCOMPARE(legendNames(w.chart(CompareChart::Mtbf)), expected);
        QCOMPARE(w.figureTable()->horizontalHeaderItem(1)->text().replace('\n', ' '), name + " (2)");
        // Identical designs differ in nothing: "=" and no tint.
        const QTableWidgetItem* mfu = w.figureTable()->item(rowOf(w.figureTable(), "MFU"), 1);
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
        QVERIFY(!addOpen->isVisible()); // nothing to ask yet
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
        auto pueOf = [&](int design) {
            for (const auto& row : w.comparison()->figures)
                if (row.figure.key == "power.pue")
                    return *row.cells[std::size_t(design)].value;
            return -1.0;
        };
        const double before = pueOf(0);
        doc.design.facility.pue = before + 0.2;
        QVERIFY(w.updateOpenDocument(doc.design, doc.catalog));
        QCOMPARE(pueOf(0), before + 0.2);
        QCOMPARE(pueOf(1), before);  // the snapshot
        QCOMPARE(w.designCount(), 3);
        Design broken = doc.design;
        broken.components.front().count = 0;
        QVERIFY(w.updateOpenDocument(broken, doc.catalog));
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
        const Analysis h = analyse(kH100), b = analyse(kB200);
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
        QVERIFY(t->item(row, 3)->font().bold()); // highlighted: differs from the baseline
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
        const Analysis h = analyse(kH100), b = analyse(kB200);
        const std::vector<const Analysis*> analyses{&h, &b};
        QStringList labels;
        for (const auto& d : w->comparison()->designs)
            labels << QString::fromStdString(d.label);
        for (CompareChart c : compareCharts()) {
            QCustomPlot* plot = w->chart(c);
            QVERIFY(plot);
            QCOMPARE(legendNames(plot), labels);
            for (int i = 0; i < 2; ++i) {
                QCPAbstractPlottable* p = legendSeries(plot, labels[i]);
                QVERIFY(p);
                const QColor drawn = qobject_cast<QCPBars*>(p) ? p->brush().color() : p->pen().color();
                QCOMPARE(drawn, designColor(i));
            }
        }
        // The numbers are the analyses'.
        for (int i = 0; i < 2; ++i) {
            const Analysis& a = *analyses[std::size_t(i)];
            auto* roof = static_cast<QCPGraph*>(legendSeries(w->chart(CompareChart::Roofline), labels[i]));
            QCOMPARE(roof->data()->size(), 3);
            QCOMPARE(roof->data()->at(1)->key, a.roofline.ridgeFlopPerByte);
            QCOMPARE(roof->data()->at(1)->value, a.roofline.peakTflops);
            auto* tiers = static_cast<QCPBars*>(legendSeries(w->chart(CompareChart::Hierarchy), labels[i]));
            for (const auto& tier : a.hierarchy.tiers)
                QVERIFY(tier.gbPerSPerGpu <= 0 || hasData(tiers, tier.gbPerSPerGpu));
            auto* steps = static_cast<QCPBars*>(legendSeries(w->chart(CompareChart::Mfu), labels[i]));
            QVERIFY(hasData(steps, a.utilization.mfu * 100));
            QVERIFY(hasData(steps, a.utilization.delivered * 100));
            auto* power = static_cast<QCPBars*>(legendSeries(w->chart(CompareChart::Power), labels[i]));
            QVERIFY(hasData(power, a.power.facilityKw / 1000)); // both designs draw megawatts
            QVERIFY(hasData(power, a.power.itKw / 1000));
            auto* mtbf = static_cast<QCPGraph*>(legendSeries(w->chart(CompareChart::Mtbf), labels[i]));
            QCOMPARE(mtbf->data()->size(), int(a.reliability.mtbfCurve.size()));
        }
        // Tiers line up by key: the HBM bars of both designs share a category.
        auto* h0 = static_cast<QCPBars*>(legendSeries(w->chart(CompareChart::Hierarchy), labels[0]));
        auto* h1 = static_cast<QCPBars*>(legendSeries(w->chart(CompareChart::Hierarchy), labels[1]));
        QCOMPARE(h0->data()->at(0)->key, h1->data()->at(0)->key);
        QCOMPARE(h0->data()->at(0)->value, h.hierarchy.tiers[0].gbPerSPerGpu);
        QCOMPARE(h1->data()->at(0)->value, b.hierarchy.tiers[0].gbPerSPerGpu);
    }

    void chartsRedrawOnOnePlotOffscreen()
    {
        auto w = twoPresets();
        const Comparison& c = *w->comparison();
        // A plot never shown, drawn chart after chart as the report does.
        QCustomPlot plot;
        for (int round = 0; round < 2; ++round)
            for (CompareChart chart : compareCharts()) {
                drawCompareChart(&plot, chart, c);
                QCOMPARE(legendNames(&plot).size(), 2);
                QCOMPARE(plot.axisRects().size(), chart == CompareChart::Power ? 2 : 1);
                QImage image(900, 520, QImage::Format_RGB32);
                image.fill(Qt::white);
                QCPPainter painter(&image);
                plot.toPainter(&painter, image.width(), image.height());
                painter.end();
                for (int i = 0; i < 2; ++i)
                    QVERIFY2(pixelsLike(image, designColor(i)) > 150,
                             qPrintable(compareChartTitle(chart) + " lacks design " + QString::number(i)));
            }
        // Drawn again, nothing piles up.
        drawCompareChart(&plot, CompareChart::Mfu, c);
        const int plottables = plot.plottableCount(), items = plot.itemCount();
        drawCompareChart(&plot, CompareChart::Mfu, c);
        QCOMPARE(plot.plottableCount(), plottables);
        QCOMPARE(plot.itemCount(), items);
        QCOMPARE(plot.findChildren<QCPBarsGroup*>().size(), 1);
    }

    void chartsExplainThemselvesOnHover()
    {
        auto w = twoPresets();
        w->resize(1400, 900);
        w->show();
        w->tabs()->setCurrentIndex(1);
        QVERIFY(QTest::qWaitForWindowExposed(w.get()));
        const QString label = QString::fromStdString(w->comparison()->designs[1].label);

        QCustomPlot* hierarchy = w->chart(CompareChart::Hierarchy);
        hierarchy->replot();
        auto* bars = static_cast<QCPBars*>(legendSeries(hierarchy, label));
        const QPointF top = bars->dataPixelPosition(0); // HBM, the first tier
        QString tip = w->chartTipAt(CompareChart::Hierarchy, top + QPointF(0, 6));
        QVERIFY2(tip.contains(label + ": HBM"), qPrintable(tip));
        QVERIFY(tip.contains("GB/s per GPU"));

        QCustomPlot* mtbf = w->chart(CompareChart::Mtbf);
        mtbf->replot();
        const Analysis& b = w->comparison()->designs[1].analysis;
        const QPointF at(mtbf->xAxis->coordToPixel(double(b.inventory.gpus)),
                         mtbf->yAxis->coordToPixel(b.reliability.clusterMtbfH));
        tip = w->chartTipAt(CompareChart::Mtbf, at);
        QVERIFY2(tip.contains("cluster MTBF = 1 / sum over classes of devices / MTTF"), qPrintable(tip));
        QVERIFY(tip.contains(label));
        QVERIFY(w->chartTipAt(CompareChart::Mtbf, QPointF(2, 2)).isEmpty());
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
        QCOMPARE(rows.size(), 1 + int(c.figures.size() + c.bom.size()));
        const QStringList& head = rows[0];
        QVERIFY(head.contains(QString::fromStdString(c.designs[0].label)));
        QVERIFY(head.contains(QString::fromStdString(c.designs[1].label)));
        for (const QStringList& row : rows)
            QCOMPARE(row.size(), head.size());
        QVERIFY(!w->exportCsv(dir.filePath("missing/dir/comparison.csv"), &error));
        QVERIFY(error.contains("missing"));
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
        const double lightBase = luminance(t->item(rowOf(t, "MFU"), 1)->background().color());
        applyTheme(Theme::Dark);
        QTRY_VERIFY(luminance(t->item(rowOf(t, "MFU"), 1)->background().color()) < lightBase / 3);
        QCOMPARE(w->chart(CompareChart::Roofline)->xAxis->labelColor(), qApp->palette().color(QPalette::WindowText));
        applyTheme(Theme::Light);
    }

    void tintedCellsReadInBothThemes()
    {
        for (Theme theme : {Theme::Light, Theme::Dark}) {
            applyTheme(theme);
            auto w = std::make_unique<CompareWindow>();
            for (const char* p : {kH100, kB200, kGb200, kMi300})
                QVERIFY(w->addFile(test::sourcePath(p)));
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
