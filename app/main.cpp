// cluster-studio: the GUI, or a headless verb (validate, metrics, ...) when
// the first argument names one. Verbs never need a display.
#include <QApplication>
#include <QCoreApplication>

#include "app/cli/command_line.h"
#include "app/main_window.h"
#include "core/version.h"

namespace {
void describeApplication()
{
    QCoreApplication::setApplicationName("Cluster Studio");
    QCoreApplication::setOrganizationName("Cluster Studio");
    QCoreApplication::setApplicationVersion(QString::fromUtf8(studio::kAppVersion.data(),
                                                              static_cast<int>(studio::kAppVersion.size())));
}
}  // namespace

int main(int argc, char** argv)
{
    QStringList args;
    for (int i = 0; i < argc; ++i)
        args << QString::fromLocal8Bit(argv[i]);
    if (studio::isCommandLine(args)) {
        QCoreApplication app(argc, argv);
        describeApplication();
        return studio::runCommandLine(app.arguments());
    }
    QApplication app(argc, argv);
    describeApplication();
    studio::MainWindow window;
    const QStringList files = app.arguments().mid(1);
    if (!files.isEmpty())
        window.openFile(files.front());
    window.show();
    return app.exec();
}
