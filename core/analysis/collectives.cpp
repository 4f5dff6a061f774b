#include "core/analysis/collectives.h"

namespace studio {

double ringAllReduceBytes(double bufferBytes, std::int64_t n)
{
    return n <= 1 ? 0 : 2.0 * double(n - 1) * bufferBytes / double(n);
}

double ringAllReduceSeconds(double bufferBytes, std::int64_t n, double bytesPerSecond, double alphaSeconds)
{
    if (n <= 1 || bytesPerSecond <= 0)
        return 0;
    return ringAllReduceBytes(bufferBytes, n) / bytesPerSecond + 2.0 * double(n - 1) * alphaSeconds;
}

double ringGatherSeconds(double bufferBytes, std::int64_t n, double bytesPerSecond, double alphaSeconds)
{
    if (n <= 1 || bytesPerSecond <= 0)
        return 0;
    return double(n - 1) / double(n) * bufferBytes / bytesPerSecond + double(n - 1) * alphaSeconds;
}

double allToAllSeconds(double bufferBytes, std::int64_t n, double bytesPerSecond, double alphaSeconds)
{
    return ringGatherSeconds(bufferBytes, n, bytesPerSecond, alphaSeconds);
}

double sendSeconds(double bytes, double bytesPerSecond, double alphaSeconds)
{
    return bytesPerSecond <= 0 ? 0 : bytes / bytesPerSecond + alphaSeconds;
}

}  // namespace studio
