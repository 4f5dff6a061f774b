// The main window as a whole: no two actions share a shortcut, its Design
// menu lines items up through the editor, an exception in an event handler
// never reaches the event loop, tests never touch the user's settings, and
// malloc is set up for a long session.
#include <QtTest>

#include <QDirIterator>
#include <QLabel>
#include <QListWidget>
#include <QMenuBar>
#include <QSettings>
#include <QSignalSpy>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QTimer>

#include <cstdlib>
#include <map>
#include <stdexcept>

#if defined(__GLIBC__)
#include <malloc.h>
#endif

#include "app/main_window.h"
#include "app/malloc_settings.h"
#include "app/studio_application.h"
#include "core/model/analysis.h"
#include "tests/gui_test_main.h"
#include "tests/test_support.h"
#include "widgets/analysis/analysis_service.h"
#include "widgets/canvas/component_item.h"
#include "widgets/canvas/design_scene.h"
#include "widgets/common/settings_keys.h"
#include "widgets/dialogs/preset_dialog.h"
#include "widgets/dialogs/start_page.h"
#include "widgets/document/design_document.h"
#include "widgets/panels/kpi_strip.h"

using namespace studio;

namespace {

// An object whose event handler fails, as a bug in a slot or a paint would.
class Thrower : public QObject {
public:
    bool event(QEvent* e) override
    {
        if (e->type() == QEvent::User)
            throw std::runtime_error("a bug in an event handler");
        return QObject::event(e);
    }
};

QAction* actionNamed(QWidget* window, const QString& text)
{
    for (QAction* a : window->findChildren<QAction*>())
        if (QString(a->text()).remove('&') == text)
            return a;
    return nullptr;
}

}  // namespace

class TestMainWindow : public QObject {
    Q_OBJECT
private slots:
    // An empty canvas offers every preset and the recent files that still
    // exist, one click each; it steps aside at the first component.
    void anEmptyCanvasOffersThePresetsAndRecentFiles()
    {
        MainWindow w;
        w.resize(1400, 880);
        w.show();
        StartPage* start = w.startPage();
        QVERIFY(start->isVisible());
        QCOMPARE(start->presetList()->count(), int(PresetDialog::presetPaths().size()));
        QTemporaryDir dir;
        const QString kept = dir.filePath("kept.cluster.json");
        QFile::copy(test::sourcePath("presets/budget-8node-100gbe.cluster.json"), kept);
        start->setRecentFiles({dir.filePath("gone.cluster.json"), kept});
        QCOMPARE(start->recentList()->count(), 1);  // the missing file is left out
        QCOMPARE(start->recentList()->item(0)->text(), QString("kept.cluster.json"));
        QSignalSpy opened(start, &StartPage::fileChosen);
        const QRect row = start->recentList()->visualItemRect(start->recentList()->item(0));
        QTest::mouseClick(start->recentList()->viewport(), Qt::LeftButton, {}, row.center());
        QCOMPARE(opened.count(), 1);
        QCOMPARE(opened.front().front().toString(), kept);
        QVERIFY(!w.document()->design().components.empty());  // one click opened it
        QVERIFY(!start->isVisible());
        w.newDesign();
        QVERIFY(start->isVisible());
        // A preset, one click.
        QListWidget* presets = start->presetList();
        QListWidgetItem* item = presets->item(presets->count() - 1);
        QTest::mouseClick(presets->viewport(), Qt::LeftButton, {}, presets->visualItemRect(item).center());
        QCOMPARE(QString::fromStdString(w.document()->design().name), item->text());
        QVERIFY(!start->isVisible());
    }

