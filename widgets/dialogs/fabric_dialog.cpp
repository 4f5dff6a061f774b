#include "widgets/dialogs/fabric_dialog.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QLabel>
#include <QPushButton>

#include "core/text.h"
#include "widgets/document/design_document.h"
#include "widgets/style/theme.h"

namespace studio {

FabricDialog::FabricDialog(const DesignDocument& document, const std::string& scope, QWidget* parent)
    : QDialog(parent), doc_(document), scope_(scope)
{
    setWindowTitle(tr("Generate Fabric"));
    switch_ = new QComboBox(this);
    for (const Part& p : doc_.catalog().parts())
        if (p.kind == PartKind::Switch)
            switch_->addItem(partIcon(p.kind), QString::fromStdString(p.name), QString::fromStdString(p.id));
    oversubscription_ = new QDoubleSpinBox(this);
    oversubscription_->setRange(1, 16);
    oversubscription_->setSingleStep(0.5);
    oversubscription_->setSuffix(" : 1");
    rails_ = new QCheckBox(tr("Rail-optimized (one leaf per rail per scalable unit)"), this);
    rails_->setChecked(true);
    tiers_ = new QComboBox(this);
    tiers_->addItem(tr("Fewest that fit"), 0);
    for (int t = 1; t <= 3; ++t)
        tiers_->addItem(QString::number(t), t);
    role_ = new QComboBox(this);
    role_->addItem(tr("Compute"), "compute");
    role_->addItem(tr("Storage"), "storage");
    role_->addItem(tr("Frontend"), "frontend");
    preview_ = new QLabel(this);
    preview_->setWordWrap(true);
    preview_->setMinimumHeight(60);
    buttons_ = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    buttons_->button(QDialogButtonBox::Ok)->setText(tr("Generate"));
    connect(buttons_, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons_, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto* form = new QFormLayout(this);
    form->addRow(new QLabel(
        scope.empty()
            ? tr("Wires every node of the design that is not yet on such a fabric.")
            : tr("Wires every node inside '%1' that is not yet on such a fabric.").arg(QString::fromStdString(scope)),
        this));
    form->addRow(tr("Switch"), switch_);
    form->addRow(tr("Oversubscription"), oversubscription_);
    form->addRow(QString(), rails_);
    form->addRow(tr("Tiers"), tiers_);
    form->addRow(tr("Carries"), role_);
    form->addRow(tr("Sizing"), preview_);
    form->addRow(buttons_);
    for (auto* c : {switch_, tiers_, role_})
        connect(c, &QComboBox::currentIndexChanged, this, &FabricDialog::replan);
    connect(oversubscription_, &QDoubleSpinBox::valueChanged, this, &FabricDialog::replan);
    connect(rails_, &QCheckBox::toggled, this, &FabricDialog::replan);
    replan();
}

void FabricDialog::replan()
{
    FabricOptions o;
    o.switchPart = switch_->currentData().toString().toStdString();
    o.oversubscription = oversubscription_->value();
    o.railOptimized = rails_->isChecked();
    o.tiers = tiers_->currentData().toInt();
    o.role = role_->currentData().toString().toStdString();
    plan_ = planFabric(doc_.design(), doc_.catalog(), scope_, o);
    const bool ok = plan_.error.empty();
    buttons_->button(QDialogButtonBox::Ok)->setEnabled(ok);
    if (!ok) {
        preview_->setText("<span style='color:#d63a3a'>" + QString::fromStdString(plan_.error).toHtmlEscaped() +
                          "</span>");
        return;
    }
    const auto& t = plan_.sizing;
    preview_->setText(
        tr("%1 nodes, %2 NIC ports: %3 tier(s), <b>%4 leaf, %5 spine, %6 core</b> switches; "
           "%7 cables between switches")
            .arg(QString::fromStdString(formatCount(plan_.nodes)), QString::fromStdString(formatCount(plan_.nics)))
            .arg(t.tiers)
            .arg(QString::fromStdString(formatCount(t.leaf)), QString::fromStdString(formatCount(t.spine)),
                 QString::fromStdString(formatCount(t.core)),
                 QString::fromStdString(formatCount(t.leafSpineCables + t.spineCoreCables))));
}

}  // namespace studio
