#include "widgets/report/comparison_report.h"

#include <QFileInfo>

#include <qcustomplot.h>

#include "core/compare/comparison.h"
#include "core/metrics/explanations.h"
#include "core/metrics/figure_names.h"
#include "core/text.h"
#include "core/version.h"
#include "widgets/charts/analysis_registry.h"
#include "widgets/charts/chart_view.h"
#include "widgets/common/qt_string.h"
#include "widgets/report/report_document.h"
#include "widgets/style/theme.h"

namespace studio {
namespace {

constexpr double kChartHeight = 360;
constexpr double kTallChartHeight = 600;  // a chart of several plots, alone on its page
// Charts lay out at a screen plot's width, legends and all, and are scaled
// to the page.
constexpr double kChartWidth = 900;

ReportCell::Tone toneOf(Verdict v)
{
    return v == Verdict::Better            ? ReportCell::Good
        : v == Verdict::Worse              ? ReportCell::Bad
        : v == Verdict::DifferentWorkloads ? ReportCell::Muted
                                           : ReportCell::Normal;
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
    // What was compared comes before any number: one workload or several,
    // and how each layout was chosen.
    doc.paragraph("<b>" + q(describeComparison(c)).toHtmlEscaped() + "</b>");
    doc.paragraph(QObject::tr("Generated %1 by Cluster Studio %2. Each value is followed by its difference from "
                              "the baseline: green where that is better for the figure, red where worse; sizes "
                              "(GPUs, switches, cables) are neither; a figure of a run is not compared between "
                              "different workloads.")
                      .arg(options.date.toString("yyyy-MM-dd HH:mm"), q(std::string(kAppVersion))),
                  true);
    doc.heading(QObject::tr("Key figures"), 2);
    std::vector<ReportRow> rows;
    ReportRow run{{QObject::tr("Workload")}}, layout{{q(figureName("training.layout"))}};
    for (const auto& d : c.designs) {
        run.push_back({q(describeRun(d.design.workload)), ReportCell::Normal, false,
                       d.workloadFrom == WorkloadFrom::Own            ? QObject::tr("its own")
                           : d.workloadFrom == WorkloadFrom::Baseline ? QObject::tr("the baseline's")
                                                                      : QFileInfo(q(d.workloadFile)).fileName()});
        layout.push_back({q(layoutText(d)), d.analysis.runnable() ? ReportCell::Normal : ReportCell::Bad, false});
    }
    rows.push_back(std::move(run));
    rows.push_back(std::move(layout));
    for (const auto& row : c.figures) {
        ReportRow line{{q(row.label) + (row.figure.unit.empty() ? QString() : " (" + q(row.figure.unit) + ")")}};
        for (const auto& cell : row.cells)
            line.push_back({q(cell.text(row.figure)), toneOf(cell.verdict), true, q(formatDelta(row.figure, cell))});
        rows.push_back(std::move(line));
    }
    doc.table(headerFor(c, QObject::tr("Figure")), rows, widthsFor(c.designs.size(), 28));
    doc.heading(QObject::tr("Contents"), 2);
    doc.contentsHere();

    std::vector<ChartDesign> designs;
    for (const auto& d : c.designs)
        designs.push_back({&d.analysis, q(d.label)});
    const auto& entries = analysisRegistry();
    int step = 0;
    const int total = int(entries.size()) + 20;
    int onPage = 0;  // charts on the current page
    for (std::size_t i = 0; i < entries.size(); ++i) {
        if (progress && !progress(step++, total)) {
            if (error)
                *error = QObject::tr("Cancelled");
            return false;
        }
        std::vector<ChartDesign> shown = designsFor(entries[i], designs);
        if (shown.empty())
            continue;  // a training run's chart, and every design serves
        ChartView view(entries[i], false);
        view.setAttribute(Qt::WA_DontShowOnScreen);
        view.setPalette(PrintColors::palette());
        view.setDesigns(std::move(shown));
        // Two one-plot charts to a page; a chart of several plots gets a page.
        const bool tall = view.plots().size() > 1;
        const bool newPage = i == 0 || tall || onPage != 1;
        if (i == 0)
            doc.heading(QObject::tr("The designs overlaid"), 1, true);
        doc.heading(entries[i].title, 2, newPage && i > 0);
        onPage = newPage ? 1 : onPage + 1;
        if (tall)
            onPage = 2;  // the next chart starts a page too
        const double height = tall ? kTallChartHeight : kChartHeight;
        const QSizeF logical(kChartWidth, kChartWidth * height / doc.contentWidth());
        doc.chart(view, logical, doc.contentWidth(), height);
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
    // The baseline's, else the first design that has the figure (a serving
    // row when the baseline trains).
    std::vector<std::vector<ExplainedMetric>> explained{explainCompared(c.designs[c.baseline])};
    for (const auto& d : c.designs)
        explained.push_back(explainCompared(d));
    std::vector<ReportRow> formulas;
    for (const auto& row : c.figures) {
        const Explanation* e = nullptr;
        for (const auto& each : explained)
            if (!e)
                e = findExplanation(each, row.figure.key);
        QStringList inputs;
        if (e)
            for (const auto& in : e->inputs)
                inputs << q(in.name) + " (" + q(in.source) + ")";
        formulas.push_back({{q(row.label), ReportCell::Normal, false, q(row.figure.key)},
                            {e ? q(e->formula) : QString(), ReportCell::Normal, false, inputs.join("; ")}});
    }
    doc.table({QObject::tr("Figure"), QObject::tr("Formula and its inputs")}, formulas, {26, 74});
    return doc.print(path, error, [&](int page, int pages) {
        return !progress || progress(step + page * 20 / std::max(1, pages), total);
    });
}

}  // namespace studio
