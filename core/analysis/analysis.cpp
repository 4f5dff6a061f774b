#include "core/analysis/analysis.h"

#include <algorithm>

namespace studio {

Analysis analyzeDesign(const Design& design, const Catalog& catalog)
{
    Analysis a;
    const DesignIndex index(design, catalog);
    a.inventory = takeInventory(index);
    a.warnings = a.inventory.problems;
    if (a.inventory.gpus == 0)
        a.warnings.push_back({Severity::Warning, "/components",
                              "the design has no GPUs: add accelerators inside nodes to see the analyses", "no_gpus"});
    a.workload = shapeWorkload(design.workload, a.inventory.gpus, a.warnings);
    a.hardware = profileHardware(index, a.inventory, a.workload.precision, a.warnings);
    a.hierarchy = buildHierarchy(a.hardware, a.workload, a.warnings);
    const double cv = inputOr(design.operations.straggler_cv, defaults::kStragglerCv).value;
    a.step = modelStepTime(a.hardware, a.hierarchy, a.workload, cv);
    a.memory = modelMemory(a.hardware, a.workload, a.warnings);
    a.data = modelDataPipeline(a.hardware, a.workload, design.workload, a.step.tokensPerS, a.warnings);
    a.power = modelPower(index, a.inventory, design.facility, a.warnings);
    const bool storage = a.hardware.storage.systems > 0 && a.data.writePathGbPerS > 0;
    a.reliability = modelReliability(a.inventory, design.operations, storage ? a.data.writeAtNicsS : -1,
                                     a.step.daysToTrain);
    a.clusterPeakPflops = double(a.inventory.gpus) * a.hardware.gpu.trainingPeakTflops.value / 1000;
    // Idle GPUs (a layout smaller than the design) deliver nothing.
    const double usedPeakPflops = double(std::min(a.workload.gpusUsed, a.inventory.gpus)) *
                                  a.hardware.gpu.trainingPeakTflops.value / 1000;
    a.utilization = buildUtilization(a.step, a.reliability, usedPeakPflops);
    a.roofline = buildRoofline(a.hardware, a.hierarchy, a.step, a.workload.params, a.workload.tp);
    a.trainingRunMwh = a.power.facilityKw * a.reliability.wallDays * 24 / 1000;
    return a;
}

}  // namespace studio
