#pragma once
// Crash recovery: the open design is written to a recovery file every
// interval while it has unsaved changes. Each running window holds a lock
// on its own recovery file; at start, recovery files whose lock nobody holds
// (their studio crashed or was killed) are offered for restoring. Nothing
// older than the last autosave is lost.
#include <QDateTime>
#include <QLockFile>
#include <QObject>
#include <QString>
#include <QTimer>

#include <memory>

namespace studio {

class DesignDocument;

struct RecoverableDesign {
    QString recoveryFile;       // the autosaved design
    QString originalPath;       // where the design was saved, "" if never
    QByteArray originalDigest;  // what that file held then (DesignDocument::diskDigest)
    QString name;
    QDateTime savedAt;  // when the recovery file was written
};

class Autosaver : public QObject {
    Q_OBJECT
public:
    // `directory` defaults to the application's data location/recovery.
    explicit Autosaver(DesignDocument* document, QString directory = {}, QObject* parent = nullptr);
    ~Autosaver() override;

    void setIntervalSeconds(int seconds);
    int intervalSeconds() const;
    // Writes the recovery file now if there are unsaved changes; removes it
    // when there are none. Returns false when writing failed, with `error`
    // naming the file and why.
    bool autosaveNow(QString* error = nullptr);
    // Removes this session's recovery file (after a save, on a clean close).
    void discard();
    QString recoveryFile() const { return file_; }

    // Recovery files left by sessions that are no longer running.
    static QList<RecoverableDesign> abandoned(QString directory = {});
    // Loads one into `document` (marked modified, at its original path) and
    // removes it. False, with `error`, if it cannot be read.
    static bool restore(const RecoverableDesign& design, DesignDocument* document, QString* error);
    // Deletes one the user chose not to restore.
    static void discardAbandoned(const RecoverableDesign& design);
    static QString defaultDirectory();

signals:
    // A timed autosave could not be written (a full disk): said once until
    // one succeeds again, so the user knows the safety net is gone.
    void failed(const QString& error);

private:
    DesignDocument* doc_;
    QString dir_, file_;
    QByteArray lastMeta_;  // as written for this session's recovery file
    bool failing_ = false;
    std::unique_ptr<QLockFile> lock_;
    QTimer timer_;
};

}  // namespace studio
