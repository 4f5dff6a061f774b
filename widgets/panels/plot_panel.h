#pragma once
// The base of every analysis panel: one or more QCustomPlots styled from the
// palette (both themes), a context menu that exports each plot as PNG, SVG
// or PDF, hover tips on data points and items, and lazy refresh: a new
// analysis marks the panel dirty and only a panel on screen redraws (a
// hidden tab when shown, a panel scrolled out of the grid when scrolled
// back). Panels keep their graphs and items and replace their data; every
// number they show comes from the core's Analysis.
#include <QHash>
#include <QList>
#include <QString>
#include <QSharedPointer>
#include <QWidget>

#include <functional>
#include <initializer_list>
#include <string_view>
#include <vector>

class QCustomPlot;
class QCPAbstractItem;
class QCPAxisTickerText;
class QCPBars;
class QCPAbstractPlottable;
class QCPAxis;
class QCPItemText;
class QGridLayout;
class QLabel;

namespace studio {

struct Analysis;
struct Explanation;
class AnalysisService;
class FigureTable;

class PlotPanel : public QWidget {
    Q_OBJECT
public:
    PlotPanel(const QString& title, AnalysisService* service, QWidget* parent = nullptr);
    QString title() const { return title_; }
    const QList<QCustomPlot*>& plots() const { return plots_; }
    QCustomPlot* plot(const QString& name) const;

    // Writes `plot` by the file's suffix: .png, .svg or .pdf.
    bool exportPlot(QCustomPlot* plot, const QString& fileName) const;
    // Redraws now if anything changed since the last redraw.
    void refreshNow();
    bool isDirty() const { return dirty_; }
    bool isOnScreen() const;
    int refreshCount() const { return refreshes_; }
    // The hover tip at a pixel of `plot` ("" when nothing is there).
    QString tipAt(QCustomPlot* plot, const QPointF& pixel) const;
    // The panel's table of numbers (nullptr if it has none): the report prints it.
    FigureTable* figureTable() const { return figureTable_; }

protected:
    virtual void refresh(const Analysis& analysis) = 0;
    QGridLayout* grid() const { return grid_; }
    QCustomPlot* addPlot(const QString& name);
    // A plot with both axes logarithmic and labelled with their units.
    QCustomPlot* addLogLogPlot(const QString& name, const QString& xLabel, const QString& yLabel);
    // A table of figures whose rows explain their metrics keys on hover.
    FigureTable* addFigureTable();
    // The explanation of a metrics key (core/metrics/explanations.h) as a tip.
    QString tip(const QString& title, const QString& value, std::string_view key) const;
    const Explanation* explanation(std::string_view key) const;
    const Analysis* analysis() const;
    void setTip(QCPAbstractPlottable* plottable, std::function<QString(int index)> tip);
    void setTip(QCPAbstractItem* item, std::function<QString()> tip);
    // A pool of text items reused between refreshes; returns the i-th, shown.
    QCPItemText* label(QCustomPlot* plot, std::vector<QCPItemText*>& pool, std::size_t i);
    static void hideFrom(std::vector<QCPItemText*>& pool, std::size_t used);
    QColor seriesColor(int i) const;
    QColor textColor(bool muted = false) const;
    void showEvent(QShowEvent* event) override;
    void paintEvent(QPaintEvent* event) override;
    void changeEvent(QEvent* event) override;

private:
    void restyle();
    void showMessage(const QString& text);
    void hover(QCustomPlot* plot, const QPointF& pos, const QPoint& globalPos);
    QString title_;
    AnalysisService* service_;
    QGridLayout* grid_;
    QList<QCustomPlot*> plots_;
    QLabel* message_;
    FigureTable* figureTable_ = nullptr;
    QHash<const void*, std::function<QString(int)>> tips_;
    bool dirty_ = true;
    int refreshes_ = 0;
};

// Log axes with decade ticks: plain numbers up to 1,000, then 10^n.
void setLogAxis(QCPAxis* axis);
// Both axes logarithmic and labelled with their units.
void setLogLog(QCustomPlot* plot, const QString& xLabel, const QString& yLabel);
// A category axis: keys 1, 2, 3 ... labelled by text ticks, no grid. The
// returned ticker is cleared and refilled on each refresh.
QSharedPointer<QCPAxisTickerText> setCategoryAxis(QCPAxis* axis);
// The category (0-based) of a bar's data point on such an axis.
std::size_t categoryOf(const QCPBars* bars, int dataIndex);
// Bars stacked in the order named (objectName each), on one key.
std::vector<QCPBars*> addStack(QCPAxis* keyAxis, QCPAxis* valueAxis, std::initializer_list<const char*> names);
// Axes, grids and legend in the colours of `palette` (either theme, or
// paper), over every axis rect the plot has.
void stylePlot(QCustomPlot* plot, const QPalette& palette);
// A long category name on two lines, split at the space nearest its middle,
// so neighbouring tick labels do not run into each other.
QString twoLines(const QString& name, int maxOneLine);
// The plot's legend in a row of its own below (or above) the axes.
void legendOutside(QCustomPlot* plot, int columns, bool above = false);

}  // namespace studio
