#include "app/main_window.h"

#include <QAction>
#include <QActionGroup>
#include <QApplication>
#include <QClipboard>
#include <QCloseEvent>
#include <QDir>
#include <QDockWidget>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QFileSystemWatcher>
#include <QInputDialog>
#include <QLabel>
#include <QLocale>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QProgressDialog>
#include <QPushButton>
#include <QScreen>
#include <QSettings>
#include <QStatusBar>
#include <QStyle>
#include <QTimer>
#include <QToolBar>

#include <set>
#include <tuple>

#include "core/format/design_reader.h"
#include "core/format/design_writer.h"
#include "core/import/calculon_import.h"
#include "core/import/netbox_device_type.h"
#include "core/text.h"
#include "widgets/analysis/analysis_service.h"
#include "widgets/canvas/component_item.h"
#include "widgets/canvas/design_scene.h"
#include "widgets/canvas/design_view.h"
#include "widgets/canvas/minimap.h"
#include "widgets/common/atomic_write.h"
#include "widgets/common/qt_string.h"
#include "widgets/common/settings_keys.h"
#include "widgets/compare/compare_window.h"
#include "widgets/dialogs/fabric_dialog.h"
#include "widgets/dialogs/preset_dialog.h"
#include "widgets/dialogs/start_page.h"
#include "widgets/document/design_document.h"
#include "widgets/document/design_editor.h"
#include "widgets/document/history_panel.h"
#include "widgets/document/recovery.h"
#include "widgets/inspector/inspector.h"
#include "widgets/palette/part_mime.h"
#include "widgets/palette/part_palette.h"
#include "widgets/panels/analysis_area.h"
#include "widgets/panels/background_registry.h"
#include "widgets/panels/kpi_strip.h"
#include "widgets/report/design_report.h"
#include "widgets/scale/scale_panel.h"
#include "widgets/scale/scale_sweep_service.h"
#include "widgets/scale/sensitivity_panel.h"
#include "widgets/scale/sensitivity_service.h"
#include "widgets/scale/upgrades_service.h"
#include "widgets/search/layout_search_service.h"
#include "widgets/search/layouts_panel.h"
#include "widgets/serving/serving_panel.h"
#include "widgets/style/theme.h"
#include "widgets/warnings/warnings_panel.h"
#include "widgets/workload/workload_panel.h"

