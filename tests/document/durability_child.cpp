// The studio's saving code in a process of its own, for tst_durability to
// kill, starve of disk or shut out of a folder. Each mode opens DESIGN as
// the studio does and saves or autosaves the way the studio does; what it
// prints lets the test tell which state reached the disk.
//
//   durability_child autosave-once RECOVERY_DIR DESIGN
//       one edit, one autosave, the edited design on stdout, then dies
//       without cleaning up (exit 9), as a crashed studio would
//   durability_child autosave-loop RECOVERY_DIR DESIGN
//       renames the design "autosave N" and autosaves as the timer does (the
//       text made and written on a thread of its own), N = 0, 1, ...; prints
//       "N SHA256" before each autosave starts and "done N MICROSECONDS"
//       after it ends (how long the autosave itself took), until killed
//   durability_child save-loop DESIGN TARGET
//       the same with "saved N" and Save to TARGET, until killed
//   durability_child write-loop DESIGN TARGET
//       the same with "written N" as the design's name, the text made once:
//       the loop is the atomic write of a save alone, no text made between
//       (so a kill lands in the write, where its temporary file exists)
//   durability_child save-once DESIGN TARGET
//       one edit and one Save (the test starves it of disk or of the folder);
//       prints "saved 0|1", "modified 0|1" and "error ..."
#include <QApplication>
#include <QCryptographicHash>
#include <QElapsedTimer>
#include <QStandardPaths>

#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>

#include "core/format/design_writer.h"
#include "widgets/common/atomic_write.h"
#include "widgets/document/design_document.h"
#include "widgets/document/design_editor.h"
#include "widgets/document/recovery.h"

using namespace studio;

namespace {

void print(const std::string& line)
{
    std::fputs((line + "\n").c_str(), stdout);
    std::fflush(stdout);
}

// What the studio writes for this design, as the test will hash the file.
std::string digestOfFile(const Design& d)
{
    const std::string text = writeDesignText(d);
    return QCryptographicHash::hash(QByteArrayView(text.data(), qsizetype(text.size())), QCryptographicHash::Sha256)
        .toHex()
        .toStdString();
}

bool rename(DesignDocument& doc, const std::string& name)
{
    DesignSettings s = DesignSettings::of(doc.design());
    s.name = name;
    return DesignEditor(&doc).changeSettings(s, "rename").applied();
}

}  // namespace

int main(int argc, char** argv)
{
    QStandardPaths::setTestModeEnabled(true);  // as the test that runs it
    QApplication app(argc, argv);
    const QStringList args = app.arguments();
    if (args.size() < 4)
        return 2;
    const QString mode = args[1];
    const bool autosaving = mode.startsWith("autosave");
    DesignDocument doc;
    if (!doc.load(autosaving ? args[3] : args[2], Catalog::builtin(), nullptr))
        return 3;

    if (mode == "autosave-once") {
        Autosaver saver(&doc, args[2]);
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
    if (mode == "autosave-loop" || mode == "save-loop") {
        std::unique_ptr<Autosaver> saver;
        if (autosaving)
            saver = std::make_unique<Autosaver>(&doc, args[2]);
        const std::string prefix = autosaving ? "autosave " : "saved ";
        for (int n = 0;; ++n) {
            if (!rename(doc, prefix + std::to_string(n)))
                return 4;
            print(std::to_string(n) + " " + digestOfFile(doc.design()));
            QString error;
            QElapsedTimer clock;
            clock.start();
            bool ok = false;
            if (autosaving) {
                // As the timer does: written on a thread of its own.
                const auto connection = QObject::connect(saver.get(), &Autosaver::written, [&ok](bool w) { ok = w; });
                saver->autosaveInBackground();
                saver->waitForWrite();
                QObject::disconnect(connection);
            } else
                ok = doc.saveAs(args[3], &error);
            if (!ok)
                return 5;
            print("done " + std::to_string(n) + " " + std::to_string(clock.nsecsElapsed() / 1000));
        }
    }
    if (mode == "write-loop") {
        if (!rename(doc, "written 000000"))
            return 4;
        std::string text = writeDesignText(doc.design());
        const std::size_t counter = text.find("000000");
        for (int n = 0;; ++n) {
            const std::string digits = std::to_string(1000000 + n % 1000000).substr(1);
            text.replace(counter, digits.size(), digits);
            const QByteArrayView bytes(text.data(), qsizetype(text.size()));
            print(std::to_string(n) + " " +
                  QCryptographicHash::hash(bytes, QCryptographicHash::Sha256).toHex().toStdString());
            QElapsedTimer clock;
            clock.start();
            if (!writeAtomically(args[3], bytes))
                return 5;
            print("done " + std::to_string(n) + " " + std::to_string(clock.nsecsElapsed() / 1000));
        }
    }
    if (mode == "save-once") {
        if (!rename(doc, "edited, not yet saved"))
            return 4;
        QString error;
        const bool saved = doc.saveAs(args[3], &error);
        print(std::string("saved ") + (saved ? "1" : "0"));
        print(std::string("modified ") + (doc.isModified() ? "1" : "0"));
        print("error " + error.toStdString());
        return 0;
    }
    return 2;
}
