// A long session with the studio, scripted: the real main window driven as
// a user drives it for a given time (open presets and a design drawn in
// full, edit through the canvas, the inspector, the workload dock and the
// editor, undo and redo runs, switch docks and panels so the layout
// search, scale sweep, sensitivity and serving runs start and stop, open
// and close the compare view, export a report, save and reopen, start a
// new design). Random but seeded: a run can be repeated.
//
// Built in the AddressSanitizer tree it is the leak check of a long
// session (LeakSanitizer reports at exit); it also prints the resident
// memory over time and the heap in use as found and at rest (a new design,
// nothing running), so a cache or history that grows without bound shows.
// CTest runs it for 25 seconds; docs/reliability.md has an hour.
//
// Usage: soak_session [--seconds N | --minutes N] [--seed N]
// SOAK_NO_TEARDOWN=1: end without tearing down (for heaptrack's list of
// what is held); SOAK_HEAP_SITES=FOLDER with tests/session/heap_sites
// preloaded: the heap by call stack at each sample at rest.
// Exit 0 when every action ran without an exception and no unexpected
// dialog had to be closed; 1 otherwise.
#include <QAction>
#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QDockWidget>
#include <QElapsedTimer>
#include <QFile>
#include <QFileDialog>
#include <QGraphicsItem>
#include <QLineEdit>
#include <QMenu>
#include <QMessageBox>
#include <QPixmapCache>
#include <QScrollBar>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTimer>
#include <QUndoStack>

#include <algorithm>
#include <cstdio>
#include <dlfcn.h>
#include <fstream>
#include <functional>
#include <malloc.h>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "app/main_window.h"
#include "app/malloc_settings.h"
#include "bench/expanded_design.h"
#include "bench/studio_measure.h"
#include "core/catalog/catalog.h"
#include "core/design/fabric_plan.h"
#include "core/format/design_reader.h"
#include "core/format/design_writer.h"
#include "widgets/analysis/analysis_service.h"
#include "widgets/canvas/component_item.h"
#include "widgets/canvas/design_scene.h"
#include "widgets/canvas/design_view.h"
#include "widgets/canvas/link_item.h"
#include "widgets/compare/compare_window.h"
#include "widgets/document/design_document.h"
#include "widgets/document/design_editor.h"
#include "widgets/inspector/inspector.h"
#include "widgets/panels/analysis_area.h"
#include "widgets/style/theme.h"
#include "widgets/workload/workload_panel.h"

using namespace studio;

namespace {

// The heap's bytes in use (glibc's count of what malloc handed out and was
// not freed): resident memory also holds freed memory malloc keeps for
// reuse, so a rising resident line alone does not tell growth from
// fragmentation. Zero under the sanitizers, whose allocator glibc does
// not see.
double heapInUseMb()
{
    const struct mallinfo2 m = mallinfo2();
    return double(m.uordblks + m.hblkhd) / (1024.0 * 1024.0);
}

// What malloc was given back and keeps for reuse instead of returning it:
// a line that rises while the heap in use stays flat is fragmentation.
double keptFreeMb()
{
    return double(mallinfo2().fordblks) / (1024.0 * 1024.0);
}

// With tests/session/heap_sites preloaded (docs/reliability.md), the live
// bytes by allocating call stack at rest, one file a sample, to diff two
// moments of one run: a profiler's view of what grows without its cost.
void dumpHeapSites(double seconds)
{
    using Dump = void (*)(const char*);
    static const auto dump = reinterpret_cast<Dump>(dlsym(RTLD_DEFAULT, "heap_sites_dump"));
    const QByteArray folder = qgetenv("SOAK_HEAP_SITES");
    if (dump && !folder.isEmpty())
        dump(QString("%1/sites-%2.txt")
                 .arg(QString::fromLocal8Bit(folder))
                 .arg(qRound(seconds))
                 .toLocal8Bit()
                 .constData());
}

// Every QObject alive, of the application's windows and their children:
// what is parented and never deleted grows here although no leak checker
// sees it (it is freed with its parent at exit). With the most numerous
// classes, for the last sample.
std::map<QString, int> objectsByClass()
{
    std::map<QString, int> n;
    for (QWidget* top : QApplication::topLevelWidgets()) {
        ++n[top->metaObject()->className()];
        for (QObject* o : top->findChildren<QObject*>())
            ++n[o->metaObject()->className()];
    }
    return n;
}

long objectCount()
{
    long total = 0;
    for (const auto& [name, count] : objectsByClass())
        total += count;
    return total;
}

// The event loop run until it is idle, as after a user's gesture: posted
// recomputes, paints, results of background runs that have arrived, and
// what was deleted later (studio_measure.h).
void settle()
{
    bench::untilRepainted();
}

// A user pausing: background runs go on meanwhile and deliver.
void pause(int ms)
{
    QElapsedTimer clock;
    clock.start();
    while (clock.elapsed() < ms) {
        QCoreApplication::processEvents(QEventLoop::AllEvents, 10);
        settle();
    }
}

class Session {
public:
    Session(MainWindow& window, std::uint32_t seed, const QString& sourceDir)
        : w_(window), random_(seed), sourceDir_(sourceDir)
    {
        for (const QString& name : QDir(sourceDir + "/presets").entryList({"*.cluster.json"}))
            presets_ << sourceDir + "/presets/" + name;
        // A design drawn in full, small enough for the sanitizer's pace: the
        // SuperPOD at 64 nodes, every node, NIC and cable an item.
        const DesignLoad pod = loadDesignFile((sourceDir + "/presets/dgx-h100-superpod-4su.cluster.json").toStdString(),
                                              Catalog::builtin());
        expanded_ = dir_.filePath("expanded-64.cluster.json");
        std::ofstream(expanded_.toStdString()) << writeDesignText(expandedSuperPod(*pod.design, *pod.catalog, 64));
    }

