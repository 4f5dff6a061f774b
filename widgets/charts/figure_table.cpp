#include "widgets/charts/figure_table.h"

#include <QApplication>
#include <QClipboard>
#include <QContextMenuEvent>
#include <QHelpEvent>
#include <QKeyEvent>
#include <QMenu>
#include <QPainter>
#include <QScrollBar>
#include <QToolTip>

#include "widgets/style/theme.h"

namespace studio {
namespace {

constexpr int kPadX = 4, kGap = 12;

bool boldName(const FigureRow& r)
{
    return r.tone == FigureRow::Heading;
}

bool boldValue(const FigureRow& r)
{
    return r.tone != FigureRow::Normal;
}

// What is left of a row `width` wide for its name beside a value drawn
// `valueWidth` wide: the name gives way to the value.
int nameRoom(int width, int valueWidth)
{
    return width - 2 * kPadX - (valueWidth > 0 ? valueWidth + kGap : 0);
}

}  // namespace

FigureTable::FigureTable(QWidget* parent) : QAbstractScrollArea(parent)
{
    setFrameShape(QFrame::NoFrame);
    setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    setVerticalScrollBarPolicy(Qt::ScrollBarAsNeeded);
    setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Expanding);
    setFocusPolicy(Qt::ClickFocus);
    viewport()->setBackgroundRole(QPalette::Base);
    viewport()->setAutoFillBackground(true);
}

int FigureTable::rowHeight() const
{
    return fontMetrics().height() + 6;
}

void FigureTable::setFigures(const std::vector<FigureRow>& figures)
{
    if (figures == rows_)
        return;
    lines_.resize(figures.size());
    // Only rows that changed are laid out again (and repainted).
    const int h = rowHeight(), top = verticalScrollBar()->value();
    for (std::size_t i = 0; i < figures.size(); ++i) {
        const FigureRow& f = figures[i];
        const bool known = i < rows_.size();
        Line& line = lines_[i];
        if (known && rows_[i] == f)
            continue;
        line = Line{};  // laid out at the next paint, the name elided beside the new value
        line.value = QStaticText(f.value);
        line.value.setTextFormat(Qt::PlainText);
        viewport()->update(QRect(0, int(i) * h - top, viewport()->width(), h));
    }
    const bool resized = figures.size() != rows_.size();
    if (figures.size() < rows_.size())
        viewport()->update();
    rows_ = figures;
    if (resized) {
        updateScrollBar();
        updateGeometry();  // the size hint follows the row count
    }
}

void FigureTable::updateScrollBar()
{
    const int h = rowHeight();
    verticalScrollBar()->setRange(0, std::max(0, int(rows_.size()) * h - viewport()->height()));
    verticalScrollBar()->setPageStep(viewport()->height());
    verticalScrollBar()->setSingleStep(h);
}

void FigureTable::resizeEvent(QResizeEvent* event)
{
    QAbstractScrollArea::resizeEvent(event);
    updateScrollBar();
}

void FigureTable::changeEvent(QEvent* event)
{
    QAbstractScrollArea::changeEvent(event);
    if (event->type() == QEvent::FontChange) {
        const std::vector<FigureRow> rows = std::exchange(rows_, {});
        lines_.clear();
        setFigures(rows);
    }
    if (event->type() == QEvent::FontChange || event->type() == QEvent::PaletteChange)
        viewport()->update();
}

