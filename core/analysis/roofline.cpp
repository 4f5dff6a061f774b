#include "core/analysis/roofline.h"

#include <cmath>

#include "core/analysis/fleet_formulas.h"
#include "core/text.h"

namespace studio {

Roofline buildRoofline(const HardwareProfile& hw, const Hierarchy& hier, const StepTime& step, double params,
                       std::int64_t tp)
{
    Roofline rf;
    const auto& g = hw.gpu;
    const double hbm = g.hbmTbPerS.value * 1e12;
    for (const char* p : {"fp64", "fp64_tensor", "fp32", "tf32", "bf16", "fp16", "fp8", "fp4", "int8"}) {
        const auto it = g.peaksTflops.find(p);
        if (it == g.peaksTflops.end())
            continue;
        rf.ceilings.push_back({p, it->second.value, fleet::ridgeFlopPerByte(it->second.value * 1e12, hbm)});
    }
    rf.peakTflops = g.trainingPeakTflops.value;
    const double peak = rf.peakTflops * 1e12;
    rf.ridgeFlopPerByte = fleet::ridgeFlopPerByte(peak, hbm);
    rf.hbm = {"hbm", "HBM", g.hbmTbPerS.value * 1000, rf.ridgeFlopPerByte};
    auto addSlope = [&](const char* key, const char* name, double gbPerS) {
        if (gbPerS > 0)
            rf.fleet.push_back({key, name, gbPerS, fleet::ridgeFlopPerByte(peak, gbPerS * 1e9)});
    };
    addSlope("nvlink", "NVLink, one direction", g.scaleupGbPerS.value / 2);
    if (const Tier* leaf = hier.tier("leaf"))
        addSlope("nic", "Scale-out NIC, one direction", leaf->gbPerSPerGpu / 2);
    if (const Tier* st = hier.tier("storage"))
        addSlope("storage", "Storage read share", st->gbPerSPerGpu);

    for (const auto& op : step.ops) {
        RooflinePoint p{std::string(op.name), op.kind, op.intensity()};
        p.attainableTflops = fleet::attainableFlopsPerS(p.intensity, peak, hbm) / 1e12;
        p.achievedTflops = op.achievedFlopsPerS() / 1e12;
        p.bound = p.intensity >= rf.ridgeFlopPerByte ? "compute" : "memory";
        rf.points.push_back(p);
    }
    // Decode reads every weight once per token: 2 FLOPs per 2-byte weight
    // per sequence in the batch, so the intensity is the batch size.
    rf.ridgeBatch = std::ceil(rf.ridgeFlopPerByte);
    for (double batch : {1.0, rf.ridgeBatch}) {
        RooflinePoint p{batch == 1 ? "decode, batch 1" : "decode, batch at the ridge", "decode", batch};
        p.attainableTflops = fleet::attainableFlopsPerS(batch, peak, hbm) / 1e12;
        p.achievedTflops = p.attainableTflops;
        p.bound = batch >= rf.ridgeFlopPerByte ? "compute" : "memory";
        rf.points.push_back(p);
    }
    // Batch-1 decode of the whole model on a TP group: each token reads all
    // weights, spread over tp GPUs reading in parallel.
    rf.decodeTokensPerS = fleet::decodeTokensPerS(params, 2, hbm * double(tp));
    const double weightsGb = 2 * params / 1e9, groupGb = double(tp) * hbmCapacityGb(g.hbmGb.value);
    if (g.hbmGb.value > 0 && weightsGb > groupGb)
        rf.decodeUnavailable = "does not fit: " + formatValue(params / 1e9, 3) +
            "B parameters x 2 bytes = " + formatQuantity(weightsGb, "GB") + " of weights, more than the HBM of " +
            (tp == 1 ? std::string("one GPU") : formatCount(tp) + " GPUs") + ", " + formatQuantity(groupGb, "GB");
    rf.explainRidge = {"ridge = peak / HBM bandwidth",
                       {g.trainingPeakTflops.as("peak (" + g.trainingPrecision + ")", "TFLOP/s"),
                        g.hbmTbPerS.as("HBM bandwidth", "TB/s")}};
    return rf;
}

}  // namespace studio
