// The one edit path, without a view: every alignment and distribution, the
// file reader's rules applied to edits (coordinates included), refusals by
// code and pointer, random edits of every kind each saved and reopened, and
// 5,000 of them undone to the start and redone to the end exactly.
#include <QtTest>

#include <QDirIterator>
#include <QTemporaryDir>

#include <csignal>
#include <map>
#include <random>

#include <sys/wait.h>
#include <unistd.h>

#include "core/design/alignment.h"
#include "core/design/fabric_plan.h"
#include "core/format/design_reader.h"
#include "core/format/design_validator.h"
#include "core/format/design_writer.h"
#include "tests/core/hand_built.h"
#include "tests/document/random_edits.h"
#include "tests/gui_test_main.h"
#include "tests/test_support.h"
#include "widgets/document/design_document.h"
#include "widgets/document/design_editor.h"

using namespace studio;

namespace {

// Three racks at known places, so every target can be worked out by hand.
struct Room {
    DesignDocument doc;
    DesignEditor editor{&doc};
    Room()
    {
        Design d = test::emptyDesign();
        d.name = "room";
        auto rack = [&](const char* id, double x, double y) {
            Component c;
            c.id = id;
            c.part = "rack.air-42u";
            c.name = id;
            c.position = {x, y};
            d.components.push_back(c);
        };
        rack("a", 100, 40);
        rack("b", 10, 300);
        rack("c", 400, 120);
        doc.reset(d, std::make_shared<Catalog>(Catalog::builtin()), {});
    }
    Point at(const char* id) const { return doc.design().component(id)->position; }
};

// Sizes as the canvas might draw them: all different, so a wrong size used
// for an item shows in the result.
const std::vector<SizedItem> kItems{{"a", {200, 100}}, {"b", {50, 60}}, {"c", {120, 300}}};

bool opens(const QString& path, QString* why)
{
    const DesignLoad loaded = loadDesignFile(path.toStdString(), Catalog::builtin());
    if (loaded.ok())
        return true;
    QStringList lines;
    for (const auto& p : loaded.problems)
        lines << QString::fromStdString(formatProblem(path.toStdString(), p));
    *why = lines.join('\n');
    return false;
}

}  // namespace

class TestEditor : public QObject {
    Q_OBJECT
private slots:
    void alignments_data()
    {
        // Bounds of the three boxes: left 10, right max(300, 60, 520) = 520,
        // top 40, bottom max(140, 360, 420) = 420.
        QTest::addColumn<int>("how");
        QTest::addColumn<QList<QPointF>>("expected");
        QTest::newRow("left edges") << int(Alignment::Left) << QList<QPointF>{{10, 40}, {10, 300}, {10, 120}};
        QTest::newRow("right edges") << int(Alignment::Right)
                                     << QList<QPointF>{{520 - 200, 40}, {520 - 50, 300}, {520 - 120, 120}};
        QTest::newRow("top edges") << int(Alignment::Top) << QList<QPointF>{{100, 40}, {10, 40}, {400, 40}};
        QTest::newRow("bottom edges") << int(Alignment::Bottom)
                                      << QList<QPointF>{{100, 420 - 100}, {10, 420 - 60}, {400, 420 - 300}};
        // Middle of the selection's height: (40 + 420) / 2 = 230.
        QTest::newRow("centers in a row")
            << int(Alignment::CentersInRow) << QList<QPointF>{{100, 230 - 50}, {10, 230 - 30}, {400, 230 - 150}};
        // Middle of its width: (10 + 520) / 2 = 265.
        QTest::newRow("centers in a column")
            << int(Alignment::CentersInColumn) << QList<QPointF>{{265 - 100, 40}, {265 - 25, 300}, {265 - 60, 120}};
    }

