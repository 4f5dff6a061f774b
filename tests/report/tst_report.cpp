// The design-review and comparison PDFs: the pages and section titles a
// review expects (read back from the PDF's page objects and its text with
// poppler's pdftotext), the numbers the analyses computed, the page size
// asked for, vector plots, and no half-written file on cancel or failure.
#include <QtTest>

#include <QApplication>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>

#include "app/main_window.h"
#include "core/compare/comparison.h"
#include "core/format/design_reader.h"
#include "core/metrics/metrics.h"
#include "core/metrics/serving_report.h"
#include "core/metrics/warning_rank.h"
#include "core/scale/scale_sweep.h"
#include "core/scale/sensitivity.h"
#include "core/text.h"
#include "tests/gui_test_main.h"
#include "tests/test_support.h"
#include "widgets/analysis/analysis_service.h"
#include "widgets/charts/analysis_registry.h"
#include "widgets/charts/chart_plot.h"
#include "widgets/compare/compare_window.h"
#include "widgets/document/design_document.h"
#include "widgets/panels/background_registry.h"
#include "widgets/report/comparison_report.h"
#include "widgets/report/design_report.h"
#include "widgets/report/report_document.h"
#include "widgets/serving/serving_panel.h"
#include "widgets/style/theme.h"

using namespace studio;

namespace {

DesignLoad load(const QString& preset)
{
    return loadDesignFile(test::sourcePath("presets/" + preset).toStdString(), Catalog::builtin());
}

QByteArray bytesOf(const QString& path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

// Page objects in the file (not the /Pages tree node).
int pageObjects(const QByteArray& pdf)
{
    static const QRegularExpression page(QStringLiteral("/Type\\s*/Page(?![s\\w])"));
    int n = 0;
    for (auto it = page.globalMatch(QString::fromLatin1(pdf)); it.hasNext(); it.next())
        ++n;
    return n;
}

// The text of one page (1-based), or of all pages with page = 0.
QString pdfText(const QString& path, int page = 0)
{
    QStringList args{"-layout"};
    if (page > 0)
        args << "-f" << QString::number(page) << "-l" << QString::number(page);
    args << path << "-";
    QProcess p;
    p.start("pdftotext", args);
    if (!p.waitForFinished(30000) || p.exitCode() != 0)
        return QStringLiteral("<pdftotext failed: %1>").arg(QString::fromLocal8Bit(p.readAllStandardError()));
    // As a reader's search sees it: a ligature (ff, fi, fl as one glyph)
    // would come back as one character and fail every search for its word.
    return QString::fromUtf8(p.readAllStandardOutput());
}

// Where a word's top is on a page (1-based), in points from the page's top;
// -1 where the page does not have it.
double wordTop(const QString& path, int page, const QString& word)
{
    QProcess p;
    p.start("pdftotext", {"-bbox", "-f", QString::number(page), "-l", QString::number(page), path, "-"});
    if (!p.waitForFinished(30000) || p.exitCode() != 0)
        return -1;
    const QRegularExpression at(
        QStringLiteral("yMin=\"([\\d.]+)\"[^>]*>%1</word>").arg(QRegularExpression::escape(word)));
    const QRegularExpressionMatch m = at.match(QString::fromUtf8(p.readAllStandardOutput()));
    return m.hasMatch() ? m.captured(1).toDouble() : -1;
}

// The first page's size in points, from its MediaBox.
QSizeF mediaBox(const QByteArray& pdf)
{
    static const QRegularExpression box(QStringLiteral("/MediaBox\\s*\\[\\s*0\\s+0\\s+([\\d.]+)\\s+([\\d.]+)"));
    const auto m = box.match(QString::fromLatin1(pdf));
    return m.hasMatch() ? QSizeF(m.captured(1).toDouble(), m.captured(2).toDouble()) : QSizeF();
}

// The first page whose text starts a section with `title`, or 0.
int pageOf(const QString& path, int pages, const QString& title)
{
    for (int i = 1; i <= pages; ++i) {
        const QStringList lines = pdfText(path, i).split('\n', Qt::SkipEmptyParts);
        // Line 0 is the running header; the section title follows it.
        for (int l = 0; l < std::min<qsizetype>(3, lines.size()); ++l)
            if (lines[l].trimmed() == title)
                return i;
    }
    return 0;
}

// A design's own document and analyses, as the report makes them.
struct Analysed {
    DesignDocument document;
    AnalysisService service{&document};
    explicit Analysed(const DesignLoad& l)
    {
        document.reset(*l.design, l.catalog, QString());
        service.recomputeNow();
    }
};

}  // namespace

class TestReport : public QObject {
    Q_OBJECT
private slots:
    void initTestCase()
    {
        QVERIFY2(!QStandardPaths::findExecutable("pdftotext").isEmpty(),
                 "pdftotext (poppler-utils) is needed to read reports back; scripts/setup.sh installs it");
    }

