// The Serving panel as a user meets it: a serving design brings it forward
// with the core's figures (the curve, the served batch, one GPU's HBM, a
// table whose rows say how each figure is made); an edit that stops the
// workload being served says why, here and in the Warnings dock; a
// training design says where serving figures come from.
#include <QtTest>

#include <QComboBox>
#include <QDockWidget>
#include <QLabel>
#include <QSpinBox>
#include <QTableWidget>
#include <QUndoStack>

#include <qcustomplot.h>

#include "app/main_window.h"
#include "core/metrics/figure_names.h"
#include "core/metrics/serving_error_band.h"
#include "core/serving/closed_loop_replay.h"
#include "core/serving/serving.h"
#include "core/serving/serving_search.h"
#include "core/text.h"
#include "tests/gui_test_main.h"
#include "tests/test_support.h"
#include "widgets/analysis/analysis_service.h"
#include "widgets/charts/chart_plot.h"
#include "widgets/charts/figure_table.h"
#include "widgets/document/design_document.h"
#include "widgets/document/design_editor.h"
#include "widgets/panels/kpi_strip.h"
#include "widgets/panels/message_stack.h"
#include "widgets/serving/arrival_band_service.h"
#include "widgets/serving/serving_panel.h"
#include "widgets/serving/serving_search_service.h"
#include "widgets/workload/workload_panel.h"

using namespace studio;

