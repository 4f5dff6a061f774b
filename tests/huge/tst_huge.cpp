// A design drawn in full (bench/expanded_design.h: the DGX H100 SuperPOD at
// 1,024 nodes, every rack, node, NIC, storage system and cable an item):
// the analysis counts what the replicated preset counts, the studio opens
// it with one item per component and link, and an edit and its undo
// round-trip exactly. Not timed: bench_huge measures it.
#include <QtTest>

#include <QTemporaryDir>
#include <QUndoStack>

#include <fstream>

#include "app/main_window.h"
#include "bench/expanded_design.h"
#include "core/design/resize.h"
#include "core/format/design_reader.h"
#include "core/format/design_validator.h"
#include "core/format/design_writer.h"
#include "core/model/analysis.h"
#include "tests/chart_support.h"
#include "tests/gui_test_main.h"
#include "tests/test_support.h"
#include "widgets/analysis/analysis_service.h"
#include "widgets/canvas/component_item.h"
#include "widgets/canvas/design_scene.h"
#include "widgets/canvas/link_item.h"
#include "widgets/charts/chart_view.h"
#include "widgets/document/design_document.h"
#include "widgets/document/design_editor.h"
#include "widgets/panels/analysis_area.h"

using namespace studio;

namespace {

Design preset()
{
    DesignLoad loaded = loadDesignFile(test::sourcePath("presets/dgx-h100-superpod-4su.cluster.json").toStdString(),
                                       Catalog::builtin());
    return *loaded.design;
}

}  // namespace

class TestHuge : public QObject {
    Q_OBJECT
private slots:
    // The same cluster replicated (the preset at 32 scalable units) and
    // drawn in full: the same GPUs, nodes, racks, NICs, switches, cables
    // and parts, and the same power to rounding (the sums run over 512
    // racks instead of one rack of 512).
    void countsWhatTheReplicatedDesignCounts()
    {
        const Design expanded = expandedSuperPod(preset(), Catalog::builtin(), 1024);
        QCOMPARE(expanded.components.size(), std::size_t(12847));
        QCOMPARE(expanded.links.size(), std::size_t(10336));
        QVERIFY(validateDesign(expanded, Catalog::builtin()).empty());
        for (const Component& c : expanded.components)
            QVERIFY2(c.count == 1 || c.part == "gpu.h100-sxm", c.id.c_str());

        Design replicated = preset();
        QVERIFY(!resizeToGpus(replicated, Catalog::builtin(), 8192));
        const Analysis a = analyzeDesign(expanded, Catalog::builtin());
        const Analysis b = analyzeDesign(replicated, Catalog::builtin());
        QCOMPARE(a.inventory.gpus, std::int64_t(8192));
        QCOMPARE(a.inventory.nodes, std::int64_t(1024));
        QCOMPARE(a.inventory.nics, std::int64_t(8192 + 2048));  // compute and storage NICs
        QCOMPARE(a.inventory.cables, std::int64_t(31008));      // 10,336 drawn, 20,672 between switches
        QCOMPARE(a.inventory.gpus, b.inventory.gpus);
        QCOMPARE(a.inventory.nodes, b.inventory.nodes);
        QCOMPARE(a.inventory.racks, b.inventory.racks);
        QCOMPARE(a.inventory.nics, b.inventory.nics);
        QVERIFY(a.inventory.switchesByTier == b.inventory.switchesByTier);
        QVERIFY(a.inventory.cablesByPart == b.inventory.cablesByPart);
        QCOMPARE(a.inventory.bom.size(), b.inventory.bom.size());
        for (std::size_t i = 0; i < a.inventory.bom.size(); ++i) {
            QCOMPARE(a.inventory.bom[i].part, b.inventory.bom[i].part);
            QCOMPARE(a.inventory.bom[i].count, b.inventory.bom[i].count);
        }
        QCOMPARE(a.power.racks.size(), std::size_t(512));
        QCOMPARE(b.power.racks.size(), std::size_t(1));
        QVERIFY(qFuzzyCompare(a.power.itKw, b.power.itKw));
        QVERIFY(qFuzzyCompare(a.step.stepS, b.step.stepS));
    }

