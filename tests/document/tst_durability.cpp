// Never losing a design: a save or an autosave killed at random moments
// leaves the old or the new design on disk, both whole; recovery offers the
// last autosave on the next start and restores it exactly; a full disk or a
// read-only folder fails a save (and `report`, `compare -o`, `normalize`)
// with the file named, the old file intact and the document still modified;
// a file another program rewrote is not overwritten without asking.
#include <QtTest>

#include <QAbstractButton>
#include <QCryptographicHash>
#include <QJsonDocument>
#include <QJsonObject>
#include <QMessageBox>
#include <QProcess>
#include <QStatusBar>
#include <QTemporaryDir>

#include <algorithm>
#include <csignal>
#include <random>
#include <vector>

#include <sys/resource.h>
#include <unistd.h>

#include "app/main_window.h"
#include "core/format/design_reader.h"
#include "core/format/design_writer.h"
#include "tests/gui_test_main.h"
#include "tests/test_support.h"
#include "widgets/common/atomic_write.h"
#include "widgets/document/design_document.h"
#include "widgets/document/design_editor.h"
#include "widgets/document/recovery.h"

using namespace studio;

namespace {

const QString kChild = QStringLiteral(DURABILITY_CHILD);

QByteArray sha256Hex(const QByteArray& bytes)
{
    return QCryptographicHash::hash(bytes, QCryptographicHash::Sha256).toHex();
}

QByteArray fileBytes(const QString& path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

bool writeFile(const QString& path, const QByteArray& bytes)
{
    QFile f(path);
    return f.open(QIODevice::WriteOnly | QIODevice::Truncate) && f.write(bytes) == bytes.size();
}

// A preset grown by `racks` empty racks in rows, named so every file differs
// from the next: about a megabyte at 5,000, so a save takes long enough for
// a kill to land inside it.
QByteArray largeDesignText(const QString& name, int racks)
{
    DesignLoad base =
        loadDesignFile(test::sourcePath("presets/budget-8node-100gbe.cluster.json").toStdString(), Catalog::builtin());
    Design d = *base.design;
    d.name = name.toStdString();
    for (int i = 0; i < racks; ++i) {
        Component c;
        c.id = "spare-rack-" + std::to_string(i);
        c.part = "rack.air-42u";
        c.name = "Spare rack " + std::to_string(i) + " of row " + std::to_string(i / 40);
        c.position = {2000.0 + 140.0 * (i % 40), 200.0 * (i / 40)};
        d.components.push_back(c);
    }
    return QByteArray::fromStdString(writeDesignText(d));
}

// The lines a child printed: "N DIGEST" as it starts writing state N and
// "done N MICROSECONDS" once that state is on disk.
struct ChildLog {
    QMap<int, QByteArray> announced;  // state -> digest of its file
    int lastDone = -1;
    std::vector<qint64> microseconds;  // how long each finished save took
    static ChildLog parse(const QByteArray& out)
    {
        ChildLog log;
        for (const QByteArray& line : out.split('\n')) {
            const QList<QByteArray> words = line.split(' ');
            if (words.size() == 3 && words[0] == "done") {
                log.lastDone = words[1].toInt();
                log.microseconds.push_back(words[2].toLongLong());
            } else if (words.size() == 2) {
                log.announced[words[0].toInt()] = words[1];
            }
        }
        return log;
    }
    // The state being written when the child died (one past the last done
    // when it died between two).
    bool inFlight() const { return !announced.isEmpty() && announced.lastKey() > lastDone; }
    // Whether `digest` is the last finished state or the one in flight: any
    // older state on disk would be work lost.
    bool isLatest(const QByteArray& digest) const
    {
        for (auto it = announced.begin(); it != announced.end(); ++it)
            if (it.key() >= lastDone && it.value() == digest)
                return true;
        return false;
    }
};

// Runs `command` (the child, or the child inside another) until it has
// printed `lines` lines, then lets it run a random while longer (`fromUs` to
// `toUs` microseconds) and kills it with SIGKILL. An odd `lines` ends on a save's announcement, so a window about
// twice a save's length puts about half the kills inside that save.
QByteArray runAndKill(const QStringList& command, int lines, qint64 fromUs, qint64 toUs, std::mt19937& rng)
{
    QProcess child;
    child.setProcessChannelMode(QProcess::SeparateChannels);
    child.start(command.front(), command.mid(1));
    if (!child.waitForStarted(10000))
        return {};
    QByteArray out;
    QElapsedTimer wait;
    wait.start();
    while (out.count('\n') < lines && child.state() == QProcess::Running && wait.elapsed() < 60000) {
        child.waitForReadyRead(100);
        out += child.readAllStandardOutput();
    }
    QThread::usleep(std::uniform_int_distribution<qint64>(fromUs, toUs)(rng));
    child.kill();
    child.waitForFinished(10000);
    return out + child.readAllStandardOutput();
}

// How long one save (or autosave) takes in the child, the median of five:
// the write itself, not the edit and digest the child does between saves.
qint64 microsecondsPerSave(const QStringList& command)
{
    QProcess child;
    child.start(command.front(), command.mid(1));
    QByteArray out;
    while (!out.contains("done 4") && child.waitForReadyRead(30000))
        out += child.readAllStandardOutput();
    child.kill();
    child.waitForFinished(10000);
    std::vector<qint64> us = ChildLog::parse(out).microseconds;
    if (us.empty())
        return 100000;
    std::nth_element(us.begin(), us.begin() + us.size() / 2, us.end());
    return std::max<qint64>(1000, us[us.size() / 2]);
}

// Kill trials go on past `trials` (up to three times as many) until a
// quarter of them landed inside a save: a busy machine stretches the time
// between saves, and the claim is about kills during a save.
bool moreTrials(int trial, int trials, int inFlight)
{
    return trial < trials || (inFlight < trial / 4 && trial < 3 * trials);
}

// Leftovers of killed saves: QSaveFile's temporary files beside the target.
QStringList strays(const QString& dir, const QStringList& keep)
{
    QStringList out;
    for (const QString& name : QDir(dir).entryList(QDir::Files))
        if (!keep.contains(name))
            out << name;
    return out;
}

// Answers the message boxes named `name` while this lives, the n-th with
// the n-th of `buttons` (by text; the last for any after), and records what
// each said. Polls: the box runs its own event loop, so nothing after
// exec() would run until it closes.
class Answer {
public:
    Answer(QString name, QStringList buttons) : name_(std::move(name)), buttons_(std::move(buttons))
    {
        timer_.setInterval(10);
        QObject::connect(&timer_, &QTimer::timeout, [this] {
            auto* box = qobject_cast<QMessageBox*>(QApplication::activeModalWidget());
            if (!box || box->objectName() != name_ || !box->isVisible())
                return;
            seen = true;
            text = box->text() + "\n" + box->informativeText();
            texts << text;
            const QString button = buttons_.value(texts.size() - 1, buttons_.last());
            for (QAbstractButton* b : box->buttons())
                if (b->text().remove('&') == button)
                    b->click();
        });
        timer_.start();
    }
    Answer(QString name, QString button) : Answer(std::move(name), QStringList{std::move(button)}) {}
    bool seen = false;
    QString text;       // what the last box said
    QStringList texts;  // what each said

private:
    QString name_;
    QStringList buttons_;
    QTimer timer_;
};

// Runs `program args` with `dir` mounted read-only, in a mount namespace of
// its own (unshare), so the test works as root too, for whom permission
// bits do not stop a write. Returns the arguments for QProcess, or an empty
// list with `why` when this machine cannot do it.
QStringList readOnlyIn(const QString& dir, const QStringList& command, QString* why)
{
    if (geteuid() != 0) {
        // Permission bits are enough for anyone but root.
        QFile::setPermissions(dir, QFile::ReadOwner | QFile::ExeOwner);
        return command;
    }
    QProcess probe;
    probe.start("unshare", {"-rm", "true"});
    if (!probe.waitForFinished(10000) || probe.exitCode() != 0) {
        *why = "running as root without user namespaces: nothing makes a folder read-only";
        return {};
    }
    return QStringList{"unshare",
                       "-rm",
                       "sh",
                       "-c",
                       "mount --bind \"$1\" \"$1\" && mount -o remount,bind,ro \"$1\" && shift && exec \"$@\"",
                       "sh",
                       dir} +
        command;
}

// Runs `command` where /proc is hidden (a tmpfs over it, in a mount
// namespace of its own). Qt's QSaveFile then writes a named temporary file,
// NAME.XXXXXX, as it does on any file system without O_TMPFILE (NFS, SMB,
// FAT drives): on Linux it otherwise writes an unnamed one, which a kill
// leaves nowhere. Empty, with `why`, when this machine cannot do it.
QStringList withNamedTemporaryFiles(const QStringList& command, QString* why)
{
    QProcess probe;
    probe.start("unshare", {"-rm", "sh", "-c", "mount -t tmpfs none /proc"});
    if (!probe.waitForFinished(10000) || probe.exitCode() != 0) {
        *why = "no user and mount namespaces here: nothing hides /proc from the child";
        return {};
    }
    return QStringList{"unshare", "-rm", "sh", "-c", "mount -t tmpfs none /proc && exec \"$@\"", "sh"} + command;
}

struct Ran {
    int exitCode = -1;
    QString out, err;
};

// Runs `command`; with `diskFullAt` >= 0, on a disk that fills up: any file
// it writes stops growing at that many bytes (EFBIG where a full disk gives
// ENOSPC; SIGXFSZ ignored, so the program meets an error it must handle
// instead of being killed).
Ran run(const QStringList& command, qint64 diskFullAt = -1)
{
    QProcess p;
    if (diskFullAt >= 0)
        p.setChildProcessModifier([diskFullAt] {
            std::signal(SIGXFSZ, SIG_IGN);
            const rlimit full{rlim_t(diskFullAt), rlim_t(diskFullAt)};
            setrlimit(RLIMIT_FSIZE, &full);
        });
    p.start(command.front(), command.mid(1));
    Ran r;
    if (!p.waitForFinished(120000))
        return r;
    r.exitCode = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    r.out = QString::fromUtf8(p.readAllStandardOutput());
    r.err = QString::fromUtf8(p.readAllStandardError());
    return r;
}

// The test process itself on a disk that fills up, while this lives.
class DiskFullAt {
public:
    explicit DiskFullAt(qint64 bytes) : previous_(std::signal(SIGXFSZ, SIG_IGN))
    {
        getrlimit(RLIMIT_FSIZE, &saved_);
        const rlimit full{rlim_t(bytes), saved_.rlim_max};
        setrlimit(RLIMIT_FSIZE, &full);
    }
    ~DiskFullAt()
    {
        setrlimit(RLIMIT_FSIZE, &saved_);
        std::signal(SIGXFSZ, previous_);
    }
    DiskFullAt(const DiskFullAt&) = delete;
    DiskFullAt& operator=(const DiskFullAt&) = delete;

private:
    void (*previous_)(int);
    rlimit saved_{};
};

}  // namespace

class TestDurability : public QObject {
    Q_OBJECT
private slots:
    void aKilledSaveLeavesTheOldOrTheNewDesign_data()
    {
        QTest::addColumn<QString>("mode");
        QTest::addColumn<bool>("named");
        QTest::newRow("save, unnamed temporary file (Linux, O_TMPFILE)") << "save-loop" << false;
        QTest::newRow("save, named temporary file (NFS, SMB, FAT)") << "save-loop" << true;
        // The write alone: turning the design into text takes most of a
        // save, and the temporary file exists only while the text is written.
        QTest::newRow("the write alone, named temporary file") << "write-loop" << true;
    }

