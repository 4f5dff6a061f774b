#pragma once
// "Generate fabric": the switch, oversubscription, rails and tiers of a new
// fat tree for the nodes in a scope, with the core generator's sizing shown
// live. Accepting gives the plan to add as one undoable step.
#include <QDialog>

#include "core/design/fabric_plan.h"

class QComboBox;
class QDoubleSpinBox;
class QCheckBox;
class QLabel;
class QDialogButtonBox;

namespace studio {

class DesignDocument;

class FabricDialog : public QDialog {
    Q_OBJECT
public:
    FabricDialog(const DesignDocument& document, const std::string& scope, QWidget* parent = nullptr);
    const FabricPlan& plan() const { return plan_; }

private:
    void replan();
    const DesignDocument& doc_;
    std::string scope_;
    FabricPlan plan_;
    QComboBox *switch_, *tiers_, *role_;
    QDoubleSpinBox* oversubscription_;
    QCheckBox* rails_;
    QLabel* preview_;
    QDialogButtonBox* buttons_;
};

}  // namespace studio