    void act()
    {
        struct Action {
            const char* kind;
            int weight;
            std::function<void()> run;
        };
        const std::vector<Action> actions = {
            {"open a preset", 3, [this] { openPreset(); }},
            {"open a design drawn in full", 1, [this] { w_.openFile(expanded_); }},
            {"new design", 1, [this] { w_.newDesign(); }},
            {"drop a part on the canvas", 6, [this] { dropPart(); }},
            {"draw a link", 4, [this] { drawLink(); }},
            {"set a count on the canvas", 4, [this] { setCount(); }},
            {"move items", 5, [this] { moveItems(); }},
            {"collapse or expand", 2, [this] { collapse(); }},
            {"delete items", 3, [this] { deleteItems(); }},
            {"copy, paste, duplicate", 2, [this] { copyPaste(); }},
            {"align or distribute", 2, [this] { alignOrDistribute(); }},
            {"generate a fabric", 1, [this] { generateFabric(); }},
            {"edit in the inspector", 6, [this] { inspect(); }},
            {"edit the workload", 5, [this] { editWorkload(); }},
            {"undo a run of edits", 3, [this] { undoRun(true); }},
            {"redo a run of edits", 2, [this] { undoRun(false); }},
            {"switch docks and panels", 5, [this] { switchPanels(); }},
            {"zoom and scroll", 2, [this] { zoomAndScroll(); }},
            {"open and close the compare view", 1, [this] { compare(); }},
            {"export a report", 1, [this] { exportReport(); }},
            {"save and reopen", 1, [this] { saveAndReopen(); }},
            {"pause while runs finish", 2, [] { pause(300); }},
        };
        int total = 0;
        for (const auto& a : actions)
            total += a.weight;
        int pick = uniform(0, total - 1);
        for (const auto& a : actions) {
            if ((pick -= a.weight) >= 0)
                continue;
            a.run();
            settle();
            ++counts_[a.kind];
            return;
        }
    }

    const std::map<std::string, int>& counts() const { return counts_; }

private:
    int uniform(int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(random_); }
    template <typename T>
    const T& pickOne(const std::vector<T>& v)
    {
        return v[std::size_t(uniform(0, int(v.size()) - 1))];
    }

    DesignScene* scene() const { return w_.scene(); }
    const Design& design() const { return w_.document()->design(); }

    // Component ids whose part is of one of `kinds`.
    std::vector<std::string> idsOf(std::initializer_list<PartKind> kinds) const
    {
        std::vector<std::string> ids;
        for (const Component& c : design().components)
            if (const Part* p = w_.document()->catalog().find(c.part))
                for (PartKind k : kinds)
                    if (p->kind == k)
                        ids.push_back(c.id);
        return ids;
    }

