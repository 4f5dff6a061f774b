// The layout search in the studio as a user meets it: the Layouts panel
// lists the core search's best candidates and plots every feasible one, the
// workload dock tells the current layout's rank and follows every edit,
// Apply is one undoable edit, and a search overtaken by an edit never
// publishes its stale result.
#include <QtTest>

#include <QComboBox>
#include <QDockWidget>
#include <QHeaderView>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QSettings>
#include <QTableWidget>

#include <qcustomplot.h>

#include <algorithm>

#include "app/main_window.h"
#include "core/search/layout_search.h"
#include "core/search/search_report.h"
#include "core/text.h"
#include "tests/gui_test_main.h"
#include "tests/test_support.h"
#include "widgets/analysis/analysis_service.h"
#include "widgets/charts/chart_plot.h"
#include "widgets/common/qt_string.h"
#include "widgets/document/design_document.h"
#include "widgets/document/design_editor.h"
#include "widgets/panels/message_stack.h"
#include "widgets/search/layout_search_service.h"
#include "widgets/search/layouts_panel.h"
#include "widgets/workload/workload_panel.h"

using namespace studio;

namespace {

// `preset` open, the Layouts dock in front, the search done and shown.
bool openWithLayouts(MainWindow& w, const QString& preset)
{
    w.resize(1400, 900);
    if (!w.openFile(test::sourcePath("presets/" + preset)))
        return false;
    w.show();
    w.findChild<QDockWidget*>("layouts")->raise();
    w.findChild<QDockWidget*>("workload")->raise();
    QCoreApplication::processEvents();
    w.layoutSearch()->waitForIdle();
    QCoreApplication::processEvents();
    return w.layoutSearch()->result() != nullptr;
}

// What the core finds for the document as it is now, as the panel asks.
SearchResult coreSearch(MainWindow& w)
{
    SearchOptions o;
    o.top = LayoutSearchService::kTop;
    o.objective = w.layoutSearch()->objective();
    return searchLayouts(w.document()->design(), w.document()->catalog(), o);
}

bool changeTp(MainWindow& w, std::int64_t tp)
{
    DesignEditor editor(w.document());
    DesignSettings s = DesignSettings::of(w.document()->design());
    s.workload.parallelism.tp = tp;
    return editor.changeSettings(s, "tp").applied();
}

}  // namespace

