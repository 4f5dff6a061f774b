// cluster-studio: the GUI, or a headless verb (validate, metrics, ...) when
// the first argument names one. Verbs never need a display; `screenshot`
// renders the window offscreen.
#include <QApplication>
#include <QCoreApplication>
#include <QSettings>
#include <QTimer>

#include "app/cli/command_line.h"
#include "app/cli/screenshot.h"
#include "app/main_window.h"
#include "app/malloc_settings.h"
#include "app/studio_application.h"
#include "core/version.h"
#include "widgets/common/settings_keys.h"
#include "widgets/style/theme.h"

namespace {
void describeApplication(const char* name = "Cluster Studio")
{
    QCoreApplication::setApplicationName(name);
    QCoreApplication::setOrganizationName("Cluster Studio");
    QCoreApplication::setApplicationVersion(
        QString::fromUtf8(studio::kAppVersion.data(), static_cast<int>(studio::kAppVersion.size())));
}
}  // namespace

int main(int argc, char** argv)
{
    studio::setUpMalloc();
    QStringList args;
    for (int i = 0; i < argc; ++i)
        args << QString::fromLocal8Bit(argv[i]);
    const bool screenshot = args.value(1) == QLatin1String("screenshot");
    if (screenshot || studio::needsWidgets(args)) {
        // Drawing without a display: plots, the canvas and PDFs need widgets.
        if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
            qputenv("QT_QPA_PLATFORM", "offscreen");
    }
    if (studio::needsWidgets(args)) {
        QApplication app(argc, argv);
        describeApplication();
        studio::preferUnshapedText();
        return studio::runCommandLine(app.arguments());
    }
    if (screenshot) {
        QApplication app(argc, argv);
        // Its own settings: a screenshot shows the default layout, not the user's.
        describeApplication("Cluster Studio screenshot");
        studio::preferUnshapedText();
        studio::applyTheme(studio::Theme::Light);
        return studio::runScreenshot(app.arguments());
    }
    if (studio::isCommandLine(args)) {
        QCoreApplication app(argc, argv);
        describeApplication();
        return studio::runCommandLine(app.arguments());
    }
    studio::StudioApplication app(argc, argv);
    describeApplication();
    studio::preferUnshapedText();
    studio::applyTheme(studio::themeFromName(QSettings().value(studio::settings::kTheme).toString()));
    QApplication::setWindowIcon(studio::appIcon());
    studio::MainWindow window;
    QObject::connect(&app, &studio::StudioApplication::internalError, &window, &studio::MainWindow::showInternalError);
    const QStringList files = app.arguments().mid(1);
    window.show();
    if (!files.isEmpty())
        window.openFile(files.front());
    QTimer::singleShot(0, &window, &studio::MainWindow::offerRecovery);
    return app.exec();
}
