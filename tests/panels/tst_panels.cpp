// The live analysis panels as a user meets them: after scripted edits (a
// node dropped on the canvas, a faster NIC, another tp, a new PUE) every
// panel plots exactly the core's numbers for the edited design; the ridge
// label and the 30 kW line sit where they should; each panel renders
// something; hidden tabs wait until shown; the layout choice is remembered;
// the workload dock refuses layouts that cannot run and says why; plots
// export; hover tips explain.
#include <QtTest>

#include <QAbstractSpinBox>
#include <QComboBox>
#include <QDockWidget>
#include <QPicture>
#include <QScrollArea>
#include <QScrollBar>
#include <QSettings>
#include <QTemporaryDir>

#include <qcustomplot.h>

#include <set>

#include "app/main_window.h"
#include "core/format/design_fields.h"
#include "core/format/design_reader.h"
#include "core/metrics/figure_names.h"
#include "core/model/analysis.h"
#include "core/text.h"
#include "tests/chart_support.h"
#include "tests/gui_test_main.h"
#include "tests/test_support.h"
#include "widgets/analysis/analysis_service.h"
#include "widgets/analysis/background_job.h"
#include "widgets/canvas/component_item.h"
#include "widgets/canvas/design_scene.h"
#include "widgets/charts/analysis_registry.h"
#include "widgets/charts/chart_plot.h"
#include "widgets/charts/chart_style.h"
#include "widgets/charts/chart_text.h"
#include "widgets/charts/chart_view.h"
#include "widgets/charts/explain_html.h"
#include "widgets/charts/figure_table.h"
#include "widgets/charts/plot_fingerprint.h"
#include "widgets/document/design_document.h"
#include "widgets/document/design_editor.h"
#include "widgets/panels/analysis_area.h"
#include "widgets/panels/background_registry.h"
#include "widgets/panels/kpi_strip.h"
#include "widgets/search/layout_search_service.h"
#include "widgets/serving/serving_panel.h"
#include "widgets/style/theme.h"
#include "widgets/workload/checked_spin_box.h"
#include "widgets/workload/workload_panel.h"

using namespace studio;
using test::keys;
using test::named;
using test::values;

namespace {

// Key -> value over bar series that split one category axis between them
// (within and over a limit, fine and misplaced).
std::map<double, double> barsByKey(QCustomPlot* plot, std::initializer_list<const char*> names)
{
    std::map<double, double> out;
    for (const char* name : names) {
        auto* b = named<QCPBars>(plot, name);
        for (auto it = b->data()->constBegin(); it != b->data()->constEnd(); ++it)
            out[it->key] = it->value;
    }
    return out;
}

bool near(double a, double b)
{
    return std::fabs(a - b) <= 1e-9 * std::max({1.0, std::fabs(a), std::fabs(b)});
}

QString q(const std::string& s)
{
    return QString::fromStdString(s);
}

// Every panel's plotted values against an analysis the test makes itself
// from the document's design.
void checkPanelsMatchCore(MainWindow& w)
{
    const Analysis a = analyzeDesign(w.document()->design(), w.document()->catalog());
    AnalysisArea* area = w.analysisArea();
    for (ChartView* p : area->panels())
        p->refreshNow();

    // Roofline: one ceiling per distinct peak, the HBM slope ending at the
    // ridge, every operation at its achieved throughput.
    ChartView* roof = area->panel("roofline");
    QCustomPlot* rp = roof->plot("roofline");
    std::set<double> ceilings, plotted;
    for (const auto& c : a.roofline.ceilings)
        ceilings.insert(c.tflops);
    for (int i = 0; i < rp->graphCount(); ++i)
        if (rp->graph(i)->objectName().startsWith("ceiling ") && rp->graph(i)->visible()) {
            const auto v = values(rp->graph(i)->data());
            QCOMPARE(v.size(), 2);
            QCOMPARE(v[0], v[1]);
            plotted.insert(v[0]);
        }
    QCOMPARE(plotted, ceilings);
    QCPGraph* hbm = named<QCPGraph>(rp, "slope hbm");
    QVERIFY(hbm);
    double top = 0;
    for (const auto& c : a.roofline.ceilings)
        top = std::max(top, c.tflops);
    QVERIFY(near(values(hbm->data()).back(), top));
    QVERIFY(near(keys(hbm->data()).back() / top, a.roofline.ridgeFlopPerByte / a.roofline.peakTflops));
    for (const auto& s : a.roofline.fleet) {
        QCPGraph* g = named<QCPGraph>(rp, "slope " + q(s.key));
        QVERIFY2(g, qPrintable(q(s.key)));
        QVERIFY(near(keys(g->data()).back(), s.ridgeFlopPerByte));
        QVERIFY(near(values(g->data()).back(), a.roofline.peakTflops));
    }
    std::multiset<double> achieved, shown;
    for (const auto& p : a.roofline.points)
        achieved.insert(p.achievedTflops);
    for (const char* kind : {"gemm", "attention", "memory", "optimizer", "decode"})
        for (double v : values(named<QCPGraph>(rp, QString("ops ") + kind)->data()))
            shown.insert(v);
    QCOMPARE(shown.size(), achieved.size());
    for (auto s = shown.begin(), c = achieved.begin(); s != shown.end(); ++s, ++c)
        QVERIFY(near(*s, *c));
    auto* ridgeLabel = named<QCPItemText>(rp, "ridge label");
    QVERIFY(near(ridgeLabel->position->coords().x(), a.roofline.ridgeFlopPerByte));
    QVERIFY(near(ridgeLabel->position->coords().y(), a.roofline.peakTflops));

    // Hierarchy: a bar per tier at its GB/s per GPU, in order.
    QCustomPlot* hp = area->panel("hierarchy")->plot("hierarchy");
    std::map<double, double> bars = barsByKey(hp, {"tiers", "tiers carrying a misplaced axis"});
    QCOMPARE(bars.size(), a.hierarchy.tiers.size());
    for (std::size_t i = 0; i < a.hierarchy.tiers.size(); ++i)
        if (a.hierarchy.tiers[i].gbPerSPerGpu > 0)
            QVERIFY2(near(bars[double(i + 1)], a.hierarchy.tiers[i].gbPerSPerGpu), a.hierarchy.tiers[i].key.c_str());

    // MFU: levels and losses at the waterfall's fractions; the step figures;
    // memory parts against the HBM line.
    ChartView* mfu = area->panel("mfu");
    QCustomPlot* wp = mfu->plot("waterfall");
    QVector<double> levels = values(named<QCPBars>(wp, "levels")->data());
    QVector<double> losses = values(named<QCPBars>(wp, "losses")->data());
    QVector<double> wantLevels, wantLosses;
    for (const auto& b : a.utilization.waterfall)
        (b.level ? wantLevels : wantLosses) << b.fraction * 100;
    QCOMPARE(levels.size(), wantLevels.size());
    for (int i = 0; i < levels.size(); ++i)
        QVERIFY(near(levels[i], wantLevels[i]));
    qsizetype visible = 0;
    for (double want : wantLosses)
        if (want >= 5e-3) {  // losses too small to see are left out
            QVERIFY2(losses.contains(want), qPrintable(QString::number(want)));
            ++visible;
        }
    QCOMPARE(losses.size(), visible);
    QCOMPARE(mfu->figureTable()->valueOf("MFU"), q(formatReadable(a.step.mfu * 100)) + "%");
    QCOMPARE(mfu->figureTable()->valueOf("Step time"), q(formatQuantity(a.step.stepS, "s")));
    QCustomPlot* mp = mfu->plot("memory");
    QVERIFY(near(values(named<QCPBars>(mp, "activations")->data()).front(), a.memory.activationsGb));
    QVERIFY(near(values(named<QCPBars>(mp, "weights")->data()).front(), a.memory.weightsGb));
    QVERIFY(near(named<QCPItemStraightLine>(mp, "hbm capacity")->point1->coords().y(), a.memory.capacityGb));

    // Power: kW per rack, the 30 kW air line, IT by category plus overhead.
    ChartView* power = area->panel("power");
    QCustomPlot* pp = power->plot("racks");
    std::map<double, double> racks = barsByKey(pp, {"racks within their limit", "racks over their limit"});
    QCOMPARE(racks.size(), a.power.racks.size());
    for (std::size_t i = 0; i < a.power.racks.size(); ++i)
        QVERIFY(near(racks[double(i + 1)], a.power.racks[i].kwEach));
    auto* air = named<QCPItemStraightLine>(pp, "air-cooling limit");
    QCOMPARE(air->point1->coords().y(), 30.0);
    QCOMPARE(air->point2->coords().y(), 30.0);
    // In MW from a megawatt on, the axis says so.
    QCustomPlot* fp = power->plot("facility");
    const double unit = a.power.facilityKw >= 1000 ? 1000 : 1;
    QCOMPARE(fp->xAxis->label(), unit > 1 ? QString("Power (MW)") : QString("Power (kW)"));
    QVERIFY(near(values(named<QCPBars>(fp, "compute")->data()).front() * unit, a.power.computeKw));
    QVERIFY(near(values(named<QCPBars>(fp, "network")->data()).front() * unit, a.power.networkKw));
    QVERIFY(near(values(named<QCPBars>(fp, "facility overhead")->data()).front() * unit,
                 a.power.facilityKw - a.power.itKw));
    QCOMPARE(power->figureTable()->valueOf("PUE"), q(formatReadable(a.power.pue.value)));
    QCOMPARE(power->figureTable()->valueOf("Facility power"), q(formatPowerKw(a.power.facilityKw)));

    // Failures: the MTBF curve with this design on it, failures per class,
    // goodput against the interval.
    ChartView* failures = area->panel("failures");
    QCustomPlot* mtbf = failures->plot("mtbf");
    QCOMPARE(values(named<QCPGraph>(mtbf, "mtbf curve")->data()).size(), qsizetype(a.reliability.mtbfCurve.size()));
    QCPGraph* design = named<QCPGraph>(mtbf, "this design");
    QCOMPARE(keys(design->data()).front(), double(a.inventory.gpus));
    QVERIFY(near(values(design->data()).front(), a.reliability.clusterMtbfH));
    const auto perDay = values(named<QCPBars>(failures->plot("failures by class"), "per day")->data());
    QCOMPARE(perDay.size(), qsizetype(a.reliability.classes.size()));
    for (std::size_t i = 0; i < a.reliability.classes.size(); ++i)
        QVERIFY(near(perDay[int(i)], a.reliability.classes[i].perDay));
    const auto goodput = values(named<QCPGraph>(failures->plot("goodput"), "goodput curve")->data());
    QCOMPARE(goodput.size(), qsizetype(a.reliability.goodputCurve.size()));
    for (std::size_t i = 0; i < a.reliability.goodputCurve.size(); ++i)
        QVERIFY(near(goodput[int(i)], a.reliability.goodputCurve[i].second * 100));

    // The status bar's figures.
    QCOMPARE(w.kpis()->text("gpus"), "GPUs " + q(formatCount(a.inventory.gpus)));
    QCOMPARE(w.kpis()->text("facility"), "Facility power " + q(formatPowerKw(a.power.facilityKw)));
    QCOMPARE(w.kpis()->text("mfu"), "MFU " + q(formatReadable(a.step.mfu * 100)) + "%");
    // The wall-clock days (with goodput's losses), named apart from the
    // failure-free days, here as everywhere (core/metrics/figure_names.h).
    QCOMPARE(w.kpis()->text("days"), "Days to train, wall clock " + quantity(a.reliability.wallDays, ""));
}

void settle()
{
    for (int i = 0; i < 4; ++i)
        QCoreApplication::processEvents();
}

// `preset` open in a 1400x900 window, the panels as a grid, drawn.
bool openInGrid(MainWindow& w, const char* preset)
{
    w.resize(1400, 900);
    if (!w.openFile(test::sourcePath(QStringLiteral("presets/") + preset)))
        return false;
    w.show();
    w.analysisArea()->setMode(AnalysisArea::Mode::Grid);
    settle();
    return true;
}

// Where the plot draws pure red (the label under test), drawn as a report
// draws it (toPainter), rasterized or vectorized: an empty rectangle when
// nowhere.
QRect redPixels(QCustomPlot& plot, bool vectorized = false)
{
    plot.replot();
    QImage image(plot.size(), QImage::Format_ARGB32);
    image.fill(Qt::white);
    QCPPainter painter(&image);
    painter.setMode(QCPPainter::pmVectorized, vectorized);
    plot.toPainter(&painter, plot.width(), plot.height());
    painter.end();
    QRect red;
    for (int y = 0; y < image.height(); ++y)
        for (int x = 0; x < image.width(); ++x) {
            const QColor c = image.pixelColor(x, y);
            if (c.red() > 200 && c.green() < 90 && c.blue() < 90)
                red |= QRect(x, y, 1, 1);
        }
    return red;
}

// Both axes 0..10, at `size`, laid out as if shown (a hidden widget gets
// its resize event on show).
void tenByTen(QCustomPlot& plot, QSize size)
{
    plot.resize(size);
    plot.setViewport(plot.rect());
    plot.xAxis->setRange(0, 10);
    plot.yAxis->setRange(0, 10);
}

// A red label at plot coordinates, for redPixels to find.
ChartText* redLabel(QCustomPlot& plot, Qt::Alignment alignment, const QString& text)
{
    auto* label = new ChartText(&plot);
    label->position->setType(QCPItemPosition::ptPlotCoords);
    label->setPositionAlignment(alignment);
    label->setColor(Qt::red);
    label->setText(text);
    return label;
}

}  // namespace

