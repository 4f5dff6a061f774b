#include "widgets/panels/figure_table.h"

#include <QHeaderView>
#include <QHelpEvent>
#include <QToolTip>

#include "widgets/style/theme.h"

namespace studio {

FigureTable::FigureTable(QWidget* parent) : QTableWidget(0, 2, parent)
{
    horizontalHeader()->hide();
    verticalHeader()->hide();
    horizontalHeader()->setSectionResizeMode(0, QHeaderView::Stretch);
    horizontalHeader()->setSectionResizeMode(1, QHeaderView::ResizeToContents);
    verticalHeader()->setDefaultSectionSize(fontMetrics().height() + 6);
    verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    setShowGrid(false);
    setEditTriggers(NoEditTriggers);
    setSelectionMode(ContiguousSelection);
    setFocusPolicy(Qt::NoFocus);
    setWordWrap(false);
    setFrameShape(QFrame::NoFrame);
    setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Expanding);
}

void FigureTable::setFigures(const std::vector<FigureRow>& figures)
{
    setRowCount(int(figures.size()));
    const SceneColors colors = sceneColors();
    for (int r = 0; r < int(figures.size()); ++r) {
        const FigureRow& f = figures[std::size_t(r)];
        const bool same = std::size_t(r) < rows_.size() && rows_[std::size_t(r)].tone == f.tone;
        for (int c = 0; c < 2; ++c) {
            QTableWidgetItem* it = item(r, c);
            const QString& text = c == 0 ? f.name : f.value;
            if (it && same && it->text() == text)
                continue;
            if (!it) {
                it = new QTableWidgetItem;
                setItem(r, c, it);
            }
            it->setText(text);
            it->setTextAlignment(Qt::AlignVCenter | (c == 0 ? Qt::AlignLeft : Qt::AlignRight));
            // A good figure is its value in bold; a bad one is the whole row in red.
            QFont font = this->font();
            font.setBold(f.tone == FigureRow::Heading || (c == 1 && f.tone != FigureRow::Normal));
            it->setFont(font);
            it->setForeground(f.tone == FigureRow::Bad ? QBrush(colors.error) : palette().brush(QPalette::Text));
        }
        const bool heading = f.tone == FigureRow::Heading;
        if (heading != (columnSpan(r, 0) == 2))
            setSpan(r, 0, 1, heading ? 2 : 1);
    }
    rows_ = figures;
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
        const QString tip = tipFor(rowAt(help->pos().y()));
        if (tip.isEmpty())
            QToolTip::hideText();
        else
            QToolTip::showText(help->globalPos(), tip, viewport());
        return true;
    }
    return QTableWidget::viewportEvent(event);
}

QString FigureTable::valueOf(const QString& name) const
{
    for (int r = 0; r < rowCount(); ++r)
        if (item(r, 0) && item(r, 0)->text() == name)
            return item(r, 1) ? item(r, 1)->text() : QString();
    return {};
}

QString FigureTable::tipOf(const QString& name) const
{
    for (int r = 0; r < rowCount(); ++r)
        if (item(r, 0) && item(r, 0)->text() == name)
            return tipFor(r);
    return {};
}

QSize FigureTable::sizeHint() const
{
    return {300, verticalHeader()->defaultSectionSize() * std::max(4, rowCount()) + 4};
}

}  // namespace studio