    void alignments()
    {
        QFETCH(int, how);
        QFETCH(QList<QPointF>, expected);
        Room room;
        const EditResult r = room.editor.align(kItems, Alignment(how));
        QVERIFY2(r.applied(), qPrintable(r.reason));
        for (int i = 0; i < 3; ++i) {
            const Point p = room.at(kItems[std::size_t(i)].id.c_str());
            QCOMPARE(QPointF(p.x, p.y), expected[i]);
        }
        // One undo step restores every item.
        QCOMPARE(room.doc.undoStack()->count(), 1);
        room.doc.undoStack()->undo();
        QCOMPARE(room.at("a").x, 100.0);
        QCOMPARE(room.at("b").y, 300.0);
        QCOMPARE(room.at("c").x, 400.0);
    }

    void alignmentOfTheSecondCentreIsNotFarAway()
    {
        // The bug this test keeps out: "Horizontal Centers" moved every item
        // to y = 1e18, and the saved file no longer opened.
        Room room;
        QVERIFY(room.editor.align(kItems, Alignment::CentersInRow).applied());
        for (const auto& c : room.doc.design().components)
            QVERIFY2(std::abs(c.position.y) < 1000, qPrintable(QString::number(c.position.y)));
    }

    void distributions_data()
    {
        QTest::addColumn<int>("how");
        QTest::addColumn<QList<QPointF>>("expected");
        // Horizontally, left to right b (10, w 50), a (100, w 200), c (400,
        // w 120): the span 10..520 holds 370 of boxes, so each of the two
        // gaps is (510 - 370) / 2 = 70: b at 10, a at 130, c at 400.
        QTest::newRow("horizontally") << int(Distribution::Horizontal)
                                      << QList<QPointF>{{130, 40}, {10, 300}, {400, 120}};
        // Vertically, top to bottom a (40, h 100), c (120, h 300), b (300,
        // h 60): the span 40..420 holds 460, so the gaps are -40 each: a at
        // 40, c at 100, b at 360.
        QTest::newRow("vertically") << int(Distribution::Vertical) << QList<QPointF>{{100, 40}, {10, 360}, {400, 100}};
    }

    void distributions()
    {
        QFETCH(int, how);
        QFETCH(QList<QPointF>, expected);
        Room room;
        const EditResult r = room.editor.distribute(kItems, Distribution(how));
        QVERIFY2(r.applied(), qPrintable(r.reason));
        for (int i = 0; i < 3; ++i) {
            const Point p = room.at(kItems[std::size_t(i)].id.c_str());
            QCOMPARE(QPointF(p.x, p.y), expected[i]);
        }
    }

    void distributionKeepsEqualGapsForMany()
    {
        std::vector<Box> boxes;
        std::mt19937 rng(7);
        for (int i = 0; i < 9; ++i)
            boxes.push_back({{double(rng() % 1000), double(rng() % 1000)}, {double(10 + rng() % 90), 40}});
        const auto to = distributeBoxes(boxes, Distribution::Horizontal);
        std::vector<std::pair<double, double>> spans;  // left, right after
        for (std::size_t i = 0; i < boxes.size(); ++i) {
            spans.push_back({to[i].x, to[i].x + boxes[i].size.w});
            QCOMPARE(to[i].y, boxes[i].position.y);  // the other axis stays
        }
        std::sort(spans.begin(), spans.end());
        const double gap = spans[1].first - spans[0].second;
        for (std::size_t i = 1; i + 1 < spans.size(); ++i)
            QVERIFY(std::abs(spans[i + 1].first - spans[i].second - gap) < 1e-9);
    }

