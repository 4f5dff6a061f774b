// The studio on a design drawn in full (issue 16): the DGX H100 SuperPOD
// preset at 1,024 nodes with every rack, node, NIC, storage system and
// cable an item of its own (bench/expanded_design.h: 12,847 components and
// 10,336 links). In the real main window, offscreen, on one core: opening
// the file (read, document, scene, panels, first paint), in-process and in
// a fresh process; an edit of each common kind until repainted, and its
// undo and redo; autosaving; saving; repainting, scrolling and zooming the canvas; and
// resident memory. Not a test: results go to docs/performance.md.
//
// Usage: bench_huge [PRESET.cluster.json] [TRIALS]   (default: the DGX H100 preset, 30 trials)
//        bench_huge --write FILE [NODES]   (writes the expanded design; for looking at it)
//        bench_huge --open FILE            (one cold open; run by the first form)
// For profiling: BENCH_ONLY=WORDS times only the edits whose name holds
// WORDS ("move a node", "cable", ...) after one open, nothing else; the
// cable edits go together (the removed cable is the one added before). A
// trailing $ holds the name's end: "count (GPUs)$" is the whole drawing only.
#include <QAction>
#include <QApplication>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QProcess>
#include <QScrollBar>
#include <QTemporaryDir>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "app/main_window.h"
#include "app/malloc_settings.h"
#include "bench/expanded_design.h"
#include "bench/studio_measure.h"
#include "core/format/design_reader.h"
#include "core/format/design_validator.h"
#include "core/format/design_writer.h"
#include "core/model/analysis.h"
#include "widgets/canvas/component_item.h"
#include "widgets/canvas/design_scene.h"
#include "widgets/canvas/design_view.h"
#include "widgets/document/design_document.h"
#include "widgets/document/design_editor.h"
#include "widgets/document/recovery.h"
#include "widgets/style/theme.h"

using namespace studio;
using namespace studio::bench;

namespace {

double msSince(const QElapsedTimer& clock)
{
    return double(clock.nsecsElapsed()) / 1e6;
}

Design expandedFromPreset(const QString& preset, std::int64_t nodes)
{
    DesignLoad loaded = loadDesignFile(preset.toStdString(), Catalog::builtin());
    if (!loaded.ok())
        throw std::invalid_argument("cannot read " + preset.toStdString());
    return expandedSuperPod(*loaded.design, *loaded.catalog, nodes);
}

bool writeFile(const QString& path, const Design& d)
{
    std::ofstream out(path.toStdString(), std::ios::binary);
    out << writeDesignText(d);
    return bool(out);
}

QAction* actionFor(QWidget& window, QKeySequence::StandardKey key)
{
    for (QAction* a : window.findChildren<QAction*>())
        if (a->shortcuts().contains(QKeySequence(key)))
            return a;
    return nullptr;
}

// The window every measurement uses: the light theme, 1600x1000, shown.
std::unique_ptr<MainWindow> measuredWindow()
{
    QCoreApplication::setApplicationName("bench_huge");
    applyTheme(Theme::Light);
    auto window = std::make_unique<MainWindow>();
    window->resize(1600, 1000);
    window->show();
    return window;
}

// One cold open: process start until the window with the file is painted.
int coldOpen(const QString& file, int argc, char** argv)
{
    QApplication app(argc, argv);
    const std::unique_ptr<MainWindow> shown = measuredWindow();
    MainWindow& window = *shown;
    if (!window.openFile(file))
        return 1;
    untilRepainted();
    std::printf("%.1f %.1f %.1f\n", secondsSinceProcessStart() * 1000, residentMb("VmRSS:"), residentMb("VmHWM:"));
    return 0;
}

// Rows in the order they were first timed.
class Table {
public:
    void add(const std::string& what, double ms)
    {
        if (!rows_.count(what))
            order_.push_back(what);
        rows_[what].push_back(ms);
    }
    void print() const
    {
        std::printf("| what | trials | p50 ms | p95 ms | max ms |\n|---|---|---|---|---|\n");
        for (const std::string& what : order_) {
            const Stats s = stats(rows_.at(what));
            std::printf("| %s | %zu | %.2f | %.2f | %.2f |\n", what.c_str(), rows_.at(what).size(), s.p50, s.p95,
                        s.max);
        }
    }

private:
    std::vector<std::string> order_;
    std::map<std::string, std::vector<double>> rows_;
};

}  // namespace

