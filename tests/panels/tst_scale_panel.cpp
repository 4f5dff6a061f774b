// The Scale and Sensitivity panels as a user meets them: they plot the
// core's sweep and tornado of the design as it is, run only while shown,
// and follow every edit; a what-if upgrade shows the core's figures and
// applies as one undoable edit.
#include <QtTest>

#include <QComboBox>
#include <QDockWidget>
#include <QLabel>
#include <QSettings>
#include <QTableWidget>
#include <QUndoStack>

#include <qcustomplot.h>

#include "app/main_window.h"
#include "core/scale/scale_sweep.h"
#include "core/scale/sensitivity.h"
#include "core/scale/upgrades.h"
#include "core/text.h"
#include "tests/gui_test_main.h"
#include "tests/test_support.h"
#include "widgets/charts/chart_plot.h"
#include "widgets/charts/chart_style.h"
#include "widgets/document/design_document.h"
#include "widgets/document/design_editor.h"
#include "widgets/panels/message_stack.h"
#include "widgets/scale/scale_charts.h"
#include "widgets/scale/scale_panel.h"
#include "widgets/scale/scale_sweep_service.h"
#include "widgets/scale/sensitivity_chart.h"
#include "widgets/scale/sensitivity_panel.h"
#include "widgets/scale/sensitivity_service.h"
#include "widgets/scale/upgrades_service.h"
#include "widgets/scale/upgrades_table.h"
#include "widgets/search/layouts_panel.h"

using namespace studio;

namespace {

const char* const kBudget = "budget-8node-100gbe.cluster.json";

bool open(MainWindow& w, const QString& preset)
{
    w.resize(1400, 900);
    if (!w.openFile(test::sourcePath("presets/" + preset)))
        return false;
    w.show();
    QCoreApplication::processEvents();
    return true;
}

void showScale(MainWindow& w)
{
    w.findChild<QDockWidget*>("scale")->raise();
    QCoreApplication::processEvents();
    w.waitForBackgroundRuns();
    QCoreApplication::processEvents();
}

}  // namespace

