#include "core/analysis/fleet_formulas.h"

#include <algorithm>
#include <cmath>

namespace studio::fleet {

double ridgeFlopPerByte(double peak, double bw)
{
    return bw > 0 ? peak / bw : 0;
}

double attainableFlopsPerS(double intensity, double peak, double bw)
{
    return std::min(peak, intensity * bw);
}

double decodeTokensPerS(double params, double bytesPerParam, double hbm)
{
    const double bytes = params * bytesPerParam;
    return bytes > 0 ? hbm / bytes : 0;
}

double decodeFlopUtilization(double params, double tokensPerS, double gpus, double peakFlopsPerS)
{
    return 2 * params * tokensPerS / (gpus * peakFlopsPerS);
}

double littleConcurrency(double arrivalPerS, double latencyS)
{
    return arrivalPerS * latencyS;
}

double commComputeRatio(double comm, double compute, std::int64_t n)
{
    const double perRank = compute / double(std::max<std::int64_t>(1, n));
    return perRank > 0 ? comm / perRank : 0;
}

double checkpointBytes(double params)
{
    return kCheckpointBytesPerParam * params;
}

double writeSeconds(double bytes, double bw)
{
    return bw > 0 ? bytes / bw : 0;
}

double systemMtbf(double componentMtbf, double n)
{
    return n > 0 ? componentMtbf / n : 0;
}

double failureProbability(double window, double mtbf)
{
    return mtbf > 0 ? 1 - std::exp(-window / mtbf) : 1;
}

double goodputAfter(double bubble, double checkpointing, double recovery, double maintenance)
{
    return std::clamp(1 - bubble - checkpointing - recovery - maintenance, 0.0, 1.0);
}

double youngInterval(double delta, double mtbf)
{
    return std::sqrt(2 * delta * mtbf);
}

double dalyInterval(double delta, double mtbf)
{
    if (delta >= 2 * mtbf)
        return mtbf;
    const double x = delta / (2 * mtbf);
    return std::sqrt(2 * delta * mtbf) * (1 + std::sqrt(x) / 3 + x / 9) - delta;
}

double compoundThroughput(double n, double peak, double mfu, double scaling, double goodput)
{
    return n * peak * mfu * scaling * goodput;
}

double amdahlSpeedup(double s, double n)
{
    return 1 / (s + (1 - s) / n);
}

double empiricalScalingEfficiency(double n)
{
    static const double pts[][2] = {{32, 0.90}, {256, 0.70}, {1024, 0.50}, {8192, 0.35}};
    if (n <= pts[0][0])
        return pts[0][1];
    for (int i = 1; i < 4; ++i)
        if (n <= pts[i][0]) {
            const double f = std::log(n / pts[i - 1][0]) / std::log(pts[i][0] / pts[i - 1][0]);
            return pts[i - 1][1] + f * (pts[i][1] - pts[i - 1][1]);
        }
    return pts[3][1];
}

double stragglerTax(double cv, double n)
{
    return n > 1 ? cv * std::sqrt(2 * std::log(n)) : 0;
}

double itLoadWatts(double gpus, double tdp)
{
    return gpus * tdp;
}

double facilityLoad(double itLoad, double pue)
{
    return itLoad * pue;
}

double pueOverheadPerItMw(double pue)
{
    return (pue - 1) * 1000;
}

double mfu(double flopsPerToken, double tokensPerS, double n, double peak)
{
    return n > 0 && peak > 0 ? flopsPerToken * tokensPerS / (n * peak) : 0;
}

}  // namespace studio::fleet