    // A new file in the session's folder: one the studio has open is
    // watched, and writing it from outside would (rightly) ask to reload.
    QString freshFile() { return dir_.filePath(QString("session-%1.cluster.json").arg(++files_)); }

    void openPreset()
    {
        const QString preset = presets_[uniform(0, int(presets_.size()) - 1)];
        // Sometimes a copy of it, which File > Save writes back to.
        if (uniform(0, 2) == 0) {
            const QString copy = freshFile();
            QFile::copy(preset, copy);
            QFile(copy).setPermissions(QFileDevice::ReadOwner | QFileDevice::WriteOwner);
            w_.openFile(copy);
        } else {
            w_.openFile(preset);
        }
    }

    void dropPart()
    {
        const std::vector<std::string> parts = {
            "rack.air-42u",  "node.dgx-h100",         "node.hgx-h100",         "gpu.h100-sxm",        "nic.connectx-7",
            "switch.qm9700", "storage.pfs-appliance", "fabric.rail-optimized", "group.scalable-unit", "node.dgx-b200"};
        // Onto a container now and then, else the empty canvas beside.
        QPointF at(uniform(-200, 2000), uniform(-200, 1500));
        const auto containers = idsOf({PartKind::Rack, PartKind::Group, PartKind::Node});
        if (!containers.empty() && uniform(0, 1) == 0)
            if (ComponentItem* item = scene()->visibleItemFor(QString::fromStdString(pickOne(containers))))
                at = item->mapToScene(item->frameRect().center());
        scene()->dropPart(QString::fromStdString(pickOne(parts)), at);
    }

    void drawLink()
    {
        const auto from = idsOf({PartKind::Nic, PartKind::Node, PartKind::Storage});
        const auto to = idsOf({PartKind::Fabric, PartKind::Switch});
        if (!from.empty() && !to.empty())
            scene()->createLink(QString::fromStdString(pickOne(from)), QString::fromStdString(pickOne(to)));
    }

    void setCount()
    {
        const auto ids = idsOf({PartKind::Rack, PartKind::Node, PartKind::Group, PartKind::Nic, PartKind::Storage});
        if (!ids.empty())
            scene()->setCount(QString::fromStdString(pickOne(ids)), uniform(1, 4));
    }

    void selectSome(int most)
    {
        QStringList ids;
        const auto all = idsOf({PartKind::Rack, PartKind::Node, PartKind::Group, PartKind::Nic, PartKind::Storage,
                                PartKind::Switch, PartKind::Fabric, PartKind::Accelerator});
        for (int i = uniform(1, most); i > 0 && !all.empty(); --i)
            ids << QString::fromStdString(pickOne(all));
        scene()->selectComponents(ids);
    }

    void moveItems()
    {
        selectSome(3);
        scene()->moveSelectionBy(QPointF(uniform(-5, 5) * 10, uniform(-5, 5) * 10), 0);
    }

    void collapse()
    {
        const auto ids = idsOf({PartKind::Rack, PartKind::Node, PartKind::Group});
        if (!ids.empty())
            scene()->toggleCollapsed(QString::fromStdString(pickOne(ids)));
    }

    void deleteItems()
    {
        selectSome(2);
        // Links too, now and then.
        if (uniform(0, 1) == 0 && !design().links.empty())
            if (QGraphicsItem* link = scene()->linkItemFor(QString::fromStdString(pickOne(design().links).id)))
                link->setSelected(true);
        scene()->removeSelection();
    }

    void copyPaste()
    {
        selectSome(2);
        switch (uniform(0, 2)) {
        case 0: w_.duplicate(); break;
        case 1:
            w_.copy();
            w_.paste();
            break;
        default: w_.cut(); w_.paste();
        }
    }

