#include "widgets/scale/sensitivity_panel.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QVBoxLayout>

#include "core/text.h"
#include "widgets/analysis/run_progress_bar.h"
#include "widgets/common/qt_string.h"
#include "widgets/scale/sensitivity_chart.h"
#include "widgets/scale/sensitivity_service.h"
#include "widgets/scale/upgrades_service.h"
#include "widgets/scale/upgrades_table.h"

namespace studio {

QString sensitivitySummary(const SensitivityResult& r)
{
    return "<b>" + q(r.binding).toHtmlEscaped() + "</b> " +
        QObject::tr("Today: %1 days to train (wall clock), run electricity $%2.")
            .arg(q(formatReadable(r.days)), q(formatReadable(r.costUsd)));
}

SensitivityPanel::SensitivityPanel(DesignDocument* document, SensitivityService* service, UpgradesService* upgrades,
                                   QWidget* parent)
    : QWidget(parent), service_(service), upgrades_(upgrades)
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(6, 6, 6, 6);
    auto* bar = new QHBoxLayout;
    summary_ = new QLabel(this);
    summary_->setWordWrap(true);
    summary_->setTextFormat(Qt::RichText);
    bar->addWidget(summary_, 1);
    progress_ = new RunProgressBar(service_, this);
    bar->addWidget(progress_, 0, Qt::AlignTop);
    layout->addLayout(bar);
    auto* row = new QHBoxLayout;
    chart_ = new SensitivityChart(this);
    row->addWidget(chart_, 4);
    upgradesTable_ = new UpgradesTable(document, upgrades_, this);
    row->addWidget(upgradesTable_, 5);
    layout->addLayout(row, 1);
    connect(service_, &SensitivityService::finished, this, &SensitivityPanel::refresh);
}

void SensitivityPanel::setShown(bool shown)
{
    service_->setWanted(shown);
    upgrades_->setWanted(shown);
    if (shown)
        refresh();
}

void SensitivityPanel::refresh()
{
    const SensitivityResult* r = service_->result();
    if (!r)
        summary_->setText(service_->running() ? tr("Changing each input...")
                                              : tr("No sensitivity: the design has errors (see the Warnings dock)."));
    else if (!r->error.empty())
        summary_->setText(tr("No sensitivity: %1").arg(q(r->error)).toHtmlEscaped());
    else
        summary_->setText(sensitivitySummary(*r));
    chart_->draw(r);
}

}  // namespace studio
