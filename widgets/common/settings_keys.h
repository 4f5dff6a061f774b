#pragma once
// Every key the studio keeps in QSettings, in one place, with what it holds:
// two views never disagree on a name, and tests know what a session leaves
// behind (tests run in Qt's test mode, tests/gui_test_main.h, so none of it
// is the user's own).
namespace studio::settings {

inline constexpr char kWindowGeometry[] = "window/geometry";             // QMainWindow::saveGeometry
inline constexpr char kWindowState[] = "window/state";                   // docks and toolbars
inline constexpr char kAutosaveInterval[] = "autosave/intervalSeconds";  // default 60
inline constexpr char kUndoLimit[] = "history/undoLimit";                // steps kept, default kDefaultUndoLimit
inline constexpr char kRecentFiles[] = "recentFiles";                    // newest first, at most 10
inline constexpr char kLastDir[] = "paths/lastDir";                      // where designs were last opened or saved
inline constexpr char kLastReportDir[] = "paths/lastReportDir";          // where reports and exports went
inline constexpr char kSnap[] = "view/snap";                             // snap to grid, default on
inline constexpr char kTheme[] = "view/theme";                           // "light" or "dark"
inline constexpr char kAnalysisLayout[] = "analysis/layout";             // "tabs" or "grid"
inline constexpr char kAnalysisTab[] = "analysis/tab";                   // key of the analysis last shown in tabs
inline constexpr char kReportPageSize[] = "report/pageSize";             // "a4" or "letter"
// A long session's history stays bounded: a step keeps only what it changed
// (widgets/document/commands.h), kilobytes for most, megabytes for a fabric
// generated on a design drawn in full.
inline constexpr int kDefaultUndoLimit = 1000;
// The kernel profile each design file was last analysed with: a map from the
// design's absolute path to a profile file, or "none" (the catalog's
// factors); absent, the published tables built in.
inline constexpr char kKernelProfiles[] = "kernels/byDesign";

}  // namespace studio::settings
