#pragma once
// The design-review PDF of one design: a cover with the key figures and the
// most important warnings, the canvas and bill of materials, a page per
// analysis (its plots as vector graphics and its table of numbers), the
// assumptions with the source of every catalog figure used, and how each
// number is computed. The GUI and `cluster-studio report` write the same.
#include <QDateTime>
#include <QPageSize>
#include <QString>

#include <functional>
#include <memory>

namespace studio {

struct Design;
class Catalog;

struct ReportOptions {
    QPageSize::PageSizeId pageSize = QPageSize::A4;
    QString source;  // the file the design came from ("" for an unsaved design)
    QDateTime date = QDateTime::currentDateTime();
};

// Page sizes by name: "a4" or "letter" (any case); false for anything else.
bool pageSizeFromName(const QString& name, QPageSize::PageSizeId* id);
// The studio's page size for reports (QSettings report/pageSize): the
// user's pick, else Letter where the locale measures in inches, else A4.
QString preferredPageSizeName();  // "a4" or "letter"
QPageSize::PageSizeId preferredPageSize();
void setPreferredPageSize(const QString& name);

// Progress over the whole report: `progress(done, total)` returns false to
// cancel, and the file is then left as it was. While the review waits for
// work it runs off the calling thread, it calls every 40 ms with the same
// `done`: a GUI's callback processes events there.
using ReportProgress = std::function<bool(int done, int total)>;

// `design` must be valid against `catalog`. Needs a QApplication (an
// offscreen one is enough). Returns false with *error set on failure.
bool writeDesignReport(const Design& design, std::shared_ptr<const Catalog> catalog, const QString& path,
                       const ReportOptions& options, QString* error, const ReportProgress& progress = {});

}  // namespace studio