class TestPanels : public QObject {
    Q_OBJECT

private slots:
    void initTestCase()
    {
        // Test mode (gui_test_main.h) keeps these away from the user's own.
        QCoreApplication::setOrganizationName("Cluster Studio tests");
        QCoreApplication::setApplicationName("tst_panels");
        QSettings().clear();
    }

    void panelsFollowEdits()
    {
        MainWindow w;
        QVERIFY(openInGrid(w, "budget-8node-100gbe.cluster.json"));
        checkPanelsMatchCore(w);
        QVERIFY(!QTest::currentTestFailed());
        DesignDocument* doc = w.document();
        const auto gpusNow = [&] { return analyzeDesign(doc->design(), doc->catalog()).inventory.gpus; };

        // A node dropped into the rack on the canvas: eight more GPUs per rack.
        const std::int64_t before = gpusNow();
        ComponentItem* rack = w.scene()->itemFor("rack");
        QVERIFY(rack);
        const QPointF inRack =
            rack->mapToScene(QPointF(rack->frameRect().width() - 12, rack->frameRect().height() - 8));
        QCOMPARE(w.scene()->dropPart("node.hgx-a100", inRack), QString());
        settle();
        QCOMPARE(gpusNow(), before + 16);
        checkPanelsMatchCore(w);
        QVERIFY(!QTest::currentTestFailed());

        // Another NIC speed: the port overridden as the inspector does, to
        // 50G (a faster port would stay capped by the 100G cables and switch).
        const double nicBefore = w.analysis()->analysis()->hardware.scaleOut.nicGbPerSPerGpu.value;
        Component nic = *doc->design().component("server.nic");
        nic.props["port_gbps"] = 50;
        DesignEditor(doc).changeComponents({nic}, "NIC speed");
        settle();
        QCOMPARE(w.analysis()->analysis()->hardware.scaleOut.nicGbPerSPerGpu.value, nicBefore / 2);
        checkPanelsMatchCore(w);
        QVERIFY(!QTest::currentTestFailed());

        // Another tensor-parallel degree, typed into the workload dock.
        auto* tp = qobject_cast<CheckedSpinBox*>(w.workload()->field("/workload/parallelism/tp"));
        QVERIFY(tp);
        tp->setValue(4);
        settle();
        QCOMPARE(doc->design().workload.parallelism.tp.value_or(1), 4);
        checkPanelsMatchCore(w);
        QVERIFY(!QTest::currentTestFailed());

        // TP communication overlap, switched on in the dock: the exposed TP
        // time falls and the panels follow.
        const auto tpTime = [&] {
            for (const auto& part : w.analysis()->analysis()->step.breakdown)
                if (part.id == StepPartId::TpComm)
                    return part.seconds;
            return -1.0;
        };
        const double exposedBefore = tpTime();
        auto* overlap = qobject_cast<QComboBox*>(w.workload()->field("/workload/parallelism/tp_comm_overlap"));
        QVERIFY(overlap);
        QCOMPARE(overlap->currentData().toString(), QString("0"));  // unset: off
        auto* sp = qobject_cast<QComboBox*>(w.workload()->field("/workload/parallelism/sequence_parallel"));
        QCOMPARE(sp->currentData().toString(), QString("1"));  // on, as the preset has it
        overlap->setCurrentIndex(overlap->findData("1"));
        emit overlap->activated(overlap->currentIndex());  // as a click does
        settle();
        QVERIFY(*doc->design().workload.parallelism.tp_comm_overlap);
        QVERIFY(tpTime() > 0 && tpTime() < exposedBefore);
        checkPanelsMatchCore(w);
        QVERIFY(!QTest::currentTestFailed());

        // A new PUE.
        DesignSettings s = DesignSettings::of(doc->design());
        s.facility.pue = 1.55;
        DesignEditor(doc).changeSettings(s, "PUE");
        settle();
        QCOMPARE(w.analysis()->analysis()->power.pue.value, 1.55);
        checkPanelsMatchCore(w);
        QVERIFY(!QTest::currentTestFailed());

        // And all of it undone: the panels follow back.
        while (doc->undoStack()->canUndo())
            doc->undoStack()->undo();
        settle();
        QCOMPARE(gpusNow(), before);
        checkPanelsMatchCore(w);
        QVERIFY(!QTest::currentTestFailed());
    }

    void ridgeLabelAndAirLine()
    {
        MainWindow w;
        QVERIFY(w.openFile(test::sourcePath("presets/dgx-h100-superpod-4su.cluster.json")));
        w.show();
        w.analysisArea()->setMode(AnalysisArea::Mode::Tabs);
        w.analysisArea()->showPanel("roofline");
        settle();
        ChartView* roof = w.analysisArea()->panel("roofline");
        QCustomPlot* rp = roof->plot("roofline");
        // Seed R1: H100 BF16 989.4 TFLOP/s over 3.35 TB/s.
        auto* ridgeLabel = named<QCPItemText>(rp, "ridge label");
        const QPointF knee = ridgeLabel->position->coords();
        QCOMPARE(qRound(knee.x() * 10), 2953);
        QCOMPARE(knee.y(), 989.4);
        QCOMPARE(ridgeLabel->text(), QString("ridge 295.3 FLOP/byte"));
        // The knee is on the roof: the marker's pixel is where the HBM slope
        // meets the BF16 ceiling.
        rp->replot();
        const QPointF pixel(rp->xAxis->coordToPixel(knee.x()), rp->yAxis->coordToPixel(knee.y()));
        QVERIFY(rp->axisRect()->rect().contains(pixel.toPoint()));
        QVERIFY(roof->tipAt(rp, pixel).contains("ridge = peak / HBM bandwidth"));

        w.analysisArea()->showPanel("power");
        settle();
        ChartView* power = w.analysisArea()->panel("power");
        QCustomPlot* pp = power->plot("racks");
        pp->replot();
        const double y = pp->yAxis->coordToPixel(30);
        QCOMPARE(pp->yAxis->pixelToCoord(y), 30.0);
        QVERIFY(named<QCPItemStraightLine>(pp, "air-cooling limit")
                    ->selectTest(QPointF(pp->axisRect()->center().x(), y), false) < 1);
        QVERIFY(power->tipAt(pp, QPointF(pp->axisRect()->left() + 5, y)).contains("air"));
    }

