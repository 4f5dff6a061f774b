#pragma once
// A compact two-column table of a panel's numbers (name, value), each row
// carrying its explanation as a tooltip. Rows are replaced in place on every
// refresh, so a live edit does not rebuild the widget.
#include <QTableWidget>

#include <vector>

namespace studio {

struct FigureRow {
    QString name, value, tip;
    enum Tone { Normal, Good, Bad, Heading } tone = Normal;
};

class FigureTable : public QTableWidget {
    Q_OBJECT
public:
    explicit FigureTable(QWidget* parent = nullptr);
    void setFigures(const std::vector<FigureRow>& figures);
    // The value shown beside `name` ("" when absent): for tests.
    QString valueOf(const QString& name) const;
    QSize sizeHint() const override;
};

}  // namespace studio
