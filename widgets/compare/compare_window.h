#pragma once
// The compare view: two to four candidate designs side by side. The open
// document, design files and the shipped presets go in; out come the key
// figures with each design's difference from a chosen baseline (better in
// green, worse in red, every cell explaining itself on hover), every
// analysis of the registry overlaid, one colour per design (the same
// renderers as the panels), a tab per background analysis that compares
// (background_registry.h: the scale sweeps, computed off the GUI thread
// while the tab is shown), and the bills of materials part by part. Exports the comparison as CSV and as the comparison PDF.
// Every design runs one workload (the baseline's by default, or another
// design file's, or each its own), each at the best layout the search finds
// for it (or its own): preparing them searches layouts, so it runs off the
// GUI thread, with progress. Non-modal; prepares and recomputes whenever the
// set, the baseline or the setup changes.
#include <QMainWindow>
#include <QStringList>

#include <functional>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

#include "core/compare/comparison.h"
#include "widgets/compare/compare_run_tab.h"

class QAction;
class QComboBox;
class QToolButton;
class QLabel;
class QMenu;
class QStackedWidget;
class QTableWidget;
class QTabWidget;

namespace studio {

class BackgroundJob;
class Catalog;
class ChartView;
class CompareRunTab;

class CompareWindow : public QMainWindow {
    Q_OBJECT
public:
    explicit CompareWindow(QWidget* parent = nullptr);
    ~CompareWindow() override;

    // Adds a design to compare; `source` says where it came from ("open
    // document", a file path). False, with the reason in `error`, when four
    // are compared already or the design has errors against `catalog`.
    bool addDesign(const Design& design, std::shared_ptr<const Catalog> catalog, const QString& source,
                   QString* error = nullptr);
    // A design file, or a preset by its resource path (":/presets/...").
    // False with every problem, "FILE: /json/pointer: message", in `error`.
    bool addFile(const QString& path, QString* error = nullptr);
    void removeDesign(int index);
    // The design being edited, kept current: entries added with this source
    // follow every edit (updateOpenDocument); "Add Open Document" adds a
    // snapshot instead, named by its time, to compare before with after.
    static QString liveSource();
    // Replaces the live entries with `design` and recomputes; a design with
    // errors leaves them as they were last valid. False when there are none.
    bool updateOpenDocument(const Design& design, std::shared_ptr<const Catalog> catalog);
    void setBaseline(int index);
    // Which workload the designs run and at which layout. A workload from
    // another file is given with it (setup.other, setup.otherSource).
    void setSetup(const CompareSetup& setup);
    const CompareSetup& setup() const { return setup_; }
    // Blocks until the designs are prepared and the comparison shown: for
    // tests, the benchmark and exports that cannot wait.
    void waitForComparison();

    int designCount() const { return int(entries_.size()); }
    int baseline() const { return baseline_; }
    // The comparison shown; nullptr with fewer than two designs.
    const Comparison* comparison() const { return comparison_ ? &*comparison_ : nullptr; }
    bool exportCsv(const QString& path, QString* error = nullptr) const;
    bool exportPdf(const QString& path, QString* error = nullptr) const;

    // "Add Open Document" asks this for the main window's design as it is
    // now (nullopt when it has errors); without one the action is hidden.
    struct OpenDocument {
        Design design;
        std::shared_ptr<const Catalog> catalog;
    };
    void setOpenDocumentProvider(std::function<std::optional<OpenDocument>()> provider);

    // The views, for tests and screenshots.
    QTabWidget* tabs() const { return tabs_; }
    QTableWidget* designTable() const { return designs_; }
    QTableWidget* figureTable() const { return figures_; }
    QTableWidget* bomTable() const { return bom_; }
    // The overlaid charts of an analysis, by its registry key ("roofline", ...).
    ChartView* chart(const QString& key) const;
    const std::vector<ChartView*>& charts() const { return charts_; }
    QComboBox* baselineBox() const { return baselineBox_; }
    QComboBox* workloadBox() const { return workloadBox_; }
    QComboBox* layoutBox() const { return layoutBox_; }
    // What the designs run, as the window says it above the tables.
    QLabel* setupLabel() const { return setupLabel_; }
    BackgroundJob* prepareJob() const { return prepareJob_; }
    // A background analysis' tab, by its key ("scale"); nullptr when it has none.
    CompareRunTab* runTab(const QString& key) const;
    const std::vector<CompareRunTab*>& runTabs() const { return runTabs_; }

signals:
    // After every recompute: a design added or removed, the baseline moved.
    void comparisonChanged();

protected:
    void changeEvent(QEvent* event) override;

private:
    struct Entry {
        ComparedDesign compared;                 // on its own workload and layout: the designs table
        Design design;                           // as added
        std::shared_ptr<const Catalog> catalog;  // what its analysis resolved parts against
    };
    void createActions();
    QWidget* createSetupBar();
    // Prepares every design for the setup (off the GUI thread), then shows
    // the comparison.
    void recompute();
    void showComparison(std::vector<ComparedDesign> prepared, std::vector<std::shared_ptr<const Catalog>> catalogs,
                        std::size_t baseline);
    void describeSetup();
    void chooseWorkloadFile();
    void fillDesigns();
    void fillFigures();
    void fillBom();
    void drawCharts();
    // The background analyses' tabs: which is shown, and the designs as compared.
    void updateRunTabs();
    void addFromDialog();
    void addPreset(const QString& resourcePath);
    void addOpenDocument();
    void removeSelected();
    // Asks where (remembering the folder), writes with `write`, says how it went.
    void exportFromDialog(const QString& title, const QString& suffix, const QString& filter,
                          bool (CompareWindow::*write)(const QString&, QString*) const);
    void refuse(const QString& title, const QString& error);
    bool full(QString* error) const;

    std::vector<Entry> entries_;
    int baseline_ = 0;
    CompareSetup setup_;
    bool restylePending_ = false;
    std::optional<Comparison> comparison_;
    std::function<std::optional<OpenDocument>()> openDocument_;

    QTableWidget* designs_;
    QComboBox* baselineBox_;
    QComboBox* workloadBox_ = nullptr;
    QComboBox* layoutBox_ = nullptr;
    QComboBox* objectiveBox_ = nullptr;
    QComboBox* budgetBox_ = nullptr;
    QLabel* setupLabel_ = nullptr;
    BackgroundJob* prepareJob_ = nullptr;
    QToolButton* ownLayoutsButton_ = nullptr;
    QStackedWidget* pages_;
    QLabel* empty_;
    QTabWidget* tabs_;
    QTableWidget* figures_;
    QTableWidget* bom_;
    std::vector<ChartView*> charts_;
    std::vector<CompareRunTab*> runTabs_;  // each named by its entry's key
    // The designs as compared, for the run tabs: comparison_'s, each with its catalog.
    std::vector<ComparedRun> runs_;
    QAction* addOpenAction_ = nullptr;
    QAction* removeAction_ = nullptr;
    QAction* csvAction_ = nullptr;
    QAction* pdfAction_ = nullptr;
    QMenu* presetMenu_ = nullptr;
};

}  // namespace studio
