#include "widgets/palette/part_palette.h"

#include <QDrag>
#include <QHeaderView>
#include <QLineEdit>
#include <QMimeData>
#include <QTreeWidget>
#include <QVBoxLayout>

#include "core/catalog/catalog.h"
#include "core/catalog/part_schema.h"
#include "core/text.h"
#include "widgets/palette/part_mime.h"
#include "widgets/style/theme.h"

namespace studio {
namespace {

constexpr int kPartRole = Qt::UserRole + 1;

class PartTree : public QTreeWidget {
public:
    using QTreeWidget::QTreeWidget;

protected:
    QStringList mimeTypes() const override { return {kPartMimeType}; }
    QMimeData* mimeData(const QList<QTreeWidgetItem*>& items) const override
    {
        if (items.isEmpty() || items.front()->data(0, kPartRole).toString().isEmpty())
            return nullptr;
        return makePartMime(items.front()->data(0, kPartRole).toString()).release();
    }
};

QString category(const Part& p)
{
    switch (p.kind) {
    case PartKind::Accelerator: return QObject::tr("Accelerators");
    case PartKind::Node: return QObject::tr("Scale-up / nodes");
    case PartKind::Nic: return QObject::tr("NICs");
    case PartKind::Switch:
    case PartKind::Fabric: return QObject::tr("Switches and fabrics");
    case PartKind::Storage: return QObject::tr("Storage");
    case PartKind::Rack: return QObject::tr("Racks");
    case PartKind::Group:
        return p.attribute("role") == "nvlink_domain" ? QObject::tr("Scale-up / nodes")
                                                      : QObject::tr("Pods and groups");
    case PartKind::Link: return QObject::tr("Cables (set on links)");
    }
    return QObject::tr("Other");
}

}  // namespace

QString partSummaryHtml(const Part& p, int maxFigures)
{
    QString html = "<b>" + QString::fromStdString(p.name).toHtmlEscaped() + "</b>";
    if (!p.vendor.empty())
        html += " <span style='color:gray'>" + QString::fromStdString(p.vendor).toHtmlEscaped() + "</span>";
    if (!p.description.empty())
        html += "<br>" + QString::fromStdString(p.description).toHtmlEscaped();
    html += "<table cellspacing='0' cellpadding='1'>";
    int shown = 0;
    for (const auto& spec : fieldSpecs(p.kind)) {
        const Figure* f = p.figure(spec.key);
        if (!f || shown++ >= maxFigures)
            continue;
        html += "<tr><td>" + QString::fromUtf8(spec.description.data(), int(spec.description.size())).toHtmlEscaped() +
            "&nbsp;&nbsp;</td><td align='right'><b>" + QString::fromStdString(formatValue(f->value, 5)) + "</b> " +
            QString::fromUtf8(spec.unit.data(), int(spec.unit.size())) + (f->uncertain ? " \u26a0" : "") + "</td></tr>";
    }
    html += "</table><span style='color:gray'>" + QString::fromStdString(p.id) + "</span>";
    return html;
}

PartPalette::PartPalette(QWidget* parent) : QWidget(parent)
{
    search_ = new QLineEdit(this);
    search_->setPlaceholderText(tr("Search parts"));
    search_->setClearButtonEnabled(true);
    tree_ = new PartTree(this);
    tree_->setHeaderHidden(true);
    tree_->setDragEnabled(true);
    tree_->setDragDropMode(QAbstractItemView::DragOnly);
    tree_->setIconSize(QSize(22, 22));
    tree_->setRootIsDecorated(true);
    tree_->setUniformRowHeights(true);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(search_);
    layout->addWidget(tree_);
    connect(search_, &QLineEdit::textChanged, this, &PartPalette::filter);
}

void PartPalette::setCatalog(const Catalog& catalog)
{
    tree_->clear();
    QMap<QString, QTreeWidgetItem*> groups;
    const QStringList order = {tr("Accelerators"),
                               tr("Scale-up / nodes"),
                               tr("NICs"),
                               tr("Switches and fabrics"),
                               tr("Storage"),
                               tr("Racks"),
                               tr("Pods and groups"),
                               tr("Cables (set on links)")};
    for (const QString& name : order) {
        auto* g = new QTreeWidgetItem(tree_, {name});
        g->setFlags(Qt::ItemIsEnabled);
        QFont f = g->font(0);
        f.setBold(true);
        g->setFont(0, f);
        groups.insert(name, g);
    }
    for (const Part& p : catalog.parts()) {
        QTreeWidgetItem* g = groups.value(category(p));
        if (!g)
            continue;
        auto* item = new QTreeWidgetItem(g, {QString::fromStdString(p.name)});
        item->setIcon(0, partIcon(p.kind));
        item->setToolTip(0, partSummaryHtml(p));
        if (p.kind == PartKind::Link) {
            item->setFlags(Qt::ItemIsEnabled);  // cables are chosen on a link, not placed
        } else {
            item->setData(0, kPartRole, QString::fromStdString(p.id));
            item->setFlags(Qt::ItemIsEnabled | Qt::ItemIsSelectable | Qt::ItemIsDragEnabled);
        }
        item->setData(0, Qt::UserRole + 2,
                      QString::fromStdString(p.name + " " + p.id + " " + p.vendor + " " + p.description).toLower());
    }
    tree_->expandAll();
    if (auto* cables = groups.value(tr("Cables (set on links)")))
        cables->setExpanded(false);
    filter(search_->text());
}

void PartPalette::filter(const QString& text)
{
    const QStringList words = text.toLower().split(' ', Qt::SkipEmptyParts);
    for (int g = 0; g < tree_->topLevelItemCount(); ++g) {
        QTreeWidgetItem* group = tree_->topLevelItem(g);
        int visible = 0;
        for (int i = 0; i < group->childCount(); ++i) {
            QTreeWidgetItem* item = group->child(i);
            const QString hay = item->data(0, Qt::UserRole + 2).toString();
            bool match = true;
            for (const QString& w : words)
                match = match && hay.contains(w);
            item->setHidden(!match);
            visible += match;
        }
        group->setHidden(visible == 0);
        if (!words.isEmpty())
            group->setExpanded(true);
    }
}

}  // namespace studio
