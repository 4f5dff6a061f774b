#pragma once
// Efficiency curves measured at a few sizes (GEMM FLOPs, kernel bytes,
// message bytes) read between their points: linear in log(size), flat
// beyond the first and the last point.
#include <cmath>
#include <cstddef>
#include <utility>

namespace studio {

template <std::size_t N>
double logInterpolate(const std::pair<double, double> (&pts)[N], double x)
{
    if (!(x > pts[0].first))
        return pts[0].second;
    for (std::size_t i = 1; i < N; ++i)
        if (x <= pts[i].first) {
            const double f =
                (std::log(x) - std::log(pts[i - 1].first)) / (std::log(pts[i].first) - std::log(pts[i - 1].first));
            return pts[i - 1].second + f * (pts[i].second - pts[i - 1].second);
        }
    return pts[N - 1].second;
}

}  // namespace studio
