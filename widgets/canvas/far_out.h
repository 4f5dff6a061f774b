#pragma once
// Whether a painter draws the canvas far out on screen (below
// ItemMetrics::kDetailZoom): there items draw their outline and fill only,
// their text a few pixels high. Pictures and PDFs (the design review's
// canvas) get the whole drawing at any scale: they are read zoomed in.
#include <QPaintEngine>
#include <QPainter>
#include <QStyleOptionGraphicsItem>

#include "widgets/canvas/item_metrics.h"

namespace studio {

inline bool drawnFarOut(const QPainter* painter)
{
    return painter->paintEngine() && painter->paintEngine()->type() == QPaintEngine::Raster &&
        QStyleOptionGraphicsItem::levelOfDetailFromTransform(painter->worldTransform()) < ItemMetrics::kDetailZoom;
}

}  // namespace studio