namespace studio {
namespace {

// What Edit > Undo History Limit offers; a stored value outside it is not
// the user's (an edited settings file) and gives way to the default.
constexpr int kMinUndoLimit = 10, kMaxUndoLimit = 100000;

constexpr int kMaxRecent = 10;

// A design to start from: one pod and a small default workload.
Design emptyDesign()
{
    Design d;
    d.name = QObject::tr("Untitled design").toStdString();
    d.workload.model = {"Llama 3 8B", 32, 4096, 32};
    d.workload.model.kv_heads = 8;
    d.workload.model.ffn_hidden = 14336;
    d.workload.model.ffn_type = "swiglu";
    d.workload.model.vocab = 128256;
    d.workload.model.seq_len = 8192;
    d.workload.training.global_batch = 256;
    d.workload.training.tokens = 1e11;
    // FSDP, as an 8B model is trained on a node or a few (TorchTitan's
    // recipe): ZeRO-1's unsharded weights and gradients do not fit 80 GB.
    d.workload.parallelism.zero = 3;
    return d;
}

}  // namespace

MainWindow::MainWindow(QWidget* parent) : QMainWindow(parent)
{
    setWindowIcon(appIcon());
    doc_ = new DesignDocument(this);
    analysis_ = new AnalysisService(doc_, this);
    scene_ = new DesignScene(doc_, analysis_, this);
    view_ = new DesignView(scene_, this);
    setCentralWidget(view_);
    // An empty canvas offers the presets and recent files.
    start_ = new StartPage(view_->viewport());
    connect(start_, &StartPage::presetChosen, this, [this](const QString& path) {
        if (maybeSave())
            openPreset(path);
    });
    connect(start_, &StartPage::fileChosen, this, [this](const QString& path) {
        if (maybeSave())
            openFile(path);
    });
    connect(doc_, &DesignDocument::changed, this, [this] { start_->setVisible(doc_->design().components.empty()); });
    autosaver_ = new Autosaver(doc_, {}, this);
    connect(autosaver_, &Autosaver::failed, this, [this](const QString& error) {
        statusBar()->showMessage(tr("Autosave failed (%1): your unsaved changes are not backed up until it "
                                    "succeeds. Save them somewhere with room.")
                                     .arg(error));
    });
    watcher_ = new QFileSystemWatcher(this);
    connect(watcher_, &QFileSystemWatcher::fileChanged, this, &MainWindow::fileChangedOnDisk);

    createDocks();
    createActions();

    zoomLabel_ = new QLabel(this);
    statusBar()->addPermanentWidget(zoomLabel_);
    connect(view_, &DesignView::zoomChanged, this,
            [this](double z) { zoomLabel_->setText(tr("Zoom %1%").arg(qRound(z * 100))); });
    connect(scene_, &DesignScene::message, this, &MainWindow::status);
    connect(inspector_, &Inspector::message, this, &MainWindow::status);
    connect(doc_->undoStack(), &QUndoStack::cleanChanged, this, &MainWindow::updateTitle);
    connect(doc_, &DesignDocument::filePathChanged, this, [this] {
        updateTitle();
        watchFile();
    });
    connect(doc_, &DesignDocument::settingsChanged, this, &MainWindow::updateTitle);
    kpis_ = new KpiStrip(analysis_, this);
    statusBar()->addPermanentWidget(kpis_);

    QSettings stored;
    // A first start fills most of the screen, never more than it.
    const QRect screen = this->screen() ? this->screen()->availableGeometry() : QRect(0, 0, 1400, 880);
    resize(std::min(1400, screen.width()), std::min(880, screen.height()));
    restoreGeometry(stored.value(settings::kWindowGeometry).toByteArray());
    restoreState(stored.value(settings::kWindowState).toByteArray());
    autosaver_->setIntervalSeconds(stored.value(settings::kAutosaveInterval, 60).toInt());
    bool limitRead = false;
    const int undoLimit = stored.value(settings::kUndoLimit, settings::kDefaultUndoLimit).toInt(&limitRead);
    doc_->setUndoLimit(limitRead && undoLimit >= kMinUndoLimit && undoLimit <= kMaxUndoLimit
                           ? undoLimit
                           : settings::kDefaultUndoLimit);
    history_->refresh();
    newDesign();
    updateRecentMenu();
}

MainWindow::~MainWindow()
{
    // Views before what they show: the inspector and scene read the document,
    // and destroying the scene's items emits selection changes.
    delete inspector_;
    delete minimap_;
    delete view_;
    delete scene_;
    // The background runs' threads stop before what they were started from
    // goes (each panel owns its services).
    qDeleteAll(std::exchange(backgroundPanels_, {}));
    delete analysis_;
    // The document goes after this window's own part (it is a child): its
    // undo stack must not call back into a window that is no longer one.
    doc_->disconnect(this);
    doc_->undoStack()->disconnect(this);
}

void MainWindow::createDocks()
{
    auto dock = [this](const QString& title, const QString& name, QWidget* w, Qt::DockWidgetArea area) {
        auto* d = new QDockWidget(title, this);
        d->setObjectName(name);
        d->setWidget(w);
        addDockWidget(area, d);
        return d;
    };
    palette_ = new PartPalette(this);
    palette_->setCatalog(doc_->catalog());
    // Parts come and go with the catalog (a design's embedded parts, an
    // import, its undo).
    for (auto signal : {&DesignDocument::catalogChanged, &DesignDocument::designReset})
        connect(doc_, signal, palette_, [this] { palette_->setCatalog(doc_->catalog()); });
    auto* paletteDock = dock(tr("Parts"), "parts", palette_, Qt::LeftDockWidgetArea);
    minimap_ = new Minimap(view_, this);
    auto* overview = dock(tr("Overview"), "overview", minimap_, Qt::LeftDockWidgetArea);
    splitDockWidget(paletteDock, overview, Qt::Vertical);
    resizeDocks({paletteDock, overview}, {560, 200}, Qt::Vertical);

    inspector_ = new Inspector(doc_, scene_, this);
    auto* inspectorDock = dock(tr("Inspector"), "inspector", inspector_, Qt::RightDockWidgetArea);
    history_ = new HistoryPanel(doc_, this);
    auto* history = dock(tr("History"), "history", history_, Qt::RightDockWidgetArea);
    tabifyDockWidget(inspectorDock, history);
    inspectorDock->raise();

    warnings_ = new WarningsPanel(analysis_, this);
    auto* warningsDock = dock(tr("Warnings"), "warnings", warnings_, Qt::BottomDockWidgetArea);
    connect(warnings_, &WarningsPanel::componentActivated, this, [this](const QString& id) {
        scene_->selectComponents({id});
        if (ComponentItem* item = scene_->visibleItemFor(id))
            view_->centerOn(item);
    });
    // The analysis panels below the canvas and the palette; the inspector
    // and workload keep the window's full height on the right.
    setCorner(Qt::BottomLeftCorner, Qt::BottomDockWidgetArea);
    setCorner(Qt::BottomRightCorner, Qt::RightDockWidgetArea);
    analysisArea_ = new AnalysisArea(analysis_, this);
    auto* analysisDock = dock(tr("Analysis"), "analysis", analysisArea_, Qt::BottomDockWidgetArea);
    tabifyDockWidget(analysisDock, warningsDock);
    analysisDock->raise();
    workload_ = new WorkloadPanel(doc_, analysis_, this);
    auto* workloadDock = dock(tr("Workload"), "workload", workload_, Qt::RightDockWidgetArea);
    tabifyDockWidget(inspectorDock, workloadDock);
    tabifyDockWidget(workloadDock, history);
    inspectorDock->raise();
    connect(workload_, &WorkloadPanel::message, this, &MainWindow::status);

    // The background analyses beside them (the layout search, the scale
    // sweep, what limits the design, serving), a dock each; each runs only
    // while its dock shows, unless something else shows its result.
    QDockWidget* previous = analysisDock;
    for (const BackgroundEntry& entry : backgroundRegistry()) {
        BackgroundPanel* panel = entry.makePanel(doc_, analysis_, this);
        backgroundPanels_.push_back(panel);
        auto* d = dock(entry.title, entry.key, panel, Qt::BottomDockWidgetArea);
        tabifyDockWidget(previous, d);
        previous = d;
        connect(d, &QDockWidget::visibilityChanged, panel, &BackgroundPanel::setShown);
        connect(panel, &BackgroundPanel::message, this, &MainWindow::status);
    }
    analysisDock->raise();
    // The workload dock shows the current layout's rank and opens the Layouts.
    workload_->setLayoutSearch(layoutSearch());
    connect(workload_, &WorkloadPanel::layoutsRequested, this, [this] {
        auto* layoutsDock = findChild<QDockWidget*>("layouts");
        layoutsDock->show();
        layoutsDock->raise();
    });
    resizeDocks({paletteDock, inspectorDock}, {260, 360}, Qt::Horizontal);
    resizeDocks({analysisDock}, {360}, Qt::Vertical);
}

void MainWindow::createActions()
{
    auto* file = menuBar()->addMenu(tr("&File"));
    auto* edit = menuBar()->addMenu(tr("&Edit"));
    auto* viewMenu = menuBar()->addMenu(tr("&View"));
    auto* design = menuBar()->addMenu(tr("&Design"));
    auto* help = menuBar()->addMenu(tr("&Help"));
    auto* bar = addToolBar(tr("Main"));
    bar->setObjectName("mainToolbar");
    bar->setIconSize(QSize(20, 20));
    bar->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    auto action = [this](QMenu* menu, const QString& text, auto slot, QKeySequence key = {}) {
        auto* a = menu->addAction(text);
        if (!key.isEmpty())
            a->setShortcut(key);
        connect(a, &QAction::triggered, this, slot);
        return a;
    };
    auto std = [](QAction* a, QKeySequence::StandardKey k, const char* icon = nullptr) {
        a->setShortcuts(k);
        if (icon)
            a->setIcon(QIcon::fromTheme(icon));
        return a;
    };

    bar->addAction(std(action(file, tr("&New"),
                              [this] {
                                  if (maybeSave())
                                      newDesign();
                              }),
                       QKeySequence::New, "document-new"));
    action(
        file, tr("New from &Preset..."),
        [this] {
            if (!maybeSave())
                return;
            PresetDialog dialog(this);
            if (dialog.exec() == QDialog::Accepted && !dialog.selectedPreset().isEmpty())
                openPreset(dialog.selectedPreset());
        },
        QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_N));
    bar->addAction(std(action(file, tr("&Open..."),
                              [this] {
                                  if (!maybeSave())
                                      return;
                                  const QString path = QFileDialog::getOpenFileName(
                                      this, tr("Open Design"), QSettings().value(settings::kLastDir).toString(),
                                      tr("Cluster designs (*.cluster.json);;JSON files (*.json);;All files (*)"));
                                  if (!path.isEmpty())
                                      openFile(path);
                              }),
                       QKeySequence::Open, "document-open"));
    recentMenu_ = file->addMenu(tr("Open &Recent"));
    bar->addAction(std(action(file, tr("&Save"), [this] { save(); }), QKeySequence::Save, "document-save"));
    std(action(file, tr("Save &As..."), [this] { saveAs(); }), QKeySequence::SaveAs);
    action(file, tr("Re&vert"), [this] { revert(); });
    file->addSeparator();
    QAction* report = action(
        file, tr("Export &Report (PDF)..."), [this] { exportReport(); }, QKeySequence(Qt::CTRL | Qt::Key_E));
    report->setIconText(tr("Report"));
    report->setToolTip(tr("Write the design-review PDF: key figures, canvas, bill of materials, every analysis, "
                          "assumptions and sources (Ctrl+E)"));
    auto* exportMenu = file->addMenu(tr("E&xport For"));
    exportMenu->setToolTipsVisible(true);
    action(exportMenu, tr("&NetBox..."), [this] { exportFor(ExportTarget::NetBox); })
        ->setToolTip(tr("NetBox's import files in import order: manufacturers, roles, site, racks, device types "
                        "(YAML, with interface templates), devices at their rack units and cables, one row per item as "
                        "built (docs/export.md)"));
    action(exportMenu, tr("&Slurm Topology..."), [this] { exportFor(ExportTarget::Slurm); })
        ->setToolTip(tr("topology.conf for Slurm's tree plugin (and its block plugin when NVLink domains span "
                        "nodes), named as the design is built (docs/export.md)"));
    action(exportMenu, tr("&Calculon..."), [this] { exportFor(ExportTarget::Calculon); })
        ->setToolTip(tr("Calculon's model, system and execution JSON for a training design, and a README.md with "
                        "the command and what Calculon cannot represent (docs/export.md)"));
    auto* importMenu = file->addMenu(tr("&Import From"));
    importMenu->setToolTipsVisible(true);
    action(importMenu, tr("&Calculon..."), [this] { importCalculon(); })
        ->setToolTip(tr("Open Calculon's system, model and execution JSON as a new design: the processor as the GPU, "
                        "the first network as the NVLink domain, the rest as a fat tree (docs/export.md)"));
    action(importMenu, tr("&NetBox Device Types..."), [this] { importDeviceTypes(); })
        ->setToolTip(tr("Add device types from NetBox's device-type library (YAML) to the design's parts: switches, or "
                        "servers as nodes of a GPU you choose; they join the palette and travel with the file"));
    auto* kernels = file->addMenu(tr("&Kernel Profile"));
    kernels->setToolTipsVisible(true);
    action(kernels, tr("&Published Tables (built in)"), [this] {
        useKernels(QString());
    })->setToolTip(tr("NVIDIA AIConfigurator's measured kernels for A100, H100, H200, B200 and GB200"));
    action(kernels, tr("&Measured Profile..."), [this] {
        const QString path =
            QFileDialog::getOpenFileName(this, tr("Kernel Profile"), QSettings().value(settings::kLastDir).toString(),
                                         tr("Kernel profiles (*.kernels.json *.json);;All files (*)"));
        if (path.isEmpty())
            return;
        if (const auto problems = useKernels(path); hasErrors(problems))
            showProblems(tr("Cannot use kernel profile"), path, problems);
    })->setToolTip(tr("A profile tools/collect-kernels.py measured on your own GPUs"));
    action(kernels, tr("&Catalog Factors Only"), [this] {
        useKernels(QStringLiteral("none"));
    })->setToolTip(tr("Every kernel at the catalog's one efficiency per GPU"));
    auto* pageMenu = file->addMenu(tr("Report &Page Size"));
    auto* pageGroup = new QActionGroup(this);
    for (const QString& name : {QStringLiteral("A4"), QStringLiteral("Letter")}) {
        QAction* a = pageMenu->addAction(name);
        a->setCheckable(true);
        a->setChecked(preferredPageSizeName() == name.toLower());
        pageGroup->addAction(a);
        connect(a, &QAction::triggered, this, [name] { setPreferredPageSize(name.toLower()); });
    }
    QAction* compare = action(
        file, tr("Compare &Designs..."), [this] { showCompare(); }, QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_C));
    compare->setIconText(tr("Compare"));
    compare->setToolTip(tr("Put this design beside others (files, presets): key figures with differences, the "
                           "charts overlaid, bills of materials (Ctrl+Shift+C)"));
    file->addSeparator();
    std(action(file, tr("&Close"),
               [this] {
                   if (maybeSave())
                       newDesign();
               }),
        QKeySequence::Close);
    file->addSeparator();
    std(action(file, tr("&Quit"), [this] { close(); }), QKeySequence::Quit);

    undo_ = doc_->undoStack()->createUndoAction(this, tr("&Undo"));
    undo_->setShortcuts(QKeySequence::Undo);
    undo_->setIcon(QIcon::fromTheme("edit-undo"));
    redo_ = doc_->undoStack()->createRedoAction(this, tr("&Redo"));
    redo_->setShortcuts(QKeySequence::Redo);
    redo_->setIcon(QIcon::fromTheme("edit-redo"));

    edit->addAction(undo_);
    edit->addAction(redo_);
    bar->addSeparator();
    // The toolbar's buttons say "Undo" and "Redo" whatever the step: the
    // stack's own actions rename themselves on every edit, and a toolbar
    // lays the whole window out again whenever one of its actions changes.
    // The Edit menu names the step.
    for (auto [text, icon, slot, can] :
         {std::tuple{tr("Undo"), "edit-undo", &QUndoStack::undo, &QUndoStack::canUndoChanged},
          std::tuple{tr("Redo"), "edit-redo", &QUndoStack::redo, &QUndoStack::canRedoChanged}}) {
        auto* button = bar->addAction(QIcon::fromTheme(icon), text);
        connect(button, &QAction::triggered, doc_->undoStack(), slot);
        connect(doc_->undoStack(), can, button, &QAction::setEnabled);
        button->setEnabled(false);
    }
    edit->addSeparator();
    std(action(edit, tr("Cu&t"), [this] { cut(); }), QKeySequence::Cut);
    std(action(edit, tr("&Copy"), [this] { copy(); }), QKeySequence::Copy);
    std(action(edit, tr("&Paste"), [this] { paste(); }), QKeySequence::Paste);
    action(
        edit, tr("D&uplicate"), [this] { duplicate(); }, QKeySequence(Qt::CTRL | Qt::Key_D));
    std(action(edit, tr("&Delete"), [this] { scene_->removeSelection(); }), QKeySequence::Delete);
    edit->addSeparator();
    std(action(edit, tr("Select &All"),
               [this] {
                   for (QGraphicsItem* i : scene_->items())
                       if (i->isVisible() && (i->flags() & QGraphicsItem::ItemIsSelectable))
                           i->setSelected(true);
               }),
        QKeySequence::SelectAll);
    std(action(edit, tr("&Find..."), [this] { find(); }), QKeySequence::Find);
    edit->addSeparator();
    action(edit, tr("Autosave &Interval..."), [this] { setAutosaveInterval(); });
    action(edit, tr("Undo &History Limit..."), [this] { setUndoLimit(); });

    bar->addSeparator();
    bar->addAction(std(action(viewMenu, tr("Zoom &In"), [this] { view_->zoomIn(); }), QKeySequence::ZoomIn, "zoom-in"));
    bar->addAction(
        std(action(viewMenu, tr("Zoom &Out"), [this] { view_->zoomOut(); }), QKeySequence::ZoomOut, "zoom-out"));
    auto* fit = action(
        viewMenu, tr("Zoom to &Fit"), [this] { view_->zoomToFit(); }, QKeySequence(Qt::CTRL | Qt::Key_0));
    fit->setIcon(QIcon::fromTheme("zoom-fit-best"));
    bar->addAction(fit);
    action(
        viewMenu, tr("Zoom &100%"), [this] { view_->zoomTo100(); }, QKeySequence(Qt::CTRL | Qt::Key_1));
    viewMenu->addSeparator();
    snap_ = action(viewMenu, tr("&Snap to Grid"), [this](bool on) {
        scene_->setSnapToGrid(on);
        QSettings().setValue(settings::kSnap, on);
    });
    snap_->setCheckable(true);
    snap_->setChecked(QSettings().value(settings::kSnap, true).toBool());
    scene_->setSnapToGrid(snap_->isChecked());
    dark_ = action(viewMenu, tr("&Dark Theme"), [this](bool on) {
        applyTheme(on ? Theme::Dark : Theme::Light);
        QSettings().setValue(settings::kTheme, themeName(currentTheme()));
        scene_->update();
        minimap_->refreshNow();
    });
    dark_->setCheckable(true);
    dark_->setChecked(currentTheme() == Theme::Dark);
    auto* layoutMenu = viewMenu->addMenu(tr("&Analysis Panels"));
    auto* layoutGroup = new QActionGroup(this);
    for (const auto& [text, mode] :
         {std::pair{tr("As &Tabs"), AnalysisArea::Mode::Tabs}, std::pair{tr("As a &Grid"), AnalysisArea::Mode::Grid}}) {
        QAction* a = layoutMenu->addAction(text);
        a->setCheckable(true);
        a->setChecked(analysisArea_->mode() == mode);
        layoutGroup->addAction(a);
        connect(a, &QAction::triggered, this, [this, mode = mode] { analysisArea_->setMode(mode); });
        connect(analysisArea_, &AnalysisArea::modeChanged, a,
                [a, mode = mode](AnalysisArea::Mode m) { a->setChecked(m == mode); });
    }
    viewMenu->addSeparator();
    for (QDockWidget* d : findChildren<QDockWidget*>())
        viewMenu->addAction(d->toggleViewAction());

    auto* gen = action(
        design, tr("&Generate Fabric..."), [this] { generateFabric(); },
        QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_G));
    gen->setIcon(partIcon(PartKind::Fabric));
    bar->addSeparator();
    bar->addAction(gen);
    bar->addSeparator();
    bar->addAction(compare);
    bar->addAction(report);
    auto* alignMenu = design->addMenu(tr("&Align"));
    for (const auto& [text, how] :
         {std::pair{tr("&Left Edges"), Alignment::Left}, std::pair{tr("&Right Edges"), Alignment::Right},
          std::pair{tr("&Top Edges"), Alignment::Top}, std::pair{tr("&Bottom Edges"), Alignment::Bottom},
          std::pair{tr("Centers in a &Row"), Alignment::CentersInRow},
          std::pair{tr("Centers in a &Column"), Alignment::CentersInColumn}})
        action(alignMenu, text,
               [this, how = how] { explainRefusal(scene_->editor().align(selectedSizedItems(), how)); });
    auto* distributeMenu = design->addMenu(tr("D&istribute"));
    for (const auto& [text, how] : {std::pair{tr("&Horizontally (equal gaps)"), Distribution::Horizontal},
                                    std::pair{tr("&Vertically (equal gaps)"), Distribution::Vertical}})
        action(distributeMenu, text,
               [this, how = how] { explainRefusal(scene_->editor().distribute(selectedSizedItems(), how)); });
    action(
        design, tr("Collapse or &Expand"),
        [this] {
            std::vector<std::string> ids;
            for (const QString& id : scene_->selectedComponentIds())
                ids.push_back(id.toStdString());
            explainRefusal(scene_->editor().toggleCollapsed(ids));
        },
        QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_E));

    action(help, tr("&About Cluster Studio"), [this] {
        QMessageBox::about(this, tr("About Cluster Studio"),
                           tr("<h3>Cluster Studio %1</h3><p>A design studio for GPU clusters for AI training. Every "
                              "number comes from a formula in the analytic core (docs/model.md) and a sourced figure "
                              "in the catalog.</p>")
                               .arg(QCoreApplication::applicationVersion()));
    });
}

