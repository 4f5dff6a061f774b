#pragma once
// The Sensitivity panel: what limits this design. The binding constraint in
// a sentence and the SensitivityChart tornado, fed by the
// SensitivityService, beside the what-if upgrades (UpgradesTable); both
// services run only while the panel is shown.
#include <QWidget>

#include "core/scale/sensitivity.h"

class QLabel;
class QProgressBar;

namespace studio {

class DesignDocument;
class SensitivityChart;
class SensitivityService;
class UpgradesService;
class UpgradesTable;

// The tornado in a few sentences (rich text): the binding constraint and
// today's days and cost.
QString sensitivitySummary(const SensitivityResult& result);

class SensitivityPanel : public QWidget {
    Q_OBJECT
public:
    SensitivityPanel(DesignDocument* document, SensitivityService* service, UpgradesService* upgrades,
                     QWidget* parent = nullptr);

    // Whether the user can see the panel: the analysis runs only then.
    void setShown(bool shown);

    SensitivityChart* chart() const { return chart_; }
    QLabel* summaryLabel() const { return summary_; }
    UpgradesTable* upgrades() const { return upgradesTable_; }

private:
    void refresh();

    SensitivityService* service_;
    UpgradesService* upgrades_;
    UpgradesTable* upgradesTable_;
    QProgressBar* progress_;
    QLabel* summary_;
    SensitivityChart* chart_;
};

}  // namespace studio
