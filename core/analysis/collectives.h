#pragma once
// Collective communication costs (Patarasuk and Yuan 2009; seed 002): a ring
// of n participants moving a buffer of M bytes. Time = latency term (alpha per
// step) + bytes moved per participant / achievable bandwidth.
#include <cstdint>

namespace studio {

// Bytes each participant sends in a ring all-reduce: 2(n-1)M/n, tending to 2M.
double ringAllReduceBytes(double bufferBytes, std::int64_t n);
// 2(n-1)/n M / bw + 2(n-1) alpha.
double ringAllReduceSeconds(double bufferBytes, std::int64_t n, double bytesPerSecond, double alphaSeconds);
// Reduce-scatter or all-gather: (n-1)/n M / bw + (n-1) alpha.
double ringGatherSeconds(double bufferBytes, std::int64_t n, double bytesPerSecond, double alphaSeconds);
// All-to-all (expert parallelism): each sends (n-1)/n of its M bytes.
double allToAllSeconds(double bufferBytes, std::int64_t n, double bytesPerSecond, double alphaSeconds);
// Point-to-point send of M bytes.
double sendSeconds(double bytes, double bytesPerSecond, double alphaSeconds);

}  // namespace studio
