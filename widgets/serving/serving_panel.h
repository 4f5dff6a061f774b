#pragma once
// The Serving panel, for a design whose workload is serving: one sentence
// with the served batch, its speeds and the replicas the arrival rate
// needs; the trade between each user's tokens/s and each GPU's as the
// batch grows (the latency target drawn, the served batch starred); and
// one GPU's HBM: weights, the batch's KV cache and what is left. Figures
// from core/serving (AnalysisService), each explaining itself on hover.
// Given the document, with the serving search: the best way to serve,
// aggregated and disaggregated, as a frontier and a table whose row Apply
// makes the design's (one undoable edit).
#include <any>
#include <atomic>
#include <optional>
#include <vector>

#include "core/serving/closed_loop_replay.h"
#include "core/serving/serving_search.h"
#include "widgets/panels/background_panel.h"

class QLabel;
class QMouseEvent;
class QPushButton;
class QTabWidget;
class QTableWidget;

namespace studio {

class AnalysisService;
class ArrivalBandService;
class ChartPlot;
class DesignDocument;
class DesignEditor;
class FigureTable;
class MessageStack;
class ServingSearchService;
struct Serving;

class ServingPanel : public BackgroundPanel {
    Q_OBJECT
public:
    // Without a document: this design's figures only (the design review's).
    ServingPanel(DesignDocument* document, AnalysisService* analyses, QWidget* parent = nullptr);

    QLabel* summaryLabel() const { return summary_; }
    // Why the panel, or its "This design" tab, shows nothing (else empty).
    MessageStack* messageStack() const { return stack_; }
    MessageStack* designMessageStack() const { return pageStack_; }
    ChartPlot* curvePlot() const { return curve_; }
    ChartPlot* memoryPlot() const { return memory_; }
    FigureTable* figureTable() const { return figures_; }

    ServingSearchService* search() const { return search_; }
    // The first token's replays as the users line up, for the Time to
    // first token row (with the document only).
    ArrivalBandService* arrivals() const { return arrivals_; }
    QLabel* verdictLabel() const { return verdict_; }
    ChartPlot* frontierPlot() const { return frontier_; }
    QTableWidget* candidateTable() const { return candidates_; }
    QTabWidget* tabs() const { return tabs_; }
    // Makes the candidate in `row` the design's; false when refused or none.
    bool applyRow(int row);
    // Whether the dock shows: the search runs only while its tab is shown
    // for a serving design (nobody waits for it otherwise).
    void setShown(bool shown) override;
    std::vector<BackgroundJob*> jobs() const override;
    // docs/model.md section 19 in the design review: the panel on paper, its
    // sentence, the batch curve and one GPU's HBM, and its figures with how
    // each is made.
    static void report(ReportDocument& doc, const ReportInputs& in);
    // The arrival-pattern replays the review's figures quote, on a thread
    // of their own while the review lays out the pages before.
    static std::any prepareReport(const Design& design, const Catalog& catalog, const std::atomic<bool>* cancel);

protected:
    void changeEvent(QEvent* event) override;

private:
    void refresh();
    void drawCurve(const Serving& s);
    void drawMemory(const Serving& s);
    void fillFigures(const Serving& s);
    void showTip(QMouseEvent* event);
    // The search's tab and its Apply, editing `document`, and the first
    // token's arrival replays.
    void addSearch(DesignDocument* document);
    void refreshSearch();
    void updateWanted();

    AnalysisService* analyses_;
    QLabel* summary_;
    MessageStack *stack_, *pageStack_;
    ChartPlot *curve_, *memory_;
    FigureTable* figures_;
    QTabWidget* tabs_;
    // The serving search: its tab added by setSearch.
    QWidget* searchBox_ = nullptr;
    QLabel* verdict_ = nullptr;
    ChartPlot* frontier_ = nullptr;
    QTableWidget* candidates_ = nullptr;
    QPushButton* apply_ = nullptr;
    DesignDocument* doc_ = nullptr;
    ServingSearchService* search_ = nullptr;
    ArrivalBandService* arrivals_ = nullptr;
    std::optional<ArrivalBand> paperBand_;  // the design review's, without a document
    std::vector<ServingCandidate> rowCandidates_;
    bool shown_ = true;
};

}  // namespace studio
