#pragma once
// The headless front end: `cluster-studio VERB ...`. No display is needed for
// any verb. Exit codes: 0 success, 1 invalid input, 2 usage error.
#include <QStringList>

namespace studio {

enum ExitCode { kExitOk = 0, kExitInvalid = 1, kExitUsage = 2 };

// True when argv[1] names a verb (or asks for help/version), so main() runs
// the command line instead of opening a window.
bool isCommandLine(const QStringList& args);
// True for the verbs that draw (report and compare write PDFs): main() gives
// them a QApplication on the offscreen platform instead of a QCoreApplication.
bool needsWidgets(const QStringList& args);
int runCommandLine(const QStringList& args);

}  // namespace studio