    // A small window (1,100 pixels wide: a 1,366-pixel screen at 125%): the
    // docks below the canvas keep the width their content needs, and the
    // Inspector's column gives it up instead of being drawn over; wide
    // again, nothing overlaps either.
    void aNarrowWindowKeepsItsDocksAndFiguresApart()
    {
        MainWindow w;
        QVERIFY(w.openFile(test::sourcePath("presets/dgx-h100-superpod-4su.cluster.json")));
        auto* analysis = w.findChild<QDockWidget*>("analysis");
        auto* inspector = w.findChild<QDockWidget*>("inspector");
        for (const int width : {1100, 1000, 1400}) {
            w.resize(width, 880);
            w.show();
            QCoreApplication::processEvents();
            QCoreApplication::processEvents();
            QVERIFY2(analysis->geometry().right() < inspector->geometry().left(),
                     qPrintable(QString("%1: analysis ends at %2, the inspector starts at %3")
                                    .arg(width)
                                    .arg(analysis->geometry().right())
                                    .arg(inspector->geometry().left())));
            QVERIFY(analysis->width() >= analysis->minimumSizeHint().width());
        }
        // The window fits a 1,366 x 768 laptop screen less a 40-pixel panel
        // and a 30-pixel title bar.
        QVERIFY2(w.minimumSizeHint().height() <= 698, qPrintable(QString::number(w.minimumSizeHint().height())));
        // The status bar's figures: in less room than they need, those on
        // the left are left out whole, not cut (nor drawn over the zoom).
        KpiStrip* kpis = w.kpis();
        QVERIFY(kpis->minimumSizeHint().width() < kpis->sizeHint().width() / 3);
        kpis->resize(kpis->sizeHint());
        QCOMPARE(kpis->firstShown(), std::size_t(0));
        kpis->resize(kpis->minimumSizeHint());
        QVERIFY(kpis->firstShown() >= 2);
    }

    // File > Kernel Profile: a measured profile, the catalog's factors or
    // the published tables; a refused file changes nothing; the choice is
    // remembered for the design's file and comes back when it reopens.
    void theKernelProfileIsChosenPerDesign()
    {
        QTemporaryDir dir;
        const QString design = dir.filePath("h100.cluster.json");
        QVERIFY(QFile::copy(test::sourcePath("presets/dgx-h100-superpod-4su.cluster.json"), design));
        const QString profile = test::sourcePath("tests/data/kernels/collected-fixture.kernels.json");
        double published = 0;
        {
            MainWindow w;
            QVERIFY(w.openFile(design));
            w.analysis()->bringUpToDate();
            published = w.analysis()->analysis()->step.stepS;
            const int undoSteps = w.document()->undoStack()->count();
            QVERIFY(actionNamed(&w, "Measured Profile..."));
            QVERIFY(!hasErrors(w.useKernels(profile)));
            w.analysis()->bringUpToDate();
            const Analysis* a = w.analysis()->analysis();
            QVERIFY(a->step.stepS != published);
            QCOMPARE(QString::fromStdString(a->hardware.gpu.kernels->origin), profile);
            QCOMPARE(w.document()->undoStack()->count(), undoSteps);  // the design itself did not change
            // A file that is no profile: refused, the profile in use stays.
            const auto problems = w.useKernels(design);
            QVERIFY(hasErrors(problems));
            QCOMPARE(problems.front().pointer, std::string("/format"));
            w.analysis()->bringUpToDate();
            QCOMPARE(QString::fromStdString(w.analysis()->analysis()->hardware.gpu.kernels->origin), profile);
        }
        {
            MainWindow w;  // the file reopens with its profile
            QVERIFY(w.openFile(design));
            w.analysis()->bringUpToDate();
            QCOMPARE(QString::fromStdString(w.analysis()->analysis()->hardware.gpu.kernels->origin), profile);
            QVERIFY(!hasErrors(w.useKernels(QStringLiteral("none"))));
            w.analysis()->bringUpToDate();
            QVERIFY(!w.analysis()->analysis()->hardware.gpu.kernels);
            QVERIFY(!hasErrors(w.useKernels(QString())));
            w.analysis()->bringUpToDate();
            QCOMPARE(w.analysis()->analysis()->step.stepS, published);
        }
    }