    void ceilingLabelsSitByTheirRoofsWithoutRunningIntoEachOther()
    {
        // FP8, BF16 and TF32 peaks a factor of two apart are ten pixels apart
        // in a short plot: their labels were drawn over each other.
        MainWindow w;
        QVERIFY(w.openFile(test::sourcePath("presets/h100-16k-roce-llama3.cluster.json")));
        w.show();
        w.analysisArea()->setMode(AnalysisArea::Mode::Tabs);
        w.analysisArea()->showPanel("roofline");
        settle();
        QCustomPlot* rp = w.analysisArea()->panel("roofline")->plot("roofline");
        const auto labels = [&] {
            std::vector<std::pair<QCPItemText*, QCPGraph*>> out;
            for (int i = 0; i < rp->itemCount(); ++i)
                if (auto* t = qobject_cast<QCPItemText*>(rp->item(i));
                    t && t->objectName().startsWith("ceiling label "))
                    out.emplace_back(t, named<QCPGraph>(rp, t->objectName().remove("label ")));
            return out;
        };
        QCOMPARE(labels().size(), std::size_t(5));  // FP8, BF16/FP16, TF32, FP64 tensor/FP32, FP64
        int shownSmall = 0;
        for (QSize size : {QSize(520, 230), QSize(1400, 900)}) {
            rp->resize(size);
            rp->setViewport(rp->rect());
            rp->replot();
            std::vector<QRectF> boxes;
            int shown = 0;
            for (const auto& [t, line] : labels()) {
                QVERIFY(line && line->visible());
                if (t->objectName() == "ceiling label BF16/FP16")
                    QVERIFY2(t->visible(), "the training precision's roof is always named");
                if (!t->visible())
                    continue;
                ++shown;
                const QRectF box(t->topLeft->pixelPosition(), t->bottomRight->pixelPosition());
                QVERIFY(QRectF(rp->axisRect()->rect()).adjusted(-1, -1, 1, 1).contains(box));
                // Just over or under its own line, and over the line's span.
                const double y = rp->yAxis->coordToPixel(line->data()->at(0)->value);
                QVERIFY2(std::abs(box.bottom() - y) < 2 || std::abs(box.top() - y) < 2, qPrintable(t->objectName()));
                QVERIFY(box.left() >= rp->xAxis->coordToPixel(line->data()->at(0)->key) - 1);
                for (const QRectF& other : boxes)
                    QVERIFY2(!other.intersects(box.adjusted(1, 1, -1, -1)), qPrintable(t->objectName()));
                boxes.push_back(box);
            }
            if (size.width() < 1000)
                shownSmall = shown;
            else
                QVERIFY2(shown == 5 && shown > shownSmall, "a large plot names every roof; a short one fewer");
        }
    }

    void everyPanelRendersSomething_data()
    {
        QTest::addColumn<QString>("preset");
        QTest::addColumn<QString>("theme");
        QTest::newRow("h100 light") << "dgx-h100-superpod-4su"
                                    << "light";
        QTest::newRow("llama3 16k light") << "h100-16k-roce-llama3"
                                          << "light";
        QTest::newRow("gb200 dark") << "gb200-nvl72-8rack"
                                    << "dark";
    }

    void everyPanelRendersSomething()
    {
        QFETCH(QString, preset);
        QFETCH(QString, theme);
        applyTheme(themeFromName(theme));
        MainWindow w;
        w.resize(1280, 800);
        QVERIFY(w.openFile(test::sourcePath("presets/" + preset + ".cluster.json")));
        w.show();
        w.analysisArea()->setMode(AnalysisArea::Mode::Tabs);
        const QString shots = qEnvironmentVariable("STUDIO_TEST_SHOTS");
        for (const QString key : {"roofline", "hierarchy", "mfu", "power", "failures", "workload"}) {
            QWidget* shown;
            if (key == "workload") {
                shown = w.workload();
                for (QDockWidget* d : w.findChildren<QDockWidget*>())
                    if (d->widget() == shown)
                        d->raise();
                settle();
            } else {
                w.analysisArea()->showPanel(key);
                settle();
                ChartView* panel = w.analysisArea()->panel(key);
                QVERIFY(!panel->isDirty());
                shown = panel;
            }
            QVERIFY(shown->isVisible());
            const QImage image = shown->grab().toImage();
            if (!shots.isEmpty())
                image.save(shots + "/" + preset + "-" + theme + "-" + key + ".png");
            // Not blank: many colours, and a good share of pixels that are
            // not the background.
            const QRgb background = image.pixel(1, 1);
            std::set<QRgb> colours;
            int ink = 0, total = 0;
            for (int y = 0; y < image.height(); y += 2)
                for (int x = 0; x < image.width(); x += 2) {
                    const QRgb p = image.pixel(x, y);
                    colours.insert(p);
                    ink += p != background;
                    ++total;
                }
            QVERIFY2(colours.size() > 50, qPrintable(key));
            QVERIFY2(ink > total / 20, qPrintable(key));
        }
        applyTheme(Theme::Light);
    }

    void everyViewComesFromTheRegistry()
    {
        // The tabs and the grid are the registry's analyses, in its order,
        // each view drawing through its entry's renderer.
        MainWindow w;
        QStringList keys;
        for (ChartView* p : w.analysisArea()->panels())
            keys << p->key();
        QCOMPARE(keys, analysisKeys());
        QCOMPARE(keys, (QStringList{"roofline", "hierarchy", "mfu", "power", "failures", "cost"}));
        for (ChartView* p : w.analysisArea()->panels()) {
            QCOMPARE(&p->entry(), findAnalysis(p->key()));
            QVERIFY(p->figureTable());
            QVERIFY(!p->plots().isEmpty());
        }
        QVERIFY(!findAnalysis("nonsense"));
    }

    void everyBackgroundPanelComesFromItsRegistry()
    {
        // A dock per entry of the background registry, in its order, titled
        // by it and holding the panel it made, whose runs publish for the
        // design as it is; a panel hidden behind another dock's tab runs
        // nothing (but the layout search: the workload dock shows its rank).
        QStringList keys;
        for (const BackgroundEntry& e : backgroundRegistry())
            keys << e.key;
        QCOMPARE(keys, (QStringList{"layouts", "scale", "sensitivity", "serving"}));
        MainWindow w;
        QCOMPARE(w.backgroundPanels().size(), backgroundRegistry().size());
        QVERIFY(openInGrid(w, "h100-16k-roce-llama3.cluster.json"));
        w.layoutSearch()->waitForIdle();
        for (std::size_t i = 0; i < backgroundRegistry().size(); ++i) {
            const BackgroundEntry& e = backgroundRegistry()[i];
            BackgroundPanel* panel = w.backgroundPanels()[i];
            auto* dock = w.findChild<QDockWidget*>(e.key);
            QVERIFY(dock);
            QCOMPARE(dock->windowTitle(), e.title);
            QCOMPARE(dock->widget(), panel);
            QCOMPARE(w.backgroundPanel(e.key), panel);
            QVERIFY(findBackgroundEntry(e.key) == &e);
            QVERIFY(!panel->jobs().empty());
            for (BackgroundJob* job : panel->jobs())
                QVERIFY2((job->runsStarted() > 0) == (e.key == "layouts"), qPrintable(e.key));
            dock->raise();
            settle();
            for (BackgroundJob* job : panel->jobs()) {
                job->waitForIdle();
                QVERIFY(!job->running());
                // A training design's panels run once shown; the serving
                // search is for a serving design only.
                QVERIFY2((job->runsStarted() > 0) == e.appliesTo(WorkloadKind::Training), qPrintable(e.key));
            }
        }
        QVERIFY(!w.backgroundPanel("nonsense"));
        QVERIFY(!findBackgroundEntry("nonsense"));
    }

    void onlyPlotsWhoseContentChangedAreDrawnAgain()
    {
        // A new PUE changes the facility's bar and nothing the other charts
        // show: only the power chart's facility plot is drawn again.
        MainWindow w;
        QVERIFY(openInGrid(w, "dgx-h100-superpod-4su.cluster.json"));
        std::map<QString, int> before;
        for (ChartView* p : w.analysisArea()->panels()) {
            p->refreshNow();
            before[p->key()] = p->replotCount();
        }
        DesignDocument* doc = w.document();
        DesignSettings s = DesignSettings::of(doc->design());
        s.facility.pue = 1.45;
        QVERIFY(DesignEditor(doc).changeSettings(s, "PUE").applied());
        settle();
        for (ChartView* p : w.analysisArea()->panels())
            p->refreshNow();  // the ones scrolled out of view too
        ChartView* power = w.analysisArea()->panel("power");
        QCOMPARE(power->replotCount(), before["power"] + 1);
        for (const QString key : {"roofline", "hierarchy", "mfu", "failures"})
            QVERIFY2(w.analysisArea()->panel(key)->replotCount() == before[key], qPrintable(key));
        // And the figure that changed shows the new value.
        QCOMPARE(power->figureTable()->valueOf("PUE"), QString("1.45"));
        // A new tp reaches the step's charts, not the power chart's plots.
        s.workload.parallelism.tp = 4;
        QVERIFY(DesignEditor(doc).changeSettings(s, "tp").applied());
        settle();
        for (ChartView* p : w.analysisArea()->panels())
            p->refreshNow();
        QVERIFY(w.analysisArea()->panel("mfu")->replotCount() > before["mfu"]);
        QCOMPARE(power->replotCount(), before["power"] + 1);
        w.analysisArea()->setMode(AnalysisArea::Mode::Tabs);
    }

