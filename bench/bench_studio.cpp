// The studio as a user feels it, offscreen: edit-to-repaint time over 500
// scripted edits on the 16,384-GPU preset (tabs and grid layouts), cold
// start to the first painted window, and resident memory with that preset
// open, and the Layouts panel: edit to the search's result on screen. Not a
// test: results go to docs/performance.md.
//
// Usage: bench_studio PRESET.cluster.json [EDITS]
//        bench_studio --startup PRESET.cluster.json   (one cold start; run by the first form)
//        bench_studio --serving SERVING.cluster.json [EDITS]   (the Serving panel)
// For profiling: BENCH_LAYOUT=0|1|2 runs one layout (and no cold starts),
// 3 only the Layouts panel,
// BENCH_KIND=0..3 one kind of edit, BENCH_PAINTS=1 adds the pixels each
// widget paints per edit.
#include <QAbstractEventDispatcher>
#include <QApplication>
#include <QDockWidget>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QPaintEvent>
#include <QProcess>
#include <QSettings>

#include <algorithm>
#include <cstdio>
#include <map>
#include <vector>

#include "app/main_window.h"
#include "app/malloc_settings.h"
#include "bench/studio_measure.h"
#include "widgets/analysis/analysis_service.h"
#include "widgets/charts/chart_view.h"
#include "widgets/document/design_document.h"
#include "widgets/document/design_editor.h"
#include "widgets/panels/analysis_area.h"
#include "widgets/search/layout_search_service.h"
#include "widgets/search/layouts_panel.h"
#include "widgets/style/theme.h"

using namespace studio;
using namespace studio::bench;

