#pragma once
// The axis, legend, colour and bar helpers every chart uses, so all of them
// look alike whichever view draws them (a panel, the compare view, a report).
#include <QColor>
#include <QObject>
#include <QPen>
#include <QPointer>
#include <QSharedPointer>
#include <QString>

#include <functional>
#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

class QCustomPlot;
class QFontMetrics;
class QCPAxis;
class QCPAxisRect;
class QCPAxisTickerText;
class QCPBars;
class QCPBarsGroup;
class QCPItemText;
class QPalette;

namespace studio {

// --- Colours

// Series colours of one design's own chart (a tier, a memory part): the
// theme's palette of eight (light or dark, or paper while a report draws).
QColor seriesColor(int i);
// The i-th design's colour when designs are overlaid: the same on screen,
// in either theme, and on white paper, told apart by the common colour
// vision deficiencies.
QColor designColor(int i);
// Lines of different designs can coincide (two designs on one GPU share a
// roof): a dash per design keeps each colour visible where they overlap.
QPen designPen(int i, double width);

// --- Axes

// Log axes with decade ticks: plain numbers up to 1,000, then 10^n.
void setLogAxis(QCPAxis* axis);
// Both axes logarithmic and labelled with their units.
void setLogLog(QCustomPlot* plot, const QString& xLabel, const QString& yLabel);
// A category axis: keys 1, 2, 3 ... labelled by text ticks, no grid. The
// returned ticker is cleared and refilled on each draw.
QSharedPointer<QCPAxisTickerText> setCategoryAxis(QCPAxis* axis);
QSharedPointer<QCPAxisTickerText> categoryTicker(QCPAxis* axis);
// An axis label longer than its axis goes on two lines, and back on one
// when the axis grows again; what the chart set stays the label. A category
// tick under a plot wider than the room between categories is broken at
// its spaces. Run after every layout (ChartPlot does), so a short panel or
// a report's plot keeps its whole labels instead of cutting or running
// them into each other.
void fitAxisLabels(QCustomPlot* plot);
double decadeBelow(double v);
double decadeAbove(double v);
// Axes, grids and legend in the colours of `palette` (either theme, or
// paper), over every axis rect the plot has.
void stylePlot(QCustomPlot* plot, const QPalette& palette);
// A label's translucent patch of the plot's background: a line or curve
// behind it shows through faintly instead of striking the words out.
QBrush labelHalo(const QPalette& palette);

// --- Legends and text

// The plot's legend in a row of its own below (or above) the axes, at most
// `columns` entries side by side (setLegendColumns); or none, the row it
// took given back to the axes.
void legendOutside(QCustomPlot* plot, int columns, bool above = false);
void hideLegend(QCustomPlot* plot);
// Legend entries `plot` can hold side by side at its width (at least one).
int legendColumnsFor(QCustomPlot* plot, const std::vector<QString>& names);
// At most `columns` legend entries side by side: as many as the plot's width
// holds, re-flowed (flowLegend) whenever the plot is resized.
void setLegendColumns(QCustomPlot* plot, int columns);
void flowLegend(QCustomPlot* plot);
// A design's name where it labels a category (a memory column, a power
// row): its name before any bracketed details, on two lines if long.
QString designTick(const QString& label);
// Each line of `text` wider than `width` broken at its spaces, but not
// between a number and the word after it (its unit) where the two fit; a
// word wider than that stays whole, on a line of its own.
QString wrapLines(const QString& text, const QFontMetrics& metrics, double width);
// A long category name on two lines, split at the space nearest its middle,
// so neighbouring tick labels do not run into each other.
QString twoLines(const QString& name, int maxOneLine);
// "Kernel efficiency" from "kernel efficiency" (but "MFU" stays as it is).
QString capitalized(std::string_view s);
QString readable(double v, int significant = 3);

// --- Bars

// The category (0-based) of a bar's data point on such an axis.
std::size_t categoryOf(const QCPBars* bars, int dataIndex);
// Bars stacked in the order named (objectName each), on one key.
std::vector<QCPBars*> addStack(QCPAxis* keyAxis, QCPAxis* valueAxis, std::initializer_list<const char*> names);
// A stack with a row per design (keys 1..n): bar b's value for design d is
// value(b, d); each bar in its series colour, the last hatched in `last`
// (what the facility adds, or builds); in the legend only where any design
// has some of it.
void fillStack(const std::vector<QCPBars*>& stack, std::size_t designs,
               const std::function<double(std::size_t bar, std::size_t design)>& value, const QColor& last);
// Grouped bars, one series per design side by side within a category: the
// width of each, and the key offset of design i's bar from its category's
// centre, in the plot coordinates the group lays them out in.
double groupedBarWidth(std::size_t designs);
double groupedBarOffset(std::size_t design, std::size_t designs);
QCPBarsGroup* newBarsGroup(QCustomPlot* plot);
// Design i's series in a group: its colour, its label in the legend.
QCPBars* designBars(QCPAxis* keyAxis, QCPAxis* valueAxis, QCPBarsGroup* group, std::size_t i, std::size_t n,
                    const QString& label, const char* what);
// Fill and outline of a bar series in `color`; `alpha` lightens the fill.
void styleBars(QCPBars* bars, const QColor& color, int alpha = 255);

// Every category each design has, each design's order kept: a key a design
// has and earlier ones lack goes in right after that design's previous key.
std::vector<std::string> mergeOrder(const std::vector<std::vector<std::string>>& sequences);

// What a draw of several designs adds to a plot (a series per design, its
// labels, bar groups, an extra axis rect), taken out again before the next
// draw: the number of designs can change from one draw to the next.
class Transient {
public:
    template <typename T>
    T* add(T* object)
    {
        objects_.emplace_back(object);
        return object;
    }
    void clear(QCustomPlot* plot);

private:
    std::vector<QPointer<QObject>> objects_;
};

}  // namespace studio
