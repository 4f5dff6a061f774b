#include "widgets/panels/figure_table.h"

#include <QHeaderView>

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
        for (int c = 0; c < 2; ++c) {
            QTableWidgetItem* it = item(r, c);
            if (!it) {
                it = new QTableWidgetItem;
                setItem(r, c, it);
            }
            it->setText(c == 0 ? f.name : f.value);
            it->setToolTip(f.tip);
            it->setTextAlignment(Qt::AlignVCenter | (c == 0 ? Qt::AlignLeft : Qt::AlignRight));
            QFont font = this->font();
            // A good figure is its value in bold; a bad one is the whole row in red.
            font.setBold(f.tone == FigureRow::Heading || (c == 1 && f.tone != FigureRow::Normal));
            it->setFont(font);
            it->setForeground(f.tone == FigureRow::Bad ? QBrush(colors.error) : palette().brush(QPalette::Text));
        }
        if (f.tone == FigureRow::Heading) {
            if (columnSpan(r, 0) != 2)
                setSpan(r, 0, 1, 2);
        } else if (columnSpan(r, 0) != 1) {
            setSpan(r, 0, 1, 1);
        }
    }
}

QString FigureTable::valueOf(const QString& name) const
{
    for (int r = 0; r < rowCount(); ++r)
        if (item(r, 0) && item(r, 0)->text() == name)
            return item(r, 1) ? item(r, 1)->text() : QString();
    return {};
}

QSize FigureTable::sizeHint() const
{
    return {300, verticalHeader()->defaultSectionSize() * std::max(4, rowCount()) + 4};
}

}  // namespace studio
