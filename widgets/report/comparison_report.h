#pragma once
// The comparison PDF: the key figures of 2 to 4 designs side by side with
// each one's difference from the baseline (green better, red worse), the
// five charts overlaid, and the bills of materials part by part.
#include <QString>

#include "widgets/report/design_report.h"

namespace studio {

struct Comparison;

// Needs a QApplication (an offscreen one is enough).
bool writeComparisonReport(const Comparison& comparison, const QString& path, const ReportOptions& options,
                           QString* error, const ReportProgress& progress = {});

}  // namespace studio
