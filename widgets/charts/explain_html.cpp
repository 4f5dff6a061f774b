#include "widgets/charts/explain_html.h"

#include "core/analysis/explanation.h"
#include "core/text.h"

#include <QObject>

namespace studio {

QString quantity(double value, const std::string& unit)
{
    return QString::fromStdString(formatQuantity(value, unit));
}

QString explainHtml(const QString& title, const QString& value, const Explanation* e)
{
    QString html = "<p style='white-space:pre'><b>" + title.toHtmlEscaped() + "</b>";
    if (!value.isEmpty())
        html += ": " + value.toHtmlEscaped();
    html += "</p>";
    if (!e)
        return html;
    if (!e->unavailable.empty())
        html += "<p style='color:#e5534b'>" + QString::fromStdString(e->unavailable).toHtmlEscaped() + "</p>";
    html += "<p><i>" + QString::fromStdString(e->formula).toHtmlEscaped() + "</i></p>";
    // The expected error sits right under the formula: it qualifies the value
    // more than any one input does.
    if (e->errorBand)
        html += "<p style='color:#c69026'>" + QString::fromStdString(e->errorBand->text).toHtmlEscaped() + "</p>";
    if (e->priceBand)
        html += "<p>" +
            QObject::tr("Band: %1 to %2, every price at its low and at its high")
                .arg(usd(e->priceBand->low), usd(e->priceBand->high))
                .toHtmlEscaped() +
            "</p>";
    if (e->inputs.empty())
        return html;
    // Sources can be whole sentences: under their input, so the tip stays narrow.
    html += "<table cellspacing='0' cellpadding='1' width='460'>";
    for (const auto& in : e->inputs) {
        html += "<tr><td>" + QString::fromStdString(in.name).toHtmlEscaped() + "</td><td align='right'><b>" +
            quantity(in.value, in.unit).toHtmlEscaped() + "</b></td></tr>";
        if (!in.source.empty())
            html += "<tr><td colspan='2' style='padding-left:12px'><small>" +
                QString::fromStdString(in.source).toHtmlEscaped() + "</small></td></tr>";
    }
    return html + "</table>";
}

QString usd(double v)
{
    return QString::fromStdString(formatUsd(v));
}

QString percent(double fraction)
{
    return QString::fromStdString(formatReadable(fraction * 100)) + "%";
}

QString unavailableLabel(const std::string& why)
{
    return QString::fromStdString(why.substr(0, why.find(':')));
}

QString power(double kw)
{
    return QString::fromStdString(formatPowerKw(kw));
}

}  // namespace studio
