#pragma once
// A plot's text item that lays its text out once. QCustomPlot's own item
// measures and shapes its text on every replot; a chart has dozens of labels
// and a live edit replots several charts, so that was a third of an edit's
// time. On screen this draws cached static text; into a PDF, SVG or picture
// (a report, an export) it draws as the base item does, so text stays text.
// Either way a label whose anchor is on the plot is moved, whole, inside
// the plot's rectangle rather than cut off at its edge (a label beside a
// line near the left axis lost its first characters at a narrow width).
#include <QFont>
#include <QStaticText>
#include <QString>

#include <vector>

#include <qcustomplot.h>

namespace studio {

class ChartText : public QCPItemText {
public:
    explicit ChartText(QCustomPlot* plot) : QCPItemText(plot) {}

    // A label above (below) a line that the plot's edge would cut goes to
    // the line's other side where it fits there, rather than sliding onto
    // the line it labels: for a line with nothing drawn just beside it (a
    // capacity over the columns that fill it), not a bar's end.
    void setFlipsAtEdge(bool flips) { flips_ = flips; }

protected:
    void draw(QCPPainter* painter) override;

private:
    void layOut(const QFont& font);
    // How far to move the text box, placed at `pos`, to lie inside the
    // clip rectangle: none when the anchor is off the plot or the text is
    // turned.
    QPoint insideShift(const QPointF& pos, QRect textBoxRect) const;
    // What the layout below was made for.
    QString laidText_;
    QFont laidFont_;
    Qt::Alignment laidAlignment_;
    QRect textRect_;  // at the origin, as QFontMetrics::boundingRect gives it
    struct Line {
        QStaticText text;
        int x = 0;  // within textRect_, by the text alignment
    };
    std::vector<Line> lines_;
    bool flips_ = false;
};

}  // namespace studio
