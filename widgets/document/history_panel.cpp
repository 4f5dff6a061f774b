#include "widgets/document/history_panel.h"

#include <QLabel>
#include <QLocale>
#include <QUndoView>
#include <QVBoxLayout>

#include "widgets/document/design_document.h"

namespace studio {

HistoryPanel::HistoryPanel(DesignDocument* document, QWidget* parent) : QWidget(parent), doc_(document)
{
    auto* list = new QUndoView(doc_->undoStack(), this);
    list->setEmptyLabel(tr("<opened>"));
    list->setUniformItemSizes(true);  // a long session's history stays cheap to update
    size_ = new QLabel(this);
    size_->setObjectName("historySize");
    size_->setWordWrap(true);
    size_->setContentsMargins(6, 2, 6, 4);
    size_->setToolTip(tr("Edit > Undo History Limit sets how many steps the history keeps."));
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    layout->addWidget(list, 1);
    layout->addWidget(size_);
    connect(doc_->undoStack(), &QUndoStack::indexChanged, this, &HistoryPanel::refresh);
    connect(doc_, &DesignDocument::designReset, this, &HistoryPanel::refresh);
    refresh();
}

QString HistoryPanel::sizeText() const
{
    const QLocale locale;
    const int steps = doc_->undoStack()->count(), now = doc_->undoLimitNow(), wanted = doc_->undoLimit();
    QString text = steps == 1 ? tr("1 step") : tr("%1 steps").arg(locale.toString(steps));
    if (now > 0)
        text += steps >= now ? tr(", the most kept: the oldest are dropped")
                             : tr(" of at most %1").arg(locale.toString(now));
    if (wanted != now)
        text += wanted > 0 ? tr("; at most %1 from the next design opened").arg(locale.toString(wanted))
                           : tr("; no limit from the next design opened");
    return text;
}

void HistoryPanel::refresh()
{
    size_->setText(sizeText());
}

}  // namespace studio
