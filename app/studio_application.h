#pragma once
// The studio's QApplication: no exception reaches Qt's event loop (which
// does not survive one). An exception thrown while an event is handled (a
// slot, a paint, a timer) is caught where the event is delivered, written to
// stderr with the event and the object it was for, and announced through
// internalError() so the window can tell the user; the event counts as
// unhandled and the studio goes on with the design as the last finished
// edit left it.
#include <QApplication>

namespace studio {

class StudioApplication : public QApplication {
    Q_OBJECT
public:
    StudioApplication(int& argc, char** argv);
    bool notify(QObject* receiver, QEvent* event) override;
    int internalErrorCount() const { return internalErrors_; }

signals:
    // Queued: whoever shows it runs after the failed event has unwound.
    void internalError(const QString& what);

private:
    void caught(QObject* receiver, QEvent* event, const QString& what);
    int internalErrors_ = 0;
};

}  // namespace studio
