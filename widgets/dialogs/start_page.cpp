#include "widgets/dialogs/start_page.h"

#include <QEvent>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QListWidget>
#include <QVBoxLayout>

#include <algorithm>

#include "widgets/common/qt_string.h"
#include "widgets/dialogs/preset_dialog.h"

namespace studio {
namespace {

QListWidget* choiceList(QWidget* parent)
{
    auto* list = new QListWidget(parent);
    list->setFrameShape(QFrame::NoFrame);
    list->setMinimumWidth(280);
    list->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    list->setMouseTracking(true);  // the description on hover
    list->viewport()->setCursor(Qt::PointingHandCursor);
    return list;
}

QVBoxLayout* column(QHBoxLayout* row, const QString& heading, QListWidget* list)
{
    auto* v = new QVBoxLayout;
    auto* label = new QLabel("<b>" + heading + "</b>");
    v->addWidget(label);
    v->addWidget(list, 1);
    row->addLayout(v, 1);
    return v;
}

}  // namespace

StartPage::StartPage(QWidget* parent) : QFrame(parent)
{
    setObjectName("start page");
    setFrameShape(QFrame::StyledPanel);
    setAutoFillBackground(true);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(16, 12, 16, 12);
    auto* title = new QLabel(tr("<b>Start a design</b> &mdash; open a preset or a recent file, or drag parts from "
                                "the Parts palette onto the canvas."),
                             this);
    title->setWordWrap(true);
    layout->addWidget(title);
    auto* row = new QHBoxLayout;
    presets_ = choiceList(this);
    presets_->setObjectName("start presets");
    recent_ = choiceList(this);
    recent_->setObjectName("start recent");
    column(row, tr("Presets"), presets_);
    column(row, tr("Recent files"), recent_);
    layout->addLayout(row, 1);
    for (const QString& path : PresetDialog::presetPaths()) {
        const DesignLoad loaded = loadPreset(path);
        if (!loaded.ok())
            continue;
        auto* item = new QListWidgetItem(q(loaded.design->name), presets_);
        item->setData(Qt::UserRole, path);
        item->setToolTip("<p>" + q(loaded.design->description).toHtmlEscaped() + "</p>");
    }
    // One click opens: these are links, not a selection.
    connect(presets_, &QListWidget::itemClicked, this,
            [this](QListWidgetItem* item) { emit presetChosen(item->data(Qt::UserRole).toString()); });
    connect(recent_, &QListWidget::itemClicked, this, [this](QListWidgetItem* item) {
        if (const QString path = item->data(Qt::UserRole).toString(); !path.isEmpty())
            emit fileChosen(path);
    });
    setRecentFiles({});
    if (parent)
        parent->installEventFilter(this);
    place();
}

bool StartPage::eventFilter(QObject* watched, QEvent* event)
{
    if (watched == parentWidget() && event->type() == QEvent::Resize)
        place();
    return QFrame::eventFilter(watched, event);
}

void StartPage::place()
{
    if (!parentWidget())
        return;
    const QRect area = parentWidget()->rect();
    const QSize size(std::min(760, area.width() - 40), std::min(380, area.height() - 40));
    setGeometry(QRect(area.center() - QPoint(size.width() / 2, size.height() / 2), size));
}

void StartPage::setRecentFiles(const QStringList& paths)
{
    recent_->clear();
    for (const QString& path : paths) {
        const QFileInfo info(path);
        if (!info.exists())
            continue;
        auto* item = new QListWidgetItem(info.fileName(), recent_);
        item->setData(Qt::UserRole, path);
        item->setToolTip(info.absoluteFilePath());
    }
    if (recent_->count() == 0) {
        auto* none = new QListWidgetItem(tr("None yet: files you open or save appear here."), recent_);
        none->setFlags(Qt::NoItemFlags);
    }
}

}  // namespace studio
