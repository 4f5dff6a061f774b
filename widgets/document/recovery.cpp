#include "widgets/document/recovery.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QStandardPaths>
#include <QThread>
#include <QUuid>

#include <cstring>
#include <utility>

#include "core/format/design_reader.h"
#include "core/format/design_writer.h"
#include "core/json/json_text.h"
#include "widgets/common/atomic_write.h"
#include "widgets/common/thread_priority.h"
#include "widgets/document/design_document.h"

namespace studio {

QString Autosaver::defaultDirectory()
{
    return QStandardPaths::writableLocation(QStandardPaths::AppDataLocation) + "/recovery";
}

Autosaver::Autosaver(DesignDocument* document, QString directory, QObject* parent)
    : QObject(parent), doc_(document), dir_(directory.isEmpty() ? defaultDirectory() : directory)
{
    QDir().mkpath(dir_);
    const QString session = QUuid::createUuid().toString(QUuid::WithoutBraces);
    file_ = dir_ + "/" + session + ".cluster.json";
    lock_ = std::make_unique<QLockFile>(dir_ + "/" + session + ".lock");
    lock_->setStaleLockTime(0);  // stale only when its process is gone
    lock_->tryLock(0);
    timer_.setInterval(60'000);
    connect(&timer_, &QTimer::timeout, this, &Autosaver::autosaveInBackground);
    timer_.start();
}

Autosaver::~Autosaver()
{
    // A normal end of the session: nothing to recover. A write in flight
    // ends first, unheard: whoever listened (the window) is being destroyed.
    blockSignals(true);
    discard();
    lock_->unlock();
}

void Autosaver::setIntervalSeconds(int seconds)
{
    timer_.setInterval(std::max(1, seconds) * 1000);
}

int Autosaver::intervalSeconds() const
{
    return timer_.interval() / 1000;
}

// One autosave: what it writes, then how it went.
struct Autosaver::Write {
    QString file;
    QByteArray meta;  // the description, when it changed; else empty
    bool metaWritten = false, ok = false;
    QString error;

    // Two files, each replaced whole: where the design came from first, the
    // design last, so a kill between them leaves the previous design beside
    // a description that still fits it (the path and digest change only with
    // a save or an open, which end this recovery file). The name and time
    // offered are the design file's own. Any thread.
    void run(const Design& design)
    {
        if (!meta.isEmpty()) {
            if (!writeAtomically(file + ".meta", meta, &error))
                return;
            metaWritten = true;
        }
        const std::string text = writeDesignText(design);
        ok = writeAtomically(file, QByteArrayView(text.data(), qsizetype(text.size())), &error);
    }
};

std::shared_ptr<Autosaver::Write> Autosaver::prepare() const
{
    auto write = std::make_shared<Write>();
    write->file = file_;
    const QJsonObject meta{{"original_path", doc_->filePath()},
                           {"original_digest", QString::fromLatin1(doc_->diskDigest().toHex())}};
    const QByteArray metaText = QJsonDocument(meta).toJson();
    if (metaText != lastMeta_)
        write->meta = metaText;
    return write;
}

void Autosaver::finish(const Write& write)
{
    if (write.metaWritten)
        lastMeta_ = write.meta;
}

bool Autosaver::autosaveNow(QString* error)
{
    waitForWrite();
    if (!doc_->isModified()) {
        discard();
        return true;
    }
    const std::shared_ptr<Write> write = prepare();
    write->run(doc_->design());
    finish(*write);
    if (!write->ok && error)
        *error = write->error;
    return write->ok;
}

bool Autosaver::autosaveInBackground()
{
    if (writer_)
        return false;  // the interval is seconds; a write is milliseconds
    if (!doc_->isModified()) {
        discard();
        failing_ = false;
        return true;
    }
    inFlight_ = prepare();
    // The one copy made on the GUI thread: the design as it is now. Its
    // text (most of the time) is made on the writer.
    Design snapshot = doc_->design();
    writer_ = QThread::create([write = inFlight_, snapshot = std::move(snapshot)] {
        lowerThisThreadsPriority();
        write->run(snapshot);
    });
    // Only this write's end collects it: one collected early (waitForWrite)
    // may have been followed by another.
    connect(writer_, &QThread::finished, this, [this, write = ++writesStarted_] {
        if (write == writesStarted_)
            waitForWrite();
    });
    writer_->start();
    return true;
}

void Autosaver::waitForWrite()
{
    if (!writer_)
        return;
    writer_->wait();
    delete std::exchange(writer_, nullptr);
    const std::shared_ptr<Write> write = std::exchange(inFlight_, nullptr);
    finish(*write);
    if (!write->ok && !failing_)
        emit failed(write->error);
    failing_ = !write->ok;
    emit written(write->ok);
}

void Autosaver::discard()
{
    waitForWrite();
    QFile::remove(file_);
    QFile::remove(file_ + ".meta");
    lastMeta_.clear();
}

QList<RecoverableDesign> Autosaver::abandoned(QString directory)
{
    if (directory.isEmpty())
        directory = defaultDirectory();
    QList<RecoverableDesign> out;
    const QDir dir(directory);
    auto running = [&](const QString& session) {
        QLockFile lock(dir.filePath(session + ".lock"));
        lock.setStaleLockTime(0);
        if (!lock.tryLock(0))
            return true;
        lock.unlock();
        return false;
    };
    // A session killed while it autosaved leaves the temporary file of the
    // write it was in, and, if killed before its first autosave was whole,
    // only that, its lock and its description: nothing to offer or keep.
    for (const QString& lockName : dir.entryList({"*.lock"}, QDir::Files)) {
        const QString session = lockName.left(lockName.size() - int(strlen(".lock")));
        if (running(session))
            continue;
        const bool recoverable = dir.exists(session + ".cluster.json");
        for (const QString& name : dir.entryList({session + ".*"}, QDir::Files))
            if (!recoverable ||
                (name != session + ".cluster.json" && name != session + ".cluster.json.meta" && name != lockName))
                QFile::remove(dir.filePath(name));
    }
    for (const QString& name : dir.entryList({"*.cluster.json"}, QDir::Files, QDir::Time)) {
        if (running(name.left(name.size() - int(strlen(".cluster.json")))))
            continue;  // its studio is still running
        RecoverableDesign r;
        r.recoveryFile = dir.filePath(name);
        r.savedAt = QFileInfo(r.recoveryFile).lastModified();
        QFile meta(r.recoveryFile + ".meta");
        if (meta.open(QIODevice::ReadOnly)) {
            const QJsonObject o = QJsonDocument::fromJson(meta.readAll()).object();
            r.originalPath = o.value("original_path").toString();
            r.originalDigest = QByteArray::fromHex(o.value("original_digest").toString().toLatin1());
        }
        const ParsedJson parsed = parseJsonText(readTextFile(r.recoveryFile.toStdString()).text);
        if (!parsed.error && parsed.doc.is_object() && parsed.doc.contains("name") && parsed.doc["name"].is_string())
            r.name = QString::fromStdString(parsed.doc["name"].get<std::string>());
        out << r;
    }
    return out;
}

bool Autosaver::restore(const RecoverableDesign& r, DesignDocument* document, QString* error)
{
    DesignLoad loaded = loadDesignFile(r.recoveryFile.toStdString(), Catalog::builtin());
    if (!loaded.ok()) {
        if (error)
            *error = loaded.problems.empty() ? QObject::tr("unreadable")
                                             : QString::fromStdString(loaded.problems.front().message);
        return false;
    }
    document->reset(std::move(*loaded.design), loaded.catalog, r.originalPath);
    // Saving asks first if the original file changed after the crash.
    document->setDiskDigest(r.originalDigest);
    document->undoStack()->resetClean();  // restored work is unsaved work
    discardAbandoned(r);
    return true;
}

void Autosaver::discardAbandoned(const RecoverableDesign& r)
{
    QFile::remove(r.recoveryFile);
    QFile::remove(r.recoveryFile + ".meta");
    QString lock = r.recoveryFile;
    lock.replace(QStringLiteral(".cluster.json"), QStringLiteral(".lock"));
    QFile::remove(lock);
}

}  // namespace studio
