#pragma once
#include <QMainWindow>

#include <vector>

#include "core/export/export_files.h"

class QAction;
class QFileSystemWatcher;
class QLabel;
class QMenu;

namespace studio {

class AnalysisArea;
class AnalysisService;
class CompareWindow;
class Autosaver;
class HistoryPanel;
class DesignDocument;
class DesignScene;
class DesignView;
class StartPage;
class Inspector;
class KpiStrip;
class BackgroundPanel;
class LayoutSearchService;
class ScalePanel;
class ScaleSweepService;
class SensitivityPanel;
class SensitivityService;
class UpgradesService;
class ServingPanel;
class LayoutsPanel;
class Minimap;
class PartPalette;
class WarningsPanel;
class WorkloadPanel;
struct EditResult;
struct Fragment;
struct SizedItem;

// The studio's window: the canvas in the middle; the parts palette and the
// overview on the left; the inspector and undo history on the right; the
// analysis panels and warnings below, across the window; the workload dock
// beside the inspector; the headline figures in the status bar. Layout,
// geometry, theme and recent files persist in QSettings. Its actions (paste,
// align, distribute, collapse, generate fabric) edit through the
// DesignEditor like every view.
class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    explicit MainWindow(QWidget* parent = nullptr);
    ~MainWindow() override;

    bool openFile(const QString& path);
    bool openPreset(const QString& resourcePath);
    // The kernel speeds the analyses use (File > Kernel Profile): a profile
    // FILE (docs/kernel-profiles.md), "none" (every kernel at the catalog's
    // factors) or "" (the published tables built in), remembered for the
    // design's file. A refused file changes nothing; its problems are
    // returned.
    std::vector<struct Problem> useKernels(const QString& choice);
    void newDesign();
    // Restores a design an earlier session autosaved before it died, after asking.
    void offerRecovery();
    // An exception stopped handling an event (StudioApplication): says so,
    // once at a time, and keeps the design as the last finished edit left it.
    void showInternalError(const QString& what);
    // Edit menu actions, also for tests: the clipboard carries a JSON
    // fragment, so they work between windows and studio processes.
    void copy();
    void cut();
    void paste();
    void duplicate();
    // Writes the design-review PDF of the design as it is now, with a
    // progress dialog that can cancel; asks where when `path` is empty.
    bool exportReport(QString path = {});
    // The design's files for another tool (core/export) into `dir`; asks
    // for the folder when none is given. False when nothing was written.
    bool exportFor(ExportTarget target, QString dir = {});
    // Calculon's system, model and execution files as a new, unsaved
    // design (core/import); asks for them when none are given, and shows
    // what was left out. False when nothing was imported.
    bool importCalculon(QStringList files = {});
    // NetBox device types (YAML) into the design's parts and the palette,
    // as one undoable edit: switches, or with `accelerator` servers as
    // nodes of it. Asks for the files and the kind when none are given.
    bool importDeviceTypes(QStringList files = {}, QString accelerator = {});
    // The compare view, with the open document in it (created on first use).
    CompareWindow* showCompare();
    DesignDocument* document() const { return doc_; }
    DesignScene* scene() const { return scene_; }
    DesignView* view() const { return view_; }
    StartPage* startPage() const { return start_; }
    Autosaver* autosaver() const { return autosaver_; }
    AnalysisService* analysis() const { return analysis_; }
    AnalysisArea* analysisArea() const { return analysisArea_; }
    WorkloadPanel* workload() const { return workload_; }
    // The background registry's panels (background_registry.h), a dock
    // each, in its order; by key (nullptr when none has it).
    const std::vector<BackgroundPanel*>& backgroundPanels() const { return backgroundPanels_; }
    BackgroundPanel* backgroundPanel(const QString& key) const;
    // The same, typed, for tests and the screenshot verb.
    LayoutsPanel* layouts() const;
    LayoutSearchService* layoutSearch() const;
    ScalePanel* scale() const;
    ScaleSweepService* scaleSweep() const;
    SensitivityPanel* sensitivity() const;
    SensitivityService* sensitivityService() const;
    UpgradesService* upgradesService() const;
    ServingPanel* serving() const;
    // Blocks until every background panel's runs are done: for the
    // screenshot verb and tests.
    void waitForBackgroundRuns();
    KpiStrip* kpis() const { return kpis_; }

protected:
    void closeEvent(QCloseEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    void showEvent(QShowEvent* event) override;

private:
    void fitRightDocks();
    void createActions();
    void createDocks();
    void updateTitle();
    void updateRecentMenu();
    void addRecent(const QString& path);
    // Brings forward the panels its entry raises for the design's workload.
    void raisePanelsForWorkload();
    void showProblems(const QString& title, const QString& path, const std::vector<struct Problem>& problems);
    bool maybeSave();
    bool save();
    bool saveAs();
    // Saves to `path`; on failure tells the user, and the document stays
    // modified.
    bool writeTo(const QString& path);
    void revert();
    void find();
    // Selected items of one container, with the sizes the canvas draws them at.
    std::vector<SizedItem> selectedSizedItems() const;
    void generateFabric();
    void setAutosaveInterval();
    void setUndoLimit();
    void watchFile();
    void fileChangedOnDisk(const QString& path);
    Fragment selectedFragment() const;
    void pasteFragment(const Fragment& fragment, const QString& undoText);
    void status(const QString& text);
    // Says why an edit was refused, if it was.
    void explainRefusal(const EditResult& result);

    DesignDocument* doc_;
    AnalysisService* analysis_;
    DesignScene* scene_;
    DesignView* view_;
    StartPage* start_;
    Minimap* minimap_;
    PartPalette* palette_;
    Inspector* inspector_;
    WarningsPanel* warnings_;
    WorkloadPanel* workload_;
    std::vector<BackgroundPanel*> backgroundPanels_;
    AnalysisArea* analysisArea_;
    KpiStrip* kpis_;
    Autosaver* autosaver_;
    HistoryPanel* history_;
    QFileSystemWatcher* watcher_;
    QLabel* zoomLabel_;
    QMenu* recentMenu_ = nullptr;
    CompareWindow* compare_ = nullptr;
    bool showingInternalError_ = false;
    QAction *undo_ = nullptr, *redo_ = nullptr, *snap_ = nullptr, *dark_ = nullptr;
};

}  // namespace studio
