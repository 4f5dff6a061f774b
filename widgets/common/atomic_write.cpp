#include "widgets/common/atomic_write.h"

#include <QDir>
#include <QFileInfo>
#include <QObject>
#include <QRegularExpression>
#include <QSaveFile>

namespace studio {
namespace {

// Made when the program is loaded, before main().
const QDateTime kStudioStart = QDateTime::currentDateTimeUtc();

}  // namespace

bool writeAtomically(const QString& path, QByteArrayView bytes, QString* error)
{
    QSaveFile file(path);
    // Unbuffered, so a write that fails (a full disk) fails here with the
    // system's reason, not later inside commit() as "Unknown error". A disk
    // that fills up part-way takes part of a write without an error; the
    // next write is the one that says why.
    const bool opened = file.open(QIODevice::WriteOnly | QIODevice::Unbuffered);
    qint64 done = 0;
    while (opened && done < bytes.size()) {
        const qint64 n = file.write(bytes.data() + done, bytes.size() - done);
        if (n <= 0)
            break;
        done += n;
    }
    const bool written = opened && done == bytes.size();
    QString why = file.errorString();
    if (written && file.commit())
        return true;
    if (written)
        why = file.errorString();
    else if (!opened) {
        // QSaveFile reports a folder it cannot create its temporary file in
        // as "Existing file ... is not writable", which blames the file.
        const QString folder = QFileInfo(path).absolutePath();
        if (QFileInfo(folder).isDir() && !QFileInfo(folder).isWritable())
            why = QObject::tr("the folder %1 is read-only or not yours to write in")
                      .arg(QDir::toNativeSeparators(folder));
    }
    if (error)
        *error = QObject::tr("%1: cannot write: %2").arg(path, why);
    return false;  // an uncommitted QSaveFile removes its temporary file
}

QDateTime studioStart()
{
    return kStudioStart;
}

QStringList removeSaveLeftovers(const QString& folder, const QDateTime& olderThan)
{
    // QSaveFile's temporary file is its target's name and six letters or
    // digits (QTemporaryFile's XXXXXX).
    static const QRegularExpression leftover(QStringLiteral(R"(^(.+\.cluster\.json)\.[A-Za-z0-9]{6}$)"));
    const QDir dir(folder);
    QStringList removed;
    for (const QFileInfo& file : dir.entryInfoList({QStringLiteral("*.cluster.json.??????")}, QDir::Files)) {
        const QRegularExpressionMatch m = leftover.match(file.fileName());
        if (m.hasMatch() && QFileInfo(dir.filePath(m.captured(1))).isFile() && file.lastModified() < olderThan &&
            QFile::remove(file.filePath()))
            removed << file.fileName();
    }
    return removed;
}

}  // namespace studio
