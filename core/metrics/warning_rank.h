#pragma once
// Which warnings a design review must see first: a report's cover has room
// for three. Errors, then what makes the design unbuildable or the training
// not fit, then what costs throughput or facility work, then what is
// missing from the drawing.
#include <cstddef>
#include <vector>

#include "core/problem.h"

namespace studio {

// Lower is more important.
int warningRank(const Problem& problem);
// The `n` most important, in rank order (ties keep the analyses' order).
std::vector<Problem> mostImportantWarnings(const std::vector<Problem>& problems, std::size_t n);

}  // namespace studio