    void alignOrDistribute()
    {
        // Items of one container, as the Design menu wants them.
        const auto containers = idsOf({PartKind::Rack, PartKind::Node, PartKind::Group});
        if (containers.empty())
            return;
        const std::string parent = pickOne(containers);
        QStringList ids;
        for (const Component& c : design().components)
            if (c.parent == parent)
                ids << QString::fromStdString(c.id);
        scene()->selectComponents(ids);
        std::vector<QAction*> arranging;
        for (QMenu* menu : w_.findChildren<QMenu*>())
            if (menu->title().remove('&') == "Align" || menu->title().remove('&') == "Distribute")
                for (QAction* a : menu->actions())
                    if (!a->isSeparator())
                        arranging.push_back(a);
        if (!arranging.empty())
            pickOne(arranging)->trigger();
    }

    void generateFabric()
    {
        FabricOptions options;
        options.role = uniform(0, 3) == 0 ? "storage" : "compute";
        const FabricPlan plan = planFabric(design(), w_.document()->catalog(), "", options);
        scene()->editor().addFabric(plan, {double(uniform(0, 1500)), double(uniform(0, 900))});
    }

    void inspect()
    {
        // An item, a link or nothing selected (the design's own inputs),
        // then one of the inspector's fields changed as typed.
        switch (uniform(0, 2)) {
        case 0: selectSome(1); break;
        case 1:
            scene()->clearSelection();
            if (!design().links.empty())
                if (QGraphicsItem* link = scene()->linkItemFor(QString::fromStdString(pickOne(design().links).id)))
                    link->setSelected(true);
            break;
        default: scene()->clearSelection();
        }
        settle();
        auto* inspector = w_.findChild<Inspector*>();
        std::vector<QWidget*> fields;
        for (QWidget* f : inspector->findChildren<QWidget*>())
            if (f->isEnabled() &&
                (qobject_cast<QLineEdit*>(f) || qobject_cast<QSpinBox*>(f) || qobject_cast<QComboBox*>(f) ||
                 qobject_cast<QCheckBox*>(f)))
                fields.push_back(f);
        if (fields.empty())
            return;
        QWidget* field = pickOne(fields);
        if (auto* line = qobject_cast<QLineEdit*>(field)) {
            if (line->isReadOnly() || !line->parentWidget() || qobject_cast<QSpinBox*>(line->parentWidget()))
                return;
            const QStringList values = {"Rack " + QString::number(uniform(1, 99)),
                                        QString::number(uniform(1, 2000)),
                                        QString::number(uniform(1, 99) / 10.0),
                                        "",
                                        "-3",
                                        "abc"};
            line->setText(values[uniform(0, int(values.size()) - 1)]);
            emit line->editingFinished();
        } else if (auto* spin = qobject_cast<QSpinBox*>(field)) {
            spin->setValue(spin->value() + uniform(-2, 2));
        } else if (auto* combo = qobject_cast<QComboBox*>(field)) {
            if (combo->count() > 0) {
                const int i = uniform(0, combo->count() - 1);
                combo->setCurrentIndex(i);
                emit combo->activated(i);
            }
        } else if (auto* box = qobject_cast<QCheckBox*>(field)) {
            box->toggle();
        }
    }

    void editWorkload()
    {
        WorkloadPanel* workload = w_.workload();
        if (uniform(0, 5) == 0) {
            QComboBox* presets = workload->presetBox();
            if (presets->count() > 1) {
                const int i = uniform(1, presets->count() - 1);
                presets->setCurrentIndex(i);
                emit presets->activated(i);
            }
            return;
        }
        const QStringList pointers = {
            "/workload/parallelism/tp",         "/workload/parallelism/pp",       "/workload/parallelism/cp",
            "/workload/training/global_batch",  "/workload/training/micro_batch", "/workload/model/layers",
            "/workload/parallelism/interleave", "/workload/serving/batch",        "/workload/serving/prompt_tokens"};
        QWidget* field = workload->field(pointers[uniform(0, int(pointers.size()) - 1)]);
        if (auto* spin = qobject_cast<QSpinBox*>(field))
            spin->stepBy(uniform(0, 1) ? 1 : -1);
        else if (auto* combo = qobject_cast<QComboBox*>(field); combo && combo->count() > 0)
            combo->setCurrentIndex(uniform(0, combo->count() - 1));
    }

    void undoRun(bool back)
    {
        QUndoStack* stack = w_.document()->undoStack();
        for (int i = uniform(1, 8); i > 0; --i) {
            back ? stack->undo() : stack->redo();
            settle();
        }
    }

