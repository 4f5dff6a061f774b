#pragma once
// A chart's table of numbers: two columns (name, value), headings across
// both, good values in bold and bad rows in the warning colour, each row
// explaining itself on hover. It paints its rows itself from cached text
// layouts: a live edit changes a few values, and redrawing them costs next
// to nothing (an item view re-measured every cell on each change). Scrolls
// when the rows outgrow it; Ctrl+C or the context menu copies the rows as
// tab-separated text.
#include <QAbstractScrollArea>
#include <QStaticText>

#include <functional>
#include <string>
#include <vector>

#include "widgets/charts/explain_html.h"

namespace studio {

struct FigureRow {
    QString name, value;
    QString tip;  // a fixed tip; else the explainer's for `explainKey`
    enum Tone { Normal, Good, Bad, Heading } tone = Normal;
    std::string explainKey;
    bool operator==(const FigureRow&) const = default;
};

// A row whose tip is the explanation of a metrics key.
inline FigureRow explained(QString name, QString value, std::string key, FigureRow::Tone tone = FigureRow::Normal)
{
    return {std::move(name), std::move(value), {}, tone, std::move(key)};
}

// A row that shows its value only when the model gives one (`why` empty);
// otherwise "not runnable" or "never completes", its tip saying why.
inline FigureRow explainedIf(const std::string& why, QString name, QString value, std::string key,
                             FigureRow::Tone tone = FigureRow::Normal)
{
    if (why.empty())
        return explained(std::move(name), std::move(value), std::move(key), tone);
    return explained(std::move(name), unavailableLabel(why), std::move(key), FigureRow::Bad);
}

class FigureTable : public QAbstractScrollArea {
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
    // The names the table's width cuts short (drawn elided beside their
    // values).
    QStringList cutNames() const;
    // The rows as tab-separated lines, as Copy puts them on the clipboard.
    QString text() const;
    int rowAt(int y) const;  // viewport y; -1 below the last row
    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

protected:
    void paintEvent(QPaintEvent* event) override;
    bool viewportEvent(QEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    void changeEvent(QEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;
    void contextMenuEvent(QContextMenuEvent* event) override;

private:
    struct Line {
        QStaticText name, value;
        int valueWidth = -1;  // measured at the first paint after a change
        int nameRoom = -1;    // the width `name` was elided to
    };
    QString tipFor(int row) const;
    int rowHeight() const;
    void updateScrollBar();
    void copy() const;
    std::vector<FigureRow> rows_;
    std::vector<Line> lines_;
    Explainer explainer_;
};

}  // namespace studio
