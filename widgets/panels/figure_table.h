#pragma once
// A compact two-column table of a panel's numbers (name, value), each row
// explaining itself on hover. Rows are replaced in place on every refresh
// (unchanged cells untouched), and tips are built only when asked for, so a
// live edit costs the table next to nothing.
#include <QTableWidget>

#include <functional>
#include <string>
#include <vector>

namespace studio {

struct FigureRow {
    QString name, value;
    QString tip;  // a fixed tip; else the explainer's for `explainKey`
    enum Tone { Normal, Good, Bad, Heading } tone = Normal;
    std::string explainKey;
};

// A row whose tip is the explanation of a metrics key.
inline FigureRow explained(QString name, QString value, std::string key, FigureRow::Tone tone = FigureRow::Normal)
{
    return {std::move(name), std::move(value), {}, tone, std::move(key)};
}

class FigureTable : public QTableWidget {
    Q_OBJECT
public:
    using Explainer = std::function<QString(const QString& name, const QString& value, const std::string& key)>;
    explicit FigureTable(QWidget* parent = nullptr);
    void setExplainer(Explainer explainer) { explainer_ = std::move(explainer); }
    void setFigures(const std::vector<FigureRow>& figures);
    const std::vector<FigureRow>& figures() const { return rows_; }
    // The value shown beside `name` ("" when absent), and its tip: for tests.
    QString valueOf(const QString& name) const;
    QString tipOf(const QString& name) const;
    QSize sizeHint() const override;

protected:
    bool viewportEvent(QEvent* event) override;

private:
    QString tipFor(int row) const;
    std::vector<FigureRow> rows_;
    Explainer explainer_;
};

}  // namespace studio
