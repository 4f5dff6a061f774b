// How long a design review takes to write: the design-review PDF of the
// 16,384-GPU preset (target: under 2 s), and the comparison PDF of four
// presets, each built in-process N times (median, p95, max), plus the
// `cluster-studio report` command end to end, process start included, and
// how long the compare view takes to follow one edit. Not a
// test: results go to docs/performance.md.
//
// Usage: bench_report PRESET_DIR [RUNS] [CLUSTER_STUDIO]
#include <QApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QProcess>
#include <QTabWidget>
#include <QTemporaryDir>

#include <algorithm>
#include <cstdio>
#include <vector>

#include "core/compare/comparison.h"
#include "core/format/design_reader.h"
#include "widgets/compare/compare_window.h"
#include "widgets/report/comparison_report.h"
#include "widgets/report/design_report.h"

using namespace studio;

namespace {

void report(const char* what, std::vector<double> ms, qint64 bytes)
{
    std::sort(ms.begin(), ms.end());
    std::printf("%-46s median %7.1f ms  p95 %7.1f ms  max %7.1f ms  (%zu runs, %.0f KB)\n", what, ms[ms.size() / 2],
                ms[std::min(ms.size() - 1, ms.size() * 95 / 100)], ms.back(), ms.size(), double(bytes) / 1024);
}

}  // namespace

int main(int argc, char** argv)
{
    qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    if (argc < 2) {
        std::fprintf(stderr, "usage: bench_report PRESET_DIR [RUNS] [CLUSTER_STUDIO]\n");
        return 2;
    }
    const QDir presets(QString::fromLocal8Bit(argv[1]));
    const int runs = argc > 2 ? std::max(1, std::atoi(argv[2])) : 10;
    QTemporaryDir dir;
    auto loadPreset = [&](const char* name) {
        DesignLoad l = loadDesignFile(presets.filePath(name).toStdString(), Catalog::builtin());
        if (!l.ok()) {
            std::fprintf(stderr, "cannot load %s\n", name);
            std::exit(1);
        }
        return l;
    };

    const DesignLoad big = loadPreset("h100-16k-roce-llama3.cluster.json");
    std::vector<double> ms;
    const QString out = dir.filePath("16k.pdf");
    for (int i = 0; i < runs; ++i) {
        QElapsedTimer t;
        t.start();
        QString error;
        if (!writeDesignReport(*big.design, big.catalog, out, {}, &error)) {
            std::fprintf(stderr, "%s\n", qPrintable(error));
            return 1;
        }
        ms.push_back(double(t.nsecsElapsed()) / 1e6);
    }
    report("design review, 16,384-GPU preset", ms, QFileInfo(out).size());

    std::vector<ComparedDesign> designs;
    for (const char* name : {"h100-16k-roce-llama3.cluster.json", "dgx-h100-superpod-4su.cluster.json",
                             "dgx-b200-superpod-8su.cluster.json", "gb200-nvl72-8rack.cluster.json"}) {
        const DesignLoad l = loadPreset(name);
        designs.push_back(compareEntry(*l.design, *l.catalog, name));
    }
    ms.clear();
    const QString compared = dir.filePath("compare.pdf");
    for (int i = 0; i < runs; ++i) {
        QElapsedTimer t;
        t.start();
        const Comparison c = compareDesigns(designs, 0);
        QString error;
        if (!writeComparisonReport(c, compared, {}, &error)) {
            std::fprintf(stderr, "%s\n", qPrintable(error));
            return 1;
        }
        ms.push_back(double(t.nsecsElapsed()) / 1e6);
    }
    report("comparison of four presets", ms, QFileInfo(compared).size());

    // The compare view, shown with four designs, taking one edit of the open
    // document: the recompute, its tables and its five charts repainted.
    {
        CompareWindow window;
        window.addDesign(*big.design, big.catalog, CompareWindow::liveSource());
        for (const char* name : {"dgx-h100-superpod-4su.cluster.json", "dgx-b200-superpod-8su.cluster.json",
                                 "gb200-nvl72-8rack.cluster.json"})
            window.addFile(presets.filePath(name));
        window.show();
        window.tabs()->setCurrentIndex(1);  // the charts: the costliest tab
        QApplication::processEvents();
        Design edited = *big.design;
        ms.clear();
        for (int i = 0; i < runs * 5; ++i) {
            edited.facility.pue = 1.1 + 0.01 * (i % 20);
            QElapsedTimer t;
            t.start();
            window.updateOpenDocument(edited, big.catalog);
            window.repaint();
            QApplication::processEvents();
            ms.push_back(double(t.nsecsElapsed()) / 1e6);
        }
        report("compare view, one live update (4 designs)", ms, 0);
    }

    if (argc > 3) {
        ms.clear();
        for (int i = 0; i < runs; ++i) {
            QElapsedTimer t;
            t.start();
            const int code = QProcess::execute(
                QString::fromLocal8Bit(argv[3]),
                {"report", presets.filePath("h100-16k-roce-llama3.cluster.json"), "-o", dir.filePath("cli.pdf")});
            if (code != 0)
                return 1;
            ms.push_back(double(t.nsecsElapsed()) / 1e6);
        }
        report("`cluster-studio report`, 16,384-GPU, end to end", ms, QFileInfo(dir.filePath("cli.pdf")).size());
    }
    return 0;
}