    void lineUpsNeedEnoughItemsOfOneContainer()
    {
        Room room;
        EditResult r = room.editor.align({kItems[0]}, Alignment::Left);
        QVERIFY(r.refused());
        QCOMPARE(r.problem.code, std::string("cannot_align"));
        QCOMPARE(r.reason, QString("Align: select two or more items"));
        r = room.editor.distribute({kItems[0], kItems[1]}, Distribution::Vertical);
        QCOMPARE(r.reason, QString("Distribute: select three or more items"));
        // A node in one rack, lined up with another rack: two containers.
        QVERIFY(room.editor.addPart("node.dgx-h100", "a", {12, 40}).applied());
        r = room.editor.align({{"b", {50, 60}}, {"node", {100, 50}}}, Alignment::Top);
        QCOMPARE(r.reason, QString("Align: the items must be in the same container"));
        QCOMPARE(room.doc.undoStack()->count(), 1);
    }

    void theValidatorRejectsCoordinatesTheReaderRejects()
    {
        // A file with y = 1e18 and the same design built in memory: one rule,
        // one message, one pointer.
        Room room;
        Design far = room.doc.design();
        far.components[1].position.y = 1e18;
        Json file = designToJson(far);
        const DesignLoad read = readDesignJson(file, Catalog::builtin());
        QVERIFY(!read.ok());
        QCOMPARE(read.problems.size(), std::size_t(1));
        const auto checked = validateDesign(far, Catalog::builtin());
        QCOMPARE(checked.size(), std::size_t(1));
        QCOMPARE(checked[0].pointer, std::string("/components/1/position/y"));
        QCOMPARE(checked[0].pointer, read.problems[0].pointer);
        QCOMPARE(checked[0].message, read.problems[0].message);
        QCOMPARE(checked[0].message, std::string("is 1e+18, above the limit of 10,000,000"));
        QCOMPARE(checked[0].code, std::string("out_of_range"));
        // Sizes and the other coordinate too; a NaN is not finite.
        far = room.doc.design();
        far.components[0].position.x = -2e7;
        far.components[2].size = Extent{0, 10};
        far.components[1].position.x = std::nan("");
        std::vector<std::string> pointers;
        for (const auto& p : validateDesign(far, Catalog::builtin()))
            pointers.push_back(p.pointer + " " + p.code);
        QCOMPARE(
            pointers,
            (std::vector<std::string>{"/components/0/position/x out_of_range", "/components/1/position/x not_finite",
                                      "/components/2/size/w out_of_range"}));
    }

    void everyFieldRuleHoldsForDesignsBuiltInMemory()
    {
        // The reader's ranges reach in-memory designs: one of each kind.
        Room room;
        Design d = room.doc.design();
        d.workload.parallelism.zero = 4;
        d.facility.pue = 0.5;
        d.operations.failure_mttf_h.gpu = 0;
        d.operations.maintenance_fraction = 0.95;
        d.workload.training.precision = "fp4";
        d.components[0].count = kMaxCount + 1;
        d.name.clear();
        std::vector<std::string> found;
        for (const auto& p : validateDesign(d, Catalog::builtin()))
            found.push_back(p.pointer + ": " + p.message);
        QCOMPARE(
            found,
            (std::vector<std::string>{
                "/name: must not be empty", "/components/0/count: is 10,000,001, above the limit of 10,000,000",
                "/workload/training/precision: must be one of 'bf16', 'fp16', 'fp8', got 'fp4'",
                "/workload/parallelism/zero: is 4, above the limit of 3", "/facility/pue: must be at least 1, got 0.5",
                "/operations/failure_mttf_h/gpu: must be greater than 0, got 0",
                "/operations/maintenance_fraction: is 0.95, above the limit of 0.9"}));
    }