    void aDesignReviewHasItsPagesAndSections_data()
    {
        QTest::addColumn<QString>("preset");
        QTest::newRow("dgx-h100") << "dgx-h100-superpod-4su.cluster.json";
        QTest::newRow("gb200") << "gb200-nvl72-8rack.cluster.json";
    }
    void aDesignReviewHasItsPagesAndSections()
    {
        QFETCH(QString, preset);
        DesignLoad l = load(preset);
        QVERIFY(l.ok());
        QTemporaryDir dir;
        const QString out = dir.filePath("report.pdf");
        QString error;
        QVERIFY2(writeDesignReport(*l.design, l.catalog, out, {QPageSize::A4, "x.cluster.json"}, &error),
                 qPrintable(error));
        const QByteArray pdf = bytesOf(out);
        QVERIFY(pdf.startsWith("%PDF-"));
        const int pages = pageObjects(pdf);
        QVERIFY2(pages >= 9, qPrintable(QString::number(pages)));  // cover, canvas, 5 analyses, assumptions, appendix
        QCOMPARE(mediaBox(pdf), QSizeF(595, 842));                 // A4 in points

        const QString cover = pdfText(out, 1);
        QVERIFY(cover.contains("Design review: " + QString::fromStdString(l.design->name).left(20)));
        QVERIFY(cover.contains("Key figures"));
        QVERIFY(cover.contains("Most important warnings"));
        QVERIFY(cover.contains(QStringLiteral("Page 1 of %1").arg(pages)));
        // The numbers are the analyses' own.
        const Json metrics = computeMetrics(*l.design, *l.catalog);
        for (const char* key : {"inventory.gpus", "training.mfu", "power.pue", "reliability.goodput"}) {
            const KeyFigure& f = *findKeyFigure(key);
            QVERIFY2(cover.contains(QString::fromStdString(formatFigure(f, *figureValue(metrics, f)))), key);
        }
        // One page per analysis of the registry, each starting a page, in the
        // studio's order.
        QStringList sections{QStringLiteral("Canvas")};
        for (const AnalysisEntry& entry : analysisRegistry())
            sections << entry.title;
        QCOMPARE(sections.mid(1),
                 (QStringList{"Roofline", "Bandwidth hierarchy", "MFU breakdown", "Power and PUE", "Failure cadence",
                              "Cost"}));
        sections << QStringLiteral("Scale sweep: how many GPUs are worth it")
                 << QStringLiteral("Sensitivity: what limits this design");
        sections << QStringLiteral("Assumptions") << QStringLiteral("Appendix A: all warnings")
                 << QStringLiteral("Appendix B: how each number is computed");
        int previous = 1;
        for (const QString& title : std::as_const(sections)) {
            const int page = pageOf(out, pages, title);
            QVERIFY2(page > previous, qPrintable(title + " on page " + QString::number(page)));
            const QString text = pdfText(out, page);
            QVERIFY2(text.contains(QStringLiteral("Page %1 of %2").arg(page).arg(pages)), qPrintable(title));
            QVERIFY2(text.contains("Design review: "), qPrintable(title + ": no running header"));
            // The cover's contents send the reader to that page.
            const QRegularExpression entry("^\\s*" + QRegularExpression::escape(title) + "\\s+" +
                                               QString::number(page) + "\\s*$",
                                           QRegularExpression::MultilineOption);
            QVERIFY2(entry.match(cover).hasMatch(), qPrintable(title + " not listed at page " + QString::number(page)));
            previous = page;
        }
        // The canvas is drawn as lines and text, not pictures of its items:
        // its names and totals can be searched for and copied.
        const QString canvas = pdfText(out, pageOf(out, pages, "Canvas")).simplified();
        for (const Component& c : l.design->components)
            if (c.parent.empty() && !c.name.empty())
                QVERIFY2(canvas.contains(QString::fromStdString(c.name).left(12)), c.name.c_str());
        QVERIFY2(canvas.contains(QStringLiteral(" GPUs \u00b7 ")), qPrintable(canvas.left(400)));
        const QString all = pdfText(out);
        // Searchable as typed, charts included: no ligature glyphs.
        static const QRegularExpression ligature(QStringLiteral("[\\x{FB00}-\\x{FB06}]"));
        QVERIFY2(!all.contains(ligature), qPrintable(ligature.match(all).captured()));
        // No tooltip's markup printed as text (the axis placement rows' once was).
        static const QRegularExpression markup(QStringLiteral("</?(p|b|br|ul|li|span)\\b[^>]*>"));
        QVERIFY2(!all.contains(markup), qPrintable(markup.match(all).captured()));
        QVERIFY(all.contains("Kernel efficiency") && all.contains("Efficiencies"));
        for (const char* section : {"Bill of materials", "Parts by catalog entry", "Workload", "Efficiencies",
                                    "Failure rates", "Facility and operations", "Catalog figures used"})
            QVERIFY2(all.contains(section), section);
        // The scale and sensitivity pages carry the core's sentences.
        const SweepResult sweep = sweepScale(*l.design, *l.catalog);
        const QString scale = pdfText(out, pageOf(out, pages, "Scale sweep: how many GPUs are worth it"));
        QVERIFY2(scale.simplified().contains(QString::fromStdString(sweep.stopsPaying).left(40)), qPrintable(scale));
        QVERIFY(scale.contains("tokens/s"));
        const SensitivityResult tornado = analyzeSensitivity(*l.design, *l.catalog);
        const QString sensitivity = pdfText(out, pageOf(out, pages, "Sensitivity: what limits this design"));
        QVERIFY2(sensitivity.simplified().contains(QString::fromStdString(tornado.binding).left(40)),
                 qPrintable(sensitivity));
        QVERIFY(sensitivity.contains("change in days to train (%)"));
        // The site's power budget is listed even unset: none means unchecked.
        QVERIFY(all.contains("/facility/site_mw"));
        // Plots are vector graphics: their axis titles are text in the PDF.
        QVERIFY(all.contains("Arithmetic intensity (FLOP/byte)"));
        QVERIFY(all.contains("Power per rack (kW)"));
        // Every catalog part the design uses is listed with its figures' sources.
        for (const auto& line : metrics["inventory"]["bom"])
            QVERIFY2(all.contains(QString::fromStdString(line["part"].get<std::string>())),
                     line["part"].get<std::string>().c_str());
    }

