// The canvas as a user drives it: parts dropped from the palette (through
// the drag-and-drop event path), nesting rules, replication, a link drawn
// by dragging from a port, hundreds of edits undone and redone exactly,
// save and open, and the screenshot verb (recovery: tst_durability).
#include <QSignalSpy>
#include <QtTest>

#include <QGraphicsSceneDragDropEvent>
#include <QProcess>
#include <QTemporaryDir>

#include <random>

#include "app/main_window.h"
#include "core/format/design_reader.h"
#include "core/format/design_writer.h"
#include "tests/core/hand_built.h"
#include "tests/gui_test_main.h"
#include "tests/test_support.h"
#include "widgets/analysis/analysis_service.h"
#include "widgets/canvas/component_item.h"
#include "widgets/canvas/design_scene.h"
#include "widgets/canvas/design_view.h"
#include "widgets/canvas/link_item.h"
#include "widgets/document/design_document.h"
#include "widgets/document/design_editor.h"
#include "widgets/palette/part_mime.h"

using namespace studio;

namespace {

using test::emptyDesign;

struct Studio {
    DesignDocument doc;
    AnalysisService analysis{&doc};
    DesignScene scene{&doc, &analysis};
    Studio() { doc.reset(emptyDesign(), std::make_shared<Catalog>(Catalog::builtin()), {}); }

    // A drop as the palette makes it: the part's mime data, delivered to the
    // scene as a drop event.
    QString drop(const QString& part, QPointF at)
    {
        QString refusal;
        auto conn = QObject::connect(&scene, &DesignScene::message, [&](const QString& m) { refusal = m; });
        const auto mime = makePartMime(part);
        QGraphicsSceneDragDropEvent event(QEvent::GraphicsSceneDrop);
        event.setMimeData(mime.get());
        event.setScenePos(at);
        event.setProposedAction(Qt::CopyAction);
        event.setPossibleActions(Qt::CopyAction);
        QCoreApplication::sendEvent(&scene, &event);
        QObject::disconnect(conn);
        return refusal;
    }
    const Component* byPart(const std::string& part) const
    {
        for (const auto& c : doc.design().components)
            if (c.part == part)
                return &c;
        return nullptr;
    }
    QPointF inside(const std::string& id)
    {
        ComponentItem* item = scene.itemFor(QString::fromStdString(id));
        return item->mapToScene(QPointF(item->frameRect().width() - 20, item->frameRect().height() - 8));
    }
};

}  // namespace

class TestCanvas : public QObject {
    Q_OBJECT
private slots:
    // Another kernel profile swaps the document's catalog for a copy: every
    // item moves to the new copy's parts before the old one goes (issue 35;
    // AddressSanitizer caught an item reading a freed part on the next
    // analysis), and the analysis that follows draws without it.
    void aNewCatalogMovesEveryItemToItsParts()
    {
        Studio s;
        QCOMPARE(s.drop("rack.air-42u", {100, 100}), QString());
        QCOMPARE(s.drop("node.dgx-h100", s.inside(s.byPart("rack.air-42u")->id)), QString());
        auto replacement = std::make_shared<Catalog>(s.doc.catalog());
        replacement->clearKernels();
        const Part* before = s.scene.itemFor(QString::fromStdString(s.byPart("rack.air-42u")->id))->part();
        QSignalSpy resync(&s.doc, &DesignDocument::catalogChanged);
        s.doc.setCatalog(replacement);
        QCOMPARE(resync.count(), 1);
        for (const auto& c : s.doc.design().components) {
            const ComponentItem* item = s.scene.itemFor(QString::fromStdString(c.id));
            QVERIFY(item);
            QCOMPARE(item->part(), replacement->find(c.part));
        }
        QVERIFY(s.scene.itemFor(QString::fromStdString(s.byPart("rack.air-42u")->id))->part() != before);
        s.analysis.bringUpToDate();
        QCOMPARE(s.scene.itemFor(QString::fromStdString(s.byPart("rack.air-42u")->id))->kind(), PartKind::Rack);
    }

