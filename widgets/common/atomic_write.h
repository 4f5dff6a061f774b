#pragma once
// Every file the studio writes whole (a design, an autosave, a CSV) goes
// through here: QSaveFile writes a temporary file beside the target and
// renames it over the target only once all of it is written and flushed, so
// a killed process, a full disk or a read-only folder leaves the old file
// exactly as it was, and no half-written file behind.
#include <QByteArrayView>
#include <QDateTime>
#include <QString>
#include <QStringList>

namespace studio {

// False on failure, with `error` (if given) naming the file and the reason:
// "PATH: cannot write: No space left on device".
bool writeAtomically(const QString& path, QByteArrayView bytes, QString* error = nullptr);

// When this studio started: a save in flight in another studio is younger.
QDateTime studioStart();

// A save killed mid-write leaves its temporary file, NAME.cluster.json.XXXXXX,
// beside the design. Removes those in `folder` whose design exists there
// and that were last written before `olderThan` (another studio's save in
// flight is younger than this one's start); returns their names.
QStringList removeSaveLeftovers(const QString& folder, const QDateTime& olderThan = studioStart());

}  // namespace studio