    // Opened in the studio: an item per component and per link, the
    // analysis of 8,192 GPUs; a move, a count and a removal each undone
    // give back the design and the file it saves, byte for byte.
    void opensAndAnEditUndoesExactly()
    {
        QTemporaryDir dir;
        const QString file = dir.filePath("expanded.cluster.json");
        std::ofstream(file.toStdString()) << writeDesignText(expandedSuperPod(preset(), Catalog::builtin(), 1024));
        MainWindow w;
        w.resize(1400, 900);
        w.show();
        QVERIFY(w.openFile(file));
        QCoreApplication::processEvents();
        DesignDocument* doc = w.document();
        const Design opened = doc->design();
        const std::string saved = writeDesignText(opened);
        QVERIFY(w.analysis()->analysis());
        QCOMPARE(w.analysis()->analysis()->inventory.gpus, std::int64_t(8192));
        QCOMPARE(w.analysis()->analysis()->inventory.nics, std::int64_t(10240));
        // Its 512 racks are one kind: one bar of 512, as for the preset.
        w.analysisArea()->showPanel("power");
        QCoreApplication::processEvents();
        QCustomPlot* racks = w.analysisArea()->panel("power")->plot("racks");
        const QVector<double> within = test::values(test::named<QCPBars>(racks, "racks within their limit")->data());
        QCOMPARE(within.size(), 1);
        QVERIFY(test::values(test::named<QCPBars>(racks, "racks over their limit")->data()).isEmpty());
        QVERIFY(qFuzzyCompare(within.front(), w.analysis()->analysis()->power.racks.front().kwEach));
        int items = 0, links = 0;
        for (QGraphicsItem* i : w.scene()->items())
            items += i->type() == ComponentItem::Type, links += i->type() == LinkItem::Type;
        QCOMPARE(items, int(opened.components.size()));
        QCOMPARE(links, int(opened.links.size()));

        DesignScene* scene = w.scene();
        scene->selectComponents({"dgx-16-8-1"});
        QCOMPARE(scene->moveSelectionBy(QPointF(30, 0), 0), QString());
        QCOMPARE(scene->setCount("rack-16-8", 2), QString());
        QVERIFY(scene->editor().remove({}, {"dgx-fabric-16-8-1-1"}, "Delete").applied());
        QCoreApplication::processEvents();
        QCOMPARE(w.analysis()->analysis()->inventory.gpus, std::int64_t(8192 + 16));
        const Design edited = doc->design();
        QVERIFY(!(edited == opened));

        doc->undoStack()->setIndex(0);
        QCoreApplication::processEvents();
        QVERIFY(doc->design() == opened);
        QCOMPARE(writeDesignText(doc->design()), saved);
        QCOMPARE(w.analysis()->analysis()->inventory.gpus, std::int64_t(8192));
        QVERIFY(scene->linkItemFor("dgx-fabric-16-8-1-1"));
        doc->undoStack()->setIndex(doc->undoStack()->count());
        QCoreApplication::processEvents();
        QVERIFY(doc->design() == edited);
        QVERIFY(!scene->linkItemFor("dgx-fabric-16-8-1-1"));
        doc->undoStack()->setClean();  // closing asks nothing
    }

    // The editor checks an edit of a few items by their own rules and hands
    // the problems it found to the document and the undo stack: after every
    // edit, refusal, undo and redo, what the document says it knows is what
    // validating the whole design finds.
    void knownProblemsAreTheDesignsOwn()
    {
        DesignDocument doc;
        const Design small = expandedSuperPod(preset(), Catalog::builtin(), 32);
        doc.reset(small, std::make_shared<Catalog>(Catalog::builtin()), {});
        DesignEditor editor(&doc);
        auto agrees = [&doc] {
            const auto fresh = validateDesign(doc.design(), doc.catalog());
            const auto& known = doc.problems();
            if (fresh.size() != known.size())
                return false;
            for (std::size_t i = 0; i < fresh.size(); ++i)
                if (fresh[i].pointer != known[i].pointer || fresh[i].code != known[i].code ||
                    fresh[i].message != known[i].message)
                    return false;
            return true;
        };
        const std::string node = doc.design().components[3].id;
        QVERIFY(editor.moveBy({node}, {10, 0}).applied());
        QVERIFY(agrees());
        // Beyond the canvas's range: refused with the field's pointer.
        const EditResult far = editor.moveBy({node}, {2 * kMaxCoordinate, 0});
        QVERIFY(far.refused());
        QCOMPARE(far.problem.code, std::string("out_of_range"));
        QVERIFY(agrees());
        Link dangling = doc.design().links.front();
        dangling.id = "new-cable";
        dangling.to = "no-such-component";
        QVERIFY(editor.addItems({}, {dangling}, "Connect").refused());
        Link twice = doc.design().links.front();  // the same id again
        QVERIFY(editor.addItems({}, {twice}, "Connect").refused());
        Link fine = doc.design().links.front();
        fine.id = "new-cable";
        QVERIFY(editor.addItems({}, {fine}, "Connect").applied());
        QVERIFY(agrees());
        QVERIFY(editor.remove({doc.design().components[2].id}, {}, "Delete").applied());
        QVERIFY(agrees());
        Component renamed = doc.design().components[5];
        renamed.name = "";
        QVERIFY(editor.changeComponents({renamed}, "Rename").applied());
        QVERIFY(agrees());
        for (int i = 0; i < 4; ++i) {
            doc.undoStack()->undo();
            QVERIFY(agrees());
        }
        QVERIFY(doc.design() == small);
        for (int i = 0; i < 4; ++i) {
            doc.undoStack()->redo();
            QVERIFY(agrees());
        }
    }
};

STUDIO_TEST_MAIN(TestHuge)
#include "tst_huge.moc"
