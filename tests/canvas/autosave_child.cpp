// Helper for tst_canvas: opens a design, edits it, autosaves, prints the
// edited design, and dies without cleaning up, as a crashed or killed
// studio would. Usage: autosave_child RECOVERY_DIR DESIGN
#include <QApplication>
#include <QStandardPaths>

#include <cstdio>
#include <cstdlib>

#include "core/format/design_writer.h"
#include "widgets/document/design_document.h"
#include "widgets/document/design_editor.h"
#include "widgets/document/recovery.h"

using namespace studio;

int main(int argc, char** argv)
{
    QStandardPaths::setTestModeEnabled(true);  // as the test that runs it
    QApplication app(argc, argv);
    if (argc != 3)
        return 2;
    DesignDocument doc;
    if (!doc.load(QString::fromLocal8Bit(argv[2]), Catalog::builtin(), nullptr))
        return 3;
    Autosaver saver(&doc, QString::fromLocal8Bit(argv[1]));
    Component c = doc.design().components[1];
    c.count += 3;
    c.name = "edited before the crash";
    DesignEditor(&doc).changeComponents({c}, "edit");
    if (!saver.autosaveNow())
        return 4;
    const std::string text = writeDesignText(doc.design());
    std::fwrite(text.data(), 1, text.size(), stdout);
    std::fflush(stdout);
    std::_Exit(9);  // no destructors: the recovery file and its lock stay behind
}
