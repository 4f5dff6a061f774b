#include "widgets/warnings/warnings_panel.h"

#include <QHeaderView>
#include <QStyle>

#include "widgets/analysis/analysis_service.h"

namespace studio {

WarningsPanel::WarningsPanel(AnalysisService* analysis, QWidget* parent) : QTreeWidget(parent), analysis_(analysis)
{
    setColumnCount(2);
    setHeaderLabels({tr("Problem"), tr("Where")});
    setRootIsDecorated(false);
    setWordWrap(true);
    setAlternatingRowColors(true);
    header()->setStretchLastSection(false);
    header()->setSectionResizeMode(0, QHeaderView::Stretch);
    header()->setSectionResizeMode(1, QHeaderView::ResizeToContents);
    connect(analysis_, &AnalysisService::updated, this, &WarningsPanel::refresh);
    connect(this, &QTreeWidget::itemActivated, this, [this](QTreeWidgetItem* item) {
        if (const QString id = item->data(0, Qt::UserRole).toString(); !id.isEmpty())
            emit componentActivated(id);
    });
    connect(this, &QTreeWidget::itemClicked, this, [this](QTreeWidgetItem* item) {
        if (const QString id = item->data(0, Qt::UserRole).toString(); !id.isEmpty())
            emit componentActivated(id);
    });
    refresh();
}

void WarningsPanel::refresh()
{
    // Most edits change no problem: the list is rebuilt only when it would
    // differ (rebuilding it, icons and all, was a millisecond of every edit).
    QList<QStringList> rows;
    for (const Problem& p : analysis_->problems())
        rows << QStringList{QString::number(int(p.severity)), QString::fromStdString(p.message),
                            QString::fromStdString(p.pointer), QString::fromStdString(p.code),
                            analysis_->componentOf(p)};
    if (rows == shown_ && topLevelItemCount() > 0)
        return;
    shown_ = rows;
    clear();
    for (const Problem& p : analysis_->problems()) {
        const QString component = analysis_->componentOf(p);
        auto* item = new QTreeWidgetItem(
            this,
            {QString::fromStdString(p.message), component.isEmpty() ? QString::fromStdString(p.pointer) : component});
        item->setIcon(0,
                      style()->standardIcon(p.severity == Severity::Error ? QStyle::SP_MessageBoxCritical
                                                                          : QStyle::SP_MessageBoxWarning));
        item->setToolTip(0,
                         QString::fromStdString(p.message) +
                             (p.code.empty() ? QString() : "\n[" + QString::fromStdString(p.code) + "]"));
        item->setData(0, Qt::UserRole, component);
    }
    if (topLevelItemCount() == 0) {
        auto* item = new QTreeWidgetItem(this, {tr("No problems found")});
        item->setIcon(0, style()->standardIcon(QStyle::SP_DialogApplyButton));
        item->setFlags(Qt::ItemIsEnabled);
    }
}

}  // namespace studio
