#include "app/studio_application.h"

#include <QMetaEnum>

#include <cstdio>
#include <exception>

namespace studio {

StudioApplication::StudioApplication(int& argc, char** argv) : QApplication(argc, argv) {}

bool StudioApplication::notify(QObject* receiver, QEvent* event)
{
    try {
        return QApplication::notify(receiver, event);
    } catch (const std::exception& e) {
        caught(receiver, event, QString::fromUtf8(e.what()));
    } catch (...) {
        caught(receiver, event, tr("an unknown exception"));
    }
    return false;
}

void StudioApplication::caught(QObject* receiver, QEvent* event, const QString& what)
{
    ++internalErrors_;
    const char* type = QMetaEnum::fromType<QEvent::Type>().valueToKey(event ? event->type() : QEvent::None);
    const QString who = receiver ? QString::fromLatin1(receiver->metaObject()->className()) +
            (receiver->objectName().isEmpty() ? QString() : " " + receiver->objectName())
                                 : QStringLiteral("(none)");
    std::fprintf(stderr, "cluster-studio: internal error while handling %s for %s: %s\n", type ? type : "an event",
                 qPrintable(who), qPrintable(what));
    std::fflush(stderr);
    QMetaObject::invokeMethod(
        this, [this, what] { emit internalError(what); }, Qt::QueuedConnection);
}

}  // namespace studio
