#include "widgets/document/recovery.h"

#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSaveFile>
#include <QStandardPaths>
#include <QUuid>

#include <cstring>

#include "core/format/design_reader.h"
#include "core/format/design_writer.h"
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
    connect(&timer_, &QTimer::timeout, this, [this] { autosaveNow(); });
    timer_.start();
}

Autosaver::~Autosaver()
{
    // A normal end of the session: nothing to recover.
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

bool Autosaver::autosaveNow()
{
    if (!doc_->isModified()) {
        discard();
        return true;
    }
    const std::string text = writeDesignText(doc_->design());
    QSaveFile design(file_);
    if (!design.open(QIODevice::WriteOnly) || design.write(text.data(), qint64(text.size())) < 0 || !design.commit())
        return false;
    QJsonObject meta{{"original_path", doc_->filePath()},
                     {"name", QString::fromStdString(doc_->design().name)},
                     {"saved_at", QDateTime::currentDateTimeUtc().toString(Qt::ISODate)}};
    QSaveFile metaFile(file_ + ".meta");
    if (!metaFile.open(QIODevice::WriteOnly))
        return false;
    metaFile.write(QJsonDocument(meta).toJson());
    return metaFile.commit();
}

void Autosaver::discard()
{
    QFile::remove(file_);
    QFile::remove(file_ + ".meta");
}

QList<RecoverableDesign> Autosaver::abandoned(QString directory)
{
    if (directory.isEmpty())
        directory = defaultDirectory();
    QList<RecoverableDesign> out;
    const QDir dir(directory);
    for (const QString& name : dir.entryList({"*.cluster.json"}, QDir::Files, QDir::Time)) {
        const QString session = name.left(name.size() - int(strlen(".cluster.json")));
        QLockFile lock(dir.filePath(session + ".lock"));
        lock.setStaleLockTime(0);
        if (!lock.tryLock(0))
            continue;  // its studio is still running
        lock.unlock();
        RecoverableDesign r;
        r.recoveryFile = dir.filePath(name);
        QFile meta(r.recoveryFile + ".meta");
        if (meta.open(QIODevice::ReadOnly)) {
            const QJsonObject o = QJsonDocument::fromJson(meta.readAll()).object();
            r.originalPath = o.value("original_path").toString();
            r.name = o.value("name").toString();
            r.savedAt = QDateTime::fromString(o.value("saved_at").toString(), Qt::ISODate);
        }
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