void MainWindow::updateTitle()
{
    const QString path = doc_->filePath();
    const QString name = path.isEmpty() ? q(doc_->design().name) : QFileInfo(path).fileName();
    setWindowTitle(tr("%1[*] - Cluster Studio").arg(name));
    setWindowModified(doc_->isModified());
}

void MainWindow::status(const QString& text)
{
    statusBar()->showMessage(text, 8000);
}

void MainWindow::newDesign()
{
    doc_->reset(emptyDesign(), std::make_shared<Catalog>(Catalog::builtin()), QString());
    updateTitle();
}

void MainWindow::waitForBackgroundRuns()
{
    for (BackgroundPanel* panel : backgroundPanels_)
        for (BackgroundJob* job : panel->jobs())
            job->waitForIdle();
}

BackgroundPanel* MainWindow::backgroundPanel(const QString& key) const
{
    for (std::size_t i = 0; i < backgroundPanels_.size(); ++i)
        if (backgroundRegistry()[i].key == key)
            return backgroundPanels_[i];
    return nullptr;
}

LayoutsPanel* MainWindow::layouts() const
{
    return qobject_cast<LayoutsPanel*>(backgroundPanel("layouts"));
}

LayoutSearchService* MainWindow::layoutSearch() const
{
    return layouts()->search();
}

