#pragma once
// A plot's text item that lays its text out once. QCustomPlot's own item
// measures and shapes its text on every replot; a chart has dozens of labels
// and a live edit replots several charts, so that was a third of an edit's
// time. On screen this draws cached static text; into a PDF, SVG or picture
// (a report, an export) it draws as the base item does, so text stays text.
// Either way a label whose anchor is on the plot is moved, whole, inside
// the plot's rectangle rather than cut off at its edge (a label beside a
// line near the left axis lost its first characters at a narrow width),
// and a line wider than the plot breaks at its spaces (the failure panel's
// "this design" label, wider than a short MTBF plot, lost its start).
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
    void setFlipsAtEdge(bool flips)
    {
        flips_ = flips;
        laid_ = false;
    }
    // A label beside a point on a falling curve, anchored at the point
    // above and right of it (or below and left): its lines break to fit
    // between the point and the plot's edge, and it goes to the opposite
    // corner where that fits the plot with less moving, rather than being
    // pushed back over its point; where neither fits as it is, to the
    // plot's corner the text runs towards, away from the curve.
    void setBesidePoint(bool beside)
    {
        beside_ = beside;
        laid_ = false;
    }

protected:
    void draw(QCPPainter* painter) override;

private:
    // Where and how the text goes for a position alignment: the text as
    // drawn (each line wider than its room broken at its spaces; none when
    // turned, as a turned label runs along its own line), its box with the
    // padding about the anchor, and how far to move it to lie in the plot.
    struct Placement {
        QString shown;
        Qt::Alignment position, text;
        QPointF anchor;  // in pixels: the item's position, or a plot corner
        QRect box;
        QPoint shift;
    };
    Placement place(const QFontMetrics& metrics, Qt::Alignment position, QPointF anchor, bool besideAnchor) const;
    // The placement to draw: the label's own, or the opposite corner's.
    Placement choose(const QFontMetrics& metrics) const;
    // How far to move `box` (about the anchor at `pos`) to lie inside the
    // clip rectangle: none when the anchor is off the plot or the text is
    // turned.
    QPoint insideShift(const QPointF& pos, QRect box, Qt::Alignment position) const;
    void layOut(const QFont& font);
    // What the placement and the lines below were made for.
    bool laid_ = false;
    QString laidText_;
    QFont laidFont_;
    Qt::Alignment laidPosition_, laidAlignment_;
    QRect laidClip_;
    QPointF laidAnchor_;
    Placement placement_;
    QRect textRect_;  // at the origin, as QFontMetrics::boundingRect gives it
    struct Line {
        QStaticText text;
        int x = 0;  // within textRect_, by the text alignment
    };
    std::vector<Line> lines_;
    bool flips_ = false;
    bool beside_ = false;
};

}  // namespace studio