class TestLayoutsPanel : public QObject {
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QCoreApplication::setOrganizationName("Cluster Studio tests");
        QCoreApplication::setApplicationName("tst_layouts_panel");
        QSettings().clear();
    }

    void panelShowsTheCoreSearch()
    {
        MainWindow w;
        QVERIFY(openWithLayouts(w, "dgx-h100-superpod-4su.cluster.json"));
        const SearchResult expected = coreSearch(w);
        const SearchResult& shown = *w.layoutSearch()->result();
        QCOMPARE(shown.feasible, expected.feasible);
        QCOMPARE(shown.current.rank, expected.current.rank);
        QCOMPARE(std::int64_t(shown.points.size()), shown.feasible);  // every feasible layout is plotted

        QTableWidget* table = w.layouts()->table();
        QVERIFY(table->rowCount() >= int(expected.top.size()));
        for (int row = 0; row < 3; ++row) {
            QCOMPARE(table->item(row, 1)->text().remove("  (current)"), q(describeLayout(expected.top[row].layout)));
            QCOMPARE(table->item(row, 2)->text(), q(formatReadable(expected.top[row].stepS, 4)));
        }
        // The current layout, ranked below the top 20, closes the table.
        QVERIFY(expected.current.rank > LayoutSearchService::kTop);
        const int last = table->rowCount() - 1;
        QCOMPARE(table->item(last, 0)->text(), "#" + q(formatCount(expected.current.rank)));
        QVERIFY(table->item(last, 1)->text().endsWith("(current)"));
        // The fill sizes columns once; afterwards they follow their contents
        // again, the layout column taking the rest.
        QCOMPARE(table->horizontalHeader()->sectionResizeMode(2), QHeaderView::ResizeToContents);
        QCOMPARE(table->horizontalHeader()->sectionResizeMode(1), QHeaderView::Stretch);
        QVERIFY(table->columnWidth(3) >= table->fontMetrics().horizontalAdvance(table->item(0, 3)->text()));

        const QString rank = q(currentRankText(expected));
        QVERIFY2(w.workload()->layoutRank().contains(rank.toHtmlEscaped()), qPrintable(w.workload()->layoutRank()));
        QVERIFY(rank.contains(QRegularExpression("^#[0-9,]+ of [0-9,]+, [0-9.]+% slower than the best$")));
        QVERIFY2(w.layouts()->summaryLabel()->text().contains(q(formatCount(expected.space))),
                 qPrintable(w.layouts()->summaryLabel()->text()));

        // The scatter: every feasible layout, the top 20, the current and the best.
        ChartPlot* plot = w.layouts()->plot();
        QCOMPARE(plot->graph(0)->dataCount(), int(expected.feasible));
        QCOMPARE(plot->graph(1)->dataCount(), LayoutSearchService::kTop);
        QCOMPARE(plot->graph(2)->data()->at(0)->value, expected.current.figures.stepS);
        QCOMPARE(plot->graph(3)->data()->at(0)->value, expected.top.front().stepS);
        QCOMPARE(plot->graph(3)->data()->at(0)->key, expected.top.front().memoryGb);

        // Zoomed into a band of memory, the graph still finds every layout
        // in it (QCPGraph looks its visible points up by key).
        const double lo = expected.top.front().memoryGb * 0.9, hi = expected.top.front().memoryGb * 1.1;
        const auto inBand = std::count_if(shown.points.begin(), shown.points.end(),
                                          [&](const SearchPoint& p) { return p.memoryGb >= lo && p.memoryGb <= hi; });
        const auto data = plot->graph(0)->data();
        QVERIFY(inBand > 0);
        QCOMPARE(data->findEnd(hi, false) - data->findBegin(lo, false), inBand);
    }

    void applyIsOneUndoableEdit()
    {
        MainWindow w;
        QVERIFY(openWithLayouts(w, "dgx-h100-superpod-4su.cluster.json"));
        const Workload before = w.document()->design().workload;
        const Layout best = w.layoutSearch()->result()->top.front().layout;
        const double bestStep = w.layoutSearch()->result()->top.front().stepS;
        const int undoSteps = w.document()->undoStack()->count();
        w.layouts()->table()->selectRow(0);
        QVERIFY(w.layouts()->applyButton()->isEnabled());
        w.layouts()->applyButton()->click();
        QCOMPARE(w.document()->undoStack()->count(), undoSteps + 1);
        QVERIFY(w.document()->undoStack()->undoText().startsWith("Apply layout tp "));
        QCoreApplication::processEvents();
        w.layoutSearch()->waitForIdle();
        QCoreApplication::processEvents();
        // The applied layout is now the current one, ranked first, and the
        // analysis gives it the step time the search promised.
        const SearchResult& after = *w.layoutSearch()->result();
        QVERIFY(after.current.layout == best);
        QCOMPARE(after.current.rank, 1);
        QCOMPARE(after.current.figures.stepS, bestStep);
        QVERIFY(w.workload()->layoutRank().contains("#1 of "));
        QVERIFY(!w.layouts()->applyButton()->isEnabled());  // the selection is the current layout
        w.document()->undoStack()->undo();
        QVERIFY(w.document()->design().workload == before);
    }

    // The workload dock's Software lists the catalog's profiles; choosing
    // one is one undo step, and the panel searches again within it, says
    // so, and tells why the current layout is not ranked when the software
    // does not run it.
    void choosingTheSoftwareSearchesWithinIt()
    {
        MainWindow w;
        QVERIFY(openWithLayouts(w, "budget-8node-100gbe.cluster.json"));
        auto* box = qobject_cast<QComboBox*>(w.workload()->field("/workload/software"));
        QVERIFY(box);
        QCOMPARE(box->count(), int(w.document()->catalog().softwareProfiles().size()));
        QCOMPARE(box->currentData().toString(), QString("anything"));
        QVERIFY(box->isVisible());
        const int old = box->findData("megatron-lm-2021");
        QVERIFY(old > 0);
        QVERIFY(box->itemData(old, Qt::ToolTipRole).toString().contains("Narayanan et al. 2021"));
        const int undoSteps = w.document()->undoStack()->count();
        box->setCurrentIndex(old);
        emit box->activated(old);
        QCOMPARE(w.document()->undoStack()->count(), undoSteps + 1);
        QCOMPARE(*w.document()->design().workload.software, std::string("megatron-lm-2021"));
        QCoreApplication::processEvents();
        w.layoutSearch()->waitForIdle();
        QCoreApplication::processEvents();
        const SearchResult& r = *w.layoutSearch()->result();
        QCOMPARE(r.software, std::string("megatron-lm-2021"));
        for (const Candidate& c : r.top)
            QVERIFY(!c.layout.sequenceParallel && c.layout.zero == 0);
        const QString summary = w.layouts()->summaryLabel()->text();
        QVERIFY2(summary.contains("Within what Megatron-LM (2021) runs: cp 1; ep 1; recompute none, full"),
                 qPrintable(summary));
        QVERIFY2(w.workload()->layoutRank().contains("outside what Megatron-LM (2021) runs"),
                 qPrintable(w.workload()->layoutRank()));
        // "Any software" again is the default the file leaves unnamed.
        const int any = box->findData("anything");
        box->setCurrentIndex(any);
        emit box->activated(any);
        QVERIFY(!w.document()->design().workload.software);
        w.document()->undoStack()->undo();
        QCOMPARE(box->currentData().toString(), QString("megatron-lm-2021"));
    }

    // An edit restarts the search; the rank follows it, and a search the
    // next edit overtakes never publishes.
    void editsRestartTheSearch()
    {
        MainWindow w;
        QVERIFY(openWithLayouts(w, "budget-8node-100gbe.cluster.json"));
        const std::int64_t rankBefore = w.layoutSearch()->result()->current.rank;
        QSignalSpy finished(w.layoutSearch(), &LayoutSearchService::finished);
        QVERIFY(changeTp(w, 4));
        QVERIFY(changeTp(w, 8));
        QCoreApplication::processEvents();  // one recompute for both edits
        QVERIFY(w.layoutSearch()->result() == nullptr || w.layoutSearch()->result()->current.layout.tp == 8);
        w.layoutSearch()->waitForIdle();
        QCoreApplication::processEvents();
        QVERIFY(w.layoutSearch()->result());
        QCOMPARE(w.layoutSearch()->result()->current.layout.tp, 8);
        const SearchResult expected = coreSearch(w);
        QCOMPARE(w.layoutSearch()->result()->current.rank, expected.current.rank);
        QVERIFY(expected.current.rank != rankBefore);
        QVERIFY2(w.workload()->layoutRank().contains(q(currentRankText(expected)).toHtmlEscaped()),
                 qPrintable(w.workload()->layoutRank()));

        // Two restarts back to back: only the second one's result lands.
        w.layoutSearch()->restart();
        w.layoutSearch()->restart();
        finished.clear();
        w.layoutSearch()->waitForIdle();
        QCoreApplication::processEvents();
        QCOMPARE(finished.count(), 1);
    }

    // A burst of edits starts one search, once the edits pause, on the
    // design as the last edit left it; meanwhile the panel says a search is
    // on its way.
    void aBurstOfEditsStartsOneSearchOnceTheyPause()
    {
        MainWindow w;
        QVERIFY(openWithLayouts(w, "budget-8node-100gbe.cluster.json"));
        LayoutSearchService* search = w.layoutSearch();
        // A preset's search starts at once; one of a design drawn in full
        // (23,183 items) once its edits pause for 100 ms.
        QCOMPARE(search->quietMs(), 0);
        QCOMPARE(BackgroundRunner::quietMsFor(23183), BackgroundRunner::kQuietMs);
        // A pause longer than any machine takes between two edits here.
        search->setQuietMs(3000);
        const std::uint64_t before = search->runsStarted();
        QSignalSpy finished(search, &LayoutSearchService::finished);
        for (const std::int64_t tp : {4, 2, 8, 4}) {
            QVERIFY(changeTp(w, tp));
            QCoreApplication::processEvents();  // the recompute, which restarts the search
            QVERIFY(search->running());
            QCOMPARE(search->progress(), 0.0);
        }
        QCOMPARE(search->runsStarted(), before);
        QVERIFY(search->result() == nullptr);
        QVERIFY(w.layouts()->messageStack()->message().contains("Searching layouts") ||
                !w.layouts()->summaryLabel()->isEnabled());
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 20000);
        QCOMPARE(search->runsStarted(), before + 1);
        QCOMPARE(search->result()->current.layout.tp, 4);
        QCOMPARE(search->result()->current.rank, coreSearch(w).current.rank);

        // An item moved while the search waits to start (only where it is
        // drawn changed: no recompute, no restart): the search still starts,
        // though the edit's own refresh had not run when the pause ended.
        // The count before the recompute: with no pause to wait for, the
        // run may start within the recompute's own events or after the
        // move, and either way it starts once.
        search->setQuietMs(0);
        QVERIFY(changeTp(w, 8));
        const std::uint64_t beforeMove = search->runsStarted();
        QCoreApplication::processEvents();
        QVERIFY(search->running());
        {
            DesignEditor editor(w.document());
            QVERIFY(editor.moveBy({"rack"}, Point{10, 0}).applied());
        }
        QVERIFY(!w.analysis()->current());
        search->waitForIdle();  // the pause ends before the move's refresh ran
        QCOMPARE(search->runsStarted(), beforeMove + 1);
        QCoreApplication::processEvents();
        QVERIFY(search->result());
        QCOMPARE(search->result()->current.layout.tp, 8);

        // A search waiting to start is overtaken by the next restart: a new
        // design opened meanwhile gets one search, and the edited one none.
        search->setQuietMs(3000);
        const std::uint64_t beforeNew = search->runsStarted();
        QVERIFY(changeTp(w, 2));
        QCoreApplication::processEvents();
        w.newDesign();
        QCoreApplication::processEvents();
        search->waitForIdle();  // starts the one waiting at once
        QCOMPARE(search->runsStarted(), beforeNew + 1);
    }

    void objectiveChoiceSearchesAgain()
    {
        MainWindow w;
        QVERIFY(openWithLayouts(w, "budget-8node-100gbe.cluster.json"));
        QComboBox* box = w.layouts()->objectiveBox();
        box->setCurrentIndex(box->findData(int(Objective::Energy)));
        QCOMPARE(w.layoutSearch()->objective(), Objective::Energy);
        w.layoutSearch()->waitForIdle();
        QCoreApplication::processEvents();
        QCOMPARE(w.layoutSearch()->result()->objective, Objective::Energy);
        QVERIFY(w.workload()->layoutRank().contains("by energy per token"));
    }

    void aDesignWithErrorsHasNoSearch()
    {
        MainWindow w;
        QVERIFY(openWithLayouts(w, "budget-8node-100gbe.cluster.json"));
        // An edit through the document's own mutator (as a command's redo
        // would) that the validator rejects: zero layers.
        Workload broken = w.document()->design().workload;
        broken.model.layers = 0;
        w.document()->replaceWorkload(broken);
        QCoreApplication::processEvents();
        w.layoutSearch()->waitForIdle();
        QCoreApplication::processEvents();
        QVERIFY(w.layoutSearch()->result() == nullptr);
        QVERIFY(w.layouts()->messageStack()->message().contains("the design has errors"));
        QCOMPARE(w.layouts()->table()->rowCount(), 0);
        QVERIFY(w.workload()->layoutRank().isEmpty());
    }
};

STUDIO_TEST_MAIN(TestLayoutsPanel)
#include "tst_layouts_panel.moc"