    void anEditThatWouldBreakTheFileIsRefusedAndChangesNothing()
    {
        Room room;
        const Design before = room.doc.design();
        const EditResult r = room.editor.moveBy({"b"}, {0, 1e18});
        QVERIFY(r.refused());
        QCOMPARE(r.problem.code, std::string("out_of_range"));
        QCOMPARE(r.problem.pointer, std::string("/components/1/position/y"));
        QCOMPARE(r.reason, QString("b, position/y: is 1e+18, above the limit of 10,000,000"));
        QVERIFY(room.doc.design() == before);
        QCOMPARE(room.doc.undoStack()->count(), 0);
        // A count of 0, a missing item, a rack in a rack.
        QCOMPARE(room.editor.setCount("a", 0).reason, QString("a, count: must be at least 1, got 0"));
        QCOMPARE(room.editor.setCount("nope", 2).problem.code, std::string("missing"));
        const EditResult nest = room.editor.place({{"b", "a", {12, 40}}});
        QCOMPARE(nest.problem.code, std::string("nesting"));
        QCOMPARE(nest.problem.pointer, std::string("/components/1/parent"));
        QVERIFY(room.doc.design() == before);
        // What changes nothing is not an undo step.
        QCOMPARE(room.editor.moveBy({"a"}, {0, 0}).status, EditResult::Status::Unchanged);
        QCOMPARE(room.doc.undoStack()->count(), 0);
    }

    void refusalsCompareProblemsByCodeAndPointer()
    {
        // A design that already has an error (only reachable by reset, as a
        // recovery of an old file might): edits elsewhere go through; an
        // edit that adds an error anywhere else is refused, even when the
        // message reads the same as the old one.
        Room room;
        Design broken = room.doc.design();
        broken.components[0].count = 0;
        room.doc.reset(broken, std::make_shared<Catalog>(Catalog::builtin()), {});
        QVERIFY(room.editor.moveBy({"b"}, {10, 10}).applied());
        const EditResult r = room.editor.setCount("c", 0);
        QVERIFY(r.refused());
        QCOMPARE(r.problem.pointer, std::string("/components/2/count"));
        QCOMPARE(r.problem.message, std::string("must be at least 1, got 0"));  // the same words as /components/0's
        // Fixing the old error is allowed, and then it is gone for good.
        QVERIFY(room.editor.setCount("a", 2).applied());
        QVERIFY(room.editor.setCount("a", 0).refused());
    }

    void undoCommandsComeOnlyFromTheEditor()
    {
        // One checked path: nothing in the widgets or the app pushes a
        // command of its own.
        QStringList pushers;
        for (const QString& folder : {QStringLiteral("widgets"), QStringLiteral("app")}) {
            QDirIterator it(test::sourcePath(folder), {"*.cpp", "*.h"}, QDir::Files, QDirIterator::Subdirectories);
            while (it.hasNext()) {
                const QString path = it.next();
                const QString text = QString::fromStdString(test::readBytes(path));
                if (text.contains("undoStack()->push(") || text.contains("undoStack_.push("))
                    pushers << QDir(test::sourcePath("")).relativeFilePath(path);
            }
        }
        QCOMPARE(pushers, QStringList{"widgets/document/design_editor.cpp"});
    }

    void aMutatorGivenABadIndexStopsTheProgram()
    {
        // A precondition is a bug when broken: it stops with where and what,
        // rather than reading out of bounds.
        const pid_t child = fork();
        if (child == 0) {
            signal(SIGABRT, SIG_DFL);  // not the test framework's crash report
            Room room;
            room.doc.takeComponent(-1);
            _exit(0);  // not reached
        }
        int status = 0;
        QCOMPARE(waitpid(child, &status, 0), child);
        QVERIFY(WIFSIGNALED(status));
        QCOMPARE(WTERMSIG(status), SIGABRT);
    }

