#pragma once
// A paginated PDF for design reviews: headings, paragraphs, tables that
// repeat their header row across pages, and vector figures (plots and the
// canvas recorded into QPictures), laid out by QTextDocument and printed on
// QPdfWriter with a running header, and "Page N of M" in every footer.
#include <QColor>
#include <QPageSize>
#include <QPicture>
#include <QString>
#include <QStringList>
#include <QTextCursor>
#include <QTextDocument>

#include <functional>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

#include "core/metrics/explanations.h"

class QPainter;
class QCustomPlot;
class QWidget;

namespace studio {

class ChartView;
class PictureObject;
struct FigureRow;

struct ReportCell {
    QString text;
    enum Tone { Normal, Good, Bad, Muted, Heading } tone = Normal;
    bool numeric = false;  // right-aligned
    QString tip;           // a second, smaller line under the text (a delta, a source)
};
using ReportRow = std::vector<ReportCell>;

class ReportDocument {
public:
    // A panel's size on screen, in document units: its plots are laid out
    // at this width and scaled to the page, so legends and labels lay out
    // as they do in the studio; with its title and table of numbers an
    // analysis' page fits one A4 or Letter page.
    static constexpr double kPanelWidth = 860;
    static constexpr double kPanelHeight = 540;

    // `title` runs in every page's header; `footer` (the studio and its
    // version) on the left of every footer.
    ReportDocument(const QString& title, const QString& footer, QPageSize::PageSizeId pageSize);
    ~ReportDocument();

    // The width figures and tables span, in document units (1/96 inch).
    double contentWidth() const;
    double contentHeight() const;

    void heading(const QString& text, int level = 1, bool newPage = false);
    void paragraph(const QString& html, bool small = false);
    // Column widths in percent of the content width (empty: equal).
    void table(const QStringList& header, const std::vector<ReportRow>& rows, const std::vector<int>& widths = {});
    // A vector figure `width` x `height` document units, centred.
    void picture(const QPicture& picture, const QSizeF& logical, double width, double height);
    // A chart view's plots laid out at `logical` size (as on screen), drawn
    // through a QCPPainter and shown `width` x `height`: vector output.
    void chart(ChartView& view, const QSizeF& logical, double width, double height);
    // The same for any widget holding plots (the scale and sensitivity
    // charts): `host` laid out at `logical`, each of `plots` drawn where it
    // sits in it.
    void plots(QWidget& host, const std::vector<QCustomPlot*>& plots, const QSizeF& logical, double width,
               double height);
    // A background panel's plots, which share their page with a table: at a
    // panel's width, 60% of an analysis page's plot height. `host` is
    // ready for paper (forPaper).
    void panelPlots(QWidget& host, const std::vector<QCustomPlot*>& plots);
    // Where the contents go, on the cover: a table of every page-starting
    // section and its page, filled in once the layout knows the pages.
    void contentsHere();

    int pageCount() const;
    // Prints every page; `progress(page, pages)` may cancel by returning false.
    bool print(const QString& path, QString* error, const std::function<bool(int, int)>& progress = {}) const;

private:
    void newBlock(const QTextBlockFormat& block = {}, const QTextCharFormat& chars = {});
    // Lays out once, when the content is complete: inserting cell by cell
    // into a laid-out document re-lays each table on every cell.
    void finish() const;
    int pagesOf(const QTextDocument& doc) const;
    QString title_, footer_;
    QPageSize pageSize_;
    // What comes before the first heading that starts a page is the cover;
    // the rest is the body, printed after it.
    mutable QTextDocument cover_, body_;
    mutable QTextCursor cursor_;  // where content goes: the cover, then the body
    mutable bool editing_ = true;
    bool coverEmpty_ = false;
    std::optional<QTextCursor> contents_;
    std::vector<std::pair<QString, QTextCursor>> sections_;  // cursors follow their text through later edits
    // Headings (a subsection's title, a table's section row) stay on the
    // page of what follows them: one the layout leaves at a page's foot
    // starts the next page instead, a table's rows from there going into a
    // table of their own under a copy of its header. A table row the page's
    // foot would cut goes the same way, whole.
    void keepHeadingsWithNext() const;
    // A section that runs a little onto a page of its own (a table's last
    // rows alone there) fits on its first page with its figure drawn
    // smaller, in proportion, by up to kMostFigureShrink.
    void fitSectionsOnTheirPages() const;
    static constexpr double kMostFigureShrink = 0.25;
    bool keepOneHeadingWithNext() const;
    std::unique_ptr<PictureObject> pictures_;
    bool empty_ = true;
};

// Tones for print: readable on white paper.
QColor reportToneColor(ReportCell::Tone tone, bool background);
// A panel's widget ready for paper: never shown, in print colours (set
// before it draws, so its series take them).
void forPaper(QWidget& panel);
// 0.123 as "12.3%".
QString percentText(double fraction);
// A FigureTable's rows as a report table's (figure, value, how): how from
// the row's metrics key in `explained`, else its own tip.
std::vector<ReportRow> figureRows(const std::vector<FigureRow>& figures,
                                  const std::vector<ExplainedMetric>& explained = {});

}  // namespace studio