    // A serving design's review has the Serving page in place of the
    // training pages (MFU breakdown, failure cadence, scale, sensitivity),
    // and its cover the serving figures.
    void aServingDesignReviewHasTheServingPage()
    {
        DesignLoad l = load("serving-grok1-moe-gb200-nvl72.cluster.json");
        QVERIFY(l.ok());
        QTemporaryDir dir;
        const QString out = dir.filePath("serving.pdf");
        QString error;
        QVERIFY2(writeDesignReport(*l.design, l.catalog, out, {QPageSize::A4, "x.cluster.json"}, &error),
                 qPrintable(error));
        const int pages = pageObjects(bytesOf(out));
        const QString cover = pdfText(out, 1);
        const Serving s = analyzeServing(*l.design, *l.catalog);
        QVERIFY(s.ok());
        // The serving figures, as the compare table prints them; no training ones.
        Json metrics = computeMetrics(*l.design, *l.catalog);
        addServingMetrics(metrics, *l.design, *l.catalog);
        for (const char* key : {"serving.tokens_per_s_per_gpu", "serving.tpot_s", "serving.gpus_needed"}) {
            const KeyFigure& f = *findKeyFigure(key);
            QVERIFY2(cover.contains(QString::fromStdString(formatFigure(f, *figureValue(metrics, f)))), key);
        }
        for (const char* training : {"Step time", "Days to train", "Goodput", "MFU\n"})
            QVERIFY2(!cover.contains(QRegularExpression(training)), training);
        QVERIFY(cover.simplified().contains("Serving Grok-1 314B MoE"));
        QVERIFY(
            cover.simplified().contains("fp4 weights and fp8 KV cache, replicas of tp 8 x pp 1 (ep 8), 8 GPUs each"));
        int previous = 1;
        for (const QString title : {"Canvas", "Roofline", "Bandwidth hierarchy", "Power and PUE", "Cost", "Serving",
                                    "Assumptions", "Appendix B: how each number is computed"}) {
            const int page = pageOf(out, pages, title);
            QVERIFY2(page > previous, qPrintable(title + " on page " + QString::number(page)));
            previous = page;
        }
        const QString all = pdfText(out);
        for (const char* training : {"MFU breakdown", "Failure cadence", "Scale sweep", "Sensitivity: what limits"})
            QVERIFY2(!all.contains(training), training);
        // The Serving section (its page, and the page its figures run onto
        // before the assumptions): the panel's sentence, its charts' axes
        // and its figures.
        QString serving;
        for (int p = pageOf(out, pages, "Serving"); p < pageOf(out, pages, "Assumptions"); ++p)
            serving += pdfText(out, p);
        serving = serving.simplified();
        QVERIFY2(
            serving.contains(
                QStringLiteral("Batch %1 per replica of 8 GPUs").arg(QString::fromStdString(formatCount(s.batch)))),
            qPrintable(serving));
        QVERIFY(serving.contains("tokens/s per user"));
        QVERIFY(serving.contains("one GPU's HBM"));
        QVERIFY(serving.contains("Little's law"));
        // The assumptions list the serving inputs, not a training run's.
        QVERIFY(all.contains("Prompt, output tokens"));
        QVERIFY(!all.contains("Tokens to train"));
        // Appendix B keeps the training figures' formulas but not the
        // numbers of a run the design has not got (a 0.9 s step, 100+ GB of
        // optimizer state).
        const QString simple = all.simplified();
        QVERIFY(simple.contains(QStringLiteral("not available: ") + kNoTrainingRun));
        QVERIFY(simple.contains("weights + gradients + optimizer + activations + workspace"));
        QVERIFY(!simple.contains("12 bytes/param"));
        QVERIFY(!simple.contains("time running kernels ="));
    }