ScalePanel* MainWindow::scale() const
{
    return qobject_cast<ScalePanel*>(backgroundPanel("scale"));
}

ScaleSweepService* MainWindow::scaleSweep() const
{
    return scale()->sweep();
}

SensitivityPanel* MainWindow::sensitivity() const
{
    return qobject_cast<SensitivityPanel*>(backgroundPanel("sensitivity"));
}

SensitivityService* MainWindow::sensitivityService() const
{
    return sensitivity()->service();
}

UpgradesService* MainWindow::upgradesService() const
{
    return sensitivity()->upgradesService();
}

ServingPanel* MainWindow::serving() const
{
    return qobject_cast<ServingPanel*>(backgroundPanel("serving"));
}

bool MainWindow::openFile(const QString& path)
{
    std::vector<Problem> problems;
    if (!doc_->load(path, Catalog::builtin(), &problems)) {
        showProblems(tr("Cannot open design"), path, problems);
        return false;
    }
    // The kernel profile the design was last analysed with; one that no
    // longer reads is dropped with a word in the status bar.
    const QString kernels =
        QSettings().value(settings::kKernelProfiles).toMap().value(QFileInfo(path).absoluteFilePath()).toString();
    if (!kernels.isEmpty() && hasErrors(useKernels(kernels)))
        status(tr("The kernel profile %1 no longer reads: the published tables are used").arg(kernels));
    // Saves killed mid-write in this folder (by a crash, a power cut) left
    // their temporary files: the designs are whole, the files never read.
    const QStringList leftovers = removeSaveLeftovers(QFileInfo(path).absolutePath());
    if (!leftovers.isEmpty())
        status(leftovers.size() == 1
                   ? tr("Removed %1, left beside the design by a save that was interrupted").arg(leftovers.front())
                   : tr("Removed %1 files left beside designs by saves that were interrupted").arg(leftovers.size()));
    addRecent(path);
    QSettings().setValue(settings::kLastDir, QFileInfo(path).absolutePath());
    updateTitle();
    QTimer::singleShot(0, view_, &DesignView::zoomToFit);
    raisePanelsForWorkload();
    return true;
}

void MainWindow::raisePanelsForWorkload()
{
    const WorkloadKind kind = doc_->design().workload.kindOf();
    for (const BackgroundEntry& entry : backgroundRegistry())
        if (entry.raisedFor == kind)
            findChild<QDockWidget*>(entry.key)->raise();
}