    void dropsFromThePaletteNestParts()
    {
        Studio s;
        QCOMPARE(s.drop("rack.air-42u", {100, 100}), QString());
        const Component* rack = s.byPart("rack.air-42u");
        QVERIFY(rack);
        QVERIFY(rack->parent.empty());
        // A node platform arrives with its GPUs, compute NICs and DPUs.
        QCOMPARE(s.drop("node.dgx-h100", s.inside(rack->id)), QString());
        const Component* node = s.byPart("node.dgx-h100");
        QVERIFY(node);
        QCOMPARE(node->parent, s.byPart("rack.air-42u")->id);
        QCOMPARE(s.byPart("gpu.h100-sxm")->count, std::int64_t(8));
        QCOMPARE(s.byPart("gpu.h100-sxm")->parent, node->id);
        QCOMPARE(s.byPart("nic.connectx-7")->count, std::int64_t(8));
        QCOMPARE(s.byPart("nic.bluefield-3")->count, std::int64_t(2));
        s.analysis.recomputeNow();
        QCOMPARE(s.analysis.analysis()->inventory.gpus, std::int64_t(8));
        // The node's own item draws its children; one drop is one undo step.
        QCOMPARE(s.scene.itemFor(QString::fromStdString(s.byPart("gpu.h100-sxm")->id))->parentItem(),
                 static_cast<QGraphicsItem*>(s.scene.itemFor(QString::fromStdString(node->id))));
        QCOMPARE(s.doc.undoStack()->count(), 2);
    }

    void invalidDropsAreRefusedWithAMessage()
    {
        Studio s;
        QCOMPARE(s.drop("gpu.h100-sxm", {50, 50}),
                 QString("an accelerator must be placed inside a node or an NVLink domain"));
        QCOMPARE(s.drop("rack.air-42u", {100, 100}), QString());
        QCOMPARE(s.drop("node.dgx-h100", s.inside(s.byPart("rack.air-42u")->id)), QString());
        const int before = s.doc.undoStack()->count();
        const std::string gpu = s.byPart("gpu.h100-sxm")->id;
        QCOMPARE(s.drop("rack.air-42u", s.inside(gpu)),
                 QString("a rack cannot be placed inside an accelerator: an accelerator holds nothing"));
        QCOMPARE(
            s.drop("group.pod", s.inside(s.byPart("rack.air-42u")->id)),
            QString(
                "a group cannot be placed inside a rack unless it is an NVLink domain; put racks inside pods instead"));
        QCOMPARE(s.doc.undoStack()->count(), before);  // nothing changed
    }

    void replicationChangesTheInventory()
    {
        Studio s;
        s.drop("rack.air-42u", {100, 100});
        s.drop("node.dgx-h100", s.inside(s.byPart("rack.air-42u")->id));
        const QString rack = QString::fromStdString(s.byPart("rack.air-42u")->id);
        QCOMPARE(s.scene.setCount(rack, 64), QString());
        s.analysis.recomputeNow();
        QCOMPARE(s.analysis.analysis()->inventory.gpus, std::int64_t(64 * 8));
        QCOMPARE(s.analysis.analysis()->inventory.racks, std::int64_t(64));
        // 16,384 GPUs stay a handful of items.
        QCOMPARE(s.scene.setCount(rack, 2048), QString());
        s.analysis.recomputeNow();
        QCOMPARE(s.analysis.analysis()->inventory.gpus, std::int64_t(16384));
        QVERIFY(s.scene.items().size() < 20);
        // Refused with the file's rule, naming the item.
        QCOMPARE(s.scene.setCount(rack, 0),
                 QString::fromStdString(s.byPart("rack.air-42u")->name) + ", count: must be at least 1, got 0");
    }