    // The Serving panel's plots sit on a tab's page inside a MessageStack:
    // a panel never shown lays out only its own children, and the page's
    // plots were printed at their default 100 x 30 until the report showed
    // the panel off screen.
    void aPanelsPlotsTakeThePagesWidthHoweverDeepTheyAreNested()
    {
        DesignLoad l = load("serving-llama3-70b-dgx-h100.cluster.json");
        QVERIFY(l.ok());
        Analysed analysed(l);
        AnalysisService& service = analysed.service;
        QVERIFY(service.serving() && service.serving()->ok());
        ServingPanel panel(nullptr, &service);
        forPaper(panel);
        ReportDocument doc("title", "footer", QPageSize::A4);
        doc.panelPlots(panel, {panel.curvePlot(), panel.memoryPlot()});
        // The figures' table shares the row with them on screen (5 : 2 : 3).
        QVERIFY2(panel.curvePlot()->width() > ReportDocument::kPanelWidth * 0.4,
                 qPrintable(QString::number(panel.curvePlot()->width())));
        QVERIFY2(panel.memoryPlot()->width() > ReportDocument::kPanelWidth * 0.15,
                 qPrintable(QString::number(panel.memoryPlot()->width())));
        QVERIFY(panel.curvePlot()->height() > 200);
        QVERIFY(!panel.isVisible() || panel.testAttribute(Qt::WA_DontShowOnScreen));
    }

    // A background page prints what its entry prepared off the GUI thread:
    // given weak scaling's sweep rather than the strong one its `prepare`
    // computes, the Scale page is weak scaling's.
    void aBackgroundPagePrintsWhatWasPreparedForIt()
    {
        DesignLoad l = load("dgx-h100-superpod-4su.cluster.json");
        QVERIFY(l.ok());
        Analysed analysed(l);
        AnalysisService& service = analysed.service;
        const BackgroundEntry* scale = findBackgroundEntry("scale");
        QVERIFY(scale && scale->prepare && scale->report);
        const std::any strong = scale->prepare(*l.design, *l.catalog, nullptr);
        QCOMPARE(std::any_cast<SweepResult>(&strong)->scaling, Scaling::Strong);
        SweepOptions options;
        options.scaling = Scaling::Weak;
        const std::any weak = sweepScale(*l.design, *l.catalog, options);
        ReportDocument doc("title", "footer", QPageSize::A4);
        scale->report(doc, {*l.design, *l.catalog, *service.analysis(), service, &weak});
        QTemporaryDir dir;
        const QString out = dir.filePath("weak.pdf");
        QString error;
        QVERIFY2(doc.print(out, &error), qPrintable(error));
        const QString text = pdfText(out).simplified();
        QVERIFY2(text.contains("Weak scaling by"), qPrintable(text.left(600)));
        QVERIFY(!text.contains("Strong scaling by"));
        // Cancelled at once, the review stops that work and waits for it.
        int calls = 0;
        QVERIFY(!writeDesignReport(*l.design, l.catalog, dir.filePath("never.pdf"), {}, &error, [&](int, int) {
            ++calls;
            return false;
        }));
        QCOMPARE(calls, 1);
        QCOMPARE(error, QString("Cancelled"));
        QVERIFY(!QFile::exists(dir.filePath("never.pdf")));
    }

    // A serving design that cannot be served as laid out: its Serving page
    // says why, as the panel does, and draws no empty charts.
    void aDesignThatCannotBeServedSaysWhyOnItsPage()
    {
        DesignLoad l = load("serving-llama3-70b-dgx-h100.cluster.json");
        QVERIFY(l.ok());
        l.design->workload.serving->batch = 100000;
        QVERIFY(!analyzeServing(*l.design, *l.catalog).ok());
        QTemporaryDir dir;
        const QString out = dir.filePath("unservable.pdf");
        QString error;
        QVERIFY2(writeDesignReport(*l.design, l.catalog, out, {QPageSize::A4, "x.cluster.json"}, &error),
                 qPrintable(error));
        const QString serving = pdfText(out, pageOf(out, pageObjects(bytesOf(out)), "Serving")).simplified();
        QVERIFY2(serving.contains("This workload cannot be served as laid out: a batch of 100,000 does not fit"),
                 qPrintable(serving));
        QVERIFY(!serving.contains("one GPU's HBM"));
    }

