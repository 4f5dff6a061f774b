#include "widgets/dialogs/preset_dialog.h"
#include "widgets/charts/explain_html.h"
#include "widgets/common/qt_string.h"

#include <QDialogButtonBox>
#include <QDir>
#include <QFile>
#include <QHBoxLayout>
#include <QLabel>
#include <QListWidget>
#include <QVBoxLayout>

#include "core/format/design_reader.h"
#include "core/metrics/figure_names.h"
#include "core/model/analysis.h"
#include "core/text.h"
#include "widgets/style/theme.h"

namespace studio {

DesignLoad loadPreset(const QString& resourcePath)
{
    QFile f(resourcePath);
    if (!f.open(QIODevice::ReadOnly)) {
        DesignLoad failed;
        failed.problems.push_back({Severity::Error, "", "cannot read " + resourcePath.toStdString(), "unreadable"});
        return failed;
    }
    const QByteArray bytes = f.readAll();
    return readDesignText(std::string_view(bytes.constData(), std::size_t(bytes.size())), Catalog::builtin());
}

QStringList PresetDialog::presetPaths()
{
    QStringList paths;
    for (const QString& name : QDir(":/presets").entryList({"*.cluster.json"}, QDir::Files, QDir::Name))
        paths << ":/presets/" + name;
    return paths;
}

PresetDialog::PresetDialog(QWidget* parent) : QDialog(parent)
{
    setWindowTitle(tr("New from Preset"));
    list_ = new QListWidget(this);
    list_->setMinimumWidth(300);
    details_ = new QLabel(this);
    details_->setWordWrap(true);
    details_->setAlignment(Qt::AlignTop | Qt::AlignLeft);
    details_->setMinimumWidth(380);
    details_->setTextFormat(Qt::RichText);
    for (const QString& path : presetPaths()) {
        const DesignLoad loaded = loadPreset(path);
        if (!loaded.ok())
            continue;
        const Design& d = *loaded.design;
        const Analysis a = analyzeDesign(d, *loaded.catalog);
        auto* item = new QListWidgetItem(partIcon(PartKind::Group), QString::fromStdString(d.name), list_);
        item->setData(Qt::UserRole, path);
        QString html = "<h3>" + QString::fromStdString(d.name).toHtmlEscaped() + "</h3><p>" +
            QString::fromStdString(d.description).toHtmlEscaped() + "</p><table cellpadding='2'>";
        auto row = [&html](const QString& k, const std::string& v) {
            html += "<tr><td>" + k + "&nbsp;&nbsp;</td><td><b>" + QString::fromStdString(v) + "</b></td></tr>";
        };
        row(tr("GPUs"), formatCount(a.inventory.gpus) + " x " + a.hardware.gpu.name);
        row(tr("Nodes / racks"), formatCount(a.inventory.nodes) + " / " + formatCount(a.inventory.racks));
        row(tr("Workload"), a.workload.name);
        if (const std::string why = stepUnavailable(a); !why.empty()) {
            row(tr("MFU"), unavailableLabel(why).toStdString());
        } else {
            row(tr("MFU"), formatValue(a.step.mfu * 100, 3) + " %");
            row(q(figureName("training.days_to_train")), formatValue(a.step.daysToTrain, 3));
        }
        row(tr("Facility power"), formatValue(a.power.facilityKw / 1000, 3) + " MW");
        row(tr("Cluster MTBF"), formatValue(a.reliability.clusterMtbfH, 3) + " h");
        html += "</table>";
        item->setData(Qt::UserRole + 1, html);
    }
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(list_, &QListWidget::currentRowChanged, this, &PresetDialog::showDetails);
    connect(list_, &QListWidget::itemDoubleClicked, this, &QDialog::accept);
    auto* top = new QHBoxLayout;
    top->addWidget(list_);
    top->addWidget(details_, 1);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(top);
    layout->addWidget(buttons);
    list_->setCurrentRow(0);
    resize(760, 420);
}

void PresetDialog::showDetails()
{
    if (auto* item = list_->currentItem())
        details_->setText(item->data(Qt::UserRole + 1).toString());
}

QString PresetDialog::selectedPreset() const
{
    auto* item = list_->currentItem();
    return item ? item->data(Qt::UserRole).toString() : QString();
}

}  // namespace studio
