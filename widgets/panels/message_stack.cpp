#include "widgets/panels/message_stack.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QVBoxLayout>

namespace studio {

MessageStack::MessageStack(QWidget* content, QWidget* parent) : QStackedWidget(parent)
{
    addWidget(content);
    auto* page = new QWidget(this);
    auto* layout = new QVBoxLayout(page);
    layout->setContentsMargins(24, 12, 24, 12);
    layout->addStretch(2);
    auto label = [page, layout] {
        auto* l = new QLabel(page);
        l->setWordWrap(true);
        l->setTextFormat(Qt::RichText);
        l->setAlignment(Qt::AlignCenter);
        l->setTextInteractionFlags(Qt::TextSelectableByMouse);
        // A sentence of readable length, not a line across the whole dock;
        // centred by the stretches beside it (a word-wrapped label aligned
        // by its layout shrinks to its longest word).
        l->setMaximumWidth(640);
        l->setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Preferred);
        auto* row = new QHBoxLayout;
        row->addStretch(1);
        row->addWidget(l, 100);
        row->addStretch(1);
        layout->addLayout(row);
        return l;
    };
    message_ = label();
    hint_ = label();
    hint_->setForegroundRole(QPalette::PlaceholderText);
    layout->addStretch(3);
    addWidget(page);
}

void MessageStack::showContent()
{
    message_->clear();
    hint_->clear();
    setCurrentIndex(0);
}

void MessageStack::showMessage(const QString& html, const QString& hint)
{
    message_->setText(html);
    hint_->setText(hint);
    hint_->setVisible(!hint.isEmpty());
    setCurrentIndex(1);
}

QString MessageStack::message() const
{
    return showsMessage() ? message_->text() : QString();
}

}  // namespace studio
