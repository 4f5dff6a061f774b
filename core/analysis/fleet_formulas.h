#pragma once
// The closed-form fleet formulas of the seeds (../shared/reference/
// seed-numbers.md), one function each, used by the analyses and tested row by
// row against the seeds' numbers.
#include <cstdint>

namespace studio::fleet {

// R1/R2: roofline. Ridge point = peak / bandwidth; attainable = min(peak, I x BW).
double ridgeFlopPerByte(double peakFlopsPerS, double bytesPerS);
double attainableFlopsPerS(double intensity, double peakFlopsPerS, double bytesPerS);
// R3: single-stream decode reads every weight once per token.
double decodeTokensPerS(double params, double bytesPerParam, double hbmBytesPerS);
// R4: FLOP utilization of decode: 2 FLOPs per parameter per token over the
// GPUs' peak (seed 004: under 5% for 1T dense on 8 x H100 at 20 tokens/s).
double decodeFlopUtilization(double params, double tokensPerS, double gpus, double peakFlopsPerS);
// Little (1961), seed 002: requests in flight = arrival rate x latency.
double littleConcurrency(double arrivalPerS, double latencyS);

// B5: communication-computation ratio rho = T_comm / (T_compute / N).
double commComputeRatio(double commSeconds, double computeSeconds, std::int64_t n);

// C1: mixed-precision Adam training state: 2 (weights) + 2 (gradients) + 4 +
// 4 (Adam moments) + 4 (fp32 master) = 16 bytes/param.
inline constexpr double kTrainingStateBytesPerParam = 16;
// C2: checkpoint state without gradients: 2 + 4 + 4 + 4 = 14 bytes/param.
inline constexpr double kCheckpointBytesPerParam = 14;
double checkpointBytes(double params);
double writeSeconds(double bytes, double bytesPerS);  // C3

// F1: MTBF of N independent components = MTBF_component / N.
double systemMtbf(double componentMtbf, double n);
// F2: P(at least one failure in a window) = 1 - exp(-window / MTBF).
double failureProbability(double windowHours, double mtbfHours);
// F3: goodput after additive overhead fractions (seed 002, table 8).
double goodputAfter(double bubble, double checkpointing, double failureRecovery, double maintenance);

// Young (1974): sqrt(2 delta M). Daly (2006), for delta < 2M:
// sqrt(2 delta M) [1 + 1/3 sqrt(delta/2M) + 1/9 (delta/2M)] - delta; else M.
double youngInterval(double checkpointCost, double mtbf);
double dalyInterval(double checkpointCost, double mtbf);

// U1: delivered = N x peak x MFU x scaling x goodput.
double compoundThroughput(double n, double peak, double mfu, double scalingEfficiency, double goodput);
// U2: Amdahl speedup with serial fraction s on N workers.
double amdahlSpeedup(double serialFraction, double n);
// U3: seed 002 table 5, interpolated in log N: 32 -> 90%, 256 -> 70%,
// 1,024 -> 50%, 8,192 -> 35% (clamped outside).
double empiricalScalingEfficiency(double n);
// U4: the slowest of N ranks with per-rank CV c is c sqrt(2 ln N) behind the mean.
double stragglerTax(double cv, double n);

// P3: forced air removes about 30 kW from a rack; denser racks need liquid.
inline constexpr double kAirCoolingLimitKw = 30;
inline constexpr const char* kAirCoolingLimitSource =
    "Fleet Foundations appendix (seed 002), table 12: air cooling ceiling ~30 kW per rack";

// P1/P2/P4: IT load, facility load, PUE overhead per MW of IT.
double itLoadWatts(double gpus, double tdpWatts);
double facilityLoad(double itLoad, double pue);
double pueOverheadPerItMw(double pue);  // kW of overhead per MW of IT

// M1: MFU = model FLOPs per token x tokens/s / (N x peak).
double mfu(double flopsPerToken, double tokensPerS, double n, double peakFlopsPerS);

}  // namespace studio::fleet