    void aKilledSaveLeavesTheOldOrTheNewDesign()
    {
        QFETCH(QString, mode);
        QFETCH(bool, named);
        QTemporaryDir dir;
        const QString source = dir.filePath("source.cluster.json"), target = dir.filePath("target.cluster.json");
        QVERIFY(writeFile(source, largeDesignText("new", 5000)));
        const QByteArray old = largeDesignText("old", 4000);
        QVERIFY(writeFile(target, old));
        QStringList args{kChild, mode, source, target};
        if (named) {
            QString why;
            args = withNamedTemporaryFiles(args, &why);
            if (args.isEmpty())
                QSKIP(qPrintable(why));
        }
        const qint64 perSave = microsecondsPerSave(args);
        std::mt19937 rng(16);
        int inFlight = 0, stillOld = 0, trial = 0, leftovers = 0;
        auto killed = [&](int lines, qint64 fromUs, qint64 toUs) {
            QVERIFY(writeFile(target, old));
            const ChildLog log = ChildLog::parse(runAndKill(args, lines, fromUs, toUs, rng));
            QVERIFY2(!log.announced.isEmpty(), "the child never started saving");
            const QByteArray onDisk = fileBytes(target);
            const QByteArray digest = sha256Hex(onDisk);
            // Old only while nothing was finished; after that, the newest.
            const bool isOld = onDisk == old;
            QVERIFY2((isOld && log.lastDone < 0) || log.isLatest(digest),
                     qPrintable(QString("trial %1: the file on disk is neither the old design nor the latest saved "
                                        "(last done %2)")
                                    .arg(trial)
                                    .arg(log.lastDone)));
            QVERIFY(readDesignText(onDisk.toStdString(), Catalog::builtin()).ok());
            stillOld += isOld;
            inFlight += log.inFlight();
            // A killed save's temporary file goes at the next open, as a
            // studio started after the kill does it; nothing else goes.
            const QStringList left = strays(dir.path(), {"source.cluster.json", "target.cluster.json"});
            const QStringList removed = removeSaveLeftovers(dir.path(), QDateTime::currentDateTimeUtc().addSecs(1));
            QCOMPARE(removed, left);
            QCOMPARE(strays(dir.path(), {"source.cluster.json", "target.cluster.json"}), QStringList());
            leftovers += int(removed.size());
        };
        const int trials = 40;
        for (; moreTrials(trial, trials, inFlight); ++trial) {
            // Killed in or after the first save, or in or after a later one.
            killed(trial % 2 == 0 ? 1 : 3, 0, 2 * perSave);
            if (QTest::currentTestFailed())
                return;
        }
        // The kills landed inside saves, not only between them.
        QVERIFY2(inFlight >= trial / 4,
                 qPrintable(QString("only %1 of %2 kills hit a save").arg(inFlight).arg(trial)));
        qInfo("%d of %d kills hit a save in flight (%lld ms a save); %d left the old file; %d left a temporary "
              "file, each removed",
              inFlight, trial, perSave / 1000, stillOld, leftovers);
        // A kill inside the write of a named temporary file leaves the file,
        // so the removal above was tried on real leftovers.
        if (mode == "write-loop")
            QVERIFY2(leftovers >= inFlight / 2,
                     qPrintable(
                         QString("%1 of %2 kills inside a write left a temporary file").arg(leftovers).arg(inFlight)));
    }

