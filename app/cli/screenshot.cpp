#include "app/cli/screenshot.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QDockWidget>
#include <QPixmap>
#include <QRegularExpression>

#include <cstdio>

#include "app/cli/command_line.h"
#include "app/main_window.h"
#include "widgets/serving/serving_panel.h"
#include "widgets/canvas/design_scene.h"
#include "widgets/canvas/design_view.h"
#include "widgets/charts/analysis_registry.h"
#include "widgets/panels/analysis_area.h"
#include "widgets/search/layout_search_service.h"
#include "widgets/style/theme.h"

namespace studio {

int runScreenshot(const QStringList& args)
{
    QCommandLineParser parser;
    parser.setApplicationDescription("Render the studio's window with FILE open into a PNG, without a display.");
    parser.addHelpOption();
    const QCommandLineOption output({"o", "output"}, "Where to write the PNG.", "OUT.png");
    const QCommandLineOption size(QStringLiteral("size"), "Window size (default 1600x1000).", "WxH", "1600x1000");
    const QCommandLineOption select(QStringLiteral("select"), "Select this component first (repeatable).", "ID");
    const QCommandLineOption theme(QStringLiteral("theme"), "light (default) or dark.", "THEME", "light");
    const QStringList panels = analysisKeys() << QStringLiteral("grid");
    const QCommandLineOption panel(QStringLiteral("panel"),
                                   "The analysis panel to show: " + panels.mid(0, panels.size() - 1).join(", ") +
                                       " (the first is the default); or grid for all of them.",
                                   "PANEL", panels.front());
    parser.addOption(output);
    parser.addOption(size);
    parser.addOption(select);
    parser.addOption(theme);
    parser.addOption(panel);
    const QCommandLineOption raise(
        QStringLiteral("raise"),
        "Bring a tabbed dock to the front: inspector, workload, history, warnings, layouts, scale, sensitivity, "
        "serving, or serving-search (the Serving dock at its best way to serve).",
        "DOCK");
    parser.addOption(raise);
    parser.addPositionalArgument("FILE", "The design to show.");
    const QString usage = "usage: cluster-studio screenshot FILE -o OUT.png [--size WxH] [--select ID]... "
                          "[--theme light|dark] [--panel " +
        panels.join('|') + "] [--raise DOCK]\n";
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
    const QString panelKey = parser.value(panel);
    if (!panels.contains(panelKey)) {
        std::fprintf(stderr, "screenshot: --panel must be one of %s\n%s", qPrintable(panels.join(", ")),
                     qPrintable(usage));
        return kExitUsage;
    }
    applyTheme(themeFromName(parser.value(theme)));
    MainWindow window;
    window.analysisArea()->setMode(panelKey == "grid" ? AnalysisArea::Mode::Grid : AnalysisArea::Mode::Tabs);
    window.analysisArea()->showPanel(panelKey);
    window.resize(match.captured(1).toInt(), match.captured(2).toInt());
    if (!window.openFile(parser.positionalArguments().front()))
        return kExitInvalid;
    window.show();
    for (int i = 0; i < 5; ++i)
        QApplication::processEvents();
    window.view()->zoomToFit();
    window.scene()->selectComponents(parser.values(select));
    for (QString name : parser.values(raise)) {
        if (name == "serving-search") {
            window.serving()->tabs()->setCurrentIndex(1);
            name = "serving";
        }
        auto* dock = window.findChild<QDockWidget*>(name);
        if (!dock) {
            std::fprintf(stderr,
                         "screenshot: no dock '%s' (inspector, workload, history, warnings, analysis, layouts, "
                         "scale, sensitivity, serving, serving-search, parts, overview)\n",
                         qPrintable(name));
            return kExitUsage;
        }
        dock->raise();
    }
    QApplication::processEvents();
    // The layout search and the scale sweep (started when its dock shows)
    // run off the GUI thread: their results belong in the picture.
    window.waitForBackgroundRuns();
    for (int i = 0; i < 3; ++i)
        QApplication::processEvents();
    const QString out = parser.value(output);
    if (!window.grab().save(out, "PNG")) {
        std::fprintf(stderr, "screenshot: cannot write %s\n", qPrintable(out));
        return kExitInvalid;
    }
    return kExitOk;
}

}  // namespace studio