    void aLinkIsDrawnByDraggingFromAPort()
    {
        Studio s;
        s.drop("rack.air-42u", {0, 0});
        s.drop("node.dgx-h100", s.inside(s.byPart("rack.air-42u")->id));
        s.drop("fabric.rail-optimized", {900, 60});
        const std::string nicId = s.byPart("nic.connectx-7")->id;
        const std::string fabricId = s.byPart("fabric.rail-optimized")->id;
        DesignView view(&s.scene);
        view.resize(1400, 800);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        view.zoomTo100();
        ComponentItem* nic = s.scene.itemFor(QString::fromStdString(nicId));
        ComponentItem* fabric = s.scene.itemFor(QString::fromStdString(fabricId));
        view.ensureVisible(nic);
        nic->setSelected(true);  // the port handle shows on hover or selection
        const QPoint from = view.mapFromScene(nic->portScenePos());
        const QPoint to = view.mapFromScene(fabric->mapToScene(fabric->frameRect().center()));
        QTest::mousePress(view.viewport(), Qt::LeftButton, {}, from);
        QMouseEvent move(QEvent::MouseMove, to, view.viewport()->mapToGlobal(to), Qt::NoButton, Qt::LeftButton, {});
        QCoreApplication::sendEvent(view.viewport(), &move);
        QTest::mouseRelease(view.viewport(), Qt::LeftButton, {}, to);
        QCOMPARE(s.doc.design().links.size(), std::size_t(1));
        const Link& l = s.doc.design().links.front();
        QCOMPARE(l.from, nicId);
        QCOMPARE(l.to, fabricId);
        QCOMPARE(l.part, std::string("link.ib-ndr-optical"));  // carries the NIC's 400G on InfiniBand
        s.analysis.recomputeNow();
        QCOMPARE(s.analysis.analysis()->inventory.fabrics.front().tree.endpoints, std::int64_t(8));
    }

    // A count edit repaints the container's header strip and the labels that
    // changed, not the container or the links' routes (the whole of each was
    // repainted while the overview listened to QGraphicsScene::changed).
    void aCountEditRepaintsOnlyWhatItChanged()
    {
        Studio s;
        // The view first, as in the window: the edits below reach it as they happen.
        DesignView view(&s.scene);
        view.resize(1400, 800);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        s.drop("rack.air-42u", {0, 0});
        s.drop("node.dgx-h100", s.inside(s.byPart("rack.air-42u")->id));
        s.drop("fabric.rail-optimized", {900, 60});
        const QString rackId = QString::fromStdString(s.byPart("rack.air-42u")->id);
        QVERIFY(DesignEditor(&s.doc)
                    .connect(s.byPart("nic.connectx-7")->id, s.byPart("fabric.rail-optimized")->id)
                    .applied());
        QCOMPARE(s.scene.setCount(rackId, 2), QString());  // drawn as a stack from two on
        view.zoomTo100();
        s.analysis.recomputeNow();
        QTest::qWait(20);
        const LinkItem* link = s.scene.linkItemFor(QString::fromStdString(s.doc.design().links.front().id));
        QVERIFY(link);
        const QString labelBefore = link->label();

        struct Painted : QObject {
            QRegion region;
            int paints = 0;
            bool eventFilter(QObject*, QEvent* e) override
            {
                if (e->type() == QEvent::Paint) {
                    region += static_cast<QPaintEvent*>(e)->region();
                    ++paints;
                }
                return false;
            }
        } painted;
        view.viewport()->installEventFilter(&painted);
        QSignalSpy drawing(&s.scene, &DesignScene::drawingChanged);
        QCOMPARE(s.scene.setCount(rackId, 4), QString());
        s.analysis.recomputeNow();
        QTRY_VERIFY(!painted.region.isEmpty());
        QCoreApplication::processEvents();

        QVERIFY(link->label() != labelBefore);  // twice the cables
        QVERIFY(!drawing.isEmpty());            // the overview hears of it
        ComponentItem* rack = s.scene.itemFor(rackId);
        const QRect rackOnView = view.mapFromScene(rack->mapToScene(rack->frameRect())).boundingRect();
        const QRect header = view.mapFromScene(rack->mapToScene(rack->analysisRect())).boundingRect();
        QVERIFY(painted.region.intersects(header));
        const double rackArea = double(rackOnView.width()) * rackOnView.height();
        double paintedInRack = 0;
        for (const QRect& r : painted.region.intersected(rackOnView))
            paintedInRack += double(r.width()) * r.height();
        QVERIFY2(paintedInRack < 0.5 * rackArea,
                 qPrintable(QString("painted %1 of the rack's %2 pixels").arg(paintedInRack).arg(rackArea)));
        // The route away from its label is not repainted.
        const QPointF routeStart = link->mapToScene(link->path().pointAtPercent(0.02));
        QVERIFY(!painted.region.contains(view.mapFromScene(routeStart)));

        // Left to the event loop, as an edit from the inspector is: the
        // recompute (the rack's marks) and the link routing (its label) run
        // before the canvas paints, so the edit reaches the screen in one
        // paint, not one for the edit and another for what it recomputed.
        painted.region = {};
        painted.paints = 0;
        const int recomputes = s.analysis.recomputeCount();
        QCOMPARE(s.scene.setCount(rackId, 6), QString());
        QTRY_VERIFY(painted.paints > 0 && s.analysis.recomputeCount() > recomputes);
        QTest::qWait(50);
        QCOMPARE(painted.paints, 1);
        QCOMPARE(s.analysis.recomputeCount(), recomputes + 1);
        QVERIFY(painted.region.intersects(header));
        const QRect label = view.mapFromScene(link->mapToScene(link->labelRect())).boundingRect();
        QVERIFY(painted.region.intersects(label));
    }

