#pragma once
// The roofline of one GPU (Williams et al. 2009; seed 002): compute ceilings
// per precision, the HBM slope and ridge points, the fleet's slower slopes
// per GPU (NVLink, scale-out NIC, storage, one direction each: bytes arriving
// at the GPU), and the workload's operations placed by intensity.
#include <string>
#include <vector>

#include "core/analysis/explanation.h"
#include "core/analysis/hardware_profile.h"
#include "core/analysis/hierarchy.h"
#include "core/analysis/step_time.h"

namespace studio {

struct Ceiling {
    std::string precision;
    double tflops = 0;
    double ridgeFlopPerByte = 0;  // against HBM
};

struct Slope {
    std::string key, name;
    double gbPerS = 0;
    double ridgeFlopPerByte = 0;  // against the training-precision peak
};

struct RooflinePoint {
    std::string name;
    std::string_view kind;        // gemm | attention | memory | optimizer | decode
    double intensity = 0;         // FLOP/byte
    double attainableTflops = 0;  // min(peak, I x HBM)
    double achievedTflops = 0;    // what the step-time model gives it
    std::string bound;            // compute | memory
};

struct Roofline {
    std::vector<Ceiling> ceilings;
    Slope hbm;
    std::vector<Slope> fleet;
    double peakTflops = 0;        // at the training precision
    double ridgeFlopPerByte = 0;  // at the training precision
    double ridgeBatch = 0;        // decode batch that reaches the ridge
    double decodeTokensPerS = 0;  // batch-1 decode of the workload's model on one TP group
    std::string decodeUnavailable;  // "does not fit: ..." where its weights overflow the group's HBM
    std::vector<RooflinePoint> points;
    Explanation explainRidge;
};

Roofline buildRoofline(const HardwareProfile& hw, const Hierarchy& hierarchy, const StepTime& step, double params,
                       std::int64_t tp);

}  // namespace studio
