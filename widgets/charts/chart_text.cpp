#include "widgets/charts/chart_text.h"

#include <QPaintEngine>

namespace studio {

void ChartText::layOut(const QFont& font)
{
    laidText_ = text();
    laidFont_ = font;
    laidAlignment_ = textAlignment();
    const QFontMetrics metrics(font);
    textRect_ = metrics.boundingRect(0, 0, 0, 0, Qt::TextDontClip | laidAlignment_, laidText_);
    lines_.clear();
    for (const QString& line : laidText_.split('\n')) {
        Line l{QStaticText(line), 0};
        l.text.setTextFormat(Qt::PlainText);
        l.text.prepare(QTransform(), font);
        const int width = metrics.horizontalAdvance(line);
        if (laidAlignment_ & Qt::AlignRight)
            l.x = textRect_.width() - width;
        else if (laidAlignment_ & Qt::AlignHCenter)
            l.x = (textRect_.width() - width) / 2;
        lines_.push_back(std::move(l));
    }
}

QPoint ChartText::insideShift(const QPointF& pos, QRect textBoxRect) const
{
    const QRect clip = clipRect();
    if (!qFuzzyIsNull(rotation()) || !clip.contains(pos.toPoint()))
        return {};
    textBoxRect.translate(pos.toPoint());
    const auto along = [](int low, int high, int clipLow, int clipHigh) {
        if (high - low > clipHigh - clipLow || low < clipLow)
            return clipLow - low;  // too wide to fit: its start stays in sight
        return high > clipHigh ? clipHigh - high : 0;
    };
    int dy = along(textBoxRect.top(), textBoxRect.bottom(), clip.top(), clip.bottom());
    const int h = textBoxRect.height();
    if (flips_ && dy > 0 && positionAlignment().testFlag(Qt::AlignBottom) && textBoxRect.bottom() + h <= clip.bottom())
        dy = h;  // under its line
    else if (flips_ && dy < 0 && positionAlignment().testFlag(Qt::AlignTop) && textBoxRect.top() - h >= clip.top())
        dy = -h;  // over it
    return {along(textBoxRect.left(), textBoxRect.right(), clip.left(), clip.right()), dy};
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
        const QMargins pad = padding();
        QRect box = painter->fontMetrics()
                        .boundingRect(0, 0, 0, 0, Qt::TextDontClip | textAlignment(), text())
                        .adjusted(-pad.left(), -pad.top(), pad.right(), pad.bottom());
        box.moveTopLeft(getTextDrawPoint(QPointF(0, 0), box, positionAlignment()).toPoint());
        painter->translate(insideShift(position->pixelPosition(), box));
        QCPItemText::draw(painter);
        painter->restore();
        return;
    }
    const QFont font = mainFont();
    if (laidText_ != text() || laidFont_ != font || laidAlignment_ != textAlignment())
        layOut(font);
    // Placed as QCPItemText places it: rotated about its position, aligned
    // by the position alignment, inside its padding.
    QRect textRect = textRect_;
    const QMargins pad = padding();
    QRect textBoxRect = textRect.adjusted(-pad.left(), -pad.top(), pad.right(), pad.bottom());
    const QPointF textPos = getTextDrawPoint(QPointF(0, 0), textBoxRect, positionAlignment());
    textRect.moveTopLeft(textPos.toPoint() + QPoint(pad.left(), pad.top()));
    textBoxRect.moveTopLeft(textPos.toPoint());
    const QPointF pos = position->pixelPosition() + QPointF(insideShift(position->pixelPosition(), textBoxRect));
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
