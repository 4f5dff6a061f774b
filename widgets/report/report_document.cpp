#include "widgets/report/report_document.h"

#include <algorithm>

#include <QAbstractTextDocumentLayout>
#include <QBuffer>
#include <QDateTime>
#include <QImage>
#include <QPainter>
#include <QPdfWriter>
#include <QTextBlock>
#include <QTextObjectInterface>
#include <QTextTable>

#include <qcustomplot.h>

#include "core/text.h"
#include "widgets/charts/chart_view.h"
#include "widgets/charts/figure_table.h"
#include "widgets/common/atomic_write.h"
#include "widgets/common/qt_string.h"
#include "widgets/style/theme.h"

namespace studio {
namespace {

// Document units are 1/96 inch, whatever screen the studio runs on, so a
// report lays out the same in the GUI and headless.
constexpr double kDocDpi = 96;
constexpr double kPdfDpi = 96;
double mm(double v)
{
    return v / 25.4 * kDocDpi;
}
const double kSide = mm(16), kTop = mm(21), kBottom = mm(17);

constexpr int kPictureType = QTextFormat::UserObject + 1;
constexpr int kPictureIndex = QTextFormat::UserProperty + 1;
constexpr int kPictureSize = QTextFormat::UserProperty + 2;
// On a heading's block: keep it on the page of what follows it.
constexpr int kKeepWithNext = QTextFormat::UserProperty + 3;

const QColor kRule(0xc8, 0xce, 0xd6), kInk(0x1f, 0x25, 0x2d), kMuted(0x5f, 0x6b, 0x7a);

}  // namespace

QColor reportToneColor(ReportCell::Tone tone, bool background)
{
    switch (tone) {
    case ReportCell::Good: return background ? QColor(0xe3, 0xf4, 0xe8) : QColor(0x1d, 0x6b, 0x3a);
    case ReportCell::Bad: return background ? QColor(0xfb, 0xe4, 0xe2) : QColor(0x9e, 0x24, 0x1c);
    case ReportCell::Heading: return background ? QColor(0xee, 0xf1, 0xf5) : kInk;
    case ReportCell::Muted: return background ? QColor(Qt::white) : kMuted;
    case ReportCell::Normal: break;
    }
    return background ? QColor(Qt::white) : kInk;
}

// Draws the recorded pictures where the layout placed their object
// characters, scaled from the size they were recorded at: vector all the way.
class PictureObject : public QObject, public QTextObjectInterface {
    Q_OBJECT
    Q_INTERFACES(QTextObjectInterface)
public:
    struct Entry {
        QPicture picture;
        QSizeF logical;
    };
    std::vector<Entry> entries;