class TestServingPanel : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() { QCoreApplication::setOrganizationName("Cluster Studio tests"); }

    void aServingDesignShowsTheCoreFigures()
    {
        MainWindow w;
        w.resize(1400, 900);
        QVERIFY(w.openFile(test::sourcePath("tests/data/good/serving-70b-h100-node.cluster.json")));
        w.show();
        QCoreApplication::processEvents();
        QVERIFY(w.findChild<QDockWidget*>("serving")->widget()->isVisible());
        const Serving expected = analyzeServing(w.document()->design(), w.document()->catalog());
        QVERIFY(expected.ok());
        ServingPanel* p = w.serving();
        const QString summary = p->summaryLabel()->text();
        QVERIFY2(
            summary.contains("Batch " + QString::fromStdString(formatCount(expected.batch)) + " per replica of 8 GPUs"),
            qPrintable(summary));
        QVERIFY(summary.contains(QString::fromStdString(formatReadable(expected.decode.tokensPerSPerGpu)) +
                                 " tokens/s per GPU"));
        QVERIFY2(summary.contains("the load needs 1 replica, 8 GPUs; over the design's 1 replica, it holds " +
                                  QString::fromStdString(formatReadable(expected.operation.inFlightPerReplica)) +
                                  " requests in flight"),
                 qPrintable(summary));
        // The curve is the core's, point for point; the served batch starred.
        const QCPGraph* curve = p->curvePlot()->graph(0);
        QCOMPARE(curve->dataCount(), int(expected.curve.size()));
        // Kept sorted by tokens/s per user: batch 1 (the fastest user) last.
        for (std::size_t i = 0; i < expected.curve.size(); ++i) {
            const auto point = curve->data()->at(curve->dataCount() - 1 - int(i));
            QCOMPARE(point->key, expected.curve[i].tokensPerSPerUser);
            QCOMPARE(point->value, expected.curve[i].tokensPerSPerGpu);
        }
        const QCPGraph* served = p->curvePlot()->graph(1);
        QCOMPARE(served->data()->at(0)->value, expected.decode.tokensPerSPerGpu);
        // One GPU's HBM: weights and the batch's KV cache.
        auto* weights = qobject_cast<QCPBars*>(p->memoryPlot()->plottable(0));
        QVERIFY(weights);
        QCOMPARE(weights->data()->at(0)->value, expected.weightsGbPerGpu);
        // The stack is the GPU's whole HBM: the engine's buffers and its
        // reserve on top of the KV cache budget.
        double stacked = 0;
        for (int i = 0; i < p->memoryPlot()->plottableCount(); ++i)
            stacked += qobject_cast<QCPBars*>(p->memoryPlot()->plottable(i))->data()->at(0)->value;
        QVERIFY(std::abs(stacked - expected.memory.capacity / 1e9) < 1e-9);
        // The KV cache budget, as TensorRT-LLM divides the memory.
        const QString budgetTip = p->figureTable()->tipOf("KV cache budget per GPU");
        QVERIFY2(budgetTip.startsWith("TensorRT-LLM: 0.9 x (HBM 85.9 GB - weights ") &&
                     budgetTip.contains("free_gpu_memory_fraction") &&
                     budgetTip.contains(QString::fromStdString(formatCount(expected.maxBatch)) + " sequences"),
                 qPrintable(budgetTip));
        // Each row explains itself.
        const std::vector<FigureRow>& t = p->figureTable()->figures();
        QVERIFY(t.size() >= 10);
        for (const FigureRow& r : t)
            QVERIFY2(r.tone == FigureRow::Heading || !r.tip.isEmpty(), qPrintable(r.name));
        QCOMPARE(t[2].name, QString("Engine"));
        QCOMPARE(p->figureTable()->valueOf("Engine"), QString("TensorRT-LLM"));
        QVERIFY(p->figureTable()->tipOf("Engine").contains("8,192 tokens one step carries"));
        QCOMPARE(t[4].name, QString("Time per output token"));
        // The first token at the two ends of the arrival pattern, the core's
        // replay of this design (off the GUI thread), in the row's
        // explanation once it ends.
        const auto band = arrivalBand(w.document()->design(), w.document()->catalog());
        QVERIFY(band && band->spreadTtftS < expected.ttftS && expected.ttftS < band->togetherTtftS);
        QTRY_VERIFY(p->arrivals()->band() != nullptr);
        QCOMPARE(p->arrivals()->band()->togetherTtftS, band->togetherTtftS);
        const QString ttftTip = p->figureTable()->tipOf("Time to first token");
        QVERIFY2(ttftTip.contains("As the users' requests line up: " +
                                  QString::fromStdString(formatSeconds(band->spreadTtftS)) + " spread evenly, " +
                                  QString::fromStdString(formatSeconds(band->togetherTtftS)) + " sent together"),
                 qPrintable(ttftTip));
        // How far measured serving on this GPU and engine fell from the
        // model, in the three served figures' rows.
        for (ServedFigure figure : kServedFigures) {
            const QString tip = p->figureTable()->tipOf(QString::fromStdString(figureName(servedFigureKey(figure))));
            QVERIFY2(tip.endsWith(QString::fromStdString(servingErrorBand("H100 SXM 80GB", "trtllm", figure).text)),
                     qPrintable(tip));
        }
        QVERIFY(ttftTip.contains("measured points of H100 SXM 80GB with TensorRT-LLM"));
        // While a replay is under way the row says so, and its bar shows
        // once it takes longer than a frame.
        p->arrivals()->restart();
        QVERIFY(p->figureTable()->tipOf("Time to first token").contains("Replaying the engine step by step"));
        QVERIFY(p->findChild<QProgressBar*>("arrival replay progress"));
        QTRY_VERIFY(p->arrivals()->band() != nullptr);
        QCOMPARE(p->figureTable()->tipOf("Time to first token"), ttftTip);
        // The operation at the arrival rate under its own heading, apart
        // from the capacity above it.
        QVERIFY(expected.operation.set());
        const auto heading = std::find_if(t.begin(), t.end(), [](const FigureRow& r) {
            return r.tone == FigureRow::Heading && r.name.startsWith("At the load, ");
        });
        QVERIFY(heading != t.end());
        QCOMPARE((heading + 2)->name, QString("TTFT at the load"));
        QCOMPARE((heading + 2)->value,
                 QString::fromStdString(formatReadable(1000 * expected.operation.at.ttftS, 3)) + " ms");
        // The status bar's headline figures are the serving ones.
        QCOMPARE(w.kpis()->text("mfu"),
                 "Tokens/s per GPU served " + QString::fromStdString(formatReadable(expected.decode.tokensPerSPerGpu)));
        QVERIFY(w.kpis()->text("days").startsWith("Time per output token "));
        QCOMPARE(w.kpis()->text("mtbf"), QString("Replicas needed 1 (8 GPUs)"));
        QVERIFY(w.kpis()->tip("mtbf").contains("Little's law"));

        // An edit to a batch that does not fit: applied (the file format
        // allows it), and the panel and the warnings say why it cannot run.
        DesignSettings s = DesignSettings::of(w.document()->design());
        s.workload.serving->batch = 100000;
        QVERIFY(DesignEditor(w.document()).changeSettings(s, "batch").applied());
        w.analysis()->recomputeNow();
        // Said in place of the tab's empty plots; the search's tab may still
        // find a layout that fits.
        QVERIFY(!p->messageStack()->showsMessage());
        QVERIFY2(p->designMessageStack()->message().contains(
                     "cannot be served as laid out: a batch of 100,000 does not fit"),
                 qPrintable(p->designMessageStack()->message()));
        QVERIFY(p->summaryLabel()->text().isEmpty());
        bool warned = false;
        for (const Problem& pr : w.analysis()->problems())
            warned = warned || pr.pointer == "/workload/serving/batch";
        QVERIFY(warned);
        QCOMPARE(p->curvePlot()->graphCount(), 0);
        QVERIFY(w.kpis()->text("mfu").startsWith("Serving not servable"));
    }

    // The workload dock switches between training and serving, each keeping
    // its section; one undo step each way.
    void theWorkloadDockSwitchesKind()
    {
        MainWindow w;
        QVERIFY(w.openFile(test::sourcePath("tests/data/good/serving-70b-h100-node.cluster.json")));
        QCoreApplication::processEvents();
        auto* kind = qobject_cast<QComboBox*>(w.workload()->field("/workload/kind"));
        QVERIFY(kind);
        QCOMPARE(kind->currentData().toString(), QString("serving"));
        // To training: the design never had a run, so Llama 3 70B's published sizes.
        kind->setCurrentIndex(kind->findData("training"));
        emit kind->activated(kind->currentIndex());
        const Workload& t = w.document()->design().workload;
        QVERIFY(!t.isServing());
        QCOMPARE(t.training.global_batch, std::int64_t(2048));
        QVERIFY(t.serving);  // kept for switching back
        w.analysis()->recomputeNow();
        // Analysed as training now (70B on 8 GPUs may not fit; that is the
        // training model's to say).
        const Analysis* a = w.analysis()->analysis();
        QVERIFY(a->runnable() || a->notRunnable.front().code != "serving_workload");
        QVERIFY(!w.analysis()->serving());
        w.document()->undoStack()->undo();
        QVERIFY(w.document()->design().workload.isServing());
        QVERIFY(w.document()->design().workload.training == TrainingSpec{});
        // A serving field edits the serving section.
        auto* prompt = qobject_cast<QSpinBox*>(w.workload()->field("/workload/serving/prompt_tokens"));
        QVERIFY(prompt);
        QCOMPARE(prompt->value(), 1024);
        prompt->setValue(4096);
        QCOMPARE(w.document()->design().workload.serving->prompt_tokens, std::int64_t(4096));
        // The engine and its limits: a choice sets it, 0 takes the engine's default back.
        auto* engine = qobject_cast<QComboBox*>(w.workload()->field("/workload/serving/engine"));
        QVERIFY(engine);
        QCOMPARE(engine->currentData().toString(), QString("trtllm"));
        engine->setCurrentIndex(engine->findData("vllm"));
        emit engine->activated(engine->currentIndex());
        QCOMPARE(w.document()->design().workload.serving->engine, std::optional<std::string>("vllm"));
        auto* step = qobject_cast<QSpinBox*>(w.workload()->field("/workload/serving/step_tokens"));
        QVERIFY(step);
        QCOMPARE(step->specialValueText(), QString("engine default"));
        step->setValue(2048);
        QCOMPARE(w.document()->design().workload.serving->step_tokens, std::optional<std::int64_t>(2048));
        w.analysis()->recomputeNow();
        QCOMPARE(w.analysis()->serving()->engine.stepTokens, 2048.0);
        QCOMPARE(w.analysis()->serving()->engine.maxRequests, 1024);  // vLLM's on an 80 GB H100
        step->setValue(0);
        QVERIFY(!w.document()->design().workload.serving->step_tokens);
        // The engine's memory share: vLLM's 0.9 of the whole until the
        // design sets its own, and back with 0.
        auto* share = qobject_cast<QDoubleSpinBox*>(w.workload()->field("/workload/serving/memory_fraction"));
        QVERIFY(share);
        QCOMPARE(share->specialValueText(), QString("engine default"));
        share->setValue(0.95);
        QCOMPARE(w.document()->design().workload.serving->memory_fraction, std::optional<double>(0.95));
        w.analysis()->recomputeNow();
        QCOMPARE(w.analysis()->serving()->memory.fraction, 0.95);
        QCOMPARE(w.analysis()->serving()->memory.fractionSource, std::string("workload.serving.memory_fraction"));
        share->setValue(0);
        QVERIFY(!w.document()->design().workload.serving->memory_fraction);
        w.analysis()->recomputeNow();
        QCOMPARE(w.analysis()->serving()->memory.fraction, 0.9);
    }

    // The best way to serve: the search's verdict and candidates, both
    // kinds on the frontier; Apply makes a disaggregated row the design's in
    // one undo step, and the figures become the split layout's.
    void theSearchTabAppliesADisaggregatedLayout()
    {
        MainWindow w;
        w.resize(1400, 900);
        QVERIFY(w.openFile(test::sourcePath("tests/data/good/serving-70b-h100-node.cluster.json")));
        w.show();
        QCoreApplication::processEvents();
        ServingPanel* p = w.serving();
        // The search runs only while its tab shows.
        w.waitForBackgroundRuns();
        QCoreApplication::processEvents();
        QCOMPARE(p->candidateTable()->rowCount(), 0);
        p->tabs()->setCurrentIndex(1);
        w.waitForBackgroundRuns();
        QCoreApplication::processEvents();
        ServingSearchOptions options;
        options.top = ServingSearchService::kTop;
        const ServingSearchResult expected = searchServing(w.document()->design(), w.document()->catalog(), options);
        QCOMPARE(p->verdictLabel()->text(), QString::fromStdString(expected.verdict));
        QCOMPARE(p->frontierPlot()->graph(0)->dataCount(), int(expected.aggregatedFrontier.size()));
        QCOMPARE(p->frontierPlot()->graph(1)->dataCount(), int(expected.disaggregatedFrontier.size()));
        QCOMPARE(p->frontierPlot()->graph(2)->dataCount(), int(expected.aggregated.size()));
        QCOMPARE(p->frontierPlot()->graph(3)->dataCount(), int(expected.disaggregated.size()));
        QTableWidget* t = p->candidateTable();
        QCOMPARE(t->rowCount(), int(expected.aggregated.size() + expected.disaggregated.size()));
        // Each column says what it holds; the objective counts idle GPUs.
        for (int c = 0; c < t->columnCount(); ++c)
            QVERIFY(!t->horizontalHeaderItem(c)->toolTip().isEmpty());
        QVERIFY(t->horizontalHeaderItem(2)->toolTip().contains("every GPU of the design"));
        int row = -1;
        for (int r = 0; r < t->rowCount() && row < 0; ++r)
            if (t->item(r, 0)->text() == "disaggregated")
                row = r;
        QVERIFY(row >= 0);
        const QString config = t->item(row, 1)->text();
        const auto column = [&](const char* head) {
            for (int c = 0; c < t->columnCount(); ++c)
                if (t->horizontalHeaderItem(c)->text() == head)
                    return c;
            return -1;
        };
        // The objective beside the configuration, where a narrow dock shows it.
        QCOMPARE(column("tok/s/GPU"), 2);
        const QString perGpu = t->item(row, column("tok/s/GPU"))->text();
        QVERIFY(t->item(row, column("tok/s/kW"))->toolTip().contains("facility power"));
        const int undoBefore = w.document()->undoStack()->count();
        QVERIFY(p->applyRow(row));
        QCOMPARE(w.document()->undoStack()->count(), undoBefore + 1);
        const auto& split = w.document()->design().workload.serving->disaggregated;
        QVERIFY(split);
        w.analysis()->recomputeNow();
        const Serving* s = w.analysis()->serving();
        QVERIFY(s && s->ok());
        QCOMPARE(s->mode, std::string("disaggregated"));
        QCOMPARE(
            perGpu,
            QString::fromStdString(formatReadable(double(s->replicasInDesign) * s->decode.tokensPerSPerReplica / 8.0)));
        // The search runs again for the applied design; until it ends the
        // last result stays, its rows not to be applied.
        QVERIFY(!t->isEnabled());
        QVERIFY(p->verdictLabel()->text().startsWith("Searching again for the latest edit"));
        QVERIFY(!p->applyRow(row));
        w.waitForBackgroundRuns();
        QCoreApplication::processEvents();
        QVERIFY(t->isEnabled());
        QVERIFY(!p->verdictLabel()->text().startsWith("Searching again"));
        QVERIFY2(p->summaryLabel()->text().startsWith("<b>Disaggregated"), qPrintable(p->summaryLabel()->text()));
        QVERIFY(config.contains("prefill"));
        w.document()->undoStack()->undo();
        QVERIFY(!w.document()->design().workload.serving->disaggregated);

        // Another design opened: while its search runs, the last design's
        // rows are neither shown nor kept.
        QVERIFY(w.openFile(test::sourcePath("tests/data/good/serving-70b-disaggregated-2node.cluster.json")));
        QCoreApplication::processEvents();
        QCOMPARE(t->rowCount(), 0);
        QCOMPARE(p->frontierPlot()->graphCount(), 0);
        QCOMPARE(p->verdictLabel()->text(), QString("Searching aggregated and disaggregated layouts..."));
        w.waitForBackgroundRuns();
        QCoreApplication::processEvents();
        QVERIFY(t->rowCount() > 0);
    }

    void aTrainingDesignSaysWhereServingFiguresComeFrom()
    {
        MainWindow w;
        QVERIFY(w.openFile(test::sourcePath("presets/budget-8node-100gbe.cluster.json")));
        QCoreApplication::processEvents();
        QVERIFY(!w.analysis()->serving());
        // The sentence and where to go, in place of the whole panel.
        const MessageStack* said = w.serving()->messageStack();
        QVERIFY(said->showsMessage());
        QVERIFY(said->message().contains("The workload is training"));
        QVERIFY(w.serving()->summaryLabel()->text().isEmpty());
        // Set to serving: the figures take the sentence's place.
        auto* kind = qobject_cast<QComboBox*>(w.workload()->field("/workload/kind"));
        QVERIFY(kind);
        kind->setCurrentIndex(kind->findData("serving"));
        emit kind->activated(kind->currentIndex());
        w.analysis()->recomputeNow();
        QVERIFY(w.analysis()->serving());
        QVERIFY(!said->showsMessage());
        QVERIFY(said->message().isEmpty());
        QVERIFY(w.serving()->summaryLabel()->text().contains("tokens/s per GPU"));
    }
};

STUDIO_TEST_MAIN(TestServingPanel)
#include "tst_serving_panel.moc"