    void everyRenderersPlotsAreFingerprintedWhole()
    {
        // Every renderer's plots, for one design and for several overlaid,
        // training and serving, hold only what the fingerprint reads: none
        // is drawn again on every edit for want of it.
        std::vector<Analysis> analyses;
        for (const char* preset : {"dgx-h100-superpod-4su", "gb200-nvl72-8rack", "serving-grok1-moe-gb200-nvl72"}) {
            DesignLoad l = loadDesignFile(
                test::sourcePath(QString("presets/%1.cluster.json").arg(preset)).toStdString(), Catalog::builtin());
            QVERIFY(l.ok());
            analyses.push_back(analyzeDesign(*l.design, *l.catalog));
        }
        std::vector<ChartDesign> all;
        for (std::size_t i = 0; i < analyses.size(); ++i)
            all.push_back({&analyses[i], QString("design %1").arg(i)});
        int plots = 0;
        for (const AnalysisEntry& entry : analysisRegistry())
            for (const std::vector<ChartDesign>& designs :
                 {std::vector<ChartDesign>{{&analyses[0], QString()}}, designsFor(entry, all)}) {
                ChartView view(entry, designs.size() == 1);
                view.resize(900, 500);
                view.setDesigns(designs);
                view.refreshNow();
                for (QCustomPlot* plot : view.plots()) {
                    QVERIFY2(plotFingerprint(*plot).complete, qPrintable(entry.key));
                    ++plots;
                }
            }
        QVERIFY(plots >= 2 * int(analysisRegistry().size()));
    }

