#pragma once
// The History dock: every undo step of the open design, the one the design
// is at selected (clicking one undoes or redoes to it), and under it how
// many steps the history holds against the most it keeps.
#include <QWidget>

class QLabel;

namespace studio {

class DesignDocument;

class HistoryPanel : public QWidget {
    Q_OBJECT
public:
    explicit HistoryPanel(DesignDocument* document, QWidget* parent = nullptr);
    // What the line under the list says; call after the limit changes.
    void refresh();
    QString sizeText() const;

private:
    DesignDocument* doc_;
    QLabel* size_;
};

}  // namespace studio