    void randomEditsOfEveryKindAlwaysSaveAFileThatOpens()
    {
        // Every kind of edit, with values in and out of range, each followed
        // by a save and a reopen: the reopened design equals the document.
        DesignDocument doc;
        QVERIFY(doc.load(test::sourcePath("presets/budget-8node-100gbe.cluster.json"), Catalog::builtin(), nullptr));
        QTemporaryDir dir;
        const QString path = dir.filePath("edited.cluster.json");
        test::RandomEdits edits(doc, 11);
        std::map<std::string, int> applied, refused;
        for (int step = 0; step < 600; ++step) {
            std::string kind;
            const std::optional<EditResult> result = edits.next(&kind);
            if (!result)
                continue;
            const EditResult& r = *result;
            ++(r.applied() ? applied : refused)[kind];
            QString error;
            QVERIFY2(doc.saveAs(path, &error), qPrintable(error));
            QString why;
            QVERIFY2(opens(path, &why),
                     qPrintable(QString::fromStdString(kind) + " made a file that does not open:\n" + why));
            const DesignLoad reopened = loadDesignFile(path.toStdString(), Catalog::builtin());
            Design saved = doc.design();
            saved.app_version = reopened.design->app_version;
            QVERIFY2(*reopened.design == saved, kind.c_str());
            // Now and then, back through history: every state was valid.
            if (edits.pick(20) == 0)
                doc.undoStack()->setIndex(edits.pick(doc.undoStack()->count() + 1));
        }
        // Every kind of edit went through, and every kind that can break the
        // file was refused at least once (removing and collapsing cannot).
        for (const char* kind : {"add part", "connect", "remove", "count", "move", "place", "collapse", "align",
                                 "paste", "fabric", "component", "link", "settings"})
            QVERIFY2(applied[kind] > 0, kind);
        for (const char* kind : {"add part", "connect", "count", "move", "place", "align", "paste", "fabric",
                                 "component", "link", "settings"})
            QVERIFY2(refused[kind] > 0, kind);
    }

    void fiveThousandRandomEditsUndoToTheStartAndRedoToTheEnd()
    {
        // Any history is exact both ways: undone to the start it is the
        // design that was opened, redone to the end the design the edits
        // made, and every state between comes back in its place.
        DesignDocument doc;
        QVERIFY(doc.load(test::sourcePath("presets/budget-8node-100gbe.cluster.json"), Catalog::builtin(), nullptr));
        const Design start = doc.design();
        auto digest = [&] { return std::hash<std::string>{}(writeDesignText(doc.design())); };
        // The state at every tenth index of the undo stack (all of them
        // would triple the test's time for little more). A merged edit (a
        // drag that goes on) changes its step's state rather than adding
        // one, so a step's state is taken again whenever it changes.
        constexpr int kEvery = 10;
        std::map<int, std::size_t> states{{0, digest()}};
        test::RandomEdits edits(doc, 5000);
        int applied = 0;
        for (int attempt = 0; applied < 5000 && attempt < 50000; ++attempt) {
            std::string kind;
            const std::optional<EditResult> r = edits.next(&kind, 400);
            if (!r || !r->applied())
                continue;
            ++applied;
            const int index = doc.undoStack()->index();
            states.erase(states.upper_bound(index), states.end());  // a new edit drops what it replaces
            if (index % kEvery == 0)
                states[index] = digest();
        }
        QCOMPARE(applied, 5000);
        const Design end = doc.design();
        QVERIFY(!(end == start));
        const int top = doc.undoStack()->count();
        QCOMPARE(doc.undoStack()->index(), top);
        auto check = [&](int index, const char* way) {
            const auto it = states.find(index);
            return it == states.end() || it->second == digest() ||
                (QTest::qFail(qPrintable(QString("%1 to step %2").arg(way).arg(index)), __FILE__, __LINE__), false);
        };
        for (int i = top; i > 0; --i) {
            doc.undoStack()->undo();
            if (!check(i - 1, "undo"))
                return;
        }
        QVERIFY(doc.design() == start);
        for (int i = 1; i <= top; ++i) {
            doc.undoStack()->redo();
            if (!check(i, "redo"))
                return;
        }
        QVERIFY(doc.design() == end);
        QCOMPARE(test::validationErrors(end, doc.catalog()), std::string());
        qInfo("5,000 edits in %d undo steps, %zu components at the end", top, end.components.size());
    }
};

STUDIO_TEST_MAIN(TestEditor)
#include "tst_editor.moc"
