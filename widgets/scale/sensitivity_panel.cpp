#include "widgets/scale/sensitivity_panel.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QVBoxLayout>

#include "core/text.h"
#include "widgets/analysis/run_progress_bar.h"
#include "widgets/common/qt_string.h"
#include "widgets/scale/sensitivity_chart.h"
#include "widgets/scale/sensitivity_service.h"

namespace studio {

QString sensitivitySummary(const SensitivityResult& r)
{
    return "<b>" + q(r.binding).toHtmlEscaped() + "</b> " +
        QObject::tr("Today: %1 days to train (wall clock), run electricity $%2.")
            .arg(q(formatReadable(r.days)), q(formatReadable(r.costUsd)));
}

SensitivityPanel::SensitivityPanel(SensitivityService* service, QWidget* parent) : QWidget(parent), service_(service)
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
    chart_ = new SensitivityChart(this);
    layout->addWidget(chart_, 1);
    connect(service_, &SensitivityService::finished, this, &SensitivityPanel::refresh);
}

void SensitivityPanel::setShown(bool shown)
{
    service_->setWanted(shown);
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