class TestScalePanel : public QObject {
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QCoreApplication::setOrganizationName("Cluster Studio tests");
        QCoreApplication::setApplicationName("tst_scale_panel");
        QSettings().clear();
    }

    void plotsTheCoreSweepOnlyWhenShown()
    {
        MainWindow w;
        QVERIFY(open(w, kBudget));
        w.waitForBackgroundRuns();
        // Hidden behind the Analysis tab: nothing swept.
        QVERIFY(!w.scaleSweep()->wanted());
        QVERIFY(!w.scaleSweep()->result());
        QVERIFY(!w.scaleSweep()->running());

        showScale(w);
        const SweepResult* shown = w.scaleSweep()->result();
        QVERIFY(shown);
        const SweepResult expected = sweepScale(w.document()->design(), w.document()->catalog());
        QCOMPARE(shown->points.size(), expected.points.size());
        QCOMPARE(w.scale()->charts()->bestGraph()->dataCount(), int(expected.points.size()));
        for (std::size_t i = 0; i < expected.points.size(); ++i) {
            const auto at = w.scale()->charts()->bestGraph()->data()->at(int(i));
            QCOMPARE(at->key, double(expected.points[i].gpus));
            QCOMPARE(at->value, expected.points[i].best->tokensPerS);
            QCOMPARE(w.scale()->charts()->idealGraph()->data()->at(int(i))->value,
                     idealTokensPerS(expected, expected.points[i].gpus));
        }
        QVERIFY2(
            w.scale()->summaryLabel()->text().contains(QString::fromStdString(expected.stopsPaying).toHtmlEscaped()),
            qPrintable(w.scale()->summaryLabel()->text()));
        // The markers: this design, each tier the fabric adds, where the batch
        // runs out of sequences and the cheapest run.
        int tiers = 0;
        for (const auto& p : expected.points)
            tiers += p.tierAdded;
        QVERIFY(expected.cheapestGpus > 0);
        QCustomPlot* plot = w.scale()->charts()->throughputPlot();
        QCOMPARE(plot->itemCount(), 2 * (tiers + 1 + 1 + 1));
        // Each kind's label on a line of its own, however short the plot.
        plot->resize(plot->width(), 160);
        plot->setViewport(plot->rect());
        plot->replot();
        std::vector<double> tops;
        int lineHeight = 0;
        for (int i = 0; i < plot->itemCount(); ++i)
            if (auto* label = qobject_cast<QCPItemText*>(plot->item(i)); label && !label->text().startsWith("+ tier")) {
                tops.push_back(label->position->pixelPosition().y());
                lineHeight = QFontMetrics(label->font()).height();
            }
        QCOMPARE(int(tops.size()), 3);
        std::sort(tops.begin(), tops.end());
        for (std::size_t i = 1; i < tops.size(); ++i)
            QVERIFY(tops[i] - tops[i - 1] >= lineHeight);
        QVERIFY(w.scale()->summaryLabel()->text().contains(
            QString("The cheapest run is at %1 GPUs").arg(QString::fromStdString(formatCount(expected.cheapestGpus)))));
    }

    // A serving design has no training run to sweep, vary or lay out: each
    // panel says so, and where to go, in place of empty axes.
    void aServingDesignIsSentToTheServingDock()
    {
        MainWindow w;
        QVERIFY(open(w, "serving-llama3-70b-dgx-h100.cluster.json"));
        for (const char* dock : {"scale", "sensitivity", "layouts"}) {
            w.findChild<QDockWidget*>(dock)->raise();
            QCoreApplication::processEvents();
            w.waitForBackgroundRuns();
            QCoreApplication::processEvents();
        }
        const std::vector<std::pair<const MessageStack*, QString>> panels = {
            {w.scale()->messageStack(), "No scale sweep: the workload is serving"},
            {w.sensitivity()->messageStack(), "No sensitivity: no training run: the workload is serving"},
            {w.layouts()->messageStack(), "No layout search: the workload is serving"}};
        for (const auto& [stack, sentence] : panels) {
            QVERIFY(stack->showsMessage());
            QVERIFY2(stack->message().startsWith(sentence), qPrintable(stack->message()));
        }
        QVERIFY(w.scale()->summaryLabel()->text().isEmpty());
        QVERIFY(w.sensitivity()->summaryLabel()->text().isEmpty());
        // The hint names the dock that serves.
        bool hinted = false;
        for (const QLabel* l : w.scale()->messageStack()->findChildren<QLabel*>())
            hinted = hinted || (l->isVisible() && l->text().contains("the Serving dock sizes it"));
        QVERIFY(hinted);
        // Their choices have nothing to act on: greyed out, not offered.
        QVERIFY(!w.scale()->scalingBox()->isEnabled());
        QVERIFY(!w.layouts()->objectiveBox()->isEnabled());
    }

    void followsEditsAndTheScalingChoice()
    {
        MainWindow w;
        QVERIFY(open(w, kBudget));
        showScale(w);
        const std::int64_t before = w.scaleSweep()->result()->designGpus;
        DesignSettings s = DesignSettings::of(w.document()->design());
        s.workload.training.global_batch *= 2;
        QVERIFY(DesignEditor(w.document()).changeSettings(s, "batch").applied());
        QCoreApplication::processEvents();
        w.waitForBackgroundRuns();
        QCoreApplication::processEvents();
        const SweepResult* after = w.scaleSweep()->result();
        QVERIFY(after);
        QCOMPARE(after->designGpus, before);
        QCOMPARE(after->designPoint()->globalBatch, s.workload.training.global_batch);

        w.scale()->scalingBox()->setCurrentIndex(1);
        w.waitForBackgroundRuns();
        QCoreApplication::processEvents();
        QCOMPARE(w.scaleSweep()->result()->scaling, Scaling::Weak);
        QVERIFY(w.scale()->summaryLabel()->text().contains("Weak scaling"));
    }

    void sensitivityPlotsTheCoreTornado()
    {
        MainWindow w;
        QVERIFY(open(w, kBudget));
        w.waitForBackgroundRuns();
        QVERIFY(!w.sensitivityService()->wanted());
        QVERIFY(!w.sensitivityService()->result());
        w.findChild<QDockWidget*>("sensitivity")->raise();
        QCoreApplication::processEvents();
        w.waitForBackgroundRuns();
        QCoreApplication::processEvents();
        const SensitivityResult* shown = w.sensitivityService()->result();
        QVERIFY(shown);
        const SensitivityResult expected = analyzeSensitivity(w.document()->design(), w.document()->catalog());
        QCOMPARE(shown->inputs.size(), expected.inputs.size());
        QVERIFY2(
            w.sensitivity()->summaryLabel()->text().contains(QString::fromStdString(expected.binding).toHtmlEscaped()),
            qPrintable(w.sensitivity()->summaryLabel()->text()));
        // Row 1 is the input with the largest effect; each bar is its days'
        // change in %. Inputs that move the days by under 0.05% share the
        // bottom row, without bars.
        const auto ticks = categoryTicker(w.sensitivity()->chart()->plot()->yAxis)->ticks();
        int moving = 0;
        for (const SensitivityInput& in : expected.inputs) {
            double most = 0;
            for (const SensitivityChange& c : in.changes)
                most = std::max(most, std::abs(100 * (c.days / expected.days - 1)));
            const bool ticked = std::find(ticks.begin(), ticks.end(), QString::fromStdString(in.label)) != ticks.end();
            QVERIFY2(ticked == (most >= 0.05), in.label.c_str());
            moving += ticked ? 1 : 0;
        }
        QVERIFY(moving > 0 && moving < int(expected.inputs.size()));  // both kinds on the budget design
        QCOMPARE(ticks.size(), moving + 1);
        QCOMPARE(ticks.last(), QString("%1 more, each under 0.05%").arg(int(expected.inputs.size()) - moving));
        for (int i = 0; i < 4; ++i) {
            QCPBars* bars = w.sensitivity()->chart()->bars(i);
            QCOMPARE(bars->dataCount(), moving);
            const SensitivityChange& c = expected.inputs.front().at(kSensitivityChanges[i]);
            QCOMPARE(bars->data()->at(0)->key, 1.0);
            QCOMPARE(bars->data()->at(0)->value, 100 * (c.days / expected.days - 1));
        }
        // Effect on the cost of the run: the rows follow its effects.
        auto* measure = w.sensitivity()->findChild<QComboBox*>("measure");
        QVERIFY(measure);
        const int cost = measure->findData(int(SensitivityMeasure::RunCost));
        measure->setCurrentIndex(cost);
        emit measure->activated(cost);
        SensitivityChart* chart = w.sensitivity()->chart();
        QCOMPARE(chart->measure(), SensitivityMeasure::RunCost);
        QCOMPARE(chart->plot()->xAxis->label(), QString("change in cost of the run (%)"));
        const std::size_t top = inputsByEffect(expected, SensitivityMeasure::RunCost).front();
        for (int i = 0; i < 4; ++i) {
            const SensitivityChange& c = expected.inputs[top].at(kSensitivityChanges[i]);
            QCOMPARE(chart->bars(i)->data()->at(0)->value, 100 * (c.runCostUsd / expected.runCostUsd - 1));
        }
        QCOMPARE(categoryTicker(chart->plot()->yAxis)->ticks().value(1.0),
                 QString::fromStdString(expected.inputs[top].label));
        // Hidden again, an edit runs nothing.
        w.findChild<QDockWidget*>("analysis")->raise();
        QCoreApplication::processEvents();
        QVERIFY(!w.sensitivityService()->wanted());
        DesignSettings s = DesignSettings::of(w.document()->design());
        s.facility.pue = 1.2;
        QVERIFY(DesignEditor(w.document()).changeSettings(s, "PUE").applied());
        QCoreApplication::processEvents();
        QVERIFY(!w.sensitivityService()->running());
        QVERIFY(!w.sensitivityService()->result());
    }

    void upgradesApplyInOneUndoableStep()
    {
        MainWindow w;
        QVERIFY(open(w, kBudget));
        w.findChild<QDockWidget*>("sensitivity")->raise();
        QCoreApplication::processEvents();
        w.waitForBackgroundRuns();
        QCoreApplication::processEvents();
        const UpgradesResult* shown = w.upgradesService()->result();
        QVERIFY(shown && shown->ok());
        const Design before = w.document()->design();
        const UpgradesResult expected = analyzeUpgrades(before, w.document()->catalog());
        QTableWidget* table = w.sensitivity()->upgrades()->table();
        QCOMPARE(table->rowCount(), 4);
        // Each row is the core's figure with its change from today.
        const UpgradeOutcome& next = expected.upgrades[0];
        QCOMPARE(table->item(0, 1)->text(), QString("Next GPU generation"));
        const QString tokens = table->item(0, 2)->text();
        QVERIFY2(tokens.startsWith(QString::fromStdString(formatReadable(next.after->tokensPerS / 1000)) + "k"),
                 qPrintable(tokens));
        const double change = 100 * (next.after->tokensPerS / expected.today.tokensPerS - 1);
        QVERIFY2(tokens.endsWith("(+" + QString::fromStdString(formatReadable(change, 3)) + "%)"), qPrintable(tokens));
        QVERIFY(table->item(0, 2)->toolTip().contains("A100 SXM 80GB -&gt; H100 SXM 80GB"));
        // Apply: the upgraded design, one undo step; undo: today's again.
        const int undoSteps = w.document()->undoStack()->count();
        QVERIFY(w.sensitivity()->upgrades()->apply(0));
        QVERIFY(w.document()->design() == next.proposal.design);
        QCOMPARE(w.document()->undoStack()->count(), undoSteps + 1);
        QCOMPARE(w.document()->undoStack()->undoText(), QString("Upgrade: Next GPU generation"));
        w.document()->undoStack()->undo();
        QVERIFY(w.document()->design() == before);
        w.document()->undoStack()->redo();
        QVERIFY(w.document()->design() == next.proposal.design);
        // The table follows the edit: the upgraded design's own upgrades.
        QCoreApplication::processEvents();
        w.waitForBackgroundRuns();
        QCoreApplication::processEvents();
        QVERIFY(table->item(0, 2)->toolTip().contains("H100 SXM 80GB -&gt; B200 (HGX)"));
        // A stale proposal (the design's items changed) is refused, not applied.
        Design other = next.proposal.design;
        other.components.pop_back();
        const EditResult refused = DesignEditor(w.document()).changeDesign(other, "stale");
        QVERIFY(refused.refused());
        QVERIFY(refused.reason.contains("changed since"));
    }
};

STUDIO_TEST_MAIN(TestScalePanel)
#include "tst_scale_panel.moc"
