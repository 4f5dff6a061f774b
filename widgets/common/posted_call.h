#pragma once
// A call made once when control returns to the event loop, however often it
// was asked for before then (a burst of edits: one recompute, one routing
// of the links). Posted at high priority so that it runs before the graphics
// scene processes its dirty items: the scene flushes its window's pending
// paint right then (QGraphicsView dispatches its update request at once), so
// a call queued behind it, as a zero timer or a plain queued call would be,
// paints the canvas a second time with what the call changed.
#include <QCoreApplication>
#include <QEvent>
#include <QObject>

#include <functional>
#include <utility>

namespace studio {

// A child of `parent`: a pending call dies with it.
class PostedCall : public QObject {
public:
    PostedCall(QObject* parent, std::function<void()> call) : QObject(parent), call_(std::move(call)) {}

    void request()
    {
        if (!std::exchange(pending_, true))
            QCoreApplication::postEvent(this, new QEvent(type()), Qt::HighEventPriority);
    }
    // The caller has done the work itself: a posted request does nothing.
    void cancel() { pending_ = false; }
    bool pending() const { return pending_; }

protected:
    bool event(QEvent* e) override
    {
        if (e->type() != type())
            return QObject::event(e);
        if (std::exchange(pending_, false))
            call_();
        return true;
    }

private:
    static QEvent::Type type()
    {
        static const auto t = QEvent::Type(QEvent::registerEventType());
        return t;
    }
    std::function<void()> call_;
    bool pending_ = false;
};

}  // namespace studio