namespace {

// With BENCH_PAINTS set: the pixels each widget paints per edit (the sum
// of its paint regions' rectangles) and how many paints that took, named by its class and object name.
// What a change to update regions is measured by.
class PaintArea : public QObject {
public:
    std::map<QString, std::pair<double, int>> pixels;  // pixels, paints
    bool eventFilter(QObject* o, QEvent* e) override
    {
        if (e->type() == QEvent::Paint && o->isWidgetType()) {
            double area = 0;
            for (const QRect& r : static_cast<QPaintEvent*>(e)->region())
                area += double(r.width()) * r.height();
            auto named = [](const QObject* x) {
                return QString(x->metaObject()->className()) +
                    (x->objectName().isEmpty() ? QString() : " \"" + x->objectName() + "\"");
            };
            const QString name = named(o) + (o->parent() ? " in " + named(o->parent()) : QString());
            pixels[name].first += area;
            ++pixels[name].second;
        }
        return false;
    }
};

// One of four kinds of edit, alternating so each edit changes something:
// a rack count (the GPUs), tp, the PUE, a NIC's port speed. The rack count
// steps by 8, or with `halveRacks` halves and doubles, which keeps the GPU
// count one the model divides over (1,016 or 1,032 racks of the 16K preset
// have a prime factor no layout can take, and nothing to search).
void edit(DesignDocument* doc, int i, bool halveRacks = false)
{
    const Design& d = doc->design();
    switch (i % 4) {
    case 0: {
        Component rack = *d.component("rack");
        if (halveRacks)
            rack.count = (i / 4) % 2 ? rack.count * 2 : rack.count / 2;
        else
            rack.count += (i / 4) % 2 ? -8 : 8;
        DesignEditor(doc).changeComponents({rack}, "rack count");
        break;
    }
    case 1: {
        DesignSettings s = DesignSettings::of(d);
        s.workload.parallelism.tp = s.workload.parallelism.tp.value_or(1) == 8 ? 4 : 8;
        DesignEditor(doc).changeSettings(s, "tp");
        break;
    }
    case 2: {
        DesignSettings s = DesignSettings::of(d);
        s.facility.pue = s.facility.pue.value_or(1.4) > 1.2 ? 1.1 : 1.3;
        DesignEditor(doc).changeSettings(s, "PUE");
        break;
    }
    default: {
        Component nic = *d.component("server.nic");
        if (nic.props.count("port_gbps"))
            nic.props.erase("port_gbps");
        else
            nic.props["port_gbps"] = 200;
        DesignEditor(doc).changeComponents({nic}, "NIC speed");
    }
    }
}

// The studio as a user opens it: a 1600x1000 window, painted, with `preset`.
bool openStudio(MainWindow& window, const QString& preset)
{
    window.resize(1600, 1000);
    window.show();
    if (!window.openFile(preset))
        return false;
    untilRepainted();
    return true;
}

// The Layouts panel raised: from an edit until the panel shows the search
// of the design as edited (the search runs on its own thread while the GUI
// thread repaints the edit), the edit's own repaint meanwhile, and the GUI
// thread's part of a result: the table, the scatter of every feasible
// layout and their paint.
void layoutsPanel(MainWindow& window, const QString& preset, int edits)
{
    if (!openStudio(window, preset))
        return;
    window.resize(1600, 1000);
    window.analysisArea()->setMode(AnalysisArea::Mode::Tabs);
    window.findChild<QDockWidget*>("layouts")->raise();
    LayoutSearchService* search = window.layoutSearch();
    DesignDocument* doc = window.document();
    QAbstractEventDispatcher* loop = QCoreApplication::eventDispatcher();
    std::vector<double> toPanel, toRepaint, takeIn;
    QElapsedTimer clock;
    for (int i = 0; i < edits + 4; ++i) {
        clock.start();
        edit(doc, i, true);
        untilRepainted();
        const double repaintMs = double(clock.nsecsElapsed()) / 1e6;
        while (!search->result())
            loop->processEvents(QEventLoop::WaitForMoreEvents);
        untilRepainted();
        if (i < 4)
            continue;  // warm up
        toRepaint.push_back(repaintMs);
        toPanel.push_back(double(clock.nsecsElapsed()) / 1e6);
        clock.start();
        emit search->finished();  // the same result taken in again
        untilRepainted();
        takeIn.push_back(double(clock.nsecsElapsed()) / 1e6);
    }
    std::printf("\n| Layouts panel raised, %d edits | p50 ms | p95 ms | max ms |\n|---|---|---|---|\n", edits);
    auto row = [](const char* what, const Stats& s) {
        std::printf("| %s | %.2f | %.2f | %.2f |\n", what, s.p50, s.p95, s.max);
    };
    row("edit to repaint, the search running", stats(toRepaint));
    row("edit to the search's result on screen", stats(toPanel));
    row("GUI thread: taking a result in (table, scatter, paint)", stats(takeIn));
}

// The Serving panel raised on a serving design: from an edit of a serving
// input (the TPOT target, the prompt length) until the panel's curve, HBM
// bar and figures are repainted.
int servingPanel(const QString& preset, int edits, int argc, char** argv)
{
    QApplication app(argc, argv);
    QCoreApplication::setApplicationName("bench_studio");
    applyTheme(Theme::Light);
    MainWindow window;
    if (!openStudio(window, preset) || !window.document()->design().workload.serving) {
        std::fprintf(stderr, "%s is not a serving design\n", qPrintable(preset));
        return 1;
    }
    window.findChild<QDockWidget*>("serving")->raise();
    untilRepainted();
    DesignDocument* doc = window.document();
    std::vector<double> total;
    QElapsedTimer clock;
    for (int i = 0; i < edits + 8; ++i) {
        DesignSettings settings = DesignSettings::of(doc->design());
        ServingSpec& serving = *settings.workload.serving;
        if (i % 2)
            serving.prompt_tokens = serving.prompt_tokens == 1024 ? 2048 : 1024;
        else
            serving.tpot_target_s = serving.tpot_target_s.value_or(0.05) == 0.05 ? 0.03 : 0.05;
        clock.start();
        DesignEditor(doc).changeSettings(settings, "serving input");
        untilRepainted();
        if (i >= 8)  // after a warm-up
            total.push_back(double(clock.nsecsElapsed()) / 1e6);
    }
    const Stats st = stats(total);
    std::printf("\n| Serving panel raised, %s, %d edits | p50 ms | p95 ms | max ms |\n|---|---|---|---|\n"
                "| edit to the panel repainted | %.2f | %.2f | %.2f |\n",
                qPrintable(QFileInfo(preset).fileName()), edits, st.p50, st.p95, st.max);
    return 0;
}

int startup(const QString& preset, int argc, char** argv)
{
    QApplication app(argc, argv);
    QCoreApplication::setApplicationName("bench_studio");
    applyTheme(Theme::Light);
    MainWindow window;
    if (!openStudio(window, preset))
        return 1;
    const double seconds = secondsSinceProcessStart();
    std::printf("%.1f %.1f %.1f\n", seconds * 1000, residentMb("VmRSS:"), residentMb("VmHWM:"));
    return 0;
}

}  // namespace