bool MainWindow::openPreset(const QString& resourcePath)
{
    DesignLoad loaded = loadPreset(resourcePath);
    if (!loaded.ok()) {
        showProblems(tr("Cannot open preset"), resourcePath, loaded.problems);
        return false;
    }
    // A preset opens as a new, unsaved design.
    doc_->reset(std::move(*loaded.design), loaded.catalog, QString());
    doc_->undoStack()->resetClean();
    updateTitle();
    QTimer::singleShot(0, view_, &DesignView::zoomToFit);
    raisePanelsForWorkload();
    return true;
}

std::vector<Problem> MainWindow::useKernels(const QString& choice)
{
    auto catalog = std::make_shared<Catalog>(doc_->catalog());
    catalog->useKernelsOf(Catalog::builtin());
    std::vector<Problem> problems;
    if (choice == QStringLiteral("none"))
        catalog->clearKernels();
    else if (!choice.isEmpty())
        problems = catalog->mergeKernelsFile(choice.toStdString());
    if (hasErrors(problems))
        return problems;
    doc_->setCatalog(catalog);
    if (!doc_->filePath().isEmpty() && !doc_->filePath().startsWith(':')) {
        QSettings store;
        QVariantMap byDesign = store.value(settings::kKernelProfiles).toMap();
        const QString design = QFileInfo(doc_->filePath()).absoluteFilePath();
        if (choice.isEmpty())
            byDesign.remove(design);
        else
            byDesign.insert(design, choice);
        store.setValue(settings::kKernelProfiles, byDesign);
    }
    status(choice.isEmpty()                       ? tr("Kernels at the published measured tables")
               : choice == QStringLiteral("none") ? tr("Kernels at the catalog's factors")
                                                  : tr("Kernels at the profile %1").arg(choice));
    return problems;
}

void MainWindow::showProblems(const QString& title, const QString& path, const std::vector<Problem>& problems)
{
    QStringList lines;
    for (const auto& p : problems)
        lines << q(formatProblem(QFileInfo(path).fileName().toStdString(), p));
    QMessageBox box(QMessageBox::Warning, title, tr("%1 could not be opened.").arg(path), QMessageBox::Ok, this);
    box.setInformativeText(lines.mid(0, 12).join('\n') +
                           (lines.size() > 12 ? tr("\n... and %1 more").arg(lines.size() - 12) : QString()));
    box.exec();
}

bool MainWindow::maybeSave()
{
    if (!doc_->isModified())
        return true;
    const auto answer = QMessageBox::warning(this, tr("Unsaved changes"),
                                             tr("'%1' has unsaved changes. Save them?").arg(q(doc_->design().name)),
                                             QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel);
    if (answer == QMessageBox::Save)
        return save();
    return answer == QMessageBox::Discard;
}

bool MainWindow::save()
{
    if (doc_->filePath().isEmpty() || doc_->filePath().startsWith(':'))
        return saveAs();
    if (doc_->fileChangedOnDisk()) {
        // Another program (or another studio) rewrote the file since we read
        // or wrote it: saving would silently drop its version.
        QMessageBox box(
            QMessageBox::Warning, tr("File changed on disk"),
            tr("%1 was changed by another program after you opened or last saved it.").arg(doc_->filePath()),
            QMessageBox::NoButton, this);
        box.setObjectName(QStringLiteral("fileChangedOnDisk"));
        box.setInformativeText(tr("Saving replaces its contents with this design. Save As keeps both."));
        auto* overwrite = box.addButton(tr("Overwrite"), QMessageBox::DestructiveRole);
        auto* elsewhere = box.addButton(tr("Save As..."), QMessageBox::AcceptRole);
        box.addButton(QMessageBox::Cancel);
        box.setDefaultButton(elsewhere);
        box.exec();
        if (box.clickedButton() == static_cast<QAbstractButton*>(elsewhere))
            return saveAs();
        if (box.clickedButton() != static_cast<QAbstractButton*>(overwrite))
            return false;
    }
    return writeTo(doc_->filePath());
}

bool MainWindow::saveAs()
{
    QString suggested = doc_->filePath();
    if (suggested.isEmpty() || suggested.startsWith(':'))
        suggested = QSettings().value(settings::kLastDir).toString() + "/" + q(doc_->design().name) + ".cluster.json";
    QString path =
        QFileDialog::getSaveFileName(this, tr("Save Design"), suggested, tr("Cluster designs (*.cluster.json)"));
    if (path.isEmpty())
        return false;
    if (!path.endsWith(".json"))
        path += ".cluster.json";
    return writeTo(path);
}

bool MainWindow::writeTo(const QString& path)
{
    QString error;
    if (!doc_->saveAs(path, &error)) {
        // The document keeps its changes and the old file is untouched:
        // say so, so nobody closes the window thinking the work is gone.
        QMessageBox box(QMessageBox::Critical, tr("Cannot save"), error, QMessageBox::Ok, this);
        box.setObjectName(QStringLiteral("cannotSave"));
        box.setInformativeText(tr("The design is still open with all its changes, and the file on disk is as it "
                                  "was. Free some space or use Save As to write it somewhere else."));
        box.exec();
        return false;
    }
    autosaver_->discard();
    addRecent(path);
    status(tr("Saved %1").arg(path));
    return true;
}

void MainWindow::revert()
{
    if (doc_->filePath().isEmpty() || !doc_->isModified())
        return;
    if (QMessageBox::question(this, tr("Revert"), tr("Discard your changes and reload %1?").arg(doc_->filePath())) ==
        QMessageBox::Yes)
        openFile(doc_->filePath());
}

bool MainWindow::exportReport(QString path)
{
    if (!analysis_->analysis()) {
        QMessageBox::warning(this, tr("Cannot write a report"),
                             tr("The design has errors (see the Warnings dock). Fix them, then export the report."));
        return false;
    }
    if (path.isEmpty()) {
        const QFileInfo source(doc_->filePath());
        const QString base = doc_->filePath().isEmpty() || doc_->filePath().startsWith(':')
            ? q(doc_->design().name)
            : source.fileName().section('.', 0, 0);
        path = QFileDialog::getSaveFileName(
            this, tr("Export Report"),
            QSettings().value(settings::kLastReportDir, QSettings().value(settings::kLastDir)).toString() + "/" + base +
                ".pdf",
            tr("PDF documents (*.pdf)"));
        if (path.isEmpty())
            return false;
        if (!path.endsWith(".pdf", Qt::CaseInsensitive))
            path += ".pdf";
        QSettings().setValue(settings::kLastReportDir, QFileInfo(path).absolutePath());
    }
    ReportOptions options;
    options.pageSize = preferredPageSize();
    options.source = doc_->filePath().startsWith(':') ? QString() : doc_->filePath();
    // Modal, so the design cannot change under the report; it shows only
    // if the report takes long enough to notice.
    QProgressDialog progress(tr("Writing %1...").arg(QFileInfo(path).fileName()), tr("Cancel"), 0, 100, this);
    progress.setWindowModality(Qt::WindowModal);
    progress.setMinimumDuration(200);
    QString error;
    const bool ok =
        writeDesignReport(doc_->design(), doc_->catalogPtr(), path, options, &error, [&](int done, int total) {
            progress.setMaximum(total);
            progress.setValue(done);
            // While the review waits for its pages' work off this thread it
            // calls again with the same value, which setValue ignores: the
            // window still repaints, and Cancel still answers.
            QCoreApplication::processEvents();
            return !progress.wasCanceled();
        });
    progress.reset();
    if (!ok) {
        if (!progress.wasCanceled())
            QMessageBox::critical(this, tr("Cannot write the report"), error);
        return false;
    }
    status(tr("Wrote the report %1").arg(path));
    return true;
}