void FigureTable::paintEvent(QPaintEvent* event)
{
    QPainter p(viewport());
    const int h = rowHeight(), width = viewport()->width(), top = verticalScrollBar()->value();
    QFont normal = font(), bold = font();
    bold.setBold(true);
    const QFontMetrics normalMetrics(normal), boldMetrics(bold);
    const QColor text = palette().color(QPalette::Text), bad = sceneColors().error;
    const QRect dirty = event->rect();
    const int first = std::max(0, (dirty.top() + top) / h);
    const int last = std::min(int(rows_.size()) - 1, (dirty.bottom() + top) / h);
    for (int i = first; i <= last; ++i) {
        const int y = i * h - top;
        // The rows that changed, not every row between them: text costs.
        if (!event->region().intersects(QRect(0, y, width, h)))
            continue;
        const FigureRow& f = rows_[std::size_t(i)];
        Line& line = lines_[std::size_t(i)];
        const QFontMetrics& valueMetrics = boldValue(f) ? boldMetrics : normalMetrics;
        if (line.valueWidth < 0)
            line.valueWidth = f.tone == FigureRow::Heading ? 0 : valueMetrics.horizontalAdvance(f.value);
        const int valueWidth = line.valueWidth;
        // The name gives way to the value: elided to what is left of the row.
        const int room = nameRoom(width, valueWidth);
        if (line.nameRoom != room) {
            line.nameRoom = room;
            line.name =
                QStaticText((boldName(f) ? boldMetrics : normalMetrics).elidedText(f.name, Qt::ElideRight, room));
            line.name.setTextFormat(Qt::PlainText);
        }
        p.setPen(f.tone == FigureRow::Bad ? bad : text);
        p.setFont(boldName(f) ? bold : normal);
        const int baseline = y + (h - (boldName(f) ? boldMetrics : normalMetrics).height()) / 2;
        p.drawStaticText(QPointF(kPadX, baseline), line.name);
        if (f.tone != FigureRow::Heading && !f.value.isEmpty()) {
            p.setFont(boldValue(f) ? bold : normal);
            p.drawStaticText(QPointF(width - kPadX - valueWidth, y + (h - valueMetrics.height()) / 2), line.value);
        }
    }
}

int FigureTable::rowAt(int y) const
{
    const int row = (y + verticalScrollBar()->value()) / rowHeight();
    return y >= 0 && row < int(rows_.size()) ? row : -1;
}

QString FigureTable::tipFor(int row) const
{
    if (row < 0 || std::size_t(row) >= rows_.size())
        return {};
    const FigureRow& f = rows_[std::size_t(row)];
    if (!f.tip.isEmpty() || f.explainKey.empty() || !explainer_)
        return f.tip;
    return explainer_(f.name, f.value, f.explainKey);
}

bool FigureTable::viewportEvent(QEvent* event)
{
    if (event->type() == QEvent::ToolTip) {
        auto* help = static_cast<QHelpEvent*>(event);
        // Tips are built when asked for, not on every edit.
        const QString tip = tipFor(rowAt(help->pos().y()));
        if (tip.isEmpty())
            QToolTip::hideText();
        else
            QToolTip::showText(help->globalPos(), tip, viewport());
        return true;
    }
    return QAbstractScrollArea::viewportEvent(event);
}

QString FigureTable::text() const
{
    QStringList lines;
    for (const FigureRow& f : rows_)
        lines << (f.tone == FigureRow::Heading ? f.name : f.name + '\t' + f.value);
    return lines.join('\n') + '\n';
}

void FigureTable::copy() const
{
    QApplication::clipboard()->setText(text());
}

void FigureTable::keyPressEvent(QKeyEvent* event)
{
    if (event->matches(QKeySequence::Copy)) {
        copy();
        return;
    }
    QAbstractScrollArea::keyPressEvent(event);
}

void FigureTable::contextMenuEvent(QContextMenuEvent* event)
{
    QMenu menu(this);
    menu.addAction(tr("Copy Figures"), this, &FigureTable::copy);
    menu.exec(event->globalPos());
}

QStringList FigureTable::cutNames() const
{
    QFont bold = font();
    bold.setBold(true);
    const QFontMetrics normalMetrics(font()), boldMetrics(bold);
    QStringList cut;
    for (const FigureRow& f : rows_) {
        const int valueWidth =
            f.tone == FigureRow::Heading ? 0 : (boldValue(f) ? boldMetrics : normalMetrics).horizontalAdvance(f.value);
        if ((boldName(f) ? boldMetrics : normalMetrics).horizontalAdvance(f.name) >
            nameRoom(viewport()->width(), valueWidth))
            cut << f.name;
    }
    return cut;
}

QString FigureTable::valueOf(const QString& name) const
{
    for (const FigureRow& f : rows_)
        if (f.name == name)
            return f.value;
    return {};
}

QString FigureTable::tipOf(const QString& name) const
{
    for (std::size_t i = 0; i < rows_.size(); ++i)
        if (rows_[i].name == name)
            return tipFor(int(i));
    return {};
}

QSize FigureTable::sizeHint() const
{
    return {300, rowHeight() * std::max(4, int(rows_.size())) + 4};
}

QSize FigureTable::minimumSizeHint() const
{
    return {160, rowHeight() * 3};
}

}  // namespace studio