    void containersTellQtTheirChildrenStayInside()
    {
        // Qt then skips a container's items when it is not repainted or hit
        // (a design drawn in full has 12,847 under its pod); a child that
        // sits outside must still be drawn and found.
        Studio s;
        s.drop("rack.air-42u", {0, 0});
        s.drop("node.dgx-h100", s.inside(s.byPart("rack.air-42u")->id));
        const std::string rackId = s.byPart("rack.air-42u")->id, nodeId = s.byPart("node.dgx-h100")->id;
        ComponentItem* rack = s.scene.itemFor(QString::fromStdString(rackId));
        ComponentItem* node = s.scene.itemFor(QString::fromStdString(nodeId));
        QCOMPARE(node->parentItem(), rack);
        const auto contains = [](const QGraphicsItem* item) {
            return bool(item->flags() & QGraphicsItem::ItemContainsChildrenInShape);
        };
        QVERIFY(contains(rack));
        QVERIFY(contains(node));

        // Nudged left of its rack's frame (the file allows it): the rack no
        // longer vouches for it, and the node is found where it is.
        QVERIFY(DesignEditor(&s.doc).moveBy({nodeId}, {-node->x() - 300, 0}).applied());
        QVERIFY(node->x() < 0);
        QCOMPARE(node->parentItem(), rack);
        QVERIFY(!contains(rack));
        const QPointF onNode = node->mapToScene(node->frameRect().center());
        QVERIFY(s.scene.items(onNode).contains(node));
        QVERIFY(DesignEditor(&s.doc).moveBy({nodeId}, {300 + ComponentItem::kPad, 0}).applied());
        QVERIFY(node->x() >= 0);
        QVERIFY(contains(rack));

        // Dragged by the mouse, it may leave before the drop decides where
        // it goes; the drop back in place gives the rack its flag again.
        s.scene.selectComponents({QString::fromStdString(nodeId)});
        s.scene.setDragging(true);
        const QPointF home = node->pos();
        node->setPos(home + QPointF(-400, 0));
        QVERIFY(!contains(rack));
        node->setPos(home);
        s.scene.commitMove(node->scenePos());
        QCOMPARE(node->parentItem(), rack);
        QVERIFY(contains(rack));
    }