bool MainWindow::exportFor(ExportTarget target, QString dir)
{
    if (!analysis_->analysis()) {
        QMessageBox::warning(this, tr("Cannot export"),
                             tr("The design has errors (see the Warnings dock). Fix them, then export."));
        return false;
    }
    const DesignExport exported = exportDesign(doc_->design(), doc_->catalog(), target);
    if (!exported.error.empty()) {
        QMessageBox::warning(this, tr("Cannot export"), q(exported.error));
        return false;
    }
    const bool asked = dir.isEmpty();
    if (asked) {
        dir = QFileDialog::getExistingDirectory(
            this, tr("Export For %1: Folder").arg(exportTargetTitle(target)),
            QSettings().value(settings::kLastReportDir, QSettings().value(settings::kLastDir)).toString());
        if (dir.isEmpty())
            return false;
        QSettings().setValue(settings::kLastReportDir, dir);
    }
    QStringList names, existing;
    for (const ExportedFile& f : exported.files) {
        names << q(f.name);
        if (QFileInfo::exists(QDir(dir).filePath(q(f.name))))
            existing << q(f.name);
    }
    if (asked && !existing.isEmpty() &&
        QMessageBox::question(
            this, tr("Replace Files"),
            tr("%1 already holds %2. Replace?").arg(QDir::toNativeSeparators(dir), existing.join(", "))) !=
            QMessageBox::Yes)
        return false;
    for (const ExportedFile& f : exported.files) {
        QString error;
        if (!writeAtomically(QDir(dir).filePath(q(f.name)), QByteArrayView(f.text.data(), qsizetype(f.text.size())),
                             &error)) {
            QMessageBox::critical(this, tr("Cannot export"), error);
            return false;
        }
    }
    status(tr("Wrote %1 to %2").arg(names.join(", "), QDir::toNativeSeparators(dir)));
    if (asked && !exported.notes.empty()) {
        QStringList notes;
        for (const std::string& n : exported.notes)
            notes << q(n);
        QMessageBox box(QMessageBox::Information, tr("Exported For %1").arg(exportTargetTitle(target)),
                        tr("Wrote %1 to %2. What the files approximate (also in README.md):")
                            .arg(names.join(", "), QDir::toNativeSeparators(dir)),
                        QMessageBox::Ok, this);
        box.setDetailedText(notes.join("\n\n"));
        box.exec();
    }
    return true;
}

bool MainWindow::importCalculon(QStringList files)
{
    const bool asked = files.isEmpty();
    if (asked) {
        if (!maybeSave())
            return false;
        files = QFileDialog::getOpenFileNames(this, tr("Import From Calculon: System, Model and Execution"),
                                              QSettings().value(settings::kLastDir).toString(),
                                              tr("Calculon JSON (*.json);;All files (*)"));
        if (files.isEmpty())
            return false;
    }
    std::vector<std::string> paths;
    for (const QString& f : files)
        paths.push_back(f.toStdString());
    const CalculonImport imported = importCalculonFiles(paths);
    if (!imported.ok()) {
        QStringList errors;
        for (const std::string& e : imported.errors)
            errors << q(e);
        QMessageBox box(QMessageBox::Warning, tr("Cannot Import"),
                        tr("Nothing was imported. What is wrong, by file and place:"), QMessageBox::Ok, this);
        box.setDetailedText(errors.join("\n"));
        if (asked)
            box.exec();
        status(errors.front());
        return false;
    }
    DesignLoad loaded = readDesignJson(*imported.design, Catalog::builtin());
    doc_->reset(std::move(*loaded.design), loaded.catalog, QString());
    doc_->undoStack()->resetClean();
    updateTitle();
    QTimer::singleShot(0, view_, &DesignView::zoomToFit);
    raisePanelsForWorkload();
    status(tr("Imported %1 from Calculon as a new design, with %2 notes on what it left out or assumed")
               .arg(q(doc_->design().name))
               .arg(imported.notes.size()));
    if (asked && !imported.notes.empty()) {
        QStringList notes;
        for (const std::string& n : imported.notes)
            notes << q(n);
        QMessageBox box(QMessageBox::Information, tr("Imported From Calculon"),
                        tr("The design is new and unsaved. What the studio left out or assumed:"), QMessageBox::Ok,
                        this);
        box.setDetailedText(notes.join("\n\n"));
        box.exec();
    }
    return true;
}

bool MainWindow::importDeviceTypes(QStringList files, QString accelerator)
{
    const bool asked = files.isEmpty();
    if (asked) {
        files = QFileDialog::getOpenFileNames(this, tr("Import NetBox Device Types"),
                                              QSettings().value(settings::kLastDir).toString(),
                                              tr("Device types (*.yaml *.yml *.json);;All files (*)"));
        if (files.isEmpty())
            return false;
        // Switches, or servers of one of the catalog's accelerators.
        QStringList kinds{tr("Switches")};
        std::vector<std::string> ids{""};
        for (const Part& p : doc_->catalog().parts())
            if (p.kind == PartKind::Accelerator) {
                kinds << tr("Servers with %1").arg(q(p.name));
                ids.push_back(p.id);
            }
        bool ok = false;
        const QString kind = QInputDialog::getItem(this, tr("Import NetBox Device Types"), tr("The device types are:"),
                                                   kinds, 0, false, &ok);
        if (!ok)
            return false;
        accelerator = q(ids[std::size_t(kinds.indexOf(kind))]);
    }
    std::vector<std::string> paths;
    for (const QString& f : files)
        paths.push_back(f.toStdString());
    const DeviceTypeImport imported =
        importNetBoxDeviceTypeFiles(paths, doc_->catalog(), {accelerator.toStdString(), ""});
    QStringList lines;
    for (const std::string& e : imported.ok() ? imported.notes : imported.errors)
        lines << q(e);
    if (!imported.ok()) {
        if (asked) {
            QMessageBox box(QMessageBox::Warning, tr("Cannot Import"),
                            tr("Nothing was imported. What is wrong, by file and place:"), QMessageBox::Ok, this);
            box.setDetailedText(lines.join("\n"));
            box.exec();
        }
        status(lines.front());
        return false;
    }
    const std::size_t count = (*imported.catalog)["parts"].size();
    const EditResult r = scene_->editor().addParts(
        *imported.catalog, count == 1 ? tr("Import a Device Type") : tr("Import %1 Device Types").arg(count));
    if (r.refused()) {
        explainRefusal(r);
        return false;
    }
    status(count == 1 ? tr("Added a part from a NetBox device type to the palette")
                      : tr("Added %1 parts from NetBox device types to the palette").arg(count));
    if (asked && !lines.isEmpty()) {
        QMessageBox box(QMessageBox::Information, tr("Imported NetBox Device Types"),
                        tr("The parts are in the palette and travel with the design. What was left out or assumed:"),
                        QMessageBox::Ok, this);
        box.setDetailedText(lines.join("\n\n"));
        box.exec();
    }
    return true;
}