    // The cover and the body are laid out apart (numbering the contents
    // re-lays the cover alone): a cover of two pages moves every section
    // two pages on, in the contents, the footers and the page count.
    // Each background analysis with design-review pages adds them for the
    // workloads it applies to, computed on the spot as its panel would.
    void everyBackgroundAnalysisAddsItsPages_data()
    {
        QTest::addColumn<QString>("preset");
        QTest::newRow("training") << "h100-16k-roce-llama3.cluster.json";
        QTest::newRow("serving") << "serving-grok1-moe-gb200-nvl72.cluster.json";
    }

    void everyBackgroundAnalysisAddsItsPages()
    {
        QFETCH(QString, preset);
        DesignLoad l = load(preset);
        QVERIFY(l.ok());
        Analysed analysed(l);
        AnalysisService& service = analysed.service;
        const Analysis* a = service.analysis();
        QVERIFY(a);
        int withPages = 0;
        for (const BackgroundEntry& entry : backgroundRegistry()) {
            if (!entry.report || !entry.appliesTo(a->workloadKind()))
                continue;
            ReportDocument doc("title", "footer", QPageSize::A4);
            doc.heading("before", 1);
            const int before = doc.pageCount();
            entry.report(doc, {*l.design, *l.catalog, *a, service});
            QVERIFY2(doc.pageCount() > before, qPrintable(entry.key));
            ++withPages;
        }
        // Scale and Sensitivity for a training run; Serving for a serving design.
        QCOMPARE(withPages, a->workloadKind() == WorkloadKind::Training ? 2 : 1);
    }

    void aLongCoverNumbersTheSectionsAfterIt()
    {
        ReportDocument doc("Running title", "Footer", QPageSize::A4);
        doc.heading("Cover title");
        for (int i = 0; i < 60; ++i)
            doc.paragraph(QStringLiteral("Cover paragraph %1, long enough to take a line of its own.").arg(i));
        doc.heading("Contents", 2);
        doc.contentsHere();
        doc.heading("First section", 1, true);
        doc.paragraph("One page.");
        doc.heading("Second section", 1, true);
        for (int i = 0; i < 60; ++i)
            doc.paragraph(QStringLiteral("Body paragraph %1, long enough to take a line of its own.").arg(i));
        doc.heading("Third section", 1, true);
        doc.paragraph("The last page.");
        QTemporaryDir dir;
        const QString out = dir.filePath("long-cover.pdf");
        QString error;
        QVERIFY2(doc.print(out, &error), qPrintable(error));
        QCOMPARE(doc.pageCount(), 6);  // cover 2, first 1, second 2, third 1
        QCOMPARE(pageObjects(bytesOf(out)), 6);
        QVERIFY(pdfText(out, 2).contains("Cover paragraph 59"));
        const QString cover = pdfText(out, 1) + pdfText(out, 2);
        const std::pair<const char*, int> sections[] = {
            {"First section", 3}, {"Second section", 4}, {"Third section", 6}};
        for (const auto& [title, page] : sections) {
            const QString text = pdfText(out, page);
            QVERIFY2(text.contains(title), title);
            QVERIFY2(text.contains(QStringLiteral("Page %1 of 6").arg(page)), title);
            const QRegularExpression entry(QStringLiteral("^\\s*%1\\s+%2\\s*$").arg(title).arg(page),
                                           QRegularExpression::MultilineOption);
            QVERIFY2(entry.match(cover).hasMatch(), title);
        }
        QVERIFY(pdfText(out, 5).contains("Body paragraph 59"));
    }

