#pragma once
// The Layouts panel: the layout search's best candidates as a table and
// every feasible layout as a scatter of step time against memory per GPU,
// the current layout and the best marked; "Apply" makes the selected
// candidate the design's layout in one undoable edit. Fed by the
// LayoutSearchService; while a search runs longer than a frame it shows its
// progress, and the last result stays, dimmed, until the new one lands.
// The search runs whether the panel shows or not: the workload dock shows
// the current layout's rank.

#include "core/search/layout_search.h"
#include "widgets/document/design_editor.h"
#include "widgets/panels/background_panel.h"

class QComboBox;
class QLabel;
class QProgressBar;
class QPushButton;
class QTableWidget;
class QCPGraph;

namespace studio {

class ChartPlot;
class DesignDocument;
class LayoutSearchService;
class MessageStack;

class LayoutsPanel : public BackgroundPanel {
    Q_OBJECT
public:
    LayoutsPanel(DesignDocument* document, AnalysisService* analyses, QWidget* parent = nullptr);

    LayoutSearchService* search() const { return search_; }
    void setShown(bool) override {}
    std::vector<BackgroundJob*> jobs() const override;

    QTableWidget* table() const { return table_; }
    ChartPlot* plot() const { return plot_; }
    QPushButton* applyButton() const { return apply_; }
    QComboBox* objectiveBox() const { return objective_; }
    QLabel* summaryLabel() const { return summary_; }
    MessageStack* messageStack() const { return stack_; }
    QProgressBar* progressBar() const { return progress_; }
    // Makes the candidate in table row `row` the design's layout; false
    // (with the reason in the status bar message) when refused.
    bool applyRow(int row);

protected:
    void showEvent(QShowEvent* event) override;
    void changeEvent(QEvent* event) override;

private:
    void refresh();
    void fillTable(const SearchResult& r);
    void plotPoints(const SearchResult& r);
    void markSelection();
    void showPointTip(QMouseEvent* event);
    const Layout* layoutOfRow(int row) const;

    DesignDocument* doc_;
    LayoutSearchService* search_;
    DesignEditor editor_;
    QComboBox* objective_;
    QLabel* summary_;
    MessageStack* stack_;
    QProgressBar* progress_;
    QPushButton* apply_;
    QTableWidget* table_;
    ChartPlot* plot_;
    QCPGraph *all_ = nullptr, *top_ = nullptr, *current_ = nullptr, *best_ = nullptr, *selected_ = nullptr;
    std::vector<Layout> rowLayouts_;  // the layout each table row shows
    bool stale_ = false;              // a refresh waits until the panel is shown
};

}  // namespace studio