CompareWindow* MainWindow::showCompare()
{
    if (!compare_) {
        compare_ = new CompareWindow(this);
        compare_->setWindowFlag(Qt::Window);
        compare_->setOpenDocumentProvider([this]() -> std::optional<CompareWindow::OpenDocument> {
            if (!analysis_->analysis())
                return std::nullopt;
            return CompareWindow::OpenDocument{doc_->design(), doc_->catalogPtr()};
        });
        // Start from the design being edited, kept current as it is edited
        // (a burst of edits updates it once); the user adds the others.
        if (analysis_->analysis())
            compare_->addDesign(doc_->design(), doc_->catalogPtr(), CompareWindow::liveSource());
        auto* follow = new QTimer(compare_);
        follow->setSingleShot(true);
        follow->setInterval(150);
        connect(follow, &QTimer::timeout, compare_,
                [this] { compare_->updateOpenDocument(doc_->design(), doc_->catalogPtr()); });
        connect(analysis_, &AnalysisService::updated, follow, [this, follow] {
            if (compare_->isVisible())
                follow->start();
        });
    } else {
        compare_->updateOpenDocument(doc_->design(), doc_->catalogPtr());  // edits made while it was closed
    }
    compare_->show();
    compare_->raise();
    compare_->activateWindow();
    return compare_;
}

void MainWindow::addRecent(const QString& path)
{
    QSettings s;
    QStringList recent = s.value(settings::kRecentFiles).toStringList();
    recent.removeAll(path);
    recent.prepend(path);
    while (recent.size() > kMaxRecent)
        recent.removeLast();
    s.setValue(settings::kRecentFiles, recent);
    updateRecentMenu();
}

void MainWindow::updateRecentMenu()
{
    recentMenu_->clear();
    const QStringList recent = QSettings().value(settings::kRecentFiles).toStringList();
    for (const QString& path : recent)
        connect(recentMenu_->addAction(QFileInfo(path).fileName() + "  (" + QFileInfo(path).absolutePath() + ")"),
                &QAction::triggered, this, [this, path] {
                    if (maybeSave())
                        openFile(path);
                });
    recentMenu_->setEnabled(!recent.isEmpty());
    start_->setRecentFiles(recent);
}

void MainWindow::resizeEvent(QResizeEvent* event)
{
    QMainWindow::resizeEvent(event);
    fitRightDocks();
}

void MainWindow::showEvent(QShowEvent* event)
{
    QMainWindow::showEvent(event);
    // Once the docks are laid out at the size the window opens at.
    QTimer::singleShot(0, this, &MainWindow::fitRightDocks);
}

// Qt keeps the right-hand column's width as the window narrows, even once
// the docks below the canvas (which span the rest of the width) get less than
// their content needs: they then draw over the column (the Inspector under
// the Analysis dock on a 1,100-pixel-wide screen). The column gives up the
// width they need, down to its own minimum.
void MainWindow::fitRightDocks()
{
    int below = 0;
    QDockWidget* right = nullptr;
    for (QDockWidget* d : findChildren<QDockWidget*>()) {
        // Tabbed docks count (their tab may be raised); closed ones do not.
        if (d->isFloating() || !d->toggleViewAction()->isChecked())
            continue;
        if (dockWidgetArea(d) == Qt::BottomDockWidgetArea)
            below = std::max(below, d->minimumSizeHint().width());
        else if (dockWidgetArea(d) == Qt::RightDockWidgetArea && d->isVisible())
            right = d;
    }
    if (!right || below == 0)
        return;
    const int room = width() - below - style()->pixelMetric(QStyle::PM_DockWidgetSeparatorExtent, nullptr, this);
    if (right->width() > room)
        resizeDocks({right}, {std::max(room, right->minimumSizeHint().width())}, Qt::Horizontal);
}

void MainWindow::closeEvent(QCloseEvent* event)
{
    if (!maybeSave()) {
        event->ignore();
        return;
    }
    QSettings s;
    s.setValue(settings::kWindowGeometry, saveGeometry());
    s.setValue(settings::kWindowState, saveState());
    autosaver_->discard();
    event->accept();
}

void MainWindow::offerRecovery()
{
    // Several windows may have died (each autosaves on its own): each design
    // is offered in turn until one is restored into this window or the user
    // puts them off; what is left waits for the next start, never dropped.
    const auto found = Autosaver::abandoned();
    for (qsizetype i = 0; i < found.size(); ++i) {
        const RecoverableDesign& r = found[i];
        QMessageBox box(QMessageBox::Question, tr("Recover unsaved work"),
                        tr("Cluster Studio did not close normally. '%1' has unsaved changes autosaved at %2.")
                            .arg(r.name, QLocale().toString(r.savedAt.toLocalTime(), QLocale::ShortFormat)),
                        QMessageBox::NoButton, this);
        box.setObjectName(QStringLiteral("recoverUnsavedWork"));
        QString details = r.originalPath.isEmpty() ? tr("The design had not been saved yet.")
                                                   : tr("Its file: %1").arg(r.originalPath);
        const qsizetype after = found.size() - i - 1;
        if (after == 1)
            details += "\n\n" + tr("One more autosaved design is waiting after this one.");
        else if (after > 1)
            details += "\n\n" + tr("%1 more autosaved designs are waiting after this one.").arg(after);
        box.setInformativeText(details);
        auto* restore = box.addButton(tr("Restore"), QMessageBox::AcceptRole);
        auto* discard = box.addButton(tr("Discard"), QMessageBox::DestructiveRole);
        box.addButton(tr("Later"), QMessageBox::RejectRole);
        box.exec();
        if (box.clickedButton() == static_cast<QAbstractButton*>(restore)) {
            QString error;
            if (!Autosaver::restore(r, doc_, &error))
                QMessageBox::warning(this, tr("Cannot recover"), error);
            updateTitle();
            QTimer::singleShot(0, view_, &DesignView::zoomToFit);
            if (after == 1)
                statusBar()->showMessage(tr("One more autosaved design is offered the next time the studio starts."));
            else if (after > 1)
                statusBar()->showMessage(
                    tr("%1 more autosaved designs are offered the next time the studio starts.").arg(after));
            return;
        }
        if (box.clickedButton() != static_cast<QAbstractButton*>(discard))
            return;  // Later: all of them stay for the next start
        Autosaver::discardAbandoned(r);
    }
}

void MainWindow::setAutosaveInterval()
{
    bool ok = false;
    const int seconds = QInputDialog::getInt(this, tr("Autosave"), tr("Autosave every (seconds):"),
                                             autosaver_->intervalSeconds(), 5, 3600, 5, &ok);
    if (!ok)
        return;
    autosaver_->setIntervalSeconds(seconds);
    QSettings().setValue(settings::kAutosaveInterval, seconds);
}

