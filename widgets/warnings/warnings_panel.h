#pragma once
// The warnings dock: every problem the core finds (validation errors and
// analysis warnings), newest analysis first; clicking one selects the item
// it is about.
#include <QTreeWidget>

namespace studio {

class AnalysisService;

class WarningsPanel : public QTreeWidget {
    Q_OBJECT
public:
    explicit WarningsPanel(AnalysisService* analysis, QWidget* parent = nullptr);

signals:
    void componentActivated(const QString& id);

private:
    void refresh();
    AnalysisService* analysis_;
    QList<QStringList> shown_;  // per row: severity, message, where, code, component
};

}  // namespace studio