    void switchPanels()
    {
        const QStringList docks = {"analysis", "warnings",  "layouts",  "scale",   "sensitivity",
                                   "serving",  "inspector", "workload", "history", "overview"};
        if (auto* dock = w_.findChild<QDockWidget*>(docks[uniform(0, int(docks.size()) - 1)])) {
            dock->show();
            dock->raise();
        }
        if (uniform(0, 3) == 0)
            w_.analysisArea()->setMode(uniform(0, 1) ? AnalysisArea::Mode::Grid : AnalysisArea::Mode::Tabs);
        const QStringList panels = {"roofline", "hierarchy", "mfu", "power", "failures"};
        w_.analysisArea()->showPanel(panels[uniform(0, int(panels.size()) - 1)]);
        // Long enough for a search or a sweep to start, sometimes to finish.
        pause(uniform(0, 1) ? 50 : 400);
    }

    void zoomAndScroll()
    {
        DesignView* view = w_.view();
        switch (uniform(0, 3)) {
        case 0: view->zoomIn(); break;
        case 1: view->zoomOut(); break;
        case 2: view->zoomToFit(); break;
        default: view->horizontalScrollBar()->setValue(view->horizontalScrollBar()->value() + uniform(-300, 300));
        }
    }

    void compare()
    {
        CompareWindow* compare = w_.showCompare();
        settle();
        compare->addFile(presets_[uniform(0, int(presets_.size()) - 1)]);
        pause(uniform(0, 1) ? 100 : 600);
        compare->close();
    }

    void exportReport()
    {
        // A design with errors has no report to write (the studio says so
        // in a dialog, which a script must not open).
        if (!w_.analysis()->analysis() || design().components.empty())
            return;
        w_.exportReport(dir_.filePath("review.pdf"));
    }

    void saveAndReopen()
    {
        // File > Save writes the file the design came from; a design from
        // elsewhere (a preset, a new one) is first saved as a file of the
        // session's and opened from there.
        QString path = w_.document()->filePath();
        if (!path.startsWith(dir_.path())) {
            path = freshFile();
            w_.document()->saveAs(path, nullptr);
            w_.openFile(path);
        }
        for (QAction* a : w_.findChildren<QAction*>())
            if (a->shortcuts().contains(QKeySequence(QKeySequence::Save))) {
                a->trigger();
                break;
            }
        settle();
        w_.openFile(path);
    }

    MainWindow& w_;
    std::mt19937 random_;
    QString sourceDir_;
    QTemporaryDir dir_;
    QStringList presets_;
    QString expanded_;
    int files_ = 0;
    std::map<std::string, int> counts_;
};

}  // namespace

