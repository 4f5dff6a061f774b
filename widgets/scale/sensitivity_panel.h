#pragma once
// The Sensitivity panel: what limits this design. The binding constraint in
// a sentence and the SensitivityChart tornado, fed by the
// SensitivityService, which only runs while the panel is shown.
#include <QWidget>

#include "core/scale/sensitivity.h"

class QLabel;
class QProgressBar;

namespace studio {

class SensitivityChart;
class SensitivityService;

// The tornado in a few sentences (rich text): the binding constraint and
// today's days and cost.
QString sensitivitySummary(const SensitivityResult& result);

class SensitivityPanel : public QWidget {
    Q_OBJECT
public:
    SensitivityPanel(SensitivityService* service, QWidget* parent = nullptr);

    // Whether the user can see the panel: the analysis runs only then.
    void setShown(bool shown);

    SensitivityChart* chart() const { return chart_; }
    QLabel* summaryLabel() const { return summary_; }

private:
    void refresh();

    SensitivityService* service_;
    QProgressBar* progress_;
    QLabel* summary_;
    SensitivityChart* chart_;
};

}  // namespace studio
