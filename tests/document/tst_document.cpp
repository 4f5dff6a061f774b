// The open document: loading keeps the old design on failure, and saving is
// atomic and canonical.
#include <QtTest>

#include <QDir>
#include <QTemporaryDir>

#include "core/format/design_writer.h"
#include "tests/gui_test_main.h"
#include "tests/test_support.h"
#include "widgets/document/design_document.h"

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
