#pragma once
// The core benchmarks' one way to time a piece of work (no Qt: they link
// only core): seven runs, their milliseconds sorted, so [3] is the median.
#include <algorithm>
#include <chrono>
#include <vector>

namespace studio::bench {

template <typename Run>
std::vector<double> timedMs(Run run)
{
    using Clock = std::chrono::steady_clock;
    std::vector<double> ms;
    for (int i = 0; i < 7; ++i) {
        const auto t0 = Clock::now();
        run();
        ms.push_back(std::chrono::duration<double, std::milli>(Clock::now() - t0).count());
    }
    std::sort(ms.begin(), ms.end());
    return ms;
}

}  // namespace studio::bench