int main(int argc, char** argv)
{
    setUpMalloc();  // as the studio does
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    if (argc >= 3 && QString(argv[1]) == "--startup")
        return startup(QString::fromLocal8Bit(argv[2]), argc, argv);
    if (argc >= 3 && QString(argv[1]) == "--serving")
        return servingPanel(QString::fromLocal8Bit(argv[2]), argc >= 4 ? std::max(4, std::atoi(argv[3])) : 200, argc,
                            argv);
    if (argc < 2) {
        std::fprintf(stderr, "usage: bench_studio PRESET.cluster.json [EDITS]\n");
        return 2;
    }
    const QString preset = QString::fromLocal8Bit(argv[1]);
    const int edits = argc >= 3 ? std::max(4, std::atoi(argv[2])) : 500;

    // Cold starts first, each a fresh process.
    std::vector<double> startMs, rssMb, peakMb;
    for (int run = 0; run < (qEnvironmentVariableIsSet("BENCH_LAYOUT") ? 0 : 10); ++run) {
        QProcess child;
        child.start(QString::fromLocal8Bit(argv[0]), {"--startup", preset});
        if (!child.waitForFinished(60000) || child.exitCode() != 0) {
            std::fprintf(stderr, "startup run failed: %s\n", child.readAllStandardError().constData());
            return 1;
        }
        const QList<QByteArray> f = child.readAllStandardOutput().trimmed().split(' ');
        startMs.push_back(f.value(0).toDouble());
        rssMb.push_back(f.value(1).toDouble());
        peakMb.push_back(f.value(2).toDouble());
    }

    QApplication app(argc, argv);
    QCoreApplication::setApplicationName("bench_studio");
    applyTheme(Theme::Light);
    MainWindow window;
    if (!openStudio(window, preset)) {
        std::fprintf(stderr, "cannot open %s\n", qPrintable(preset));
        return 1;
    }
    DesignDocument* doc = window.document();
    if (!doc->design().component("rack") || !doc->design().component("server.nic")) {
        std::fprintf(stderr, "%s has no components 'rack' and 'server.nic' to edit\n", qPrintable(preset));
        return 1;
    }

    std::printf("# bench_studio %s, %d edits per layout, platform %s\n\n", qPrintable(preset), edits,
                qPrintable(QGuiApplication::platformName()));
    std::printf("| layout | what | p50 ms | p95 ms | max ms |\n|---|---|---|---|---|\n");
    // The default tabs; the grid as it lays out in the same window (the
    // panels in its view redraw); and a grid with all five on a large screen.
    struct Layout {
        const char* name;
        AnalysisArea::Mode mode;
        QSize window;
        int dockHeight;
    };
    const Layout layouts[] = {{"tabs, 1600x1000 (roofline shown)", AnalysisArea::Mode::Tabs, {1600, 1000}, 360},
                              {"grid, 1600x1000 (panels in view)", AnalysisArea::Mode::Grid, {1600, 1000}, 360},
                              {"grid, 2560x1600 (every panel in view)", AnalysisArea::Mode::Grid, {2560, 1600}, 1000}};
    auto* analysisDock = window.findChild<QDockWidget*>("analysis");
    const int only = qEnvironmentVariableIsSet("BENCH_LAYOUT") ? qEnvironmentVariableIntValue("BENCH_LAYOUT") : -1;
    for (const Layout& layout : layouts) {
        if (only >= 0 && &layout != &layouts[only])
            continue;
        window.resize(layout.window);
        window.resizeDocks({analysisDock}, {layout.dockHeight}, Qt::Vertical);
        window.analysisArea()->setMode(layout.mode);
        window.analysisArea()->showPanel("roofline");
        untilRepainted();
        for (int i = 0; i < 8; ++i) {  // warm up
            edit(doc, i);
            untilRepainted();
        }
        PaintArea paints;
        if (qEnvironmentVariableIsSet("BENCH_PAINTS"))
            app.installEventFilter(&paints);
        std::vector<double> total, recompute;
        std::vector<std::vector<double>> byKind(4);
        QElapsedTimer clock;
        const int kind = qEnvironmentVariableIsSet("BENCH_KIND") ? qEnvironmentVariableIntValue("BENCH_KIND") : -1;
        for (int i = 0; i < edits; ++i) {
            if (kind >= 0 && i % 4 != kind)
                continue;
            clock.start();
            edit(doc, i);
            untilRepainted();
            const double ms = double(clock.nsecsElapsed()) / 1e6;
            total.push_back(ms);
            byKind[std::size_t(i % 4)].push_back(ms);
        }
        app.removeEventFilter(&paints);
        const double n = double(std::max<std::size_t>(1, total.size()));
        for (const auto& [name, painted] : paints.pixels)
            std::printf("| %s | painted per edit: %s | %.0f px | %.2f paints | |\n", layout.name, qPrintable(name),
                        painted.first / n, painted.second / n);
        for (int i = 0; i < 200; ++i) {
            clock.start();
            window.analysis()->recomputeNow();
            recompute.push_back(double(clock.nsecsElapsed()) / 1e6);
        }
        int onScreen = 0;
        for (ChartView* p : window.analysisArea()->panels())
            onScreen += p->isOnScreen();
        auto row = [&layout](const char* what, const Stats& s) {
            std::printf("| %s | %s | %.2f | %.2f | %.2f |\n", layout.name, what, s.p50, s.p95, s.max);
        };
        std::printf("| %s | panels on screen: %d | | | |\n", layout.name, onScreen);
        row("edit to repaint, all edits", stats(total));
        const char* kinds[] = {"rack count (GPUs)", "tp", "PUE", "NIC speed"};
        for (int k = 0; k < 4; ++k)
            row(kinds[k], stats(byKind[std::size_t(k)]));
        row("recompute + data into panels, no paint", stats(recompute));
    }
    if (only < 0 || only == 3)
        layoutsPanel(window, preset, std::min(edits, 100));
    if (!startMs.empty()) {
        const Stats start = stats(startMs), rss = stats(rssMb), peak = stats(peakMb);
        std::printf("\n| cold start, 10 runs | p50 | max |\n|---|---|---|\n");
        std::printf("| process start to first painted window, ms | %.0f | %.0f |\n", start.p50, start.max);
        std::printf("| resident memory after that paint, MB | %.0f | %.0f |\n", rss.p50, rss.max);
        std::printf("| peak resident memory, MB | %.0f | %.0f |\n", peak.p50, peak.max);
    }
    window.analysisArea()->setMode(AnalysisArea::Mode::Tabs);
    return 0;
}