    QSizeF intrinsicSize(QTextDocument*, int, const QTextFormat& format) override
    {
        return format.property(kPictureSize).toSizeF();
    }
    void drawObject(QPainter* painter, const QRectF& rect, QTextDocument*, int, const QTextFormat& format) override
    {
        const auto i = std::size_t(format.intProperty(kPictureIndex));
        if (i >= entries.size() || entries[i].logical.isEmpty())
            return;
        painter->save();
        painter->translate(rect.topLeft());
        painter->scale(rect.width() / entries[i].logical.width(), rect.height() / entries[i].logical.height());
        // QPainter scales a picture by the ratio of the device's resolution
        // to the one it was recorded at; the painter already maps document
        // units to the device, so undo that.
        const QPaintDevice* device = painter->device();
        const QPicture& picture = entries[i].picture;
        painter->scale(double(picture.logicalDpiX()) / device->logicalDpiX(),
                       double(picture.logicalDpiY()) / device->logicalDpiY());
        painter->drawPicture(0, 0, picture);
        painter->restore();
    }
};

namespace {
QPaintDevice* layoutDevice()
{
    static QImage device = [] {
        QImage image(1, 1, QImage::Format_RGB32);
        image.setDotsPerMeterX(qRound(kDocDpi / 0.0254));
        image.setDotsPerMeterY(qRound(kDocDpi / 0.0254));
        return image;
    }();
    return &device;
}
}  // namespace

ReportDocument::ReportDocument(const QString& title, const QString& footer, QPageSize::PageSizeId pageSize)
    : title_(title), footer_(footer), pageSize_(pageSize), cursor_(&cover_),
      pictures_(std::make_unique<PictureObject>())
{
    for (QTextDocument* doc : {&cover_, &body_}) {
        doc->documentLayout()->setPaintDevice(layoutDevice());
        doc->setDocumentMargin(0);
        doc->setUseDesignMetrics(true);
        QFont font(QStringLiteral("DejaVu Sans"));
        font.setPointSizeF(8.5);
        // No ligatures: a reader searches and copies "fi" and "fl" as two
        // letters (Latin needs no shaping to be legible).
        font.setStyleStrategy(QFont::PreferNoShaping);
        doc->setDefaultFont(font);
        doc->setPageSize(QSizeF(contentWidth(), contentHeight()));
        doc->documentLayout()->registerHandler(kPictureType, pictures_.get());
        doc->setUndoRedoEnabled(false);
        QTextCursor(doc).beginEditBlock();
    }
}

void ReportDocument::finish() const
{
    if (!editing_)
        return;
    editing_ = false;
    // The body first: its one layout gives every section its page.
    QTextCursor(&body_).endEditBlock();
    fitSectionsOnTheirPages();
    keepHeadingsWithNext();
    if (!contents_ || sections_.empty()) {
        QTextCursor(&cover_).endEditBlock();
        return;
    }
    // The contents table goes in with the rest of the cover, blank page
    // numbers and all, so the cover's layout knows its own pages; the numbers
    // then go in as one more edit, which re-lays the cover alone.
    QTextTableFormat format;
    format.setBorder(0);
    format.setCellPadding(1.5);
    format.setCellSpacing(0);
    format.setWidth(QTextLength(QTextLength::PercentageLength, 60));
    format.setColumnWidthConstraints(
        {QTextLength(QTextLength::PercentageLength, 88), QTextLength(QTextLength::PercentageLength, 12)});
    QTextCursor at = *contents_;
    QTextTable* table = at.insertTable(int(sections_.size()), 2, format);
    QTextCharFormat chars;
    chars.setForeground(kInk);
    for (std::size_t i = 0; i < sections_.size(); ++i)
        table->cellAt(int(i), 0).firstCursorPosition().insertText(sections_[i].first, chars);
    QTextCursor(&cover_).endEditBlock();
    const int coverPages = pagesOf(cover_);
    QTextCursor edit(&cover_);
    edit.beginEditBlock();
    QTextBlockFormat right;
    right.setAlignment(Qt::AlignRight);
    for (std::size_t i = 0; i < sections_.size(); ++i) {
        const QTextBlock heading = sections_[i].second.block();
        const int page =
            coverPages + int(body_.documentLayout()->blockBoundingRect(heading).top() / contentHeight()) + 1;
        QTextCursor cell = table->cellAt(int(i), 1).firstCursorPosition();
        cell.setBlockFormat(right);
        cell.insertText(QString::number(page), chars);
    }
    edit.endEditBlock();
}

void ReportDocument::fitSectionsOnTheirPages() const
{
    QAbstractTextDocumentLayout* layout = body_.documentLayout();
    const double page = contentHeight();
    for (std::size_t s = 0; s < sections_.size(); ++s) {
        const QTextBlock heading = sections_[s].second.block();
        const QTextBlock last =
            s + 1 < sections_.size() ? sections_[s + 1].second.block().previous() : body_.lastBlock();
        if (!heading.isValid() || !last.isValid())
            continue;
        const auto firstPage = int(layout->blockBoundingRect(heading).top() / page);
        // How far the section's end runs past its first page, with room for
        // the margins below its last block (less, and the next section's
        // page break left an empty page between).
        const auto spill = [&] { return layout->blockBoundingRect(last).bottom() + 16 - (firstPage + 1) * page; };
        const double over = spill();
        if (over <= 0 || over >= page)
            continue;  // on one page already, or well past a second
        // The section's tallest figure.
        int at = -1;
        QTextCharFormat figure;
        for (QTextBlock b = heading; b.isValid() && b.position() <= last.position(); b = b.next())
            for (auto it = b.begin(); !it.atEnd(); ++it) {
                const QTextFragment f = it.fragment();
                if (f.charFormat().objectType() == kPictureType &&
                    (at < 0 ||
                     f.charFormat().property(kPictureSize).toSizeF().height() >
                         figure.property(kPictureSize).toSizeF().height())) {
                    at = f.position();
                    figure = f.charFormat();
                }
            }
        if (at < 0)
            continue;
        const QSizeF size = figure.property(kPictureSize).toSizeF();
        const auto resize = [&](double height) {
            QTextCharFormat f = figure;
            f.setProperty(kPictureSize, size * (height / size.height()));
            QTextCursor c(&body_);
            c.setPosition(at);
            c.setPosition(at + 1, QTextCursor::KeepAnchor);
            c.setCharFormat(f);
        };
        // At least this must come off: what went on to the next page (from
        // its first block under the repeated header) less the foot of the
        // first page the moved rows left empty. (More does, for the page's
        // margins and the table's borders.) Each resize re-lays the whole
        // document after the figure (the appendices' long tables), so two
        // are tried at most: a little more than that, else the least height.
        const double boundary = (firstPage + 1) * page;
        double footBottom = 0, nextTop = -1;
        for (QTextBlock b = heading; b.isValid() && b.position() <= last.position(); b = b.next()) {
            const QRectF r = layout->blockBoundingRect(b);
            if (r.top() < boundary)
                footBottom = std::max(footBottom, r.bottom());
            else if (nextTop < 0)
                nextTop = r.top();
        }
        const double least = size.height() * (1 - kMostFigureShrink);
        const double need = (layout->blockBoundingRect(last).bottom() - nextTop) - (boundary - footBottom);
        if (nextTop < 0 || size.height() - need < least)
            continue;
        const double first = std::max(least, size.height() - std::max(0.0, need) - 16);
        resize(first);
        bool fits = spill() <= 0;
        if (!fits && first > least) {
            resize(least);
            fits = spill() <= 0;
        }
        if (!fits)
            resize(size.height());  // it cannot fit: the figure as it was
    }
}

void ReportDocument::keepHeadingsWithNext() const
{
    // One at a time, from the top: each move shifts what comes after it,
    // which may bring a later heading to a page's foot or take one away.
    // A move only ever pushes content down, so this ends; the cap is a
    // guard, far above a report's pages.
    for (int moves = 0; moves < 1000; ++moves)
        if (!keepOneHeadingWithNext())
            return;
}

namespace {

void breakBefore(QTextCursor at)
{
    QTextBlockFormat format;
    format.setPageBreakPolicy(QTextFormat::PageBreak_AlwaysBefore);
    at.mergeBlockFormat(format);
}

// Rows `row`.. of `table` into a table of their own after it, under a copy
// of its header row, starting the next page. (A page break inside a row's
// cells instead moved the row and then broke again above it: a blank page.)
void moveRowsToNextPage(QTextTable* table, int row)
{
    const int rows = table->rows(), columns = table->columns();
    QTextCursor after = table->lastCursorPosition();
    after.movePosition(QTextCursor::NextBlock);
    // One edit: a cell filled in a laid-out document re-lays its table.
    after.beginEditBlock();
    QTextTableFormat format = table->format();
    format.setPageBreakPolicy(QTextFormat::PageBreak_AlwaysBefore);
    QTextTable* rest = after.insertTable(rows - row + 1, columns, format);
    const auto copyRow = [&](int from, int to) {
        for (int c = 0; c < columns;) {
            const QTextTableCell source = table->cellAt(from, c);
            if (source.columnSpan() > 1)
                rest->mergeCells(to, c, 1, source.columnSpan());
            QTextTableCell target = rest->cellAt(to, c);
            target.setFormat(source.format());
            QTextCursor text = source.firstCursorPosition();
            text.setPosition(source.lastCursorPosition().position(), QTextCursor::KeepAnchor);
            QTextCursor into = target.firstCursorPosition();
            into.setBlockFormat(source.firstCursorPosition().blockFormat());
            into.insertFragment(text.selection());
            c += source.columnSpan();
        }
    };
    copyRow(0, 0);
    for (int r = row; r < rows; ++r)
        copyRow(r, r - row + 1);
    table->removeRows(row, rows - row);
    after.endEditBlock();
}

}  // namespace

bool ReportDocument::keepOneHeadingWithNext() const
{
    const auto pageOf = [this](const QTextBlock& block) {
        return int(body_.documentLayout()->blockBoundingRect(block).top() / contentHeight());
    };
    const auto keeps = [](const QTextBlock& block) { return block.blockFormat().boolProperty(kKeepWithNext); };
    for (QTextFrame::iterator it = body_.rootFrame()->begin(); !it.atEnd(); ++it) {
        const QTextBlock block = it.currentBlock();
        if (block.isValid()) {
            // A subsection's heading, unless it already starts its page.
            const QTextBlock next = block.next();
            if (keeps(block) && next.isValid() && pageOf(next) > pageOf(block) && block.previous().isValid() &&
                pageOf(block.previous()) == pageOf(block)) {
                breakBefore(QTextCursor(block));
                return true;
            }
            continue;
        }
        auto* table = qobject_cast<QTextTable*>(it.currentFrame());
        if (!table)
            continue;
        // Row by row, from the top (a fix further down first would leave a
        // page break that a fix above it then moves off its page's top):
        // a heading row stays on the page of the row after it, and a row is
        // kept whole, one whose cells run onto the next page (the serving
        // page's KV cache row, its formula cut mid-sentence) starting that
        // page, with the rows after it.
        const auto splits = [&](int r) {
            const int top = pageOf(table->cellAt(r, 0).firstCursorPosition().block());
            for (int c = 0; c < table->columns(); ++c) {
                const QTextBlock end = table->cellAt(r, c).lastCursorPosition().block();
                if (int((body_.documentLayout()->blockBoundingRect(end).bottom() - 1) / contentHeight()) > top)
                    return true;
            }
            return false;
        };
        for (int r = 1; r < table->rows(); ++r) {
            const QTextBlock heading = table->cellAt(r, 0).firstCursorPosition().block();
            const bool headingLeft = keeps(heading) && r + 1 < table->rows() &&
                pageOf(table->cellAt(r + 1, 0).firstCursorPosition().block()) != pageOf(heading);
            if (r > 1 && (headingLeft || splits(r))) {
                moveRowsToNextPage(table, r);
                return true;
            }
            if (!headingLeft)
                continue;
            // The first row under the header: the whole table moves, unless it
            // already starts its page.
            const QTextBlock before = table->firstCursorPosition().block().previous();
            if (before.isValid() && pageOf(before) == pageOf(heading) &&
                !(table->format().pageBreakPolicy() & QTextFormat::PageBreak_AlwaysBefore)) {
                QTextTableFormat format = table->format();
                format.setPageBreakPolicy(QTextFormat::PageBreak_AlwaysBefore);
                table->setFormat(format);
                return true;
            }
        }
    }
    return false;
}

ReportDocument::~ReportDocument() = default;

double ReportDocument::contentWidth() const
{
    return pageSize_.sizePoints().width() / 72.0 * kDocDpi - 2 * kSide;
}

double ReportDocument::contentHeight() const
{
    return pageSize_.sizePoints().height() / 72.0 * kDocDpi - kTop - kBottom;
}

int ReportDocument::pagesOf(const QTextDocument& doc) const
{
    if (&doc == &cover_)
        return coverEmpty_ ? 0 : cover_.pageCount();
    return cursor_.document() == &body_ ? body_.pageCount() : 0;  // no body: no page of it
}

void ReportDocument::newBlock(const QTextBlockFormat& block, const QTextCharFormat& chars)
{
    if (empty_) {
        cursor_.setBlockFormat(block);
        cursor_.setBlockCharFormat(chars);
        cursor_.setCharFormat(chars);
        empty_ = false;
    } else {
        cursor_.insertBlock(block, chars);
    }
}

void ReportDocument::heading(const QString& text, int level, bool newPage)
{
    QTextBlockFormat block;
    block.setTopMargin(level == 1 ? 4 : 12);
    block.setBottomMargin(level == 1 ? 8 : 4);
    block.setHeadingLevel(level);
    if (newPage && cursor_.document() == &cover_) {
        // The cover ends here: the body is a document of its own, so that
        // numbering the cover's contents does not re-lay the whole report.
        coverEmpty_ = empty_;
        cursor_ = QTextCursor(&body_);
        empty_ = true;
    }
    if (newPage && !empty_)
        block.setPageBreakPolicy(QTextFormat::PageBreak_AlwaysBefore);
    block.setProperty(kKeepWithNext, !newPage);
    QTextCharFormat chars;
    chars.setFontWeight(QFont::Bold);
    chars.setFontPointSize(level == 1 ? 16 : level == 2 ? 11.5 : 9.5);
    chars.setForeground(kInk);
    newBlock(block, chars);
    if (level == 1 && newPage) {
        QTextCursor at = cursor_;
        at.setKeepPositionOnInsert(true);  // stay in this block while the text goes in after it
        sections_.emplace_back(text, at);
    }
    cursor_.insertText(text, chars);
}

void ReportDocument::contentsHere()
{
    newBlock();
    contents_ = cursor_;
    contents_->setKeepPositionOnInsert(true);
}

void ReportDocument::paragraph(const QString& html, bool small)
{
    QTextBlockFormat block;
    block.setBottomMargin(5);
    QTextCharFormat chars;
    chars.setFontPointSize(small ? 7.5 : 8.5);
    chars.setForeground(small ? kMuted : kInk);
    newBlock(block, chars);
    cursor_.insertHtml(QStringLiteral("<span style=\"font-size:%1pt; color:%2\">%3</span>")
                           .arg(small ? 7.5 : 8.5)
                           .arg((small ? kMuted : kInk).name(), html));
}

void ReportDocument::table(const QStringList& header, const std::vector<ReportRow>& rows,
                           const std::vector<int>& widths)
{
    if (header.isEmpty())
        return;
    newBlock();
    QTextTableFormat format;
    format.setHeaderRowCount(1);
    format.setBorder(0.6);
    format.setBorderBrush(kRule);
    format.setBorderStyle(QTextFrameFormat::BorderStyle_Solid);
    format.setBorderCollapse(true);
    format.setCellPadding(2.5);
    format.setCellSpacing(0);
    format.setTopMargin(2);
    format.setBottomMargin(8);
    format.setWidth(QTextLength(QTextLength::PercentageLength, 100));
    if (!widths.empty()) {
        QList<QTextLength> constraints;
        for (int w : widths)
            constraints << QTextLength(QTextLength::PercentageLength, w);
        format.setColumnWidthConstraints(constraints);
    }
    const int columns = int(header.size());
    QTextTable* table = cursor_.insertTable(int(rows.size()) + 1, columns, format);
    auto fill = [table](int r, int c, const ReportCell& cell) {
        QTextTableCell tc = table->cellAt(r, c);
        QTextTableCellFormat cf = tc.format().toTableCellFormat();
        const bool heading = cell.tone == ReportCell::Heading;
        if (cell.tone != ReportCell::Normal && cell.tone != ReportCell::Muted)
            cf.setBackground(reportToneColor(cell.tone, true));
        tc.setFormat(cf);
        QTextCursor cc = tc.firstCursorPosition();
        QTextBlockFormat block;
        block.setAlignment(cell.numeric ? Qt::AlignRight : Qt::AlignLeft);
        cc.setBlockFormat(block);
        QTextCharFormat chars;
        chars.setForeground(reportToneColor(cell.tone, false));
        if (heading)
            chars.setFontWeight(QFont::Bold);
        cc.insertText(cell.text, chars);
        if (!cell.tip.isEmpty()) {
            QTextCharFormat small;
            small.setFontPointSize(7);
            small.setForeground(cell.tone == ReportCell::Good || cell.tone == ReportCell::Bad
                                    ? reportToneColor(cell.tone, false)
                                    : kMuted);
            cc.insertBlock(block, small);
            cc.insertText(cell.tip, small);
        }
    };
    for (int c = 0; c < columns; ++c)
        fill(0, c,
             {header[c], ReportCell::Heading,
              c > 0 && !rows.empty() && c < int(rows.front().size()) && rows.front()[std::size_t(c)].numeric});
    for (std::size_t r = 0; r < rows.size(); ++r)
        for (int c = 0; c < columns && c < int(rows[r].size()); ++c)
            fill(int(r) + 1, c, rows[r][std::size_t(c)]);
    // A section's row (headings only) stays with the rows under it, and
    // with nothing beside its title spans the table.
    for (std::size_t r = 0; r + 1 < rows.size(); ++r) {
        const ReportRow& row = rows[r];
        const auto heading = [](const ReportCell& cell) { return cell.tone == ReportCell::Heading; };
        if (row.empty() || !std::all_of(row.begin(), row.end(), heading))
            continue;
        if (std::all_of(row.begin() + 1, row.end(), [](const ReportCell& cell) { return cell.text.isEmpty(); }))
            table->mergeCells(int(r) + 1, 0, 1, columns);
        QTextBlockFormat keep;
        keep.setProperty(kKeepWithNext, true);
        table->cellAt(int(r) + 1, 0).firstCursorPosition().mergeBlockFormat(keep);
    }
    cursor_.movePosition(QTextCursor::End);
}

void ReportDocument::picture(const QPicture& picture, const QSizeF& logical, double width, double height)
{
    QTextBlockFormat block;
    block.setAlignment(Qt::AlignHCenter);
    block.setBottomMargin(6);
    newBlock(block);
    const std::size_t index = pictures_->entries.size();
    pictures_->entries.push_back({picture, logical});
    QTextCharFormat object;
    object.setObjectType(kPictureType);
    object.setProperty(kPictureIndex, int(index));
    object.setProperty(kPictureSize, QSizeF(width, height));
    cursor_.insertText(QString(QChar::ObjectReplacementCharacter), object);
}

void ReportDocument::chart(ChartView& view, const QSizeF& logical, double width, double height)
{
    // Laid out, drawn at that size (legends fit their plots' widths), and
    // laid out again: a draw may change a plot's size limits (a column per
    // design).
    view.resize(logical.toSize());
    view.layout()->activate();
    view.refreshNow();
    std::vector<QCustomPlot*> drawn;
    for (QCustomPlot* plot : view.plots())
        drawn.push_back(plot);
    plots(view, drawn, logical, width, height);
}

void ReportDocument::panelPlots(QWidget& host, const std::vector<QCustomPlot*>& plots)
{
    const double height = 0.6 * kPanelHeight;
    this->plots(host, plots, QSizeF(kPanelWidth, kPanelWidth * height / contentWidth()), contentWidth(), height);
}

void forPaper(QWidget& panel)
{
    panel.setAttribute(Qt::WA_DontShowOnScreen);
    panel.setPalette(PrintColors::palette());
}

QString percentText(double fraction)
{
    return q(formatReadable(100 * fraction)) + "%";
}

void ReportDocument::plots(QWidget& host, const std::vector<QCustomPlot*>& plots, const QSizeF& logical, double width,
                           double height)
{
    host.resize(logical.toSize());
    // A widget never shown lays out its own children only: each defers its
    // layout to a show that never comes, so the plots on a tab's page or a
    // stack's (MessageStack) kept their default 100 x 30. Shown off screen
    // (forPaper), every layout runs.
    if (!host.isVisible()) {
        host.setAttribute(Qt::WA_DontShowOnScreen);
        host.show();
    }
    host.layout()->activate();
    QPicture recorded;
    QCPPainter painter;
    painter.begin(&recorded);
    painter.fillRect(QRectF(QPointF(0, 0), logical), Qt::white);
    for (QCustomPlot* plot : plots) {
        if (plot->isHidden())
            continue;
        painter.save();
        painter.translate(plot->mapTo(&host, QPoint(0, 0)));
        plot->toPainter(&painter, plot->width(), plot->height());
        painter.restore();
    }
    painter.end();
    picture(recorded, logical, width, height);
}

int ReportDocument::pageCount() const
{
    finish();
    return pagesOf(cover_) + pagesOf(body_);
}

bool ReportDocument::print(const QString& path, QString* error, const std::function<bool(int, int)>& progress) const
{
    // Drawn in memory, then written whole (atomic_write.h): an existing
    // report is replaced only by a complete one, and a cancelled or failed
    // one touches nothing.
    QByteArray pdf;
    QBuffer file(&pdf);
    file.open(QIODevice::WriteOnly);
    QPdfWriter writer(&file);
    writer.setPageSize(pageSize_);
    writer.setPageMargins(QMarginsF(0, 0, 0, 0));
    writer.setResolution(int(kPdfDpi));
    writer.setTitle(title_);
    writer.setCreator(footer_);
    finish();
    QPainter painter;
    if (!painter.begin(&writer)) {
        if (error)
            *error = QObject::tr("%1: cannot write: the PDF writer did not start").arg(path);
        return false;
    }
    const double scale = kPdfDpi / kDocDpi;
    painter.scale(scale, scale);
    const int coverPages = pagesOf(cover_);
    const int pages = coverPages + pagesOf(body_);
    const double pageW = contentWidth() + 2 * kSide, pageH = contentHeight() + kTop + kBottom;
    // In pixels: the painter maps document units (96 per inch) to the page.
    QFont small(QStringLiteral("DejaVu Sans"));
    small.setPixelSize(qRound(7.0 * kDocDpi / 72));
    small.setStyleStrategy(QFont::PreferNoShaping);
    for (int page = 0; page < pages; ++page) {
        if (progress && !progress(page, pages)) {
            painter.end();
            if (error)
                *error = QObject::tr("Cancelled");
            return false;
        }
        if (page > 0)
            writer.newPage();
        // Running header (not on the cover) and footer.
        painter.setFont(small);
        painter.setPen(kMuted);
        if (page > 0) {
            const QRectF header(kSide, mm(9), pageW - 2 * kSide, mm(6));
            painter.drawText(header, Qt::AlignLeft | Qt::AlignBottom,
                             painter.fontMetrics().elidedText(title_, Qt::ElideRight, int(header.width())));
            painter.setPen(QPen(kRule, 0.8));
            painter.drawLine(QPointF(kSide, mm(16)), QPointF(pageW - kSide, mm(16)));
        }
        painter.setPen(kMuted);
        const QRectF footer(kSide, pageH - mm(12), pageW - 2 * kSide, mm(6));
        painter.drawText(footer, Qt::AlignLeft | Qt::AlignVCenter, footer_);
        painter.drawText(footer, Qt::AlignRight | Qt::AlignVCenter,
                         QObject::tr("Page %1 of %2").arg(page + 1).arg(pages));
        // The page's slice of the cover or the body.
        const QTextDocument& doc = page < coverPages ? cover_ : body_;
        const int local = page < coverPages ? page : page - coverPages;
        painter.save();
        painter.translate(kSide, kTop - local * contentHeight());
        const QRectF slice(0, local * contentHeight(), contentWidth(), contentHeight());
        painter.setClipRect(slice);
        QAbstractTextDocumentLayout::PaintContext context;
        context.clip = slice;
        context.palette.setColor(QPalette::Text, kInk);
        doc.documentLayout()->draw(&painter, context);
        painter.restore();
    }
    if (progress)
        progress(pages, pages);
    if (!painter.end()) {
        if (error)
            *error = QObject::tr("%1: cannot write: the PDF writer did not finish").arg(path);
        return false;
    }
    return writeAtomically(path, pdf, error);
}

std::vector<ReportRow> figureRows(const std::vector<FigureRow>& figures, const std::vector<ExplainedMetric>& explained)
{
    std::vector<ReportRow> rows;
    for (const auto& f : figures) {
        if (f.tone == FigureRow::Heading) {
            rows.push_back({{f.name, ReportCell::Heading}, {"", ReportCell::Heading}, {"", ReportCell::Heading}});
            continue;
        }
        const ReportCell::Tone tone = f.tone == FigureRow::Good ? ReportCell::Good
            : f.tone == FigureRow::Bad                          ? ReportCell::Bad
                                                                : ReportCell::Normal;
        const Explanation* e = f.explainKey.empty() ? nullptr : findExplanation(explained, f.explainKey);
        rows.push_back({{f.name}, {f.value, tone, true}, {e ? q(e->formula) : f.tip, ReportCell::Muted}});
    }
    return rows;
}

}  // namespace studio

#include "report_document.moc"