    void aKilledAutosaveRestoresTheLastAutosavedStateExactly_data()
    {
        QTest::addColumn<bool>("named");
        QTest::newRow("unnamed temporary file (Linux, O_TMPFILE)") << false;
        QTest::newRow("named temporary file (NFS, SMB, FAT)") << true;
    }

    void aKilledAutosaveRestoresTheLastAutosavedStateExactly()
    {
        QFETCH(bool, named);
        QTemporaryDir dir;
        const QString source = dir.filePath("design.cluster.json");
        QVERIFY(writeFile(source, largeDesignText("being edited", 5000)));
        const QString recovery = dir.filePath("recovery");
        QStringList args{kChild, "autosave-loop", recovery, source};
        if (named) {
            QString why;
            args = withNamedTemporaryFiles(args, &why);
            if (args.isEmpty())
                QSKIP(qPrintable(why));
        }
        const qint64 perAutosave = microsecondsPerSave(args);
        for (const RecoverableDesign& r : Autosaver::abandoned(recovery))
            Autosaver::discardAbandoned(r);
        std::mt19937 rng(61);
        int inFlight = 0, trial = 0;
        const int trials = 30;
        for (; moreTrials(trial, trials, inFlight); ++trial) {
            // Killed in or after its first autosave, or in or after a later one.
            const ChildLog log = ChildLog::parse(runAndKill(args, trial % 3 == 0 ? 1 : 5, 0, 2 * perAutosave, rng));
            inFlight += log.inFlight();
            const auto found = Autosaver::abandoned(recovery);
            if (found.isEmpty()) {
                // Nothing to offer is right only if nothing was autosaved,
                // and then nothing of it is left behind.
                QVERIFY2(
                    log.lastDone < 0,
                    qPrintable(
                        QString("trial %1: autosave %2 finished but is not offered").arg(trial).arg(log.lastDone)));
                QCOMPARE(QDir(recovery).entryList(QDir::Files), QStringList());
                continue;
            }
            QCOMPARE(found.size(), 1);
            QCOMPARE(found.front().originalPath, source);
            DesignDocument doc;
            QString error;
            QVERIFY2(Autosaver::restore(found.front(), &doc, &error), qPrintable(error));
            const QByteArray restored = QByteArray::fromStdString(writeDesignText(doc.design()));
            QVERIFY2(log.isLatest(sha256Hex(restored)),
                     qPrintable(QString("trial %1: restored '%2', last autosave done %3")
                                    .arg(trial)
                                    .arg(QString::fromStdString(doc.design().name))
                                    .arg(log.lastDone)));
            QCOMPARE(found.front().name, QString::fromStdString(doc.design().name));
            QVERIFY(doc.isModified());
            QCOMPARE(doc.filePath(), source);
            QVERIFY(Autosaver::abandoned(recovery).isEmpty());  // restored once
            QCOMPARE(QDir(recovery).entryList(QDir::Files), QStringList());  // and nothing left behind
        }
        QVERIFY2(inFlight >= trial / 4,
                 qPrintable(QString("only %1 of %2 kills hit an autosave").arg(inFlight).arg(trial)));
        qInfo("%d of %d kills hit an autosave in flight (%lld ms an autosave)", inFlight, trial, perAutosave / 1000);
    }

