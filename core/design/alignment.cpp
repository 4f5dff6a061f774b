#include "core/design/alignment.h"

#include <algorithm>
#include <numeric>

namespace studio {

std::vector<Point> alignBoxes(const std::vector<Box>& boxes, Alignment how)
{
    std::vector<Point> out;
    if (boxes.empty())
        return out;
    // The selection's bounds: every target lies within them, so an aligned
    // item never leaves the area the selection already covered.
    double left = boxes[0].position.x, top = boxes[0].position.y;
    double right = left + boxes[0].size.w, bottom = top + boxes[0].size.h;
    for (const Box& b : boxes) {
        left = std::min(left, b.position.x);
        top = std::min(top, b.position.y);
        right = std::max(right, b.position.x + b.size.w);
        bottom = std::max(bottom, b.position.y + b.size.h);
    }
    for (const Box& b : boxes) {
        Point p = b.position;
        switch (how) {
        case Alignment::Left: p.x = left; break;
        case Alignment::Right: p.x = right - b.size.w; break;
        case Alignment::Top: p.y = top; break;
        case Alignment::Bottom: p.y = bottom - b.size.h; break;
        case Alignment::CentersInRow: p.y = (top + bottom) / 2 - b.size.h / 2; break;
        case Alignment::CentersInColumn: p.x = (left + right) / 2 - b.size.w / 2; break;
        }
        out.push_back(p);
    }
    return out;
}

std::vector<Point> distributeBoxes(const std::vector<Box>& boxes, Distribution how)
{
    std::vector<Point> out;
    for (const Box& b : boxes)
        out.push_back(b.position);
    if (boxes.size() < 3)
        return out;  // two boxes have one gap: nothing to even out
    const bool horizontal = how == Distribution::Horizontal;
    auto start = [&](const Box& b) { return horizontal ? b.position.x : b.position.y; };
    auto length = [&](const Box& b) { return horizontal ? b.size.w : b.size.h; };
    // In order along the axis (ties by input order, so the result is stable).
    std::vector<std::size_t> order(boxes.size());
    std::iota(order.begin(), order.end(), std::size_t{0});
    std::stable_sort(order.begin(), order.end(),
                     [&](std::size_t a, std::size_t b) { return start(boxes[a]) < start(boxes[b]); });
    const Box& first = boxes[order.front()];
    double end = start(first) + length(first);
    double lengths = 0;
    for (const Box& b : boxes) {
        end = std::max(end, start(b) + length(b));
        lengths += length(b);
    }
    // The first keeps its start and the selection keeps its far edge; the
    // gaps share what the boxes leave (negative when they overlap).
    const double gap = (end - start(first) - lengths) / double(boxes.size() - 1);
    double at = start(first);
    for (std::size_t i : order) {
        (horizontal ? out[i].x : out[i].y) = at;
        at += length(boxes[i]) + gap;
    }
    return out;
}

}  // namespace studio
