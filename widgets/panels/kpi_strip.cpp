#include "widgets/panels/kpi_strip.h"

#include <QFrame>
#include <QHBoxLayout>
#include <QHelpEvent>
#include <QLabel>
#include <QToolTip>
#include <QTextDocumentFragment>

#include "core/text.h"
#include "widgets/analysis/analysis_service.h"
#include "widgets/panels/explain_html.h"

namespace studio {

KpiStrip::KpiStrip(AnalysisService* service, QWidget* parent) : QWidget(parent), service_(service)
{
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(10);
    for (const char* key : {"gpus", "peak", "mfu", "days", "facility", "mtbf"}) {
        if (!labels_.isEmpty()) {
            auto* bar = new QFrame(this);
            bar->setFrameShape(QFrame::VLine);
            bar->setFrameShadow(QFrame::Sunken);
            layout->addWidget(bar);
        }
        auto* l = new QLabel(this);
        l->setObjectName(key);
        l->installEventFilter(this);  // tips built when asked for
        l->setTextFormat(Qt::RichText);
        labels_.insert(key, l);
        layout->addWidget(l);
    }
    connect(service_, &AnalysisService::updated, this, &KpiStrip::refresh);
    refresh();
}

QString KpiStrip::text(const QString& key) const
{
    const QLabel* l = labels_.value(key);
    return l ? QTextDocumentFragment::fromHtml(l->text()).toPlainText() : QString();
}

bool KpiStrip::eventFilter(QObject* watched, QEvent* event)
{
    if (event->type() == QEvent::ToolTip) {
        auto* l = qobject_cast<QLabel*>(watched);
        const QString key = l ? l->property("explainKey").toString() : QString();
        const QString tip = !service_->analysis() ? tr("The design has errors: see the Warnings dock")
                                                  : explainHtml(l->property("explainTitle").toString(),
                                                                l->property("explainValue").toString(),
                                                                service_->explanation(key.toStdString()));
        QToolTip::showText(static_cast<QHelpEvent*>(event)->globalPos(), tip, l);
        return true;
    }
    return QWidget::eventFilter(watched, event);
}

QString KpiStrip::tip(const QString& key) const
{
    const QLabel* l = labels_.value(key);
    if (!l || !service_->analysis())
        return {};
    return explainHtml(l->property("explainTitle").toString(), l->property("explainValue").toString(),
                       service_->explanation(l->property("explainKey").toString().toStdString()));
}

void KpiStrip::refresh()
{
    const Analysis* a = service_->analysis();
    auto set = [this](const char* key, const QString& name, const QString& value, std::string_view explainKey) {
        QLabel* l = labels_.value(key);
        const QString text = name + " <b>" + value.toHtmlEscaped() + "</b>";
        if (l->text() != text)  // a new text relays the status bar out
            l->setText(text);
        l->setProperty("explainKey", QString::fromUtf8(explainKey.data(), qsizetype(explainKey.size())));
        l->setProperty("explainTitle", name);
        l->setProperty("explainValue", value);
    };
    if (!a) {
        for (QLabel* l : labels_)
            l->setText(QStringLiteral("\u2014"));
        return;
    }
    set("gpus", tr("GPUs"), QString::fromStdString(formatCount(a->inventory.gpus)), "compute.cluster_peak_pflops");
    set("peak", tr("Peak"), quantity(a->clusterPeakPflops, "PFLOP/s"), "compute.cluster_peak_pflops");
    const bool step = a->step.valid;
    set("mfu", tr("MFU"), step ? QString::fromStdString(formatReadable(a->step.mfu * 100)) + "%" : tr("n/a"),
        "training.mfu");
    set("days", tr("Days to train"), step ? quantity(a->reliability.wallDays, "") : tr("n/a"), "reliability.wall_days");
    set("facility", tr("Facility"), QString::fromStdString(formatPowerKw(a->power.facilityKw)), "power.facility_kw");
    set("mtbf", tr("MTBF"), QString::fromStdString(formatDuration(a->reliability.clusterMtbfH)),
        "reliability.cluster_mtbf_h");
}

}  // namespace studio