    void largeContainersAreNotKeptAsPixmaps()
    {
        // A container's pixmap is megabytes when it is large on screen, and
        // drawn again whenever its header changes; far out nothing is kept.
        Studio s;
        s.drop("rack.air-42u", {0, 0});
        s.drop("node.dgx-h100", s.inside(s.byPart("rack.air-42u")->id));
        ComponentItem* rack = s.scene.itemFor(QString::fromStdString(s.byPart("rack.air-42u")->id));
        ComponentItem* gpu = nullptr;
        for (QGraphicsItem* item : s.scene.items())
            if (item->type() == ComponentItem::Type && !static_cast<ComponentItem*>(item)->isContainer())
                gpu = static_cast<ComponentItem*>(item);
        QVERIFY(gpu);
        const double side = std::sqrt(rack->frameRect().width() * rack->frameRect().height());
        s.scene.setViewZoom(200 / side);  // the rack about 200x200 pixels
        QCOMPARE(rack->cacheMode(), QGraphicsItem::DeviceCoordinateCache);
        QCOMPARE(gpu->cacheMode(), QGraphicsItem::DeviceCoordinateCache);
        s.scene.setViewZoom(1000 / side);  // about 1000x1000
        QCOMPARE(rack->cacheMode(), QGraphicsItem::NoCache);
        QCOMPARE(gpu->cacheMode(), QGraphicsItem::DeviceCoordinateCache);
        s.scene.setViewZoom(ItemMetrics::kDetailZoom / 2);
        QVERIFY(s.scene.farOut());
        QCOMPARE(rack->cacheMode(), QGraphicsItem::NoCache);
        QCOMPARE(gpu->cacheMode(), QGraphicsItem::NoCache);
    }

    void dragsAndTypingMergeIntoOneStep()
    {
        Studio s;
        s.drop("rack.air-42u", {100, 100});
        s.scene.selectComponents({QString::fromStdString(s.byPart("rack.air-42u")->id)});
        const int before = s.doc.undoStack()->count();
        const int key = nextMergeKey();
        for (int i = 0; i < 5; ++i)
            s.scene.moveSelectionBy({10, 0}, key);
        QCOMPARE(s.doc.undoStack()->count(), before + 1);
        QCOMPARE(s.byPart("rack.air-42u")->position.x, 150.0);
        s.doc.undoStack()->undo();
        QCOMPARE(s.byPart("rack.air-42u")->position.x, 100.0);
    }

    void fiveHundredRandomEditsUndoAndRedoExactly()
    {
        Studio s;
        QVERIFY(
            s.doc.load(test::sourcePath("presets/dgx-h100-superpod-4su.cluster.json"), Catalog::builtin(), nullptr));
        const Design original = s.doc.design();
        std::mt19937 rng(4);
        auto pick = [&](int n) { return int(rng() % unsigned(n)); };
        const QStringList parts = {"rack.air-42u",    "node.dgx-h100", "group.pod",       "storage.pfs-appliance",
                                   "fabric.fat-tree", "switch.qm9700", "node.gb200-nvl72"};
        int edits = 0;
        for (int attempt = 0; edits < 500 && attempt < 5000; ++attempt) {
            const int before = s.doc.undoStack()->index();
            const auto& comps = s.doc.design().components;
            const QString some =
                comps.empty() ? QString() : QString::fromStdString(comps[std::size_t(pick(int(comps.size())))].id);
            switch (pick(7)) {
            case 0: {  // drop a part somewhere: the canvas or inside an item
                QPointF at(pick(1600) - 200, pick(900) - 200);
                if (!some.isEmpty() && pick(2))
                    at = s.inside(some.toStdString());
                s.drop(parts[pick(int(parts.size()))], at);
                break;
            }
            case 1:
                if (!some.isEmpty())
                    s.scene.setCount(some, 1 + pick(64));
                break;
            case 2:
                if (!some.isEmpty()) {
                    s.scene.selectComponents({some});
                    s.scene.moveSelectionBy(QPointF(pick(200) - 100, pick(200) - 100), 0);
                }
                break;
            case 3:
                if (!some.isEmpty() && s.scene.itemFor(some)->isContainer())
                    s.scene.toggleCollapsed(some);
                break;
            case 4:
                if (!some.isEmpty() && pick(3) == 0) {
                    s.scene.selectComponents({some});
                    s.scene.removeSelection();
                }
                break;
            case 5:
                if (comps.size() > 1)
                    s.scene.createLink(some, QString::fromStdString(comps[std::size_t(pick(int(comps.size())))].id));
                break;
            case 6: {
                DesignSettings settings = DesignSettings::of(s.doc.design());
                settings.facility.pue = 1.0 + pick(60) / 100.0;
                settings.workload.parallelism.tp = 1 << pick(4);
                s.scene.editor().changeSettings(settings, "settings");
                break;
            }
            }
            if (s.doc.undoStack()->index() > before)
                ++edits;
        }
        QCOMPARE(edits, 500);
        const Design edited = s.doc.design();
        QVERIFY(!(edited == original));
        s.doc.undoStack()->setIndex(0);
        QVERIFY(s.doc.design() == original);
        QCOMPARE(writeDesignText(s.doc.design()), writeDesignText(original));
        s.doc.undoStack()->setIndex(s.doc.undoStack()->count());
        QVERIFY(s.doc.design() == edited);
        // The scene followed every step: one item per component, one per link.
        int items = 0, links = 0;
        for (QGraphicsItem* i : s.scene.items())
            items += i->type() == ComponentItem::Type, links += i->type() == QGraphicsItem::UserType + 2;
        QCOMPARE(items, int(edited.components.size()));
        QCOMPARE(links, int(edited.links.size()));
    }