    // File > Export For > Slurm Topology: the design as edited, the same
    // bytes as `export --to slurm`, the menu entry where users look.
    void theStudioExportsForSlurmAndNetBox()
    {
        MainWindow w;
        QVERIFY(w.openFile(test::sourcePath("presets/dgx-h100-superpod-4su.cluster.json")));
        w.analysis()->recomputeNow();
        QTemporaryDir dir;
        QVERIFY(w.exportFor(ExportTarget::Slurm, dir.path()));
        const DesignExport expected =
            exportDesign(w.document()->design(), w.document()->catalog(), ExportTarget::Slurm);
        QCOMPARE(test::readBytes(dir.filePath("topology.conf")), expected.files[0].text);
        QVERIFY(w.statusBar()->currentMessage().startsWith("Wrote topology.conf to "));
        bool found = false;
        for (QAction* a : w.menuBar()->actions())
            if (a->menu())
                for (QAction* sub : a->menu()->actions())
                    if (sub->menu() && sub->text() == "E&xport For")
                        found = found || sub->menu()->actions().value(1)->text() == "&Slurm Topology...";
        QVERIFY(found);
        // NetBox's CSVs, the same way.
        QVERIFY(w.exportFor(ExportTarget::NetBox, dir.path()));
        const DesignExport netbox = exportDesign(w.document()->design(), w.document()->catalog(), ExportTarget::NetBox);
        QCOMPARE(test::readBytes(dir.filePath("07-cables.csv")), netbox.files.back().text);
        // Calculon's three inputs and the README that says what they leave out.
        QVERIFY(w.exportFor(ExportTarget::Calculon, dir.path()));
        const DesignExport calculon =
            exportDesign(w.document()->design(), w.document()->catalog(), ExportTarget::Calculon);
        QCOMPARE(test::readBytes(dir.filePath("system.json")), calculon.files[1].text);
        QVERIFY(test::readBytes(dir.filePath("README.md")).find("./bin/calculon llm") != std::string::npos);
        // And back: File > Import From > Calculon opens them as a new design
        // of as many GPUs; a file that is not Calculon's imports nothing.
        const std::int64_t gpus = w.analysis()->analysis()->hardware.gpus;
        QVERIFY(!w.importCalculon({dir.filePath("system.json"), dir.filePath("07-cables.csv")}));
        QVERIFY(w.statusBar()->currentMessage().contains("07-cables.csv"));
        QVERIFY(w.importCalculon(
            {dir.filePath("model.json"), dir.filePath("system.json"), dir.filePath("execution.json")}));
        QVERIFY(w.document()->filePath().isEmpty());
        QVERIFY(w.document()->design().name.ends_with("(from Calculon)"));
        QTRY_VERIFY(w.analysis()->analysis() && w.analysis()->analysis()->hardware.gpus == gpus);
    }

    // NetBox device types join the design's parts as one undoable edit,
    // travel with the file and leave with an undo.
    void deviceTypesJoinThePartsAndTravelWithTheFile()
    {
        MainWindow w;
        QVERIFY(w.openFile(test::sourcePath("presets/dgx-h100-superpod-4su.cluster.json")));
        const std::string id = "netbox.example-networks-xs-64-ndr";
        QVERIFY(!w.document()->catalog().find(id));
        QVERIFY(w.importDeviceTypes({test::sourcePath("tests/data/netbox/example-xs-64-ndr.yaml")}));
        QVERIFY(w.document()->catalog().find(id));
        QCOMPARE(w.document()->design().catalog["parts"].back()["id"], Json(id));
        QVERIFY(w.document()->isModified());
        QCOMPARE(w.document()->undoStack()->undoText(), QString("Import a Device Type"));
        w.document()->undoStack()->undo();
        QVERIFY(!w.document()->catalog().find(id));
        w.document()->undoStack()->redo();
        QTemporaryDir dir;
        const QString path = dir.filePath("with-switch.cluster.json");
        QVERIFY(w.document()->saveAs(path, nullptr));
        MainWindow again;
        QVERIFY(again.openFile(path));
        QCOMPARE(again.document()->catalog().find(id)->origin, std::string("embedded in the design"));
        // A server needs its GPU; a file that is not a device type imports nothing.
        QVERIFY(!w.importDeviceTypes({test::sourcePath("tests/data/netbox/example-xs-64-ndr.yaml")}, "gpu.h100-sxm"));
        QVERIFY(w.statusBar()->currentMessage().contains("/module-bays: no module bay named GPU"));
    }

