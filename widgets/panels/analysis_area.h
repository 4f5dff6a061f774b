#pragma once
// The analysis panels (one chart view per entry of the analysis registry,
// fed the open design's analysis), as tabs or as a grid, the user's choice
// (kept in QSettings with the tab last shown). In tabs only the current
// panel redraws on an edit; the others redraw when shown. The grid has as
// many columns as fit at a readable width and scrolls below that.
#include <QList>
#include <QWidget>

class QButtonGroup;
class QScrollArea;
class QStackedWidget;
class QTabWidget;

namespace studio {

class AnalysisService;
class ChartView;

class AnalysisArea : public QWidget {
    Q_OBJECT
public:
    enum class Mode { Tabs, Grid };
    explicit AnalysisArea(AnalysisService* service, QWidget* parent = nullptr);

    Mode mode() const { return mode_; }
    void setMode(Mode mode);
    const QList<ChartView*>& panels() const { return panels_; }
    // By the analysis' key (analysis_registry.h): roofline, hierarchy, ...
    ChartView* panel(const QString& key) const;
    void showPanel(const QString& key);
    QString currentKey() const;

signals:
    void modeChanged(Mode mode);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    static constexpr int kGridCellWidth = 720;
    void arrange();
    void reflow();
    void feed();
    AnalysisService* service_;
    QList<ChartView*> panels_;
    QStringList keys_;
    QStackedWidget* stack_;
    QTabWidget* tabs_;
    QScrollArea* gridScroll_;
    QWidget* gridBody_;
    QWidget* switcher_;
    QList<QWidget*> frames_;  // a titled frame per panel in the grid
    QButtonGroup* buttons_;
    Mode mode_ = Mode::Tabs;
    int columns_ = 0;
};

}  // namespace studio