    void saveThenOpenGivesTheSameDocument()
    {
        Studio s;
        s.drop("rack.air-42u", {100, 100});
        s.drop("node.dgx-b200", s.inside(s.byPart("rack.air-42u")->id));
        s.scene.setCount(QString::fromStdString(s.byPart("rack.air-42u")->id), 12);
        QTemporaryDir dir;
        const QString path = dir.filePath("built.cluster.json");
        QString error;
        QVERIFY2(s.doc.saveAs(path, &error), qPrintable(error));
        QVERIFY(!s.doc.isModified());
        DesignDocument other;
        std::vector<Problem> problems;
        QVERIFY(other.load(path, Catalog::builtin(), &problems));
        QVERIFY(other.design() == s.doc.design());
    }

    void copyInOneWindowPasteInAnother()
    {
        MainWindow a, b;
        QVERIFY(a.openPreset(":/presets/dgx-h100-superpod-4su.cluster.json"));
        a.scene()->selectComponents({"rack"});
        a.copy();
        b.newDesign();
        const std::size_t before = b.document()->design().components.size();
        b.paste();
        const Design& d = b.document()->design();
        // The rack, its node and the node's GPUs, NICs and DPUs arrive; the
        // links to fabrics this design lacks stay behind.
        QCOMPARE(d.components.size(), before + 5);
        QCOMPARE(d.components[before].part, std::string("rack.air-42u"));
        QCOMPARE(d.components[before].parent, std::string());
        QCOMPARE(d.components[before + 1].parent, d.components[before].id);
        QVERIFY(d.links.empty());
        // Pasting again gives fresh ids; one paste is one undo step.
        b.paste();
        QCOMPARE(b.document()->design().components.size(), before + 10);
        QVERIFY(b.document()->design().components[before + 5].id != d.components[before].id);
        b.document()->undoStack()->undo();
        QCOMPARE(b.document()->design().components.size(), before + 5);
        // Duplicating in place keeps the links to items that exist here.
        a.scene()->selectComponents({"dgx"});
        const std::size_t links = a.document()->design().links.size();
        a.duplicate();
        QCOMPARE(a.document()->design().links.size(), links + 2);  // its NICs' links to both fabrics
    }

    void screenshotCommandWritesAPicture()
    {
        QTemporaryDir dir;
        const QString out = dir.filePath("shot.png");
        QProcess p;
        p.start(QStringLiteral(STUDIO_CLI),
                {"screenshot", test::sourcePath("presets/gb200-nvl72-8rack.cluster.json"), "-o", out, "--size",
                 "1280x800"});
        QVERIFY(p.waitForFinished(60000));
        QCOMPARE(p.exitCode(), 0);
        QImage image(out);
        QCOMPARE(image.size(), QSize(1280, 800));
        // Not blank: many colours, and dark text on the light canvas.
        QSet<QRgb> colours;
        for (int y = 0; y < image.height(); y += 4)
            for (int x = 0; x < image.width(); x += 4)
                colours.insert(image.pixel(x, y));
        QVERIFY2(colours.size() > 200, qPrintable(QString::number(colours.size())));
    }
};

STUDIO_TEST_MAIN(TestCanvas)
#include "tst_canvas.moc"