    void theUndoLimitIsASettingTheHistoryDockShows()
    {
        QSettings().setValue(settings::kUndoLimit, 25);
        {
            MainWindow window;
            QCOMPARE(window.document()->undoLimitNow(), 25);
            auto* size = window.findChild<QLabel*>("historySize");
            QVERIFY(size);
            QCOMPARE(size->text(), QString("0 steps of at most 25"));
        }
        // Absent, or not one the menu offers (an edited settings file): the default.
        for (const QVariant& stored : {QVariant(), QVariant("many"), QVariant(-5), QVariant(0)}) {
            if (stored.isValid())
                QSettings().setValue(settings::kUndoLimit, stored);
            else
                QSettings().remove(settings::kUndoLimit);
            MainWindow window;
            QCOMPARE(window.document()->undoLimitNow(), settings::kDefaultUndoLimit);
        }
        QSettings().remove(settings::kUndoLimit);
    }

    void noTwoActionsShareAShortcut()
    {
        // Two actions on one key fire neither (Qt calls it ambiguous): Export
        // Report and Collapse or Expand once both had Ctrl+E.
        MainWindow w;
        std::map<QString, QStringList> byKey;
        for (QAction* a : w.findChildren<QAction*>())
            for (const QKeySequence& k : a->shortcuts())
                if (!k.isEmpty())
                    byKey[k.toString(QKeySequence::PortableText)] << QString(a->text()).remove('&');
        QStringList clashes;
        for (const auto& [key, actions] : byKey)
            if (actions.size() > 1)
                clashes << key + ": " + actions.join(", ");
        QVERIFY2(clashes.isEmpty(), qPrintable(clashes.join("; ")));
        QVERIFY(byKey.size() > 20);  // the menus were all there to look at
        QCOMPARE(byKey["Ctrl+E"], QStringList{"Export Report (PDF)..."});
        QCOMPARE(byKey["Ctrl+Shift+E"], QStringList{"Collapse or Expand"});
    }

