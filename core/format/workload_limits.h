#pragma once
// The range each workload input may take: the reader enforces them on files
// and the workload dock gives its fields the same ranges, so every value the
// studio lets a user type can be saved and read back.
#include <cstdint>

#include "core/design/design.h"

namespace studio::limits {

struct IntRange {
    std::int64_t min, max;
};

inline constexpr IntRange kLayers{1, 100'000};
inline constexpr IntRange kHidden{1, kMaxCount};
inline constexpr IntRange kHeads{1, 100'000};
inline constexpr IntRange kFfnHidden{1, 100'000'000};
inline constexpr IntRange kVocab{1, 100'000'000};
inline constexpr IntRange kSeqLen{1, 100'000'000};
inline constexpr IntRange kExperts{0, 100'000};
inline constexpr IntRange kGlobalBatch{1, 1'000'000'000};
inline constexpr IntRange kParallel{1, kMaxCount};  // tp, pp, cp, ep
inline constexpr IntRange kDp{0, kMaxCount};        // 0 derives it
inline constexpr IntRange kInterleave{1, 1'000};
inline constexpr IntRange kZero{0, 3};
inline constexpr double kDropoutMax = 0.9;
inline constexpr double kTokensMax = 1e18;
inline constexpr double kBytesPerTokenMax = 1e6;
inline constexpr double kFileMbMax = 1e9;
inline constexpr IntRange kServingTokens{1, 100'000'000};  // prompt and output lengths
inline constexpr IntRange kServingBatch{0, 1'000'000};     // 0 fits as many as it can
inline constexpr IntRange kServingWorkers{1, kMaxCount};   // a disaggregated layout's workers of one kind
inline constexpr IntRange kEngineStepTokens{1, 10'000'000};  // an engine step's token budget
inline constexpr IntRange kEngineMaxRequests{1, 1'000'000};  // an engine's requests in flight
inline constexpr double kArrivalRateMax = 1e9;
inline constexpr double kLatencyTargetMax = 1e6;  // seconds

}  // namespace studio::limits