    void aHeadingIsNeverLeftAtAPagesFoot()
    {
        // The serving page's "At the load" section row was left at the foot
        // of its page, its rows on the next. As the content before them
        // grows line by line, a subsection's heading and a table's section
        // row each reach the foot of the page at some length; there they
        // start the next page instead.
        QTemporaryDir dir;
        bool subsectionMoved = false, rowMoved = false, partMoved = false;
        for (int lines = 44; lines < 70; ++lines) {
            ReportDocument doc("Running title", "Footer", QPageSize::A4);
            doc.heading("Cover");
            doc.paragraph("What the review is about.");
            doc.heading("Section", 1, true);
            for (int i = 0; i < lines; ++i)
                doc.paragraph(QStringLiteral("Filler %1").arg(i));
            doc.heading("Subsection", 2);
            doc.paragraph("After the subsection.");
            doc.table(
                {"Figure", "Value", "How"},
                {{{"Section row", ReportCell::Heading}, {"", ReportCell::Heading}, {"", ReportCell::Heading}},
                 {{"Data row"}, {"1", ReportCell::Normal, true}, {"how"}},
                 // A heading with words beside it (a catalog part's row).
                 {{"Part row", ReportCell::Heading}, {"built-in", ReportCell::Heading}, {"", ReportCell::Heading}},
                 {{"Part figure"}, {"2", ReportCell::Normal, true}, {"source"}}});
            const QString out = dir.filePath(QStringLiteral("keep-%1.pdf").arg(lines));
            QString error;
            QVERIFY2(doc.print(out, &error), qPrintable(error));
            const int pages = doc.pageCount();
            QVERIFY(pages >= 2);
            const auto pageWith = [&](const QString& text) {
                for (int page = 1; page <= pages; ++page)
                    if (pdfText(out, page).contains(text))
                        return page;
                return 0;
            };
            // No page left empty by the move (a running header and a footer
            // alone).
            for (int page = 1; page <= pages; ++page)
                QVERIFY2(pdfText(out, page).split('\n', Qt::SkipEmptyParts).size() > 3,
                         qPrintable(QStringLiteral("%1 lines: page %2 is empty").arg(lines).arg(page)));
            const int filler = pageWith(QStringLiteral("Filler %1").arg(lines - 1));
            const int subsection = pageWith("Subsection"), row = pageWith("Section row"), part = pageWith("Part row");
            QVERIFY2(subsection == pageWith("After the subsection."), qPrintable(QString::number(lines)));
            QVERIFY2(row == pageWith("Data row"), qPrintable(QString::number(lines)));
            QVERIFY2(part == pageWith("Part figure"), qPrintable(QString::number(lines)));
            partMoved = partMoved || part > row;
            // The section row spans the table: its words on one line; on
            // whichever page, under the table's header.
            QVERIFY(pdfText(out, row).contains(QRegularExpression("Section row\\s*\\n")));
            QVERIFY(pdfText(out, row).contains(QRegularExpression("Figure\\s+Value\\s+How")));
            QVERIFY(pdfText(out, part).contains(QRegularExpression("Figure\\s+Value\\s+How")));
            subsectionMoved = subsectionMoved || subsection > filler;
            rowMoved = rowMoved || (row > filler && subsection == filler);
        }
        QVERIFY(subsectionMoved && rowMoved && partMoved);  // the sweep reached each case
    }

    void aTableRowIsNeverCutAcrossPages()
    {
        // The serving page's KV cache row broke mid-formula, its last words
        // on the next page under the repeated header. As the content before
        // a tall row grows line by line, the row reaches the page's foot;
        // there it starts the next page whole.
        QTemporaryDir dir;
        QString tall = "first-words";
        for (int i = 0; i < 40; ++i)
            tall += " the formula goes on";
        tall += " last-words";
        bool moved = false;
        for (int lines = 40; lines < 62; ++lines) {
            ReportDocument doc("Running title", "Footer", QPageSize::A4);
            doc.heading("Cover");
            doc.paragraph("What the review is about.");
            doc.heading("Section", 1, true);
            std::vector<ReportRow> rows;
            for (int i = 0; i < lines; ++i)
                rows.push_back({{QStringLiteral("row-%1").arg(i)}, {"1", ReportCell::Normal, true}, {"how"}});
            rows.push_back({{"tall-row"}, {"2", ReportCell::Normal, true}, {tall}});
            rows.push_back({{"after-row"}, {"3", ReportCell::Normal, true}, {"how"}});
            doc.table({"Figure", "Value", "How"}, rows);
            const QString out = dir.filePath(QStringLiteral("row-%1.pdf").arg(lines));
            QString error;
            QVERIFY2(doc.print(out, &error), qPrintable(error));
            const int pages = doc.pageCount();
            const auto pageWith = [&](const QString& text) {
                for (int page = 1; page <= pages; ++page)
                    if (pdfText(out, page).contains(text))
                        return page;
                return 0;
            };
            const int start = pageWith("first-words");
            QVERIFY2(start > 0 && start == pageWith("last-words"), qPrintable(QString::number(lines)));
            QCOMPARE(pageWith("tall-row"), start);
            QVERIFY(pageWith("after-row") >= start);
            moved = moved || start > pageWith(QStringLiteral("row-%1").arg(lines - 1));
            if (start > pageWith(QStringLiteral("row-%1").arg(lines - 1)))  // under the header, on its new page
                QVERIFY(pdfText(out, start).contains(QRegularExpression("Figure\\s+Value\\s+How")));
        }
        QVERIFY(moved);  // the sweep reached the page's foot
    }

