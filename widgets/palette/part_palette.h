#pragma once
// The parts palette: the catalog by category, with a search box, an icon
// and a tooltip of key figures per part. Drag a part onto the canvas.
#include <QWidget>

class QLineEdit;
class QTreeWidget;

namespace studio {

class Catalog;
struct Part;

// A part's key figures as rich text, each with its unit and uncertain ones
// marked, for tooltips.
QString partSummaryHtml(const Part& part, int maxFigures = 8);

class PartPalette : public QWidget {
    Q_OBJECT
public:
    explicit PartPalette(QWidget* parent = nullptr);
    void setCatalog(const Catalog& catalog);

private:
    void filter(const QString& text);
    QLineEdit* search_;
    QTreeWidget* tree_;
};

}  // namespace studio
