#pragma once
// A figure as JSON. JSON has no NaN or infinity: a figure that can be
// infinite (a run that never completes has no days) is null, and one the
// analyses keep finite for every valid design is guarded to 0 as the last
// line of defence, so the output stays valid JSON.
//
// The fuzzing build (STUDIO_FUZZ, tests/fuzz) stops at the guard instead:
// a NaN anywhere, or an infinity where the figure should be finite, is a
// bug in the analysis that made it, and the stack says which figure.
#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "core/design/design.h"

namespace studio {

namespace detail {
[[noreturn]] inline void nonFiniteFigure(double v)
{
    std::fprintf(stderr, "cluster-studio: a figure is %f on its way to an output\n", v);
    std::fflush(stderr);
    std::abort();
}
}  // namespace detail

inline Json finiteOrNull(double v)
{
#ifdef STUDIO_FUZZING
    if (std::isnan(v))
        detail::nonFiniteFigure(v);
#endif
    return std::isfinite(v) ? Json(v) : Json(nullptr);
}

inline double finiteOrZero(double v)
{
#ifdef STUDIO_FUZZING
    if (!std::isfinite(v))
        detail::nonFiniteFigure(v);
#endif
    return std::isfinite(v) ? v : 0.0;
}

}  // namespace studio