    void aSectionThatSpillsAFewRowsFitsItsPageWithASmallerFigure()
    {
        // The cost page's last two rows went onto a page of their own. As
        // the table under a section's figure grows row by row, its last rows
        // first stay on the page (the figure drawn smaller, the rows moving
        // up), then, past what a quarter less figure makes room for, go on.
        QTemporaryDir dir;
        QPicture figure;
        {
            QPainter p(&figure);
            p.fillRect(QRect(0, 0, 860, 540), Qt::gray);
        }
        double fullSizeRow = -1;
        bool shrunk = false, spilled = false;
        for (int rows = 10; rows < 60 && !spilled; ++rows) {
            ReportDocument doc("Running title", "Footer", QPageSize::A4);
            doc.heading("Cover");
            doc.paragraph("What the review is about.");
            doc.heading("Section", 1, true);
            doc.picture(figure, QSizeF(860, 540), doc.contentWidth(), 540);
            std::vector<ReportRow> table;
            for (int i = 0; i < rows; ++i)
                table.push_back({{QStringLiteral("row-%1").arg(i)}, {"1", ReportCell::Normal, true}, {"how"}});
            doc.table({"Figure", "Value", "How"}, table);
            doc.heading("Next section", 1, true);
            doc.paragraph("After.");
            const QString out = dir.filePath(QStringLiteral("fit-%1.pdf").arg(rows));
            QString error;
            QVERIFY2(doc.print(out, &error), qPrintable(error));
            const double first = wordTop(out, 2, "row-0"),
                         last = wordTop(out, 2, QStringLiteral("row-%1").arg(rows - 1));
            QVERIFY(first > 0);
            if (fullSizeRow < 0)
                fullSizeRow = first;  // a short table: the figure at its size
            if (last < 0) {           // the last row went on
                spilled = true;
                QVERIFY(std::abs(first - fullSizeRow) < 0.5);  // the figure as it was: it could not make room
                QVERIFY(pdfText(out, 3).contains(QStringLiteral("row-%1").arg(rows - 1)));
                QCOMPARE(doc.pageCount(), 4);
                continue;
            }
            QCOMPARE(doc.pageCount(), 3);  // cover, the section, the next
            QVERIFY(first <= fullSizeRow + 0.5);
            // The figure at least three quarters of its height: the rows
            // moved up by no more than a quarter of it (540 / 96 inch).
            QVERIFY(fullSizeRow - first <= 0.25 * 540 * 72 / 96 + 0.5);
            shrunk = shrunk || first < fullSizeRow - 5;
        }
        QVERIFY2(shrunk && spilled, "the sweep reached both cases");
    }

    void theCoverShowsTheThreeMostImportantWarnings()
    {
        DesignLoad l = load("h100-16k-roce-llama3.cluster.json");
        QVERIFY(l.ok());
        Design d = *l.design;
        d.workload.training.micro_batch = 16;  // activations no longer fit in HBM
        const Analysis a = analyzeDesign(d, *l.catalog);
        const auto top = mostImportantWarnings(a.warnings, 3);
        QVERIFY(!top.empty());
        QCOMPARE(top.front().code, std::string("memory_exceeds_hbm"));
        QTemporaryDir dir;
        const QString out = dir.filePath("warnings.pdf");
        QString error;
        QVERIFY2(writeDesignReport(d, l.catalog, out, {}, &error), qPrintable(error));
        const QString cover = pdfText(out, 1).simplified();
        for (const auto& p : top)  // long messages wrap: compare their first words
            QVERIFY2(cover.contains(QString::fromStdString(p.message).simplified().left(40)), p.message.c_str());
    }

    void letterPagesWhenAskedFor()
    {
        QPageSize::PageSizeId id;
        QVERIFY(pageSizeFromName("Letter", &id));
        QCOMPARE(id, QPageSize::Letter);
        QVERIFY(!pageSizeFromName("a5", &id));
        DesignLoad l = load("budget-8node-100gbe.cluster.json");
        QTemporaryDir dir;
        const QString out = dir.filePath("letter.pdf");
        QString error;
        QVERIFY2(writeDesignReport(*l.design, l.catalog, out, {QPageSize::Letter}, &error), qPrintable(error));
        QCOMPARE(mediaBox(bytesOf(out)), QSizeF(612, 792));
    }

    void cancellingLeavesTheOldFileAndFailingSaysWhere()
    {
        DesignLoad l = load("budget-8node-100gbe.cluster.json");
        QTemporaryDir dir;
        const QString out = dir.filePath("kept.pdf");
        {
            QFile f(out);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write("an earlier report");
        }
        int calls = 0;
        QString error;
        QVERIFY(!writeDesignReport(*l.design, l.catalog, out, {}, &error, [&](int done, int total) {
            ++calls;
            return done < total / 2;  // cancel half way
        }));
        QVERIFY(calls > 1);
        QCOMPARE(error, QString("Cancelled"));
        QCOMPARE(bytesOf(out), QByteArray("an earlier report"));
        const QString nowhere = dir.filePath("no/such/dir/report.pdf");
        QVERIFY(!writeDesignReport(*l.design, l.catalog, nowhere, {}, &error));
        QVERIFY2(error.contains(nowhere), qPrintable(error));
        QVERIFY(!QFile::exists(nowhere));
    }

