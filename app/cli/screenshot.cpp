#include "app/cli/screenshot.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QPixmap>
#include <QRegularExpression>

#include <cstdio>

#include "app/cli/command_line.h"
#include "app/main_window.h"
#include "widgets/canvas/design_view.h"

namespace studio {

int runScreenshot(const QStringList& args)
{
    QCommandLineParser parser;
    parser.setApplicationDescription("Render the studio's window with FILE open into a PNG, without a display.");
    parser.addHelpOption();
    const QCommandLineOption output({"o", "output"}, "Where to write the PNG.", "OUT.png");
    const QCommandLineOption size(QStringLiteral("size"), "Window size (default 1600x1000).", "WxH", "1600x1000");
    parser.addOption(output);
    parser.addOption(size);
    parser.addPositionalArgument("FILE", "The design to show.");
    const QString usage = "usage: cluster-studio screenshot FILE -o OUT.png [--size WxH]\n";
    if (!parser.parse(args.mid(1))) {
        std::fprintf(stderr, "%s\n%s", qPrintable(parser.errorText()), qPrintable(usage));
        return kExitUsage;
    }
    if (parser.isSet("help")) {
        std::fprintf(stdout, "%s", qPrintable(usage));
        return kExitOk;
    }
    const auto match = QRegularExpression("^(\\d{2,5})x(\\d{2,5})$").match(parser.value(size));
    if (parser.positionalArguments().size() != 1 || !parser.isSet(output) || !match.hasMatch()) {
        std::fprintf(stderr, "screenshot: expected FILE, -o OUT.png and an optional --size like 1600x1000\n%s",
                     qPrintable(usage));
        return kExitUsage;
    }
    MainWindow window;
    window.resize(match.captured(1).toInt(), match.captured(2).toInt());
    if (!window.openFile(parser.positionalArguments().front()))
        return kExitInvalid;
    window.show();
    for (int i = 0; i < 5; ++i)
        QApplication::processEvents();
    window.view()->zoomToFit();
    QApplication::processEvents();
    const QString out = parser.value(output);
    if (!window.grab().save(out, "PNG")) {
        std::fprintf(stderr, "screenshot: cannot write %s\n", qPrintable(out));
        return kExitInvalid;
    }
    return kExitOk;
}

}  // namespace studio