    void recoveryIsOfferedOnTheNextStart()
    {
        // A studio killed after an edit and its autosave; the next window
        // offers the work at start and restores it as it was.
        const QString recovery = Autosaver::defaultDirectory();
        for (const RecoverableDesign& r : Autosaver::abandoned(recovery))
            Autosaver::discardAbandoned(r);
        QTemporaryDir dir;
        const QString source = dir.filePath("design.cluster.json");
        QVERIFY(QFile::copy(test::sourcePath("presets/budget-8node-100gbe.cluster.json"), source));
        QProcess child;
        child.start(kChild, {"autosave-once", recovery, source});
        QVERIFY(child.waitForFinished(30000));
        QCOMPARE(child.exitCode(), 9);  // it died without cleaning up
        const QByteArray autosaved = child.readAllStandardOutput();

        MainWindow window;
        Answer restore("recoverUnsavedWork", "Restore");
        window.offerRecovery();
        QVERIFY(restore.seen);
        QVERIFY2(restore.text.contains(source), qPrintable(restore.text));
        QCOMPARE(QByteArray::fromStdString(writeDesignText(window.document()->design())), autosaved);
        QCOMPARE(window.document()->design().components[1].name, std::string("edited before the crash"));
        QVERIFY(window.document()->isModified());  // restored work still needs saving
        QCOMPARE(window.document()->filePath(), source);
        QVERIFY(Autosaver::abandoned(recovery).isEmpty());  // offered once
    }

