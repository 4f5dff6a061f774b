#include "widgets/charts/chart_text.h"

#include <QPaintEngine>

#include "widgets/charts/chart_style.h"

namespace studio {

ChartText::Placement ChartText::place(const QFontMetrics& metrics, Qt::Alignment position, QPointF anchor,
                                      bool besideAnchor) const
{
    Placement p;
    p.position = position;
    p.anchor = anchor;
    p.text = textAlignment();
    const QMargins pad = padding();
    const QRect clip = clipRect();
    int room = clip.width();
    if (beside_)  // the text runs away from its anchor, aligned on that side
        p.text = (textAlignment() & ~Qt::AlignHorizontal_Mask) | (position & Qt::AlignHorizontal_Mask);
    if (besideAnchor) {
        if (position.testFlag(Qt::AlignLeft))
            room = int(clip.left() + clip.width() - anchor.x());
        else if (position.testFlag(Qt::AlignRight))
            room = int(anchor.x() - clip.left());
    }
    room -= pad.left() + pad.right();
    p.shown = qFuzzyIsNull(rotation()) && room > 0 ? wrapLines(text(), metrics, room) : text();
    p.box = metrics.boundingRect(0, 0, 0, 0, Qt::TextDontClip | p.text, p.shown)
                .adjusted(-pad.left(), -pad.top(), pad.right(), pad.bottom());
    p.box.moveTopLeft(getTextDrawPoint(QPointF(0, 0), p.box, position).toPoint());
    p.shift = insideShift(anchor, p.box, position);
    return p;
}

ChartText::Placement ChartText::choose(const QFontMetrics& metrics) const
{
    const QPointF at = position->pixelPosition();
    Placement own = place(metrics, positionAlignment(), at, beside_);
    if (!beside_ || (own.shift.isNull() && own.shown == text()))
        return own;
    const auto mirrored = [](Qt::Alignment a) {
        Qt::Alignment m = a & ~(Qt::AlignHorizontal_Mask | Qt::AlignVertical_Mask);
        m |= a.testFlag(Qt::AlignLeft) ? Qt::AlignRight : a.testFlag(Qt::AlignRight) ? Qt::AlignLeft : Qt::AlignHCenter;
        m |= a.testFlag(Qt::AlignTop) ? Qt::AlignBottom : a.testFlag(Qt::AlignBottom) ? Qt::AlignTop : Qt::AlignVCenter;
        return m;
    };
    // Of the two that fit without moving, the one on fewer lines.
    Placement other = place(metrics, mirrored(positionAlignment()), at, true);
    if (other.shift.isNull())
        return own.shift.isNull() && own.shown.count('\n') <= other.shown.count('\n') ? own : other;
    if (own.shift.isNull())
        return own;
    // The plot's corner the text runs towards (above and right of a point:
    // the top right), the text running back into the plot from it.
    const QRectF clip(clipRect());
    const QPointF corner(positionAlignment().testFlag(Qt::AlignRight) ? clip.left() : clip.right(),
                         positionAlignment().testFlag(Qt::AlignTop) ? clip.bottom() : clip.top());
    return place(metrics, mirrored(positionAlignment()), corner, false);
}

void ChartText::layOut(const QFont& font)
{
    const QFontMetrics metrics(font);
    const Placement before = placement_;
    placement_ = choose(metrics);
    // A label whose anchor or plot only moved keeps its prepared lines:
    // shaping them is what a replot of dozens of labels cannot afford.
    const bool sameLines =
        laid_ && laidFont_ == font && before.shown == placement_.shown && before.text == placement_.text;
    laid_ = true;
    laidText_ = text();
    laidFont_ = font;
    laidPosition_ = positionAlignment();
    laidAlignment_ = textAlignment();
    laidClip_ = clipRect();
    laidAnchor_ = position->pixelPosition();  // what `placement_` was made from
    if (sameLines)
        return;
    textRect_ = metrics.boundingRect(0, 0, 0, 0, Qt::TextDontClip | placement_.text, placement_.shown);
    lines_.clear();
    for (const QString& line : placement_.shown.split('\n')) {
        Line l{QStaticText(line), 0};
        l.text.setTextFormat(Qt::PlainText);
        l.text.prepare(QTransform(), font);
        const int width = metrics.horizontalAdvance(line);
        if (placement_.text & Qt::AlignRight)
            l.x = textRect_.width() - width;
        else if (placement_.text & Qt::AlignHCenter)
            l.x = (textRect_.width() - width) / 2;
        lines_.push_back(std::move(l));
    }
}

QPoint ChartText::insideShift(const QPointF& pos, QRect box, Qt::Alignment position) const
{
    const QRect clip = clipRect();
    // Its far edges count as on the plot: a label pinned to the top-right
    // corner sits at x + width, one past QRect's right().
    if (!qFuzzyIsNull(rotation()) || !QRectF(clip).contains(pos))
        return {};
    box.translate(pos.toPoint());
    const auto along = [](int low, int high, int clipLow, int clipHigh) {
        if (high - low > clipHigh - clipLow || low < clipLow)
            return clipLow - low;  // too wide to fit: its start stays in sight
        return high > clipHigh ? clipHigh - high : 0;
    };
    int dy = along(box.top(), box.bottom(), clip.top(), clip.bottom());
    const int h = box.height();
    if (flips_ && dy > 0 && position.testFlag(Qt::AlignBottom) && box.bottom() + h <= clip.bottom())
        dy = h;  // under its line
    else if (flips_ && dy < 0 && position.testFlag(Qt::AlignTop) && box.top() - h >= clip.top())
        dy = -h;  // over it
    return {along(box.left(), box.right(), clip.left(), clip.right()), dy};
}

void ChartText::draw(QCPPainter* painter)
{
    // Exports and reports keep the base item's text: real text in a PDF.
    if (!painter->paintEngine() || painter->paintEngine()->type() != QPaintEngine::Raster ||
        painter->modes().testFlag(QCPPainter::pmVectorized)) {
        // The base item measures with the painter's font metrics; the
        // clip was set before, so a translation moves the text, not it.
        painter->save();
        painter->setFont(mainFont());
        const Placement p = choose(painter->fontMetrics());
        painter->translate(p.anchor - position->pixelPosition() + QPointF(p.shift));
        // The base item draws its own text and alignments: the placement's
        // for this draw, the label's own again after.
        const QString whole = text();
        const Qt::Alignment position = positionAlignment(), alignment = textAlignment();
        setText(p.shown);
        setPositionAlignment(p.position);
        setTextAlignment(p.text);
        QCPItemText::draw(painter);
        setText(whole);
        setPositionAlignment(position);
        setTextAlignment(alignment);
        painter->restore();
        return;
    }
    const QFont font = mainFont();
    if (!laid_ || laidText_ != text() || laidFont_ != font || laidPosition_ != positionAlignment() ||
        laidAlignment_ != textAlignment() || laidClip_ != clipRect() || laidAnchor_ != position->pixelPosition())
        layOut(font);
    // Placed as QCPItemText places it: rotated about its position, aligned
    // by the position alignment, inside its padding.
    const QMargins pad = padding();
    const QRect textBoxRect = placement_.box;
    QRect textRect = textRect_;
    textRect.moveTopLeft(textBoxRect.topLeft() + QPoint(pad.left(), pad.top()));
    const QPointF pos = placement_.anchor + QPointF(placement_.shift);
    QTransform transform = painter->transform();
    transform.translate(pos.x(), pos.y());
    if (!qFuzzyIsNull(rotation()))
        transform.rotate(rotation());
    const int clipPad = qCeil(mainPen().widthF());
    const QRect bounds = textBoxRect.adjusted(-clipPad, -clipPad, clipPad, clipPad);
    if (!transform.mapRect(bounds).intersects(painter->transform().mapRect(clipRect())))
        return;
    painter->setTransform(transform);
    if ((mainBrush().style() != Qt::NoBrush && mainBrush().color().alpha() != 0) ||
        (mainPen().style() != Qt::NoPen && mainPen().color().alpha() != 0)) {
        painter->setPen(mainPen());
        painter->setBrush(mainBrush());
        painter->drawRect(textBoxRect);
    }
    painter->setBrush(Qt::NoBrush);
    painter->setPen(QPen(mainColor()));
    painter->setFont(font);
    const int lineHeight = lines_.empty() ? 0 : textRect.height() / int(lines_.size());
    for (std::size_t i = 0; i < lines_.size(); ++i)
        painter->drawStaticText(textRect.left() + lines_[i].x, textRect.top() + int(i) * lineHeight, lines_[i].text);
}

}  // namespace studio
