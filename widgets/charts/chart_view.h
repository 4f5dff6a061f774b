#pragma once
// Where an analysis is drawn: its renderer's plots (and, for a panel, its
// table of numbers) in one widget. The one hover/explain implementation
// (every point, bar, line or label answers with its formula, inputs and
// sources), the one plot-export menu (PNG, SVG, PDF), theme restyling, and
// lazy redrawing: new designs mark the view dirty, and only a view on
// screen redraws (a hidden tab when shown, a grid cell when scrolled into
// view). A plot whose content did not change is not replotted: most edits
// touch one or two of the nine plots, and a replot is the cost of an edit.
#include <QHash>
#include <QList>
#include <QString>
#include <QWidget>

#include <functional>
#include <memory>
#include <optional>
#include <string_view>
#include <vector>

#include "core/metrics/explanations.h"
#include "widgets/charts/chart_renderer.h"

class QCPAbstractItem;
class QCPAbstractPlottable;
class QCPItemText;
class QCustomPlot;
class QGridLayout;
class QLabel;

namespace studio {

struct AnalysisEntry;
class FigureTable;

class ChartView : public QWidget {
    Q_OBJECT
public:
    // `withFigures`: the entry's table of numbers beside the plots (a panel).
    ChartView(const AnalysisEntry& entry, bool withFigures, QWidget* parent = nullptr);
    ~ChartView() override;

    const AnalysisEntry& entry() const { return entry_; }
    QString key() const;
    QString title() const;

    // The designs to draw (one, or two to four overlaid); redraws now when on
    // screen, else when next seen.
    void setDesigns(std::vector<ChartDesign> designs);
    // Nothing to draw, and why (the design has errors): shown instead.
    void setMessage(const QString& text);
    const std::vector<ChartDesign>& designs() const { return designs_; }

    const QList<QCustomPlot*>& plots() const { return plots_; }
    QCustomPlot* plot(const QString& name) const;
    FigureTable* figureTable() const { return figureTable_; }
    template <typename Renderer>
    Renderer* renderer() const
    {
        return dynamic_cast<Renderer*>(renderer_.get());
    }

    // Writes `plot` by the file's suffix: .png, .svg or .pdf.
    bool exportPlot(QCustomPlot* plot, const QString& fileName) const;
    // Redraws now if anything changed since the last redraw.
    void refreshNow();
    bool isDirty() const { return dirty_; }
    bool isOnScreen() const;
    int refreshCount() const { return refreshes_; }
    // Plots replotted so far (a refresh replots only the plots that changed).
    int replotCount() const { return replots_; }
    // The hover tip at a pixel of `plot` ("" when nothing is there).
    QString tipAt(QCustomPlot* plot, const QPointF& pixel) const;

    // --- for renderers
    // A property of items a renderer places after the plot's layout (labels
    // that find room around points): where they end up is no change of content.
    static constexpr char kPlacedAfterLayout[] = "placedAfterLayout";
    QCustomPlot* addPlot(const QString& name);
    QGridLayout* grid() const { return grid_; }
    // Tips for a plottable (by data index) or an item, built when hovered.
    void setTip(QCPAbstractPlottable* plottable, std::function<QString(int index)> tip);
    void setTip(QCPAbstractItem* item, std::function<QString()> tip);
    // The explanation of a metrics key (core/metrics/explanations.h) of the
    // design-th design, as a tip titled `title` (with the design's name when
    // designs are overlaid).
    QString tip(std::size_t design, const QString& title, const QString& value, std::string_view key) const;
    const Explanation* explanation(std::size_t design, std::string_view key) const;
    QColor textColor(bool muted = false) const;
    // A pool of text items reused between draws; returns the i-th, shown.
    QCPItemText* label(QCustomPlot* plot, std::vector<QCPItemText*>& pool, std::size_t i);
    static void hideFrom(std::vector<QCPItemText*>& pool, std::size_t used);

protected:
    void showEvent(QShowEvent* event) override;
    void paintEvent(QPaintEvent* event) override;
    void changeEvent(QEvent* event) override;

private:
    void restyle();
    void showPlots(bool shown);
    void hover(QCustomPlot* plot, const QPointF& pos, const QPoint& globalPos);

    const AnalysisEntry& entry_;
    std::unique_ptr<ChartRenderer> renderer_;
    std::vector<ChartDesign> designs_;
    mutable std::vector<std::optional<std::vector<ExplainedMetric>>> explained_;
    QGridLayout* grid_;
    QList<QCustomPlot*> plots_;
    std::vector<std::uint64_t> drawn_;  // each plot's content when last replotted
    QLabel* message_;
    FigureTable* figureTable_ = nullptr;
    QHash<const QObject*, std::function<QString(int)>> tips_;
    bool dirty_ = true;
    bool restyled_ = true;  // every plot replots on the next refresh
    int refreshes_ = 0;
    int replots_ = 0;
};

}  // namespace studio