    void everyAbandonedDesignIsOfferedInTurn()
    {
        // Three windows died; the first design is discarded, the second
        // restored, and the third waits for the next start.
        const QString recovery = Autosaver::defaultDirectory();
        for (const RecoverableDesign& r : Autosaver::abandoned(recovery))
            Autosaver::discardAbandoned(r);
        QTemporaryDir dir;
        for (const char* name : {"a.cluster.json", "b.cluster.json", "c.cluster.json"}) {
            QVERIFY(QFile::copy(test::sourcePath("presets/budget-8node-100gbe.cluster.json"), dir.filePath(name)));
            QProcess child;
            child.start(kChild, {"autosave-once", recovery, dir.filePath(name)});
            QVERIFY(child.waitForFinished(30000));
            QCOMPARE(child.exitCode(), 9);
        }
        const auto before = Autosaver::abandoned(recovery);
        QCOMPARE(before.size(), 3);

        MainWindow window;
        QStringList texts;
        {
            Answer answers("recoverUnsavedWork", {"Discard", "Restore"});
            window.offerRecovery();
            texts = answers.texts;
        }
        QCOMPARE(texts.size(), 2);
        QVERIFY2(texts[0].contains("2 more autosaved designs are waiting after this one."), qPrintable(texts[0]));
        QVERIFY2(texts[1].contains("One more autosaved design is waiting after this one."), qPrintable(texts[1]));
        QCOMPARE(window.document()->filePath(), before[1].originalPath);
        QCOMPARE(window.statusBar()->currentMessage(),
                 QString("One more autosaved design is offered the next time the studio starts."));
        const auto left = Autosaver::abandoned(recovery);
        QCOMPARE(left.size(), 1);
        QCOMPARE(left.front().originalPath, before[2].originalPath);

        // Later keeps it.
        MainWindow next;
        Answer later("recoverUnsavedWork", "Later");
        next.offerRecovery();
        QCOMPARE(later.texts.size(), 1);
        QVERIFY(!later.text.contains("waiting after this one"));
        QCOMPARE(Autosaver::abandoned(recovery).size(), 1);
        Autosaver::discardAbandoned(Autosaver::abandoned(recovery).front());
    }

    void openingADesignRemovesOnlyLeftoversOfKilledSaves()
    {
        QTemporaryDir dir;
        const QString design = dir.filePath("pod.cluster.json");
        QVERIFY(writeFile(design, fileBytes(test::sourcePath("presets/budget-8node-100gbe.cluster.json"))));
        QVERIFY(writeFile(dir.filePath("other.cluster.json"), fileBytes(design)));
        const QDateTime before = studioStart().addSecs(-60);
        auto make = [&](const QString& name, const QDateTime& modified) {
            QFile f(dir.filePath(name));
            // Written out before the time is set, or closing would set it again.
            return f.open(QIODevice::WriteOnly) && f.write("{\"half a design") > 0 && f.flush() &&
                f.setFileTime(modified, QFileDevice::FileModificationTime);
        };
        // Killed saves of two designs, before this studio started: they go.
        QVERIFY(make("pod.cluster.json.aB3xQ9", before));
        QVERIFY(make("other.cluster.json.Zz0000", before));
        // These stay: another studio's save in flight (younger than this
        // studio), a design that is not there, not QSaveFile's pattern, not
        // a design's name.
        const QStringList kept{"pod.cluster.json.Qw12er", "gone.cluster.json.aB3xQ9", "pod.cluster.json.aB3",
                               "pod.cluster.json.aB3x-9", "notes.txt.aB3xQ9"};
        QVERIFY(make(kept[0], QDateTime::currentDateTimeUtc().addSecs(5)));
        for (const QString& name : kept.mid(1))
            QVERIFY(make(name, before));

        MainWindow window;
        QVERIFY(window.openFile(design));
        QStringList expected = kept + QStringList{"other.cluster.json", "pod.cluster.json"};
        expected.sort();
        QCOMPARE(QDir(dir.path()).entryList(QDir::Files, QDir::Name), expected);
        QCOMPARE(window.statusBar()->currentMessage(),
                 QString("Removed 2 files left beside designs by saves that were interrupted"));
        // One: its name.
        QVERIFY(make("pod.cluster.json.Ab0000", before));
        QVERIFY(window.openFile(design));
        QCOMPARE(window.statusBar()->currentMessage(),
                 QString("Removed pod.cluster.json.Ab0000, left beside the design by a save that was interrupted"));
    }

