// The open document: loading keeps the old design on failure, saving is
// atomic and canonical, and the undo history keeps to its limit.
#include <QtTest>

#include <QDir>
#include <QTemporaryDir>

#include "core/format/design_writer.h"
#include "tests/gui_test_main.h"
#include "tests/test_support.h"
#include "widgets/document/design_document.h"
#include "widgets/document/design_editor.h"
#include "widgets/document/history_panel.h"

using namespace studio;

class TestDocument : public QObject {
    Q_OBJECT
private slots:
    void saveWritesCanonicalBytesAndLeavesNoTemporaryFiles()
    {
        DesignDocument doc;
        const QString preset = test::sourcePath("presets/gb200-nvl72-8rack.cluster.json");
        QVERIFY(doc.load(preset, Catalog::builtin(), nullptr));
        QTemporaryDir dir;
        const QString path = dir.filePath("copy.cluster.json");
        QSignalSpy pathChanged(&doc, &DesignDocument::filePathChanged);
        QString error;
        QVERIFY(doc.saveAs(path, &error));
        QCOMPARE(test::readBytes(path), test::readBytes(preset));
        QCOMPARE(QDir(dir.path()).entryList(QDir::Files | QDir::Hidden), QStringList{"copy.cluster.json"});
        QCOMPARE(pathChanged.count(), 1);
        QCOMPARE(doc.filePath(), path);
        QVERIFY(!doc.isModified());
    }

    void saveOverAnExistingFileReplacesItWhole()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath("d.cluster.json");
        QFile old(path);
        QVERIFY(old.open(QIODevice::WriteOnly));
        old.write(QByteArray(100000, 'x'));  // longer than the design: no tail may remain
        old.close();
        DesignDocument doc;
        QVERIFY(doc.load(test::sourcePath("presets/budget-8node-100gbe.cluster.json"), Catalog::builtin(), nullptr));
        QVERIFY(doc.saveAs(path, nullptr));
        QCOMPARE(test::readBytes(path), writeDesignText(doc.design()));
    }

    void failedSaveReportsAndChangesNothing()
    {
        DesignDocument doc;
        const QString preset = test::sourcePath("presets/budget-8node-100gbe.cluster.json");
        QVERIFY(doc.load(preset, Catalog::builtin(), nullptr));
        QString error;
        QVERIFY(!doc.saveAs("/nonexistent-dir/d.cluster.json", &error));
        QVERIFY(!error.isEmpty());
        QCOMPARE(doc.filePath(), preset);
    }

    void theUndoHistoryKeepsAtMostItsLimitAndSaysHowMany()
    {
        DesignDocument doc;
        QVERIFY(doc.load(test::sourcePath("presets/budget-8node-100gbe.cluster.json"), Catalog::builtin(), nullptr));
        HistoryPanel panel(&doc);
        doc.setUndoLimit(3);  // an empty history takes it at once
        QCOMPARE(doc.undoLimitNow(), 3);
        QCOMPARE(panel.sizeText(), QString("0 steps of at most 3"));
        DesignEditor editor(&doc);
        auto rename = [&](const std::string& name) {
            DesignSettings s = DesignSettings::of(doc.design());
            s.name = name;
            return editor.changeSettings(s, "Rename").applied();
        };
        QVERIFY(rename("one"));
        QCOMPARE(panel.sizeText(), QString("1 step of at most 3"));
        for (const char* name : {"two", "three", "four", "five"})
            QVERIFY(rename(name));
        QCOMPARE(doc.undoStack()->count(), 3);  // the two oldest dropped
        QCOMPARE(panel.sizeText(), QString("3 steps, the most kept: the oldest are dropped"));
        while (doc.undoStack()->canUndo())
            doc.undoStack()->undo();
        QCOMPARE(doc.design().name, std::string("two"));  // as far back as it keeps

        // A history with steps in it keeps its limit until the next reset.
        doc.setUndoLimit(2000);
        QCOMPARE(doc.undoLimitNow(), 3);
        panel.refresh();
        QCOMPARE(panel.sizeText(),
                 QString("3 steps, the most kept: the oldest are dropped; at most 2,000 from the "
                         "next design opened"));
        QVERIFY(doc.load(test::sourcePath("presets/gb200-nvl72-8rack.cluster.json"), Catalog::builtin(), nullptr));
        QCOMPARE(doc.undoLimitNow(), 2000);
        QCOMPARE(panel.sizeText(), QString("0 steps of at most 2,000"));
    }

    void failedLoadKeepsTheOpenDesign()
    {
        DesignDocument doc;
        QVERIFY(doc.load(test::sourcePath("presets/budget-8node-100gbe.cluster.json"), Catalog::builtin(), nullptr));
        const Design before = doc.design();
        QSignalSpy reset(&doc, &DesignDocument::reset);
        std::vector<Problem> problems;
        QVERIFY(
            !doc.load(test::sourcePath("tests/data/bad/dangling-link.cluster.json"), Catalog::builtin(), &problems));
        QCOMPARE(problems.size(), std::size_t(1));
        QCOMPARE(problems[0].message, std::string("no component with id 'spine' (dangling link)"));
        QVERIFY(doc.design() == before);
        QCOMPARE(reset.count(), 0);
    }
};

STUDIO_TEST_MAIN(TestDocument)
#include "tst_document.moc"
