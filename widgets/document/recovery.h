#pragma once
// Crash recovery: the open design is written to a recovery file every
// interval while it has unsaved changes. Each running window holds a lock
// on its own recovery file; at start, recovery files whose lock nobody holds
// (their studio crashed or was killed) are offered for restoring. Nothing
// older than the last autosave is lost. A timed autosave copies the design
// on the GUI thread and turns it into text and writes it on a thread of its
// own: a 1,024-node design's 4.4 MB took the GUI thread 50 ms a minute.
#include <QDateTime>
#include <QLockFile>
#include <QObject>
#include <QString>
#include <QTimer>

#include <cstdint>
#include <memory>

class QThread;

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
    // What the timer does: the same, written off the GUI thread; returns at
    // once (false when a write is still in flight and nothing started). A
    // failure is said by failed(), once until an autosave succeeds again.
    bool autosaveInBackground();
    // A background write is in flight.
    bool writing() const { return writer_ != nullptr; }
    // Blocks until no background write is in flight and its result is in.
    void waitForWrite();
    // Removes this session's recovery file (after a save, on a clean close),
    // after any write in flight, so none can bring it back.
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
    // A background write ended (ok or not); for tests and the benchmark.
    void written(bool ok);

private:
    struct Write;
    // The recovery files' texts for the design as it is now, the
    // description's only when it changed since it was last written.
    std::shared_ptr<Write> prepare() const;
    void finish(const Write& write);
    DesignDocument* doc_;
    QString dir_, file_;
    QByteArray lastMeta_;  // as written for this session's recovery file
    bool failing_ = false;
    std::unique_ptr<QLockFile> lock_;
    QTimer timer_;
    QThread* writer_ = nullptr;
    std::shared_ptr<Write> inFlight_;
    std::uint64_t writesStarted_ = 0;
};

}  // namespace studio