    void aBackgroundAutosaveWritesTheDesignAsItWasWhenItStarted()
    {
        QTemporaryDir dir;
        DesignDocument doc;
        QVERIFY(doc.load(test::sourcePath("presets/budget-8node-100gbe.cluster.json"), Catalog::builtin(), nullptr));
        Autosaver saver(&doc, dir.path());
        QSignalSpy written(&saver, &Autosaver::written);
        DesignSettings s = DesignSettings::of(doc.design());
        s.name = "as it was";
        QVERIFY(DesignEditor(&doc).changeSettings(s, "rename").applied());
        const QByteArray expected = QByteArray::fromStdString(writeDesignText(doc.design()));
        QVERIFY(saver.autosaveInBackground());
        QVERIFY(saver.writing());
        QVERIFY(!saver.autosaveInBackground());  // one write at a time
        // Edits go on while it writes; the file is the design it started with.
        s.name = "edited while it wrote";
        QVERIFY(DesignEditor(&doc).changeSettings(s, "rename").applied());
        QTRY_COMPARE(written.count(), 1);  // its end comes through the event loop
        QVERIFY(!saver.writing());
        QCOMPARE(written.front().front().toBool(), true);
        QCOMPARE(fileBytes(saver.recoveryFile()), expected);
        const auto meta = QJsonDocument::fromJson(fileBytes(saver.recoveryFile() + ".meta")).object();
        QCOMPARE(meta.value("original_path").toString(), doc.filePath());

        // A save (discard) while a write is in flight waits for it, so the
        // write cannot bring the recovery file back afterwards.
        QVERIFY(saver.autosaveInBackground());
        saver.discard();
        QVERIFY(!saver.writing());
        QVERIFY(!QFile::exists(saver.recoveryFile()));
        QTest::qWait(50);  // the finished thread's queued end changes nothing
        QVERIFY(!QFile::exists(saver.recoveryFile()));
        QCOMPARE(written.count(), 2);
        // Nothing unsaved: nothing written, nothing left.
        doc.undoStack()->setClean();
        QVERIFY(saver.autosaveInBackground());
        QVERIFY(!saver.writing());
        QCOMPARE(QDir(dir.path()).entryList({"*.cluster.json*"}, QDir::Files), QStringList());
    }

    void anAutosaverEndedMidWriteTellsNoOne()
    {
        // The window that listens is being destroyed with it: a write that
        // fails as the session ends must not call back into the window.
        QTemporaryDir dir;
        DesignDocument doc;
        QVERIFY(doc.load(test::sourcePath("presets/budget-8node-100gbe.cluster.json"), Catalog::builtin(), nullptr));
        DesignSettings s = DesignSettings::of(doc.design());
        s.name = "edited";
        QVERIFY(DesignEditor(&doc).changeSettings(s, "rename").applied());
        auto saver = std::make_unique<Autosaver>(&doc, dir.path());
        const QString file = saver->recoveryFile();
        QSignalSpy failed(saver.get(), &Autosaver::failed), written(saver.get(), &Autosaver::written);
        {
            DiskFullAt full(100);
            QVERIFY(saver->autosaveInBackground());
            saver.reset();
        }
        QCOMPARE(failed.count(), 0);
        QCOMPARE(written.count(), 0);
        QVERIFY(!QFile::exists(file));
    }

    void aRunningSessionsAutosaveIsNotOfferedToAnotherWindow()
    {
        QTemporaryDir dir;
        DesignDocument live;
        QVERIFY(live.load(test::sourcePath("presets/budget-8node-100gbe.cluster.json"), Catalog::builtin(), nullptr));
        Autosaver saver(&live, dir.path());
        DesignSettings renamed = DesignSettings::of(live.design());
        renamed.name = "being edited";
        QVERIFY(DesignEditor(&live).changeSettings(renamed, "rename").applied());
        QVERIFY(saver.autosaveNow());
        QVERIFY(QFile::exists(saver.recoveryFile()));
        QVERIFY(Autosaver::abandoned(dir.path()).isEmpty());
        // Saved work leaves nothing to recover.
        live.undoStack()->setClean();
        QVERIFY(saver.autosaveNow());
        QVERIFY(!QFile::exists(saver.recoveryFile()));
    }