int main(int argc, char** argv)
{
    setUpMalloc();  // as the studio does
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    const QString defaultPreset = QStringLiteral(STUDIO_SOURCE_DIR "/presets/dgx-h100-superpod-4su.cluster.json");
    if (argc >= 3 && QString(argv[1]) == "--open")
        return coldOpen(QString::fromLocal8Bit(argv[2]), argc, argv);
    if (argc >= 3 && QString(argv[1]) == "--write") {
        const Design d = expandedFromPreset(defaultPreset, argc >= 4 ? std::atoll(argv[3]) : 1024);
        return writeFile(QString::fromLocal8Bit(argv[2]), d) ? 0 : 1;
    }
    const QString preset = argc >= 2 ? QString::fromLocal8Bit(argv[1]) : defaultPreset;
    const int trials = argc >= 3 ? std::max(3, std::atoi(argv[2])) : 30;

    QTemporaryDir dir;
    const QString file = dir.filePath("expanded.cluster.json");
    QElapsedTimer clock;
    clock.start();
    const Design expanded = expandedFromPreset(preset, 1024);
    const double generateMs = msSince(clock);
    if (!writeFile(file, expanded)) {
        std::fprintf(stderr, "cannot write %s\n", qPrintable(file));
        return 1;
    }
    std::printf(
        "# bench_huge: %s expanded to 1,024 nodes: %zu components, %zu links, %.1f MB; generated in %.0f ms\n\n",
        qPrintable(QFileInfo(preset).fileName()), expanded.components.size(), expanded.links.size(),
        double(QFileInfo(file).size()) / 1e6, generateMs);

    // The core's part of an open and of an edit, on the design in memory.
    const QString only = qEnvironmentVariable("BENCH_ONLY");
    Table core;
    for (int i = 0; i < (only.isEmpty() ? 10 : 0); ++i) {
        clock.start();
        const std::string text = writeDesignText(expanded);
        core.add("core: write the file's text", msSince(clock));
        clock.start();
        const DesignLoad read = readDesignText(text, Catalog::builtin());
        core.add("core: read the file's text (parse, read, validate)", msSince(clock));
        clock.start();
        const std::vector<Problem> problems = validateDesign(expanded, Catalog::builtin());
        core.add("core: validate the design", msSince(clock));
        clock.start();
        const Design copy = expanded;
        core.add("core: copy the design", msSince(clock));
        clock.start();
        const bool same = copy == expanded;
        core.add("core: compare two copies", msSince(clock));
        clock.start();
        const Analysis a = analyzeDesign(expanded, Catalog::builtin());
        core.add("core: analyse (analyzeDesign)", msSince(clock));
        if (!read.ok() || hasErrors(problems) || !same || a.inventory.gpus != 8192) {
            std::fprintf(stderr, "the expanded design does not read back, validate or analyse\n");
            return 1;
        }
    }
    core.print();
    std::printf("\n");

    // Cold opens first, each a fresh process.
    std::vector<double> coldMs, coldRss;
    for (int run = 0; run < (only.isEmpty() ? 5 : 0); ++run) {
        QProcess child;
        child.start(QString::fromLocal8Bit(argv[0]), {"--open", file});
        if (!child.waitForFinished(600000) || child.exitCode() != 0) {
            std::fprintf(stderr, "cold open failed: %s\n", child.readAllStandardError().constData());
            return 1;
        }
        const QList<QByteArray> f = child.readAllStandardOutput().trimmed().split(' ');
        coldMs.push_back(f.value(0).toDouble());
        coldRss.push_back(f.value(1).toDouble());
    }

    QApplication app(argc, argv);
    const std::unique_ptr<MainWindow> shown = measuredWindow();
    MainWindow& window = *shown;
    untilRepainted();
    DesignDocument* doc = window.document();
    Table table, edits;

    // Reading alone (parse, migrate, read every field, validate), then the
    // whole open: that, the document, the scene, the analysis and panels,
    // zoom to fit and the first paint.
    for (int i = 0; i < (only.isEmpty() ? 5 : 0); ++i) {
        clock.start();
        const DesignLoad loaded = loadDesignFile(file.toStdString(), Catalog::builtin());
        table.add("open: read and validate the file", msSince(clock));
        if (!loaded.ok())
            return 1;
    }
    for (int i = 0; i < (only.isEmpty() ? 5 : 1); ++i) {
        window.newDesign();
        untilRepainted();
        clock.start();
        if (!window.openFile(file))
            return 1;
        untilRepainted();
        table.add("open: file to first paint (in-process)", msSince(clock));
    }
    const double openRss = residentMb("VmRSS:");

    DesignScene* scene = window.scene();
    DesignEditor& editor = scene->editor();
    QUndoStack* undo = doc->undoStack();
    // A node, its rack and NIC in the middle of the drawing.
    const std::string node = "dgx-16-8-1", rack = "rack-16-8", nic = "dgx.nic-16-8-1-1";
    std::string link = "dgx-fabric-16-8-1-1";
    if (!doc->design().component(node) || !doc->design().component(rack) || doc->linkIndex(link) < 0) {
        std::fprintf(stderr, "the expanded design has no %s, %s or link %s\n", node.c_str(), rack.c_str(),
                     link.c_str());
        return 1;
    }
    // Each kind of edit, then its undo and redo, each until repainted: with
    // the whole drawing in view (as it opens), then at 100% around the node
    // (where one edits).
    std::string at;
    bool recording = false;
    auto timed = [&](std::string what, const std::function<bool()>& edit) {
        what += at;
        if (!only.isEmpty() &&
            !(only.endsWith('$') ? QString::fromStdString(what).endsWith(only.chopped(1))
                                 : QString::fromStdString(what).contains(only)))
            return;
        clock.start();
        const bool applied = edit();
        untilRepainted();
        const double editMs = msSince(clock);
        if (!applied) {
            std::fprintf(stderr, "edit refused: %s\n", what.c_str());
            std::exit(1);
        }
        const double editRepainted = editMs;
        clock.start();
        undo->undo();
        untilRepainted();
        const double undoRepainted = msSince(clock);
        clock.start();
        undo->redo();
        untilRepainted();
        if (!recording)
            return;
        edits.add("edit to repaint: " + what, editRepainted);
        edits.add("undo to repaint: " + what, undoRepainted);
        edits.add("redo to repaint: " + what, msSince(clock));
    };
    DesignView* view = window.view();
    for (int i = 0; i < 2 * (trials + 2); ++i) {
        if (i == trials + 2) {
            at = " (100%)";
            view->zoomTo100();
            view->centerOn(scene->itemFor(QString::fromStdString(node)));
            untilRepainted();
        }
        const bool even = i % 2 == 0;
        recording = i % (trials + 2) >= 2;  // the first two rounds of each warm up
        timed("move a node", [&] {
            scene->selectComponents({QString::fromStdString(node)});
            return scene->moveSelectionBy(QPointF(even ? 10 : -10, 0), 0).isEmpty();
        });
        timed("rename a node", [&] {
            Component c = *doc->design().component(node);
            c.name = even ? "DGX H100 16.8.1 (spare)" : "DGX H100 16.8.1";
            return editor.changeComponents({c}, "Rename").applied();
        });
        timed("change a rack's count (GPUs)",
              [&] { return scene->setCount(QString::fromStdString(rack), even ? 2 : 1).isEmpty(); });
        timed("remove a cable", [&] { return editor.remove({}, {link}, "Delete").applied(); });
        timed("add a cable", [&] {
            const bool done = editor.connect(nic, "fabric").applied();
            link = doc->design().links.back().id;
            return done;
        });
        timed("change a workload field (global batch)", [&] {
            DesignSettings s = DesignSettings::of(doc->design());
            s.workload.training.global_batch = even ? 1024 : 512;
            return editor.changeSettings(s, "Global batch").applied();
        });
    }
    view->zoomToFit();
    const double editRss = residentMb("VmRSS:");

    if (!only.isEmpty()) {
        edits.print();
        return 0;
    }

    // Autosave (issue 41): once a minute while the design has unsaved
    // changes. Before, the timer wrote it on the GUI thread (autosaveNow);
    // now its slot copies the design and starts a writer, and the frames
    // painted meanwhile (at 100%, where a repaint is cheapest, so the
    // writer's share shows) are timed until the write's end is collected.
    Autosaver* saver = window.autosaver();
    if (!doc->isModified())
        return 1;
    view->zoomTo100();
    view->centerOn(scene->itemFor(QString::fromStdString(node)));
    untilRepainted();
    for (int i = 0; i < 12; ++i) {
        clock.start();
        view->viewport()->update();
        untilRepainted();
        if (i >= 2)
            table.add("autosave: a frame at 100%, no autosave", msSince(clock));
    }
    for (int i = 0; i < 12; ++i) {
        clock.start();
        if (!saver->autosaveNow())
            return 1;
        const double blocking = msSince(clock);
        clock.start();
        if (!saver->autosaveInBackground())
            return 1;
        const double slot = msSince(clock);
        double longest = 0;
        for (int frames = 0; saver->writing() && frames < 10000; ++frames) {
            clock.start();
            view->viewport()->update();
            untilRepainted();  // collects the write once it ends
            longest = std::max(longest, msSince(clock));
        }
        if (i < 2)
            continue;
        table.add("autosave before: the timer's slot (written on the GUI thread)", blocking);
        table.add("autosave after: the timer's slot (the design copied, a writer started)", slot);
        table.add("autosave after: the longest frame while it writes", longest);
    }
    view->zoomToFit();
    untilRepainted();

    // Saving through File > Save, as the user does.
    QAction* save = actionFor(window, QKeySequence::Save);
    if (!save)
        return 1;
    for (int i = 0; i < 10; ++i) {
        clock.start();
        save->trigger();
        untilRepainted();
        table.add("save (File > Save)", msSince(clock));
    }

    // The canvas as a whole: at the zoom it opened at (the whole drawing)
    // and at 100%: a full repaint, a page's scroll, a zoom step in and out.
    for (const bool fit : {true, false}) {
        if (fit)
            view->zoomToFit();
        else {
            view->zoomTo100();
            view->centerOn(scene->itemFor(QString::fromStdString(node)));
        }
        untilRepainted();
        const std::string at = fit ? " (whole drawing)" : " (100%)";
        for (int i = 0; i < 10; ++i) {
            clock.start();
            view->viewport()->update();
            untilRepainted();
            table.add("canvas: full repaint" + at, msSince(clock));
            QScrollBar* bar = i % 2 ? view->verticalScrollBar() : view->horizontalScrollBar();
            clock.start();
            bar->setValue(bar->value() + (i % 4 < 2 ? 1 : -1) * bar->pageStep());
            untilRepainted();
            table.add("canvas: scroll a page" + at, msSince(clock));
            clock.start();
            i % 2 ? view->zoomOut() : view->zoomIn();
            untilRepainted();
            table.add("canvas: zoom step" + at, msSince(clock));
            // What each mouse move over the canvas asks: the items under the pointer.
            clock.start();
            const QList<QGraphicsItem*> under = view->items(view->viewport()->rect().center());
            table.add("canvas: items under the pointer" + at, msSince(clock));
        }
    }

    table.print();
    std::printf("\n");
    edits.print();
    const Stats cold = stats(coldMs), rss = stats(coldRss);
    std::printf("\n| memory and cold open | value |\n|---|---|\n");
    std::printf("| cold open, process start to first paint, p50 of 5, ms | %.0f |\n", cold.p50);
    std::printf("| cold open, max of 5, ms | %.0f |\n", cold.max);
    std::printf("| resident after a cold open, MB | %.0f |\n", rss.p50);
    std::printf("| resident after 5 opens in-process, MB | %.0f |\n", openRss);
    std::printf("| resident after the edits, MB | %.0f |\n", editRss);
    std::printf("| peak resident, MB | %.0f |\n", residentMb("VmHWM:"));
    return 0;
}
