#include "widgets/common/atomic_write.h"

#include <QDir>
#include <QFileInfo>
#include <QObject>
#include <QSaveFile>

namespace studio {

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

}  // namespace studio