    void aFailingAutosaveSaysSoOnce()
    {
        QTemporaryDir dir;
        DesignDocument doc;
        QVERIFY(doc.load(test::sourcePath("presets/budget-8node-100gbe.cluster.json"), Catalog::builtin(), nullptr));
        Autosaver saver(&doc, dir.path());
        saver.setIntervalSeconds(1);
        QSignalSpy failed(&saver, &Autosaver::failed);
        DesignSettings s = DesignSettings::of(doc.design());
        s.name = "edited";
        QVERIFY(DesignEditor(&doc).changeSettings(s, "rename").applied());
        {
            DiskFullAt full(100);
            QTest::qWait(2500);  // two timed autosaves fail; one message
        }
        QCOMPARE(failed.count(), 1);
        QVERIFY2(
            failed.front().front().toString().contains(saver.recoveryFile() + ".meta: cannot write: File too large"),
            qPrintable(failed.front().front().toString()));
        QVERIFY(!QFile::exists(saver.recoveryFile()));
        // With room again it autosaves, and a later failure is told again.
        QTRY_VERIFY_WITH_TIMEOUT(QFile::exists(saver.recoveryFile()), 3000);
        {
            DiskFullAt full(100);
            s.name = "edited again, with a name too long for the space left";
            QVERIFY(DesignEditor(&doc).changeSettings(s, "rename").applied());
            QTRY_COMPARE_WITH_TIMEOUT(failed.count(), 2, 3000);
        }
    }

    void aFullDiskOrReadOnlyFolderFailsTheSaveAndLosesNothing_data()
    {
        QTest::addColumn<bool>("readOnly");
        QTest::newRow("full disk") << false;
        QTest::newRow("read-only folder") << true;
    }

    void aFullDiskOrReadOnlyFolderFailsTheSaveAndLosesNothing()
    {
        QFETCH(bool, readOnly);
        QTemporaryDir dir;
        const QString source = dir.filePath("source.cluster.json"), target = dir.filePath("design.cluster.json");
        QVERIFY(writeFile(source, largeDesignText("the design", 200)));
        const QByteArray old = largeDesignText("the old design", 100);
        QVERIFY(writeFile(target, old));
        QStringList command{kChild, "save-once", source, target};
        if (readOnly) {
            QString why;
            command = readOnlyIn(dir.path(), command, &why);
            if (command.isEmpty())
                QSKIP(qPrintable(why));
        }
        const Ran r = run(command, readOnly ? -1 : old.size() / 2);  // room for half the file
        QFile::setPermissions(dir.path(), QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.out.contains("saved 0\n"), qPrintable(r.out + r.err));
        QVERIFY2(r.out.contains("modified 1\n"), qPrintable(r.out));  // the edit is still there to save
        // The message names the file and says why.
        const QString reason = readOnly ? "the folder .* is read-only or not yours to write in" : "File too large";
        QVERIFY2(QRegularExpression("error " + QRegularExpression::escape(target) + ": cannot write: (" + reason + ")")
                     .match(r.out)
                     .hasMatch(),
                 qPrintable(r.out));
        QCOMPARE(fileBytes(target), old);
        QCOMPARE(strays(dir.path(), {"source.cluster.json", "design.cluster.json"}), QStringList());
    }

    void aFailedSaveInTheStudioSaysSoAndKeepsTheChanges()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath("design.cluster.json");
        QVERIFY(writeFile(path, largeDesignText("on disk", 100)));
        const QByteArray old = fileBytes(path);
        MainWindow window;
        QVERIFY(window.openFile(path));
        DesignSettings s = DesignSettings::of(window.document()->design());
        s.name = "edited";
        QVERIFY(DesignEditor(window.document()).changeSettings(s, "rename").applied());
        Answer cannotSave("cannotSave", "OK");
        {
            DiskFullAt full(old.size() / 2);  // fills up halfway through the save
            saveAction(window)->trigger();
        }
        QVERIFY(cannotSave.seen);
        QVERIFY2(cannotSave.text.contains(path + ": cannot write: File too large"), qPrintable(cannotSave.text));
        QVERIFY2(cannotSave.text.contains("still open with all its changes"), qPrintable(cannotSave.text));
        QVERIFY(window.document()->isModified());
        QCOMPARE(window.document()->design().name, std::string("edited"));
        QCOMPARE(fileBytes(path), old);
        // With room again, the same Save writes it.
        saveAction(window)->trigger();
        QVERIFY(!window.document()->isModified());
        QCOMPARE(loadDesignFile(path.toStdString(), Catalog::builtin()).design->name, std::string("edited"));
    }

