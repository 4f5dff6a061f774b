#pragma once
// The what-if upgrades of the open design, one row each: what tokens/s,
// wall-clock days, the run's electricity cost and facility power become,
// as a change from today, and an Apply button that makes the upgrade one
// undoable edit. Hover a row for what it changes and how each figure is
// made.
#include <QWidget>

#include "core/scale/upgrades.h"
#include "widgets/document/design_editor.h"

class QLabel;
class QTableWidget;

namespace studio {

class UpgradesService;

class UpgradesTable : public QWidget {
    Q_OBJECT
public:
    UpgradesTable(DesignDocument* document, UpgradesService* service, QWidget* parent = nullptr);

    QTableWidget* table() const { return table_; }
    // Applies the row's upgrade through the editor (one undo step); false,
    // with the reason said, when it cannot.
    bool apply(int row);

signals:
    void message(const QString& text);

private:
    void refresh();

    DesignEditor editor_;
    UpgradesService* service_;
    QLabel* note_;
    QTableWidget* table_;
};

}  // namespace studio