void MainWindow::setUndoLimit()
{
    bool ok = false;
    const int steps =
        QInputDialog::getInt(this, tr("Undo History"),
                             tr("Steps the undo history keeps, the oldest dropped beyond them.\n"
                                "With steps in the history, a new limit applies from the next design opened."),
                             doc_->undoLimit(), kMinUndoLimit, kMaxUndoLimit, 100, &ok);
    if (!ok)
        return;
    doc_->setUndoLimit(steps);
    history_->refresh();
    QSettings().setValue(settings::kUndoLimit, steps);
}

void MainWindow::watchFile()
{
    if (!watcher_->files().isEmpty())
        watcher_->removePaths(watcher_->files());
    if (!doc_->filePath().isEmpty() && !doc_->filePath().startsWith(':'))
        watcher_->addPath(doc_->filePath());
}

void MainWindow::fileChangedOnDisk(const QString& path)
{
    // An atomic save replaces the file, so the watch is re-added either
    // way; our own saves leave the content we wrote and ask nothing.
    watchFile();
    if (path != doc_->filePath() || !doc_->fileChangedOnDisk())
        return;
    const QString question = doc_->isModified()
        ? tr("%1 was changed by another program. Reload it and lose your unsaved changes?")
        : tr("%1 was changed by another program. Reload it?");
    QMessageBox box(QMessageBox::Question, tr("File changed on disk"), question.arg(path),
                    QMessageBox::Yes | QMessageBox::No, this);
    box.setObjectName(QStringLiteral("fileChangedReload"));
    if (box.exec() == QMessageBox::Yes)
        openFile(path);
}

// --- clipboard: a fragment of the design, as JSON, between windows.

Fragment MainWindow::selectedFragment() const
{
    // The selected components with everything inside them, and the links
    // that touch them (a link to an item outside is kept when pasted into a
    // design that has that item).
    const Design& d = doc_->design();
    std::set<std::string> ids;
    for (const QString& id : scene_->selectedComponentIds())
        ids.insert(id.toStdString());
    for (bool grew = true; grew;) {
        grew = false;
        for (const auto& c : d.components)
            if (ids.count(c.parent) && ids.insert(c.id).second)
                grew = true;
    }
    Fragment f;
    for (const auto& c : d.components)
        if (ids.count(c.id))
            f.components.push_back(c);
    for (const auto& l : d.links)
        if (ids.count(l.from) || ids.count(l.to))
            f.links.push_back(l);
    return f;
}

void MainWindow::copy()
{
    const Fragment f = selectedFragment();
    if (f.components.empty())
        return;
    auto* mime = new QMimeData;
    const QByteArray json = QByteArray::fromStdString(fragmentToJson(f).dump(2));
    mime->setData(kFragmentMimeType, json);
    mime->setText(QString::fromUtf8(json));
    QApplication::clipboard()->setMimeData(mime);
    status(tr("Copied %1 item(s)").arg(f.components.size()));
}

void MainWindow::cut()
{
    copy();
    scene_->removeSelection();
}

void MainWindow::paste()
{
    const QMimeData* mime = QApplication::clipboard()->mimeData();
    const QByteArray bytes = mime && mime->hasFormat(kFragmentMimeType) ? mime->data(kFragmentMimeType)
                                                                        : (mime ? mime->text().toUtf8() : QByteArray());
    const FragmentLoad loaded = readFragmentText(std::string_view(bytes.constData(), std::size_t(bytes.size())));
    if (!loaded.fragment) {
        status(tr("The clipboard holds no Cluster Studio items"));
        return;
    }
    pasteFragment(*loaded.fragment, tr("Paste"));
}

void MainWindow::duplicate()
{
    const Fragment f = selectedFragment();
    if (!f.components.empty())
        pasteFragment(f, tr("Duplicate"));
}

void MainWindow::pasteFragment(const Fragment& fragment, const QString& undoText)
{
    // Roots go into the selected container when one is selected.
    std::string target;
    const QStringList selected = scene_->selectedComponentIds();
    if (selected.size() == 1)
        if (ComponentItem* item = scene_->itemFor(selected.front()); item && item->isContainer())
            target = selected.front().toStdString();
    std::vector<std::string> roots;
    const EditResult r = scene_->editor().paste(fragment, target, undoText, &roots);
    if (r.refused()) {
        status(tr("Cannot paste: %1").arg(r.reason));
        return;
    }
    QStringList ids;
    for (const auto& id : roots)
        ids << q(id);
    scene_->selectComponents(ids);
}

void MainWindow::showInternalError(const QString& what)
{
    status(tr("Internal error: %1").arg(what));
    // One box at a time: an error that repeats (a paint) must not stack them.
    if (std::exchange(showingInternalError_, true))
        return;
    QMessageBox::warning(this, tr("Internal error"),
                         tr("An internal error stopped the last action: %1\n\nThe design is as the last finished "
                            "edit left it; autosave keeps running. Please save your work and report this.")
                             .arg(what));
    showingInternalError_ = false;
}

void MainWindow::explainRefusal(const EditResult& result)
{
    if (result.refused())
        status(result.reason);
}

void MainWindow::find()
{
    bool ok = false;
    const QString text = QInputDialog::getText(this, tr("Find"), tr("Find an item by name, id or part:"),
                                               QLineEdit::Normal, QString(), &ok);
    if (!ok || text.isEmpty())
        return;
    QStringList hits;
    for (const auto& c : doc_->design().components) {
        const QString hay = q(c.name + " " + c.id + " " + c.part).toLower();
        if (hay.contains(text.toLower()))
            hits << q(c.id);
    }
    if (hits.isEmpty()) {
        status(tr("Nothing matches '%1'").arg(text));
        return;
    }
    scene_->selectComponents(hits);
    if (ComponentItem* item = scene_->visibleItemFor(hits.front()))
        view_->centerOn(item);
    status(tr("%1 item(s) match '%2'").arg(hits.size()).arg(text));
}

std::vector<SizedItem> MainWindow::selectedSizedItems() const
{
    std::vector<SizedItem> items;
    for (const QString& id : scene_->selectedComponentIds())
        if (ComponentItem* item = scene_->itemFor(id))
            items.push_back({id.toStdString(), {item->frameRect().width(), item->frameRect().height()}});
    return items;
}

void MainWindow::generateFabric()
{
    std::string scope;
    const QStringList selected = scene_->selectedComponentIds();
    if (selected.size() == 1)
        if (ComponentItem* item = scene_->itemFor(selected.front()); item && item->kind() == PartKind::Group)
            scope = selected.front().toStdString();
    FabricDialog dialog(*doc_, scope, this);
    if (dialog.exec() != QDialog::Accepted)
        return;
    FabricPlan plan = dialog.plan();
    // Beside the scope's contents, to the right.
    double right = 0;
    for (const auto& c : doc_->design().components)
        if (c.parent == plan.fabric.parent)
            if (ComponentItem* item = scene_->itemFor(q(c.id)))
                right = std::max(right, item->pos().x() + item->frameRect().width());
    const FatTree sizing = plan.sizing;
    const EditResult r =
        scene_->editor().addFabric(std::move(plan), {right + 40, scope.empty() ? 0.0 : ComponentItem::kHeader + 10});
    if (r.refused())
        status(tr("Cannot add the fabric: %1").arg(r.reason));
    else
        status(tr("Fabric: %1 leaf, %2 spine, %3 core switches").arg(sizing.leaf).arg(sizing.spine).arg(sizing.core));
}

}  // namespace studio