    void aFileRewrittenByAnotherProgramIsNotOverwrittenWithoutAsking()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath("design.cluster.json");
        QVERIFY(QFile::copy(test::sourcePath("presets/budget-8node-100gbe.cluster.json"), path));
        QFile::setPermissions(path, QFile::ReadOwner | QFile::WriteOwner);
        MainWindow window;
        QVERIFY(window.openFile(path));
        DesignDocument* doc = window.document();
        QVERIFY(!doc->fileChangedOnDisk());
        auto rename = [&](const char* name) {
            DesignSettings s = DesignSettings::of(doc->design());
            s.name = name;
            QVERIFY(DesignEditor(doc).changeSettings(s, "rename").applied());
        };
        // Our own save is not a change by someone else: no question.
        rename("ours");
        {
            Answer none("fileChangedOnDisk", "Cancel");
            Answer noReload("fileChangedReload", "No");
            saveAction(window)->trigger();
            QVERIFY(!doc->isModified());
            QTest::qWait(300);  // the file watcher has seen our own save
            QVERIFY(!none.seen);
            QVERIFY(!noReload.seen);
            QVERIFY(!doc->fileChangedOnDisk());
        }

        // Another program rewrites the file while we edit.
        rename("ours, edited again");
        Design theirs = doc->design();
        theirs.name = "theirs";
        const QByteArray theirText = QByteArray::fromStdString(writeDesignText(theirs));
        {
            Answer reload("fileChangedReload", "No");
            QVERIFY(writeFile(path, theirText));
            QTRY_VERIFY(reload.seen);  // the watcher asked to reload; kept ours
        }
        QVERIFY(doc->fileChangedOnDisk());
        QCOMPARE(doc->design().name, std::string("ours, edited again"));

        // Save asks; Cancel keeps both as they are.
        {
            Answer cancel("fileChangedOnDisk", "Cancel");
            saveAction(window)->trigger();
            QVERIFY(cancel.seen);
            QVERIFY2(cancel.text.contains(path), qPrintable(cancel.text));
            QCOMPARE(fileBytes(path), theirText);
            QVERIFY(doc->isModified());
        }
        // Overwrite replaces theirs with ours.
        {
            Answer overwrite("fileChangedOnDisk", "Overwrite");
            saveAction(window)->trigger();
            QVERIFY(overwrite.seen);
        }
        QVERIFY(!doc->isModified());
        QCOMPARE(loadDesignFile(path.toStdString(), Catalog::builtin()).design->name,
                 std::string("ours, edited again"));
        QVERIFY(!doc->fileChangedOnDisk());
    }

    void commandLineWritesFailWithoutLosingTheOldFile_data()
    {
        QTest::addColumn<QString>("verb");
        QTest::addColumn<bool>("readOnly");
        for (const bool readOnly : {false, true})
            for (const char* verb : {"report", "compare-pdf", "compare-csv", "normalize"})
                QTest::addRow("%s, %s", verb, readOnly ? "read-only folder" : "full disk") << QString(verb) << readOnly;
    }

    void commandLineWritesFailWithoutLosingTheOldFile()
    {
        QFETCH(QString, verb);
        QFETCH(bool, readOnly);
        QTemporaryDir dir;
        const QString a = test::sourcePath("presets/dgx-h100-superpod-4su.cluster.json");
        const QString b = test::sourcePath("presets/budget-8node-100gbe.cluster.json");
        QString target;
        QStringList command{QStringLiteral(STUDIO_CLI)};
        QByteArray old;
        if (verb == "normalize") {
            // Rewritten in place: the design itself is what must survive.
            target = dir.filePath("design.cluster.json");
            old = fileBytes(b).replace("\"name\"", "\"name\"   ");  // not canonical: normalize rewrites it
            command << "normalize" << target;
        } else {
            target = dir.filePath(verb == "compare-csv" ? "out.csv" : "out.pdf");
            old = QByteArray("an earlier output, to be kept whole\n").repeated(200);
            command << (verb == "report" ? QStringList{"report", a, "-o", target}
                                         : QStringList{"compare", a, b, "-o", target});
        }
        QVERIFY(writeFile(target, old));
        if (readOnly) {
            QString why;
            command = readOnlyIn(dir.path(), command, &why);
            if (command.isEmpty())
                QSKIP(qPrintable(why));
        }
        const Ran r = run(command, readOnly ? -1 : 200);  // less than any of the outputs
        QFile::setPermissions(dir.path(), QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
        QCOMPARE(r.exitCode, 1);
        const QString reason = readOnly ? "the folder .* is read-only or not yours to write in" : "File too large";
        QVERIFY2(QRegularExpression(QRegularExpression::escape(target) + ": cannot write: (" + reason + ")")
                     .match(r.err)
                     .hasMatch(),
                 qPrintable(r.err));
        QCOMPARE(fileBytes(target), old);
        QCOMPARE(strays(dir.path(), {QFileInfo(target).fileName()}), QStringList());
    }

private:
    static QAction* saveAction(MainWindow& window)
    {
        for (QAction* a : window.findChildren<QAction*>())
            if (a->shortcut() == QKeySequence(QKeySequence::Save))
                return a;
        return nullptr;
    }
};

STUDIO_TEST_MAIN(TestDurability)
#include "tst_durability.moc"