    void theFingerprintSeesEveryChangeAPlotShows()
    {
        QCustomPlot plot;
        QCPGraph* graph = plot.addGraph();
        graph->setData({1, 2}, {3, 4});
        auto* group = new QCPBarsGroup(&plot);
        auto* bars = new QCPBars(plot.xAxis, plot.yAxis);
        bars->setBarsGroup(group);
        bars->setData({1}, {2});
        auto* text = new QCPItemText(&plot);
        text->setText("label");
        auto* line = new QCPItemLine(&plot);
        auto* straight = new QCPItemStraightLine(&plot);
        auto fp = [&] { return plotFingerprint(plot); };
        QVERIFY(fp().complete);
        QCOMPARE(fp().value, fp().value);
        // Each change, one after another, gives a new fingerprint.
        const std::vector<std::pair<const char*, std::function<void()>>> changes{
            {"graph value", [&] { graph->data()->begin()->value = 5; }},
            {"graph pen", [&] { graph->setPen(QPen(Qt::red)); }},
            {"graph brush", [&] { graph->setBrush(Qt::blue); }},
            {"graph name", [&] { graph->setName("x"); }},
            {"scatter", [&] { graph->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssStar, 9)); }},
            {"line style", [&] { graph->setLineStyle(QCPGraph::lsStepLeft); }},
            {"channel fill", [&] { graph->setChannelFillGraph(plot.addGraph()); }},
            {"graph hidden", [&] { graph->setVisible(false); }},
            {"bar value", [&] { bars->data()->begin()->value = 7; }},
            {"bar width", [&] { bars->setWidth(0.3); }},
            {"bar width type", [&] { bars->setWidthType(QCPBars::wtAbsolute); }},
            {"bar base", [&] { bars->setBaseValue(1); }},
            {"group spacing", [&] { group->setSpacing(9); }},
            {"out of the group", [&] { bars->setBarsGroup(nullptr); }},
            {"text", [&] { text->setText("other"); }},
            {"text colour", [&] { text->setColor(Qt::green); }},
            {"text font", [&] { text->setFont(QFont("Monospace", 17)); }},
            {"text padding", [&] { text->setPadding(QMargins(5, 5, 5, 5)); }},
            {"text alignment", [&] { text->setPositionAlignment(Qt::AlignRight | Qt::AlignBottom); }},
            {"text place", [&] { text->position->setCoords(3, 4); }},
            {"line end", [&] { line->end->setCoords(8, 9); }},
            {"line head", [&] { line->setHead(QCPLineEnding::esSpikeArrow); }},
            {"line pen", [&] { line->setPen(QPen(Qt::darkRed, 3)); }},
            {"straight line pen", [&] { straight->setPen(QPen(Qt::cyan)); }},
            {"item hidden", [&] { straight->setVisible(false); }},
            {"range", [&] { plot.xAxis->setRange(0, 77); }},
            {"log scale", [&] { plot.yAxis->setScaleType(QCPAxis::stLogarithmic); }},
            {"axis label", [&] { plot.xAxis->setLabel("GPUs"); }},
            {"tick labels", [&] { plot.xAxis->setTickLabels(false); }},
            {"ticks", [&] { plot.yAxis->setTicker(QSharedPointer<QCPAxisTickerLog>::create()); }},
            {"grid", [&] { plot.xAxis->grid()->setVisible(false); }},
            {"axis shown", [&] { plot.xAxis2->setVisible(true); }},
            {"legend", [&] { plot.legend->setVisible(true); }},
            {"legend font", [&] { plot.legend->setFont(QFont("Monospace", 19)); }},
            {"title",
             [&] {
                 plot.plotLayout()->insertRow(0);
                 plot.plotLayout()->addElement(0, 0, new QCPTextElement(&plot, "title"));
             }},
        };
        for (const auto& [what, change] : changes) {
            const std::uint64_t before = fp().value;
            change();
            QVERIFY2(fp().value != before, what);
            QVERIFY2(fp().complete, what);
        }
        // A kind of plottable it does not read: drawn on every refresh.
        new QCPCurve(plot.xAxis, plot.yAxis);
        QVERIFY(!fp().complete);
    }

    void aLabelAtThePlotsEdgeIsMovedInsideItNotCut()
    {
        // A label right-aligned to a point near the left axis (the goodput
        // chart's Daly optimum at a narrow width) lost its first characters.
        QCustomPlot plot;
        tenByTen(plot, QSize(360, 220));
        auto* label = redLabel(plot, Qt::AlignRight | Qt::AlignVCenter, "a label wider than the room left of its point");
        plot.replot();
        const QRect rect = plot.axisRect()->rect();
        const int width = QFontMetrics(label->font()).horizontalAdvance(label->text());
        QVERIFY(width < rect.width());
        for (bool vectorized : {false, true}) {
            label->position->setCoords(1, 5);
            const QRect red = redPixels(plot, vectorized);
            QVERIFY2(red.left() >= rect.left() && red.right() <= rect.right(), vectorized ? "vectorized" : "raster");
            QVERIFY2(red.width() >= width - 3, vectorized ? "vectorized" : "raster");  // all of it, not cut
            // A point off the plot keeps its label off it too.
            label->position->setCoords(-20, 5);
            QVERIFY(redPixels(plot, vectorized).isEmpty());
        }
    }

    void aLabelOverALineAtThePlotsTopCanGoUnderIt()
    {
        // The memory chart's "HBM 85.9 GB (80.0 GiB)" slid onto its own line
        // when the line ran near the plot's top; it now goes under the line.
        QCustomPlot plot;
        tenByTen(plot, QSize(300, 200));
        auto* label = redLabel(plot, Qt::AlignHCenter | Qt::AlignBottom, "two lines\nover a line");
        label->position->setCoords(5, 9.5);  // a line near the top
        plot.replot();
        const double lineY = plot.yAxis->coordToPixel(9.5);
        const QRect slid = redPixels(plot);  // inside the plot, across its line
        QVERIFY(slid.top() >= plot.axisRect()->rect().top() && slid.top() < lineY && slid.bottom() > lineY);
        label->setFlipsAtEdge(true);
        const QRect flipped = redPixels(plot);
        QVERIFY(flipped.top() > lineY && flipped.bottom() < plot.axisRect()->rect().bottom());
    }

    void aLabelBesideAPointStaysBesideItOrGoesToTheEmptyCorner()
    {
        // The failure panel's "this design" label, pinned to the MTBF plot's
        // top-right corner, lost its start in a short dock: the corner sat
        // one pixel past QRect::right(), so it was never moved inside.
        const auto red = [](QCustomPlot& plot, bool vectorized, const char* where) {
            const QRect r = redPixels(plot, vectorized);
            const QRect rect = plot.axisRect()->rect();
            if (r.isEmpty() || r.left() < rect.left() || r.right() > rect.right() || r.top() < rect.top() ||
                r.bottom() > rect.bottom())
                qWarning("%s (%s): red at %d,%d %dx%d; plot %d,%d %dx%d", where, vectorized ? "vectorized" : "raster",
                         r.x(), r.y(), r.width(), r.height(), rect.x(), rect.y(), rect.width(), rect.height());
            return r;
        };
        QCustomPlot plot;
        tenByTen(plot, QSize(360, 240));
        auto* corner =
            redLabel(plot, Qt::AlignRight | Qt::AlignTop, "a label pinned to the top right, wider than the plot it is in by far");
        corner->position->setType(QCPItemPosition::ptAxisRectRatio);
        corner->position->setCoords(1, 0);
        plot.replot();
        const QRect rect = plot.axisRect()->rect();
        const QFontMetrics metrics(corner->font());
        QVERIFY(metrics.horizontalAdvance(corner->text()) > rect.width());
        for (bool vectorized : {false, true}) {
            const QRect r = red(plot, vectorized, "corner");
            QVERIFY(rect.contains(r));               // broken at its spaces, all of it inside
            QVERIFY(r.height() > metrics.height());  // on more than one line
        }
        corner->setVisible(false);

        // On a falling line from (0, 10) to (10, 0): above and right of a
        // point where that fits, below and left where only that fits.
        auto* label = redLabel(plot, Qt::AlignLeft | Qt::AlignBottom, "this design:\nMTBF 2.05 days");
        label->setBesidePoint(true);
        const auto pixel = [&](double x, double y) {
            return QPoint(int(plot.xAxis->coordToPixel(x)), int(plot.yAxis->coordToPixel(y)));
        };
        for (bool vectorized : {false, true}) {
            label->position->setCoords(2, 8);
            QRect r = red(plot, vectorized, "above right");
            QVERIFY(rect.contains(r));
            QVERIFY(r.left() >= pixel(2, 8).x() && r.bottom() <= pixel(2, 8).y());
            label->position->setCoords(8.5, 4);  // no room right of it
            r = red(plot, vectorized, "below left");
            QVERIFY(rect.contains(r));
            QVERIFY(r.right() <= pixel(8.5, 4).x() && r.top() >= pixel(8.5, 4).y());
            // No room beside it either way: the top-right corner, clear of
            // the line's start.
            label->position->setCoords(0.3, 9.7);
            r = red(plot, vectorized, "corner");
            QVERIFY(rect.contains(r));
            QVERIFY(r.right() >= rect.right() - 8 && r.top() <= rect.top() + 8);
        }

        // Lines break at spaces, but never between a number and its unit.
        const int upTo = metrics.horizontalAdvance("a failure every 2.05");
        QCOMPARE(wrapLines("a failure every 2.05 days", metrics, upTo), QString("a failure every\n2.05 days"));
        QCOMPARE(wrapLines("short\nlines", metrics, upTo), QString("short\nlines"));
        // Where a number and its unit are wider than the room, they part
        // (category ticks "16,384 GPUs" ran into their neighbours).
        QCOMPARE(wrapLines("16,384 GPUs", metrics, metrics.horizontalAdvance("16,384 GPU")), QString("16,384\nGPUs"));
    }

    void axisLabelsAndCategoryTicksFitTheirRoom()
    {
        // The failure panel's "Cluster MTBF (hours)" was cut at both ends of
        // a short plot's axis; the whole label now fits, on two lines there.
        ChartPlot plot;
        const QString label = "Cluster MTBF (hours)";
        plot.yAxis->setLabel(label);
        const int wanted = QFontMetrics(plot.yAxis->labelFont()).horizontalAdvance(label);
        const auto sized = [&](int height) {
            plot.resize(400, height);
            plot.setViewport(plot.rect());  // a hidden widget gets its resize event on show
            plot.replot();
        };
        sized(3 * wanted);
        QCOMPARE(plot.yAxis->label(), label);
        const int leftWide = plot.axisRect()->rect().left();
        sized(wanted / 2 + 60);  // an axis shorter than the label
        QVERIFY(plot.axisRect()->rect().height() < wanted);
        QCOMPARE(plot.yAxis->label(), QString("Cluster MTBF\n(hours)"));
        QVERIFY(plot.axisRect()->rect().left() > leftWide);  // the second line's margin
        // A report draws through toPainter, not replot: the same fit.
        plot.resize(400, 3 * wanted);
        QPicture picture;
        QCPPainter painter(&picture);
        plot.toPainter(&painter, plot.width(), plot.height());
        painter.end();
        QCOMPARE(plot.yAxis->label(), label);
        // A label the chart sets afterwards is the one kept.
        plot.yAxis->setLabel("Goodput (%)");
        plot.replot();
        QCOMPARE(plot.yAxis->label(), QString("Goodput (%)"));
        // Category ticks wider than the room between them break at their
        // spaces (the compare view's memory columns of three designs).
        auto ticker = setCategoryAxis(plot.xAxis);
        const QStringList names = {"DGX H100 SuperPOD", "DGX B200 SuperPOD", "GB200 NVL72 cluster"};
        for (int i = 0; i < 3; ++i)
            ticker->addTick(i + 1, names[i]);
        plot.xAxis->setRange(0.5, 3.5);
        const QFontMetrics metrics(plot.xAxis->tickLabelFont());
        const auto widest = [&] {
            int most = 0;
            for (const QString& label : ticker->ticks())
                for (const QString& line : label.split('\n'))
                    most = std::max(most, metrics.horizontalAdvance(line));
            return most;
        };
        plot.resize(3 * metrics.horizontalAdvance("GB200 NVL72") + 120, 300);
        plot.setViewport(plot.rect());
        plot.replot();
        const double room = plot.xAxis->coordToPixel(2) - plot.xAxis->coordToPixel(1);
        QVERIFY(metrics.horizontalAdvance(names[2]) > room);
        QVERIFY2(widest() < room, qPrintable(ticker->ticks().value(3)));
        QCOMPARE(ticker->ticks().value(1).split('\n').join(' '), names[0]);  // every word kept, in order

        // A numeric axis under a narrow plot takes fewer ticks, and the
        // count asked for again when it widens (the MFU chart's share axis
        // ran "0 25 50 75 100" together).
        ChartPlot narrow;
        narrow.xAxis->setRange(0, 100);
        const QFontMetrics tickMetrics(narrow.xAxis->tickLabelFont());
        const auto labelsFor = [&](int width) {
            narrow.resize(width, 200);
            narrow.setViewport(narrow.rect());
            narrow.replot();
            return narrow.xAxis->tickVectorLabels();
        };
        QCOMPARE(labelsFor(600), (QVector<QString>{"0", "20", "40", "60", "80", "100"}));
        const QMargins margins = narrow.axisRect()->margins();
        const QVector<QString> few =
            labelsFor(margins.left() + margins.right() + 3 * tickMetrics.horizontalAdvance("100"));
        QVERIFY2(few.size() <= 3 && few.size() >= 2, qPrintable(QStringList(few.begin(), few.end()).join(' ')));
        QCOMPARE(labelsFor(600).size(), 6);
    }

    void theCostPanelDrawsTheCoresFigures()
    {
        // Capex by kind in the stack, a GPU-hour owned against the cloud's,
        // the table's figures and the unpriced parts: the core's numbers.
        MainWindow w;
        QVERIFY(w.openFile(test::sourcePath("presets/dgx-h100-superpod-4su.cluster.json")));
        w.analysisArea()->showPanel("cost");
        settle();
        const Analysis& a = *w.analysis()->analysis();
        const Cost& c = a.cost;
        ChartView* view = w.analysisArea()->panel("cost");
        view->refreshNow();
        QCustomPlot* capex = view->plot("capex");
        for (CapexKind k : kCapexKinds) {
            auto* bars = named<QCPBars>(capex, q(std::string(capexKindKey(k))));
            QVERIFY(bars);
            QCOMPARE(bars->data()->size(), 1);
            QVERIFY(near(bars->data()->at(0)->value, c.capexByKind[std::size_t(k)].typical * 1e-6));
        }
        QCOMPARE(capex->xAxis->label(), QString("Capex (USD millions)"));
        QCustomPlot* hour = view->plot("gpu hour");
        QVERIFY(near(named<QCPBars>(hour, "owned")->data()->at(0)->value, c.usdPerGpuHour.typical));
        auto* cloud = named<QCPItemLine>(hour, "cloud price");
        QVERIFY(cloud && cloud->visible());
        QCOMPARE(cloud->start->coords().x(), c.cloudUsdPerGpuHour->typical);
        const FigureTable* table = view->figureTable();
        QCOMPARE(table->valueOf("Capex"),
                 usd(c.capex.typical) + "  (" + usd(c.capex.low) + QString::fromUtf8("\u2013") +
                     usd(c.capex.high).mid(1) + ")");
        QCOMPARE(table->valueOf("Cost per GPU-hour owned"), usd(c.usdPerGpuHour.typical));
        QCOMPARE(table->valueOf("Cost per million tokens"), usd(c.usdPerMillionTokens->typical));
        QVERIFY(c.complete());
        // A rack without a price: named, and the total is marked.
        std::vector<Component> racks;
        for (const Component& comp : w.document()->design().components)
            if (comp.part == "rack.air-42u") {
                racks.push_back(comp);
                racks.back().part = "rack.air-48u";
            }
        QVERIFY(!racks.empty());
        QVERIFY(DesignEditor(w.document()).changeComponents(racks, "unpriced racks").applied());
        settle();
        view->refreshNow();
        const Cost& unpriced = w.analysis()->analysis()->cost;
        QCOMPARE(unpriced.unpriced.size(), std::size_t(1));
        QCOMPARE(unpriced.unpriced[0].part, std::string("rack.air-48u"));
        QCOMPARE(table->valueOf("No price: " + q(unpriced.unpriced[0].name)),
                 "x " + q(formatCount(unpriced.unpriced[0].count)));
        // A colocated facility: no facility capex in the stack.
        DesignSettings s = DesignSettings::of(w.document()->design());
        s.facility.colocation_usd_per_kw_month = 180;
        QVERIFY(DesignEditor(w.document()).changeSettings(s, "colocation").applied());
        settle();
        view->refreshNow();
        QCOMPARE(named<QCPBars>(capex, "facility")->data()->at(0)->value, 0.0);
        QVERIFY(
            near(w.analysis()->analysis()->cost.colocationPerYear, 180 * w.analysis()->analysis()->power.itKw * 12));
        w.analysisArea()->showPanel("roofline");
    }

    void figureTablesCopyTheirRows()
    {
        MainWindow w;
        QVERIFY(w.openFile(test::sourcePath("presets/dgx-h100-superpod-4su.cluster.json")));
        settle();
        ChartView* power = w.analysisArea()->panel("power");
        power->refreshNow();
        const QString text = power->figureTable()->text();
        QVERIFY2(text.startsWith("Load\nIT load\t"), qPrintable(text));
        QVERIFY(text.contains("PUE\t1.30\n"));
        QVERIFY(text.contains("\nPer year\n"));
    }

    void hiddenTabsWaitUntilShown()
    {
        MainWindow w;
        QVERIFY(w.openFile(test::sourcePath("presets/dgx-h100-superpod-4su.cluster.json")));
        w.show();
        w.analysisArea()->setMode(AnalysisArea::Mode::Tabs);
        w.analysisArea()->showPanel("mfu");
        settle();
        ChartView* mfu = w.analysisArea()->panel("mfu");
        ChartView* power = w.analysisArea()->panel("power");
        const int mfuBefore = mfu->refreshCount(), powerBefore = power->refreshCount();
        const int recomputes = w.analysis()->recomputeCount();
        // A burst of edits (typing into a field): one recompute, one redraw.
        DesignDocument* doc = w.document();
        const int key = nextMergeKey();
        for (double pue : {1.2, 1.25, 1.3, 1.35}) {
            DesignSettings s = DesignSettings::of(doc->design());
            s.facility.pue = pue;
            DesignEditor(doc).changeSettings(s, "PUE", key);
        }
        settle();
        QCOMPARE(w.analysis()->recomputeCount(), recomputes + 1);
        QCOMPARE(mfu->refreshCount(), mfuBefore + 1);
        QCOMPARE(power->refreshCount(), powerBefore);
        QVERIFY(power->isDirty());
        w.analysisArea()->showPanel("power");
        settle();
        QCOMPARE(power->refreshCount(), powerBefore + 1);
        QVERIFY(!power->isDirty());
        QCOMPARE(power->figureTable()->valueOf("PUE"), QString("1.35"));
    }

    void panelsScrolledOutOfTheGridWaitUntilSeen()
    {
        MainWindow w;
        QVERIFY(openInGrid(w, "dgx-h100-superpod-4su.cluster.json"));
        auto* scroll = w.analysisArea()->findChild<QScrollArea*>();
        QVERIFY(scroll);
        scroll->verticalScrollBar()->setValue(0);
        settle();
        ChartView* first = w.analysisArea()->panel("roofline");
        ChartView* last = w.analysisArea()->panel(analysisKeys().back());
        QVERIFY(first->isOnScreen());
        QVERIFY2(!last->isOnScreen(), "the dock is too tall for this test: the last panel is in view");
        const int firstBefore = first->refreshCount(), lastBefore = last->refreshCount();
        DesignDocument* doc = w.document();
        DesignSettings s = DesignSettings::of(doc->design());
        s.facility.pue = 1.7;
        DesignEditor(doc).changeSettings(s, "PUE");
        settle();
        QCOMPARE(first->refreshCount(), firstBefore + 1);
        QCOMPARE(last->refreshCount(), lastBefore);
        QVERIFY(last->isDirty());
        scroll->verticalScrollBar()->setValue(scroll->verticalScrollBar()->maximum());
        w.repaint();
        settle();
        QVERIFY(last->isOnScreen());
        QCOMPARE(last->refreshCount(), lastBefore + 1);
        QVERIFY(!last->isDirty());
        w.analysisArea()->setMode(AnalysisArea::Mode::Tabs);
    }

    void layoutChoiceIsRemembered()
    {
        AnalysisService* service;
        {
            MainWindow w;
            service = w.analysis();
            Q_UNUSED(service);
            w.analysisArea()->setMode(AnalysisArea::Mode::Grid);
        }
        {
            MainWindow w;
            QCOMPARE(w.analysisArea()->mode(), AnalysisArea::Mode::Grid);
            w.show();
            settle();
            for (ChartView* p : w.analysisArea()->panels())
                QVERIFY(p->isVisible());  // a grid shows them all
            w.analysisArea()->setMode(AnalysisArea::Mode::Tabs);
            w.analysisArea()->showPanel("failures");
        }
        MainWindow w;
        QCOMPARE(w.analysisArea()->mode(), AnalysisArea::Mode::Tabs);
        QCOMPARE(w.analysisArea()->currentKey(), QString("failures"));
    }

    // The dock's choices are the file's (design_fields' tables): the same
    // values in the same order, and a field the design leaves out shows its
    // table default. A choice added to a table without the dock fails here.
    void workloadDockEditsEveryFieldAsTheFileReadsIt()
    {
        for (const char* preset : {"dgx-h100-superpod-4su.cluster.json", "serving-llama3-70b-dgx-h100.cluster.json"}) {
            MainWindow w;
            QVERIFY(w.openFile(test::sourcePath(QString("presets/") + preset)));
            settle();
            const Workload& workload = w.document()->design().workload;
            int checked = 0;
            const auto compare = [&](const QString& section, const auto& table, const auto& value) {
                for (const auto& f : table) {
                    const QString pointer = section + q(std::string(f.key));
                    // Every field of the workload's sections has its editor,
                    // a whole number's spin box the table's range.
                    QVERIFY2(w.workload()->field(pointer), qPrintable(pointer + " has no editor in the workload dock"));
                    if (auto* spin = qobject_cast<QSpinBox*>(w.workload()->field(pointer))) {
                        QCOMPARE(spin->maximum(), int(std::min<double>(f.max, INT_MAX)));
                        QVERIFY2(spin->minimum() == int(f.min) || spin->minimum() == 0, qPrintable(pointer));
                    }
                    if (f.choices.empty())
                        continue;
                    auto* box = qobject_cast<QComboBox*>(w.workload()->field(pointer));
                    QVERIFY2(box, qPrintable(pointer + " has no choice in the workload dock"));
                    QStringList shown, file;
                    for (int i = 0; i < box->count(); ++i)
                        shown << box->itemData(i).toString();
                    for (std::string_view c : f.choices)
                        file << q(std::string(c));
                    QCOMPARE(shown, file);
                    const auto* slot =
                        std::get_if<std::optional<std::string> std::remove_cvref_t<decltype(value)>::*>(&f.member);
                    if (slot && !(value.**slot) && !f.fallback.empty())
                        QCOMPARE(box->currentData().toString(), q(std::string(f.fallback)));
                    ++checked;
                }
            };
            compare("/workload/", fields::workloadInfo(), workload);
            compare("/workload/model/", fields::model(), workload.model);
            compare("/workload/training/", fields::training(), workload.training);
            compare("/workload/parallelism/", fields::parallelism(), workload.parallelism);
            compare("/workload/data/", fields::data(), workload.data);
            if (workload.serving)
                compare("/workload/serving/", fields::serving(), *workload.serving);
            QCOMPARE(checked, workload.serving ? 9 : 6);
        }
    }

    void workloadDockRefusesWhatCannotRun()
    {
        MainWindow w;
        QVERIFY(w.openFile(test::sourcePath("presets/dgx-h100-superpod-4su.cluster.json")));
        w.show();
        settle();
        DesignDocument* doc = w.document();
        WorkloadPanel* dock = w.workload();
        auto* tp = qobject_cast<CheckedSpinBox*>(dock->field("/workload/parallelism/tp"));
        QVERIFY(tp);
        const Workload before = doc->design().workload;
        QCOMPARE(before.parallelism.tp.value_or(1), 8);
        const int steps = doc->undoStack()->count();

        // 3 divides neither the 1,024 GPUs nor the heads: refused, with why.
        tp->setValue(3);
        settle();
        QVERIFY(doc->design().workload == before);
        QCOMPARE(doc->undoStack()->count(), steps);
        QVERIFY2(dock->lastRefusal().contains("do not divide") || dock->lastRefusal().contains("split evenly"),
                 qPrintable(dock->lastRefusal()));
        QCOMPARE(tp->value(), 8);  // the field shows the design again

        // The arrows step over what cannot run: up from 8 is 16.
        tp->stepBy(1);
        settle();
        QCOMPARE(doc->design().workload.parallelism.tp.value_or(1), 16);
        QVERIFY(dock->lastRefusal().isEmpty());
        doc->undoStack()->undo();
        QCOMPARE(doc->design().workload.parallelism.tp.value_or(1), 8);

        // Heads that the hidden size does not divide: the validator's message.
        auto* heads = qobject_cast<CheckedSpinBox*>(dock->field("/workload/model/heads"));
        heads->setValue(100);
        settle();
        QVERIFY(doc->design().workload == before);
        QVERIFY2(dock->lastRefusal().contains("do not divide hidden size"), qPrintable(dock->lastRefusal()));

        // A model preset: one undo step with the paper's shape and sizes.
        QComboBox* preset = dock->presetBox();
        QCOMPARE(preset->currentData().toString(), QString("llama3-70b"));  // what the preset design trains
        const int gpt3 = preset->findData("gpt3-175b");
        QVERIFY(gpt3 > 0);
        preset->setCurrentIndex(gpt3);
        emit preset->activated(gpt3);
        settle();
        const Workload& now = doc->design().workload;
        QCOMPARE(now.model.layers, 96);
        QCOMPARE(now.model.hidden, 12288);
        QCOMPARE(now.training.global_batch, 1536);
        QCOMPARE(now.training.tokens, 300e9);
        QCOMPARE(doc->undoStack()->count(), steps + 1);
        QVERIFY(std::fabs(w.analysis()->analysis()->workload.params / 1e9 - 175) < 1.5);
        doc->undoStack()->undo();
        QVERIFY(doc->design().workload == before);
        settle();
        QCOMPARE(preset->currentData().toString(), QString("llama3-70b"));
    }

    void theWorkloadSummaryCatchesUpWhenShown()
    {
        // Tabbed away, the dock does not lay itself out on every edit; shown,
        // it says what the design is now.
        MainWindow w;
        QVERIFY(w.openFile(test::sourcePath("presets/dgx-h100-superpod-4su.cluster.json")));
        w.show();
        auto raise = [&](const char* name) {
            w.findChild<QDockWidget*>(name)->raise();
            settle();
        };
        raise("workload");
        QVERIFY2(w.workload()->summary().contains("tp 8 x pp"), qPrintable(w.workload()->summary()));
        raise("inspector");
        QVERIFY(w.workload()->visibleRegion().isEmpty());  // a tab behind the inspector
        DesignSettings s = DesignSettings::of(w.document()->design());
        s.workload.parallelism.tp = 4;
        QVERIFY(DesignEditor(w.document()).changeSettings(s, "tp").applied());
        settle();
        QVERIFY(w.workload()->summary().contains("tp 8 x pp"));  // not laid out while unseen
        raise("workload");
        QVERIFY2(w.workload()->summary().contains("tp 4 x pp"), qPrintable(w.workload()->summary()));
    }

    void plotsExportAndTipsExplain()
    {
        MainWindow w;
        QVERIFY(w.openFile(test::sourcePath("presets/dgx-h100-superpod-4su.cluster.json")));
        w.show();
        w.analysisArea()->showPanel("failures");
        settle();
        ChartView* panel = w.analysisArea()->panel("failures");
        QCustomPlot* plot = panel->plot("goodput");
        QTemporaryDir dir;
        for (const char* suffix : {"png", "svg", "pdf"}) {
            const QString file = dir.filePath(QString("goodput.") + suffix);
            QVERIFY(panel->exportPlot(plot, file));
            QFile f(file);
            QVERIFY(f.open(QIODevice::ReadOnly));
            const QByteArray head = f.read(256);
            if (QString(suffix) == "png")
                QVERIFY(!QImage(file).isNull());
            else if (QString(suffix) == "svg")
                QVERIFY(head.contains("<svg") || f.readAll().contains("<svg"));
            else
                QVERIFY(head.startsWith("%PDF"));
            QVERIFY(f.size() > 2000);
        }
        QVERIFY(!panel->exportPlot(plot, dir.filePath("goodput.bmp")));
        // The design's marker on the MTBF curve explains its formula.
        QCustomPlot* mtbf = panel->plot("mtbf");
        mtbf->replot();
        const Analysis* a = w.analysis()->analysis();
        const QPointF at(mtbf->xAxis->coordToPixel(double(a->inventory.gpus)),
                         mtbf->yAxis->coordToPixel(a->reliability.clusterMtbfH));
        const QString tip = panel->tipAt(mtbf, at);
        QVERIFY2(tip.contains("cluster MTBF = 1 / sum over classes of devices / MTTF"), qPrintable(tip));
        QVERIFY(tip.contains("Llama 3 Table 5"));  // where the MTTFs come from
    }

    // Plots take their colours from the panel: a theme switch, or the light
    // palette a report gives panels it prints, reaches every plot at once.
    void plotsFollowThePanelsPalette()
    {
        applyTheme(Theme::Dark);
        MainWindow w;
        QVERIFY(w.openFile(test::sourcePath("presets/dgx-h100-superpod-4su.cluster.json")));
        ChartView* panel = w.analysisArea()->panel("power");
        const QColor darkText = QApplication::palette().color(QPalette::WindowText);
        for (QCustomPlot* plot : panel->plots())
            QCOMPARE(plot->xAxis->tickLabelColor(), darkText);
        QPalette paper = QApplication::palette();
        paper.setColor(QPalette::Base, Qt::white);
        paper.setColor(QPalette::WindowText, Qt::black);
        panel->setPalette(paper);
        for (QCustomPlot* plot : panel->plots()) {
            QCOMPARE(plot->xAxis->tickLabelColor(), QColor(Qt::black));
            QCOMPARE(plot->legend->textColor(), QColor(Qt::black));
        }
        applyTheme(Theme::Light);
    }

    // Widgets made under either theme share the application's palette, and
    // a switch reaches those already made. Fusion names the pixmaps it
    // caches by palette, and Qt 6.4 never drops a name from QPixmapCache: a
    // palette per new widget (what QApplication::setPalette gave) made every
    // spin box and combo box the inspector builds leave its names behind,
    // the slow rise of a long session's heap (docs/reliability.md).
    void newWidgetsShareTheThemesPalette()
    {
        const auto shareTheApplications = [](QWidget& top) {
            const qint64 app = QApplication::palette().cacheKey();
            int n = 0;
            for (QWidget* field : top.findChildren<QWidget*>())
                if (qobject_cast<QAbstractSpinBox*>(field) || qobject_cast<QComboBox*>(field)) {
                    ++n;
                    if (field->palette().cacheKey() != app)
                        return QString("%1 %2 has a palette of its own")
                            .arg(field->metaObject()->className(), field->objectName());
                }
            return n > 10 ? QString() : QString("only %1 fields").arg(n);
        };
        applyTheme(Theme::Dark);
        QCOMPARE(QApplication::palette().color(QPalette::Window), QColor(0x2b, 0x2f, 0x36));
        MainWindow w;
        w.show();
        QVERIFY(w.openFile(test::sourcePath("presets/dgx-h100-superpod-4su.cluster.json")));
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QString why = shareTheApplications(w);
        QVERIFY2(why.isEmpty(), qPrintable(why));
        auto* spin = w.findChild<CheckedSpinBox*>();
        QVERIFY(spin);
        QCOMPARE(spin->palette().color(QPalette::Base), QColor(0x1f, 0x23, 0x29));
        applyTheme(Theme::Light);
        QCOMPARE(spin->palette().color(QPalette::Base), QApplication::style()->standardPalette().color(QPalette::Base));
        QCOMPARE(QApplication::palette().color(QPalette::Window),
                 QApplication::style()->standardPalette().color(QPalette::Window));
        // The inspector's fields, made anew for a selection, too.
        w.scene()->selectComponents({QString::fromStdString(w.document()->design().components.front().id)});
        QCoreApplication::processEvents();
        why = shareTheApplications(w);
        QVERIFY2(why.isEmpty(), qPrintable(why));
    }

    // A legend holds as many entries side by side as its plot's width does,
    // up to what the chart asked for, and re-flows when the plot is resized:
    // a narrow grid cell wraps the roofline's five kinds instead of clipping
    // their names.
    void legendsReflowToTheirPlotsWidth()
    {
        ChartPlot plot;
        std::vector<QString> names;
        for (const char* name : {"GEMM", "attention", "memory-bound", "optimizer", "decode (inference)"}) {
            plot.addGraph()->setName(name);
            names.push_back(name);
        }
        plot.resize(1400, 300);
        plot.show();
        QVERIFY(QTest::qWaitForWindowExposed(&plot));
        legendOutside(&plot, 5, true);
        QCOMPARE(plot.legend->wrap(), 5);  // one row, as asked
        plot.resize(360, 300);
        QTRY_COMPARE(plot.width(), 360);
        const int fit = legendColumnsFor(&plot, names);
        QVERIFY2(fit < 5, qPrintable(QString::number(fit)));
        QCOMPARE(plot.legend->wrap(), fit);
        // Each entry is drawn whole: the widest one fits its column.
        plot.replot();
        for (int i = 0; i < plot.legend->itemCount(); ++i)
            if (const auto* item = plot.legend->item(i))  // the last row's empty cells are null
                QVERIFY(item->outerRect().right() <= plot.width());
        plot.resize(1400, 300);
        QTRY_COMPARE(plot.legend->wrap(), 5);
    }

    // A plot's paint is a copy of its buffer, cleared to the background: it
    // is opaque (nothing under it paints first), its corners are the panel's
    // background in either theme, and an exported picture keeps it.
    void plotsPaintOpaqueOnTheirBackground()
    {
        applyTheme(Theme::Dark);
        MainWindow w;
        QVERIFY(w.openFile(test::sourcePath("presets/dgx-h100-superpod-4su.cluster.json")));
        w.show();
        w.analysisArea()->showPanel("power");
        settle();
        ChartView* panel = w.analysisArea()->panel("power");
        const QColor dark = QApplication::palette().color(QPalette::Base);
        for (QCustomPlot* plot : panel->plots()) {
            plot->replot();
            QVERIFY(plot->testAttribute(Qt::WA_OpaquePaintEvent));
            QCOMPARE(plot->grab().toImage().pixelColor(2, 2), dark);
        }
        QPalette paper = QApplication::palette();
        paper.setColor(QPalette::Base, Qt::white);
        panel->setPalette(paper);
        QTemporaryDir dir;
        for (QCustomPlot* plot : panel->plots()) {
            plot->replot();
            QCOMPARE(plot->grab().toImage().pixelColor(2, 2), QColor(Qt::white));
            const QString file = dir.filePath(plot->objectName() + ".png");
            QVERIFY(panel->exportPlot(plot, file));
            QCOMPARE(QImage(file).pixelColor(2, 2), QColor(Qt::white));
        }
        applyTheme(Theme::Light);
    }

    void aDesignWithErrorsSaysSo()
    {
        MainWindow w;
        w.show();
        Design bad = w.document()->design();
        bad.workload.model.heads = 0;  // the validator's error
        w.document()->reset(bad, std::make_shared<Catalog>(Catalog::builtin()), {});
        settle();
        QVERIFY(!w.analysis()->analysis());
        ChartView* panel = w.analysisArea()->panel(w.analysisArea()->currentKey());
        QVERIFY(panel);
        QVERIFY(!panel->plots().front()->isVisible());
        QCOMPARE(w.kpis()->text("mfu"), QString::fromUtf8("\u2014"));
    }

    // A design without GPUs (a new one) says so where a number cannot exist:
    // no ", one GPU", "Peak ()" or "MTBF 0 min".
    void aDesignWithoutGpusSaysNoGpusYet()
    {
        MainWindow w;
        w.show();
        w.newDesign();
        settle();
        QVERIFY(w.analysis()->analysis());
        QCOMPARE(w.analysis()->analysis()->inventory.gpus, 0);
        QCOMPARE(w.kpis()->text("gpus"), QString("GPUs none yet"));
        for (const char* key : {"peak", "mfu", "days", "facility", "mtbf"})
            QCOMPARE(w.kpis()->text(key), QString::fromUtf8("\u2014"));
        QVERIFY(w.kpis()->tip("gpus").contains("Drag an accelerator"));
        for (ChartView* panel : w.analysisArea()->panels()) {
            QVERIFY(panel->designs().empty());
            QVERIFY(!panel->plots().front()->isVisible() || !panel->isVisible());
        }
        auto* message = w.analysisArea()->panel("roofline")->findChild<QLabel*>();
        QVERIFY(message);
        QVERIFY2(message->text().startsWith("No GPUs yet"), qPrintable(message->text()));
    }

    void decodeSaysOnHowManyGpusItRuns()
    {
        // The roofline's table is about one GPU, but batch-1 decode reads the
        // weights across the layout's tp GPUs: its heading says so, and a
        // model whose weights do not fit them gets no tokens/s.
        MainWindow w;
        QVERIFY(openInGrid(w, "dgx-h100-superpod-4su.cluster.json"));  // Llama 3 70B, tp 8
        w.analysisArea()->setMode(AnalysisArea::Mode::Tabs);
        w.analysisArea()->showPanel("roofline");
        settle();
        FigureTable* table = w.analysisArea()->panel("roofline")->figureTable();
        auto hasHeading = [&](const QString& name) {
            return std::any_of(table->figures().begin(), table->figures().end(),
                               [&](const FigureRow& r) { return r.tone == FigureRow::Heading && r.name == name; });
        };
        QVERIFY(hasHeading("Decode (inference), tp 8 GPUs"));
        const Analysis* a = w.analysis()->analysis();
        QCOMPARE(table->valueOf("Decode bound, batch 1"), quantity(a->roofline.decodeTokensPerS, "tokens/s"));
        DesignDocument* doc = w.document();
        DesignSettings s = DesignSettings::of(doc->design());
        s.workload.parallelism.tp = 1;
        s.workload.parallelism.pp = 4;
        QVERIFY(!DesignEditor(doc).changeSettings(s, "tp").refused());
        settle();
        QVERIFY(hasHeading("Decode (inference), one GPU"));
        QCOMPARE(table->valueOf("Decode bound, batch 1"), QString("does not fit"));
        // The core's reason, with its numbers, in the row's tip.
        const QString tip = table->tipOf("Decode bound, batch 1");
        QVERIFY2(tip.contains("more than the HBM of one GPU, 85.9 GB"), qPrintable(tip));
    }

    void noFigureNameIsCutInASmallWindow_data()
    {
        QTest::addColumn<QString>("preset");
        QTest::addColumn<QSize>("size");
        for (const char* preset : {"h100-16k-roce-llama3", "gb200-nvl72-8rack", "budget-8node-100gbe",
                                   "mi300x-roce-128node", "serving-llama3-70b-dgx-h100"})
            for (QSize size : {QSize(1400, 880), QSize(1100, 692)})  // the first size on a large screen; a laptop's
                QTest::addRow("%s %dx%d", preset, size.width(), size.height()) << QString(preset) << size;
    }

    void noFigureNameIsCutInASmallWindow()
    {
        // "Checkpoint inter..." beside "11.2 min (Daly optimum)", "Decode ..."
        // beside "weights do not fit 8 GPU(s)", "Time per output t...": a
        // long value or a narrow table cut its row's name.
        QFETCH(QString, preset);
        QFETCH(QSize, size);
        MainWindow w;
        w.resize(size);
        QVERIFY(w.openFile(test::sourcePath("presets/" + preset + ".cluster.json")));
        w.show();
        w.analysisArea()->setMode(AnalysisArea::Mode::Tabs);
        settle();
        for (ChartView* view : w.analysisArea()->panels()) {
            w.analysisArea()->showPanel(view->objectName());
            settle();
            view->refreshNow();
            if (FigureTable* table = view->figureTable())
                QVERIFY2(table->cutNames().isEmpty(),
                         qPrintable(view->objectName() + ": " + table->cutNames().join(", ")));
        }
        if (ServingPanel* serving = w.serving(); serving && w.analysis()->serving()) {
            w.findChild<QDockWidget*>("serving")->raise();
            settle();
            QVERIFY2(serving->figureTable()->cutNames().isEmpty(),
                     qPrintable("serving: " + serving->figureTable()->cutNames().join(", ")));
        }
    }

    void aNewDesignTrainsItsModelWithFsdp()
    {
        // ZeRO-1 keeps the 8B model's weights and gradients whole on every
        // GPU (16 + 32 GB): it could not run on the node a user drops in.
        MainWindow w;
        w.newDesign();
        QCOMPARE(w.document()->design().workload.parallelism.zero.value_or(1), std::int64_t(3));
    }

    // One name per figure: a panel row or a status-bar figure that explains
    // a headline figure carries the name the compare view, the reports and
    // the text output give it.
    void headlineFiguresHaveTheirOneName()
    {
        MainWindow w;
        QVERIFY(openInGrid(w, "dgx-h100-superpod-4su.cluster.json"));
        std::set<std::string> named;
        for (const auto& [key, name] : figureNames())
            named.insert(std::string(key));
        int checked = 0;
        for (const AnalysisEntry& entry : analysisRegistry()) {
            w.analysisArea()->setMode(AnalysisArea::Mode::Tabs);
            w.analysisArea()->showPanel(entry.key);
            settle();
            const FigureTable* table = w.analysisArea()->panel(entry.key)->figureTable();
            if (!table)
                continue;
            for (const FigureRow& row : table->figures())
                if (named.contains(row.explainKey) && row.explainKey != "power.max_rack_kw") {
                    QCOMPARE(row.name, q(figureName(row.explainKey)));
                    ++checked;
                }
        }
        QVERIFY(checked >= 15);
        for (const auto& [kpi, key] : {std::pair{"gpus", "inventory.gpus"},
                                       {"peak", "compute.cluster_peak_pflops"},
                                       {"mfu", "training.mfu"},
                                       {"days", "reliability.wall_days"},
                                       {"facility", "power.facility_kw"},
                                       {"cost", "cost.run_cost_usd"},
                                       {"mtbf", "reliability.cluster_mtbf_h"}})
            QVERIFY2(w.kpis()->text(kpi).startsWith(q(figureName(key))), qPrintable(w.kpis()->text(kpi)));
        QVERIFY2(w.kpis()->text("peak").startsWith("Peak, BF16 "), qPrintable(w.kpis()->text("peak")));
    }

    void aLayoutThatCannotRunShowsNoNumbers()
    {
        MainWindow w;
        QVERIFY(openInGrid(w, "dgx-h100-superpod-4su.cluster.json"));
        DesignDocument* doc = w.document();
        // Memory over HBM: valid as a file, not runnable as a layout.
        DesignSettings s = DesignSettings::of(doc->design());
        s.workload.training.micro_batch = 64;
        QVERIFY(!DesignEditor(doc).changeSettings(s, "micro-batch").refused());
        settle();
        const Analysis* a = w.analysis()->analysis();
        QVERIFY(a && !a->runnable());
        QCOMPARE(w.kpis()->text("mfu"), QString("MFU not runnable"));
        QCOMPARE(w.kpis()->text("days"), QString("Days to train, wall clock not runnable"));
        QVERIFY(w.kpis()->tip("mfu").contains("not runnable: " + q(a->notRunnable.front().message).toHtmlEscaped()));
        // Panels out of view wait until seen: bring each to the front.
        auto table = [&](const char* key) {
            w.analysisArea()->setMode(AnalysisArea::Mode::Tabs);
            w.analysisArea()->showPanel(key);
            settle();
            return w.analysisArea()->panel(key)->figureTable();
        };
        FigureTable* mfu = table("mfu");
        for (const char* row : {"Step time", "MFU", "Days to train, failure-free", "Days to train, wall clock"})
            QCOMPARE(mfu->valueOf(row), QString("not runnable"));
        QVERIFY(mfu->valueOf("Memory per GPU").contains(" of "));  // why it cannot run stays visible
        QCOMPARE(table("power")->valueOf("Energy of the run"), QString("not runnable"));

        // Runnable again, but failing faster than it checkpoints.
        doc->undoStack()->undo();
        s = DesignSettings::of(doc->design());
        s.operations.failure_mttf_h.gpu = 2;
        QVERIFY(!DesignEditor(doc).changeSettings(s, "GPU MTTF").refused());
        settle();
        a = w.analysis()->analysis();
        QVERIFY(a->runnable() && !a->completes());
        QCOMPARE(w.kpis()->text("mfu"), "MFU " + q(formatReadable(a->step.mfu * 100)) + "%");
        QCOMPARE(w.kpis()->text("days"), QString("Days to train, wall clock never completes"));
        FigureTable* failures = table("failures");
        QCOMPARE(failures->valueOf("Days to train, wall clock"), QString("never completes"));
        QCOMPARE(failures->valueOf("Expected interruptions"), QString("never completes"));
    }
};

STUDIO_TEST_MAIN(TestPanels)
#include "tst_panels.moc"