    // From the studio: the design as edited (not as saved), on paper colours
    // whatever the theme, and the theme back afterwards; the compare view
    // starts with the open document in it.
    void theStudioExportsWhatIsOnTheCanvas()
    {
        applyTheme(Theme::Dark);
        MainWindow window;
        QVERIFY(window.openFile(test::sourcePath("presets/dgx-h100-superpod-4su.cluster.json")));
        Design edited = window.document()->design();
        edited.name = "Edited before export";
        window.document()->reset(edited, window.document()->catalogPtr(), window.document()->filePath());
        window.analysis()->recomputeNow();
        QTemporaryDir dir;
        const QString out = dir.filePath("studio.pdf");
        QVERIFY(window.exportReport(out));
        QVERIFY(pdfText(out, 1).contains("Design review: Edited before export"));
        QCOMPARE(currentTheme(), Theme::Dark);
        CompareWindow* compare = window.showCompare();
        QCOMPARE(compare->designCount(), 1);
        QVERIFY(compare->addFile(test::sourcePath("presets/budget-8node-100gbe.cluster.json")));
        compare->waitForComparison();
        QVERIFY(compare->comparison());
        QCOMPARE(compare->comparison()->designs[0].label, std::string("Edited before export"));
        QCOMPARE(window.showCompare(), compare);  // one compare view, raised again
        // The open document's column follows the edits made in the studio.
        Design renamed = window.document()->design();
        renamed.name = "Edited after opening the comparison";
        window.document()->reset(renamed, window.document()->catalogPtr(), window.document()->filePath());
        window.analysis()->recomputeNow();
        QTRY_COMPARE(compare->comparison()->designs[0].label, std::string("Edited after opening the comparison"));
        applyTheme(Theme::Light);
    }

    // A new, empty design has nothing to plot: the report says so rather
    // than failing or printing NaN.
    void anEmptyDesignStillReports()
    {
        MainWindow window;
        window.newDesign();
        window.analysis()->recomputeNow();
        QTemporaryDir dir;
        const QString out = dir.filePath("empty.pdf");
        QVERIFY(window.exportReport(out));
        const QString text = pdfText(out);
        QVERIFY(text.contains("Key figures"));
        static const QRegularExpression notANumber("\\b(nan|-?inf)\\b", QRegularExpression::CaseInsensitiveOption);
        QVERIFY2(!notANumber.match(text).hasMatch(), qPrintable(notANumber.match(text).captured(0)));
    }

    void aComparisonHasEveryDesignItsDeltasAndTheCharts()
    {
        DesignLoad a = load("dgx-h100-superpod-4su.cluster.json");
        DesignLoad b = load("dgx-b200-superpod-8su.cluster.json");
        DesignLoad c = load("mi300x-roce-128node.cluster.json");
        // On the baseline's workload, each at its best layout, as `compare` runs them.
        const Workload shared = a.design->workload;
        auto entry = [&](const DesignLoad& l, const char* file) {
            return *compareEntry(*l.design, *l.catalog, file, &shared, CompareSetup{});
        };
        const Comparison cmp =
            compareDesigns({entry(a, "a.cluster.json"), entry(b, "b.cluster.json"), entry(c, "c.cluster.json")}, 0);
        QTemporaryDir dir;
        const QString out = dir.filePath("compare.pdf");
        QString error;
        QVERIFY2(writeComparisonReport(cmp, out, {}, &error), qPrintable(error));
        const int pages = pageObjects(bytesOf(out));
        QVERIFY(pages >= 4);
        const QString text = pdfText(out).simplified();
        for (const auto& d : cmp.designs)
            QVERIFY2(text.contains(QString::fromStdString(d.label).left(24)), d.label.c_str());
        for (const char* section : {"Key figures", "Roofline", "Bill of materials"})
            QVERIFY2(text.contains(section), section);
        // The first page says what was compared: one workload, the layouts.
        const QString first = pdfText(out, 1).simplified();
        QVERIFY2(first.contains(QString::fromStdString("Every design runs " + describeRun(shared))), qPrintable(first));
        QVERIFY(first.contains("(the baseline's workload), each at the best layout"));
        QVERIFY2(first.contains("(best found)"), qPrintable(first));
        // The MFU row carries each design's delta from the baseline.
        for (const auto& row : cmp.figures)
            if (row.figure.key == "training.mfu")
                for (std::size_t i = 1; i < 3; ++i)
                    QVERIFY2(text.contains(QString::fromStdString(formatDelta(row.figure, row.cells[i]))),
                             formatDelta(row.figure, row.cells[i]).c_str());
        QVERIFY(text.contains(QStringLiteral("Page %1 of %1").arg(pages)));
    }
};

STUDIO_TEST_MAIN(TestReport)
#include "tst_report.moc"
