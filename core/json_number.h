#pragma once
// A figure as JSON: a number, or null where it is not finite (a run that
// never completes has no days). JSON has no infinity.
#include <cmath>

#include "core/design/design.h"

namespace studio {

inline Json finiteOrNull(double v)
{
    return std::isfinite(v) ? Json(v) : Json(nullptr);
}

}  // namespace studio