    void theCollapseShortcutFires()
    {
        MainWindow w;
        QVERIFY(w.openPreset(":/presets/budget-8node-100gbe.cluster.json"));
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        w.activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(&w));
        w.scene()->selectComponents({"rack"});
        QVERIFY(!w.document()->design().component("rack")->collapsed);
        QTest::keySequence(&w, QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_E));
        QVERIFY(w.document()->design().component("rack")->collapsed);
        QCOMPARE(w.document()->undoStack()->undoText(),
                 QString("Collapse %1").arg(QString::fromStdString(w.document()->design().component("rack")->name)));
    }

    void theDesignMenuAlignsAndDistributesThroughTheEditor()
    {
        // The budget preset's room holds a rack (y 40), storage (y 40) and a
        // fabric (y 130).
        MainWindow w;
        QVERIFY(w.openPreset(":/presets/budget-8node-100gbe.cluster.json"));
        const QStringList siblings{"rack", "storage", "fabric"};
        auto y = [&](const QString& id) { return w.document()->design().component(id.toStdString())->position.y; };
        QCOMPARE(y("fabric"), 130.0);
        w.scene()->selectComponents(siblings);
        actionNamed(&w, "Top Edges")->trigger();
        for (const QString& id : siblings)
            QCOMPARE(y(id), 40.0);
        QCOMPARE(w.document()->undoStack()->undoText(), QString("Align"));
        // Centres on one line: the action that once sent items to y = 1e18.
        w.document()->undoStack()->undo();
        actionNamed(&w, "Centers in a Row")->trigger();
        for (const QString& id : siblings) {
            const ComponentItem* item = w.scene()->itemFor(id);
            QVERIFY(std::abs(y(id)) < 1e4);
            QCOMPARE(y(id) + item->frameRect().height() / 2,
                     y("rack") + w.scene()->itemFor("rack")->frameRect().height() / 2);
        }
        // Distribute with two items says why it does nothing.
        const int steps = w.document()->undoStack()->count();
        w.scene()->selectComponents(siblings.mid(0, 2));
        actionNamed(&w, "Horizontally (equal gaps)")->trigger();
        QCOMPARE(w.document()->undoStack()->count(), steps);
        QCOMPARE(w.statusBar()->currentMessage(), QString("Distribute: select three or more items"));
    }

    void anExceptionInAnEventHandlerDoesNotReachTheEventLoop()
    {
        auto* app = qobject_cast<StudioApplication*>(qApp);
        QVERIFY(app);
        QSignalSpy said(app, &StudioApplication::internalError);
        const int before = app->internalErrorCount();
        Thrower thrower;
        QEvent event(QEvent::User);
        QVERIFY(!QCoreApplication::sendEvent(&thrower, &event));  // unhandled, not thrown
        QCOMPARE(app->internalErrorCount(), before + 1);
        // From the event loop itself: a timer's slot throws, the loop goes on.
        bool after = false;
        QTimer::singleShot(0, [] { throw std::runtime_error("a bug in a slot"); });
        QTimer::singleShot(5, [&after] { after = true; });
        QTRY_VERIFY(after);
        QCOMPARE(app->internalErrorCount(), before + 2);
        QTRY_COMPARE(said.count(), 2);
        QCOMPARE(said[0][0].toString(), QString("a bug in an event handler"));
        QCOMPARE(said[1][0].toString(), QString("a bug in a slot"));
    }

    void testsNeverTouchTheUsersSettings()
    {
        // Settings and autosaves of a test go to Qt's test location.
        QVERIFY2(QSettings().fileName().contains("/.qttest/"), qPrintable(QSettings().fileName()));
        QVERIFY(QStandardPaths::writableLocation(QStandardPaths::AppDataLocation).contains("/.qttest/"));
        // And every test that opens widgets starts that way.
        QStringList unsafe;
        QDirIterator it(test::sourcePath("tests"), {"*.cpp"}, QDir::Files, QDirIterator::Subdirectories);
        while (it.hasNext()) {
            const QString path = it.next();
            const QString text = QString::fromStdString(test::readBytes(path));
            if (text.contains(QStringLiteral("QTEST_") + "MAIN(") ||
                (text.contains("QApplication app(") && !text.contains("setTestModeEnabled(true)")))
                unsafe << QFileInfo(path).fileName();
        }
        QVERIFY2(unsafe.isEmpty(), qPrintable("GUI tests without test mode: " + unsafe.join(", ")));
    }

    void settingsKeysLiveInOnePlace()
    {
        // A key spelled out at its use could drift from settings_keys.h.
        QStringList literal;
        for (const QString& folder : {QStringLiteral("widgets"), QStringLiteral("app")}) {
            QDirIterator it(test::sourcePath(folder), {"*.cpp"}, QDir::Files, QDirIterator::Subdirectories);
            // A call with a quoted key: ".value(\"" or ".setValue(\"".
            const QRegularExpression use(QStringLiteral("\\.(value|setValue)\\(\""));
            while (it.hasNext()) {
                const QString path = it.next();
                const QString text = QString::fromStdString(test::readBytes(path));
                if (text.contains("QSettings") && text.contains(use))
                    literal << QFileInfo(path).fileName();
            }
        }
        QVERIFY2(literal.isEmpty(), qPrintable(literal.join(", ")));
    }

    // After setUpMalloc() a block of 30 MB that the heap's free space cannot
    // hold is mapped on its own, and returned on free, even after a larger
    // one was freed: glibc's default raises its mmap threshold to the size
    // of each mapped block freed (up to 32 MB) and then serves such blocks
    // from the heap, and a long session kept hundreds of megabytes of them
    // freed (docs/reliability.md). The settings once compiled to nothing,
    // unseen.
    void mallocKeepsLargeBlocksMapped()
    {
#if defined(__GLIBC__)
        setUpMalloc();
        auto touched = [](std::size_t bytes) {
            auto* p = static_cast<volatile char*>(std::malloc(bytes));
            p[0] = 1;
            p[bytes - 1] = 1;
            return p;
        };
        constexpr std::size_t kBlock = std::size_t(30) << 20;
        volatile char* probe = touched(std::size_t(31) << 20);
        const bool glibcHeap = mallinfo2().hblks > 0;
        std::free(const_cast<char*>(probe));  // by default, raises the threshold to 31 MB
        if (!glibcHeap)
            QSKIP("another allocator (a sanitizer's) serves malloc here");
        QVERIFY2(mallinfo2().fordblks < kBlock, "the heap's free space could hold the block");
        const std::size_t mapped = mallinfo2().hblks;
        volatile char* block = touched(kBlock);
        QCOMPARE(mallinfo2().hblks, mapped + 1);
        std::free(const_cast<char*>(block));
        QCOMPARE(mallinfo2().hblks, mapped);
#else
        QSKIP("glibc's malloc only");
#endif
    }
};

STUDIO_TEST_MAIN_WITH(TestMainWindow, StudioApplication)
#include "tst_main_window.moc"
