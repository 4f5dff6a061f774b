#include "widgets/report/comparison_report.h"

#include <QFileInfo>

#include <qcustomplot.h>

#include "core/compare/comparison.h"
#include "core/metrics/explanations.h"
#include "core/text.h"
#include "core/version.h"
#include "widgets/common/qt_string.h"
#include "widgets/compare/compare_plots.h"
#include "widgets/report/report_document.h"
#include "widgets/style/theme.h"

namespace studio {
namespace {

constexpr double kChartHeight = 360;
// Charts lay out at a screen plot's width, legends and all, and are scaled
// to the page.
constexpr double kChartWidth = 900;

ReportCell::Tone toneOf(Verdict v)
{
    return v == Verdict::Better ? ReportCell::Good : v == Verdict::Worse ? ReportCell::Bad : ReportCell::Normal;
}

// Columns: the label, then one per design (equal shares of the rest).
std::vector<int> widthsFor(std::size_t designs, int first)
{
    std::vector<int> widths{first};
    for (std::size_t i = 0; i < designs; ++i)
        widths.push_back((100 - first) / int(designs));
    return widths;
}

QStringList headerFor(const Comparison& c, const QString& first)
{
    QStringList header{first};
    for (std::size_t i = 0; i < c.designs.size(); ++i)
        header << q(c.designs[i].label) + (i == c.baseline ? QObject::tr(" (baseline)") : QString());
    return header;
}

}  // namespace

bool writeComparisonReport(const Comparison& c, const QString& path, const ReportOptions& options, QString* error,
                           const ReportProgress& progress)
{
    PrintColors paper;
    QStringList labels;
    for (const auto& d : c.designs)
        labels << q(d.label);
    ReportDocument doc(QObject::tr("Comparison: %1").arg(labels.join(QStringLiteral(" · "))),
                       QObject::tr("Cluster Studio %1").arg(q(std::string(kAppVersion))), options.pageSize);
    doc.heading(QObject::tr("Comparison of %n designs", nullptr, int(c.designs.size())));
    QStringList sources;
    for (std::size_t i = 0; i < c.designs.size(); ++i)
        sources << QStringLiteral("<b>%1</b>%2: %3")
                       .arg(labels[int(i)].toHtmlEscaped(), i == c.baseline ? QObject::tr(" (baseline)") : QString(),
                            QFileInfo(q(c.designs[i].source)).fileName().toHtmlEscaped());
    doc.paragraph(sources.join(QStringLiteral("<br>")));
    doc.paragraph(QObject::tr("Generated %1 by Cluster Studio %2. Each value is followed by its difference from "
                              "the baseline: green where that is better for the figure, red where worse; sizes "
                              "(GPUs, switches, cables) are neither.")
                      .arg(options.date.toString("yyyy-MM-dd HH:mm"), q(std::string(kAppVersion))),
                  true);
    doc.heading(QObject::tr("Key figures"), 2);
    std::vector<ReportRow> rows;
    for (const auto& row : c.figures) {
        ReportRow line{{q(row.figure.label) + (row.figure.unit.empty() ? QString() : " (" + q(row.figure.unit) + ")")}};
        for (const auto& cell : row.cells)
            line.push_back({cell.value ? q(formatFigure(row.figure, *cell.value)) : QStringLiteral("-"),
                            toneOf(cell.verdict), true, q(formatDelta(row.figure, cell))});
        rows.push_back(std::move(line));
    }
    doc.table(headerFor(c, QObject::tr("Figure")), rows, widthsFor(c.designs.size(), 28));
    doc.heading(QObject::tr("Contents"), 2);
    doc.contentsHere();

    std::vector<const Analysis*> analyses;
    for (const auto& d : c.designs)
        analyses.push_back(&d.analysis);
    QCustomPlot plot;
    plot.setAttribute(Qt::WA_DontShowOnScreen);
    plot.setPalette(PrintColors::palette());
    const auto& charts = compareCharts();
    int step = 0;
    const int total = int(charts.size()) + 20;
    for (std::size_t i = 0; i < charts.size(); ++i) {
        if (progress && !progress(step++, total)) {
            if (error)
                *error = QObject::tr("Cancelled");
            return false;
        }
        // Two charts to a page.
        if (i == 0)
            doc.heading(QObject::tr("The designs overlaid"), 1, true);
        doc.heading(compareChartTitle(charts[i]), 2, i > 0 && i % 2 == 0);
        const QSizeF logical(kChartWidth, kChartWidth * kChartHeight / doc.contentWidth());
        plot.resize(logical.toSize());
        drawCompareChart(&plot, charts[i], analyses, labels);
        doc.plot(&plot, logical, doc.contentWidth(), kChartHeight);
    }

    doc.heading(QObject::tr("Bill of materials"), 1, true);
    std::vector<ReportRow> bom;
    for (const auto& b : c.bom) {
        ReportRow line{{q(b.name), ReportCell::Normal, false, q(b.part + " · " + b.kind)}};
        const auto base = b.counts[c.baseline];
        for (std::size_t i = 0; i < b.counts.size(); ++i) {
            const auto n = b.counts[i];
            const bool differs = i != c.baseline && n != base;
            line.push_back({q(formatCount(n)), differs ? ReportCell::Heading : ReportCell::Normal, true,
                            differs ? q((n > base ? "+" : "") + formatCount(n - base)) : QString()});
        }
        bom.push_back(std::move(line));
    }
    doc.table(headerFor(c, QObject::tr("Part")), bom, widthsFor(c.designs.size(), 36));

    // The formulas are the same for every design; the inputs are each
    // design's own (its design-review report lists them).
    doc.heading(QObject::tr("How each figure is computed"), 1, true);
    const auto explained = explainMetrics(c.designs[c.baseline].analysis);
    std::vector<ReportRow> formulas;
    for (const auto& row : c.figures) {
        const Explanation* e = findExplanation(explained, row.figure.key);
        QStringList inputs;
        if (e)
            for (const auto& in : e->inputs)
                inputs << q(in.name) + " (" + q(in.source) + ")";
        formulas.push_back({{q(row.figure.label), ReportCell::Normal, false, q(row.figure.key)},
                            {e ? q(e->formula) : QString(), ReportCell::Normal, false, inputs.join("; ")}});
    }
    doc.table({QObject::tr("Figure"), QObject::tr("Formula and its inputs")}, formulas, {26, 74});
    return doc.print(path, error, [&](int page, int pages) {
        return !progress || progress(step + page * 20 / std::max(1, pages), total);
    });
}

}  // namespace studio
