#pragma once
// The Sensitivity panel: what limits this design. The binding constraint in
// a sentence and the SensitivityChart tornado, fed by the
// SensitivityService, beside the what-if upgrades (UpgradesTable); both
// services run only while the panel is shown. On paper (`report`): the
// sentence, the tornado, a row per input and a row per upgrade.
#include "core/scale/sensitivity.h"
#include "widgets/panels/background_panel.h"

class QComboBox;
class QLabel;
class QProgressBar;

namespace studio {

class DesignDocument;
class MessageStack;
class SensitivityChart;
class SensitivityService;
class UpgradesService;
class UpgradesTable;

// The tornado in a few sentences (rich text): the binding constraint and
// today's days and cost.
QString sensitivitySummary(const SensitivityResult& result);

class SensitivityPanel : public BackgroundPanel {
    Q_OBJECT
public:
    SensitivityPanel(DesignDocument* document, AnalysisService* analyses, QWidget* parent = nullptr);

    // The tornado and the upgrades run only while the panel is shown.
    void setShown(bool shown) override;
    std::vector<BackgroundJob*> jobs() const override;
    SensitivityService* service() const { return service_; }
    UpgradesService* upgradesService() const { return upgrades_; }
    // docs/model.md sections 17 and 18 in the design review (none for a
    // layout that cannot run).
    static void report(ReportDocument& doc, const ReportInputs& in);
    // Its tornado and upgrades, off the GUI thread.
    static std::any prepareReport(const Design& design, const Catalog& catalog, const std::atomic<bool>* cancel);

    SensitivityChart* chart() const { return chart_; }
    QLabel* summaryLabel() const { return summary_; }
    MessageStack* messageStack() const { return stack_; }
    UpgradesTable* upgrades() const { return upgradesTable_; }

private:
    void refresh();

    DesignDocument* doc_;
    SensitivityService* service_;
    UpgradesService* upgrades_;
    UpgradesTable* upgradesTable_;
    QProgressBar* progress_;
    QLabel* summary_;
    SensitivityChart* chart_;
    QComboBox* measure_;
    MessageStack* stack_;
};

}  // namespace studio
