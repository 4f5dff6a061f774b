#pragma once
// The compare view's charts: two to four designs overlaid on one
// QCustomPlot, one colour per design and a legend naming each. Free
// functions, so the compare window and the comparison PDF (which draws an
// offscreen plot that is never shown onto its own painter) draw the same
// pictures. Each call clears the plot and draws it anew; axes, grid and text
// take their colours from the plot's palette, so a plot meant for paper
// should be given a light palette first.
#include <QColor>
#include <QPointF>
#include <QString>
#include <QStringList>

#include <vector>

class QCustomPlot;

namespace studio {

struct Analysis;
struct Comparison;

enum class CompareChart { Roofline, Hierarchy, Mfu, Power, Mtbf };

// The five, in the order the view and the report show them.
const std::vector<CompareChart>& compareCharts();
QString compareChartTitle(CompareChart chart); // "Roofline", "Bandwidth hierarchy", ...
QString compareChartName(CompareChart chart);  // "roofline", "hierarchy", ...: object and file names

// The i-th design's colour: the same on screen, in either theme, and on
// white paper, told apart by the common colour-vision deficiencies.
QColor designColor(int i);

// `analyses` and `labels` run in parallel, one per design, in column order.
void drawCompareRoofline(QCustomPlot* plot, const std::vector<const Analysis*>& analyses, const QStringList& labels);
void drawCompareHierarchy(QCustomPlot* plot, const std::vector<const Analysis*>& analyses, const QStringList& labels);
void drawCompareMfu(QCustomPlot* plot, const std::vector<const Analysis*>& analyses, const QStringList& labels);
void drawComparePower(QCustomPlot* plot, const std::vector<const Analysis*>& analyses, const QStringList& labels);
void drawCompareMtbf(QCustomPlot* plot, const std::vector<const Analysis*>& analyses, const QStringList& labels);

void drawCompareChart(QCustomPlot* plot, CompareChart chart, const std::vector<const Analysis*>& analyses,
                      const QStringList& labels);
void drawCompareChart(QCustomPlot* plot, CompareChart chart, const Comparison& comparison);

// The hover tip at a pixel of a plot drawn by the functions above, with the
// same analyses and labels: which design, the number under the cursor, and
// its formula, inputs and sources; "" when nothing is there.
QString compareChartTip(QCustomPlot* plot, const std::vector<const Analysis*>& analyses, const QStringList& labels,
                        const QPointF& pixel);

} // namespace studio
