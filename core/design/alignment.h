#pragma once
// Aligning and distributing items on the canvas. Each item is a box in its
// container's coordinates: its position (top-left, as the file has it) and
// the size the canvas draws it at. The result is each box's new position, in
// the order given.
#include <vector>

#include "core/design/design.h"

namespace studio {

struct Box {
    Point position;
    Extent size;
};

enum class Alignment {
    Left,            // left edges on the leftmost
    Right,           // right edges on the rightmost
    Top,             // top edges on the topmost
    Bottom,          // bottom edges on the bottommost
    CentersInRow,    // centres on one horizontal line, the middle of the selection's height
    CentersInColumn  // centres on one vertical line, the middle of the selection's width
};

enum class Distribution {
    Horizontal,  // equal gaps between neighbours left to right; the outermost stay
    Vertical     // the same top to bottom
};

std::vector<Point> alignBoxes(const std::vector<Box>& boxes, Alignment how);
std::vector<Point> distributeBoxes(const std::vector<Box>& boxes, Distribution how);

}  // namespace studio
