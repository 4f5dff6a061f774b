#pragma once
// The Serving panel, for a design whose workload is serving: one sentence
// with the served batch, its speeds and the replicas the arrival rate
// needs; the trade between each user's tokens/s and each GPU's as the
// batch grows (the latency target drawn, the served batch starred); and
// one GPU's HBM: weights, the batch's KV cache and what is left. Figures
// from core/serving (AnalysisService), each explaining itself on hover.
#include <QWidget>

class QLabel;
class QMouseEvent;
class QTableWidget;

namespace studio {

class AnalysisService;
class ChartPlot;
struct Serving;

class ServingPanel : public QWidget {
    Q_OBJECT
public:
    explicit ServingPanel(AnalysisService* analyses, QWidget* parent = nullptr);

    QLabel* summaryLabel() const { return summary_; }
    ChartPlot* curvePlot() const { return curve_; }
    ChartPlot* memoryPlot() const { return memory_; }
    QTableWidget* figureTable() const { return figures_; }

protected:
    void changeEvent(QEvent* event) override;

private:
    void refresh();
    void drawCurve(const Serving& s);
    void drawMemory(const Serving& s);
    void fillFigures(const Serving& s);
    void showTip(QMouseEvent* event);

    AnalysisService* analyses_;
    QLabel* summary_;
    ChartPlot *curve_, *memory_;
    QTableWidget* figures_;
};

}  // namespace studio