int main(int argc, char** argv)
{
    // As the studio does.
    setUpMalloc();
    // Settings and autosaves in a test location.
    QStandardPaths::setTestModeEnabled(true);
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    double seconds = 25;
    std::uint32_t seed = 16;
    for (int i = 1; i + 1 < argc; i += 2) {
        const QString flag = argv[i];
        if (flag == "--seconds")
            seconds = std::atof(argv[i + 1]);
        else if (flag == "--minutes")
            seconds = 60 * std::atof(argv[i + 1]);
        else if (flag == "--seed")
            seed = std::uint32_t(std::atoll(argv[i + 1]));
    }
    QApplication app(argc, argv);
    QCoreApplication::setApplicationName("soak_session");
    applyTheme(Theme::Light);
    int failures = 0, dialogs = 0;
    {
        MainWindow window;
        window.resize(1600, 1000);
        window.show();
        settle();
        // A dialog no user is there to answer is closed and counted: the
        // script takes care never to open one.
        QTimer watchdog;
        QObject::connect(&watchdog, &QTimer::timeout, [&dialogs] {
            if (QWidget* modal = QApplication::activeModalWidget())
                if (qobject_cast<QMessageBox*>(modal) || qobject_cast<QFileDialog*>(modal)) {
                    std::fprintf(stderr, "closing an unexpected dialog: %s\n",
                                 qPrintable(modal->windowTitle() + ": " + modal->property("text").toString()));
                    ++dialogs;
                    modal->close();
                }
        });
        watchdog.start(200);
        Session session(window, seed, STUDIO_SOURCE_DIR);
        QElapsedTimer clock;
        clock.start();
        struct Sample {
            double seconds, residentMb, heapMb, keptMb;
            long objects;
            double restMb;  // heap in use with a new design open and nothing running
            double pixmapCacheMb;
        };
        std::vector<Sample> rss;
        // As found, then at rest: what is open and running moves the heap in
        // use by tens of megabytes from one minute to the next, so growth
        // (a cache, a history, results kept) shows in the same state each
        // time: a new design, every run finished, the event loop idle.
        auto sample = [&] {
            Sample at{clock.elapsed() / 1000.0,
                      bench::residentMb("VmRSS:"),
                      heapInUseMb(),
                      keptFreeMb(),
                      objectCount(),
                      0,
                      0};
            window.waitForBackgroundRuns();
            settle();
            window.newDesign();
            window.waitForBackgroundRuns();
            settle();
            at.restMb = heapInUseMb();
            dumpHeapSites(at.seconds);
            // Qt's pixmap cache (icons, style pixmaps, the canvas items'
            // caches) fills towards its limit over a session: how much of
            // the heap at rest it holds, dropped for this once.
            QPixmapCache::clear();
            at.pixmapCacheMb = at.restMb - heapInUseMb();
            rss.push_back(at);
            std::fprintf(stderr,
                         "%.0f s: resident %.0f MB, heap in use %.0f MB, at rest %.0f MB (pixmap cache %.1f MB), kept "
                         "%.0f MB, %ld objects\n",
                         at.seconds, at.residentMb, at.heapMb, at.restMb, at.pixmapCacheMb, at.keptMb, at.objects);
        };
        const double every = std::min(60.0, std::max(5.0, seconds / 10));
        double next = 0;
        long actions = 0;
        while (clock.elapsed() < seconds * 1000) {
            if (clock.elapsed() / 1000.0 >= next) {
                sample();
                next += every;
            }
            try {
                session.act();
                ++actions;
            } catch (const std::exception& e) {
                std::fprintf(stderr, "an action failed: %s\n", e.what());
                ++failures;
            }
        }
        // Leave nothing running or unsaved behind.
        window.waitForBackgroundRuns();
        settle();
        sample();
        window.document()->undoStack()->setClean();

        std::printf("# soak_session: %.0f s, seed %u, %ld actions, %d failures, %d unexpected dialogs\n\n",
                    clock.elapsed() / 1000.0, seed, actions, failures, dialogs);
        std::printf("| action | times |\n|---|---:|\n");
        for (const auto& [kind, n] : session.counts())
            std::printf("| %s | %d |\n", kind.c_str(), n);
        std::printf("\n| elapsed s | resident MB | heap in use MB | heap at rest MB | pixmap cache MB | freed, kept by "
                    "malloc MB | objects |\n|---:|---:|---:|---:|---:|---:|---:|\n");
        for (const Sample& at : rss) {
            if (at.heapMb > 0)
                std::printf("| %.0f | %.0f | %.0f | %.0f | %.1f | %.0f | %ld |\n", at.seconds, at.residentMb, at.heapMb,
                            at.restMb, at.pixmapCacheMb, at.keptMb, at.objects);
            else
                std::printf("| %.0f | %.0f | - | - | - | - | %ld |\n", at.seconds, at.residentMb, at.objects);
        }
        std::vector<std::pair<int, QString>> classes;
        for (const auto& [name, count] : objectsByClass())
            classes.emplace_back(count, name);
        std::sort(classes.rbegin(), classes.rend());
        std::printf("\n| most numerous objects at the end | count |\n|---|---:|\n");
        for (std::size_t i = 0; i < std::min<std::size_t>(12, classes.size()); ++i)
            std::printf("| %s | %d |\n", qPrintable(classes[i].second), classes[i].first);
        std::fflush(stdout);
        // For a heap profiler: ended here, what the session holds is what
        // `heaptrack` lists as never freed (docs/reliability.md).
        if (qEnvironmentVariableIsSet("SOAK_NO_TEARDOWN"))
            std::_Exit(failures == 0 && dialogs == 0 ? 0 : 1);
    }
    return failures == 0 && dialogs == 0 ? 0 : 1;
}
