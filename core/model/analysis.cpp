#include "core/model/analysis.h"

#include <algorithm>

#include "core/design/defaults.h"
#include "core/serving/serving.h"

namespace studio {

Analysis analyzeDesign(const Design& design, const Catalog& catalog)
{
    Analysis a;
    const DesignIndex index(design, catalog);
    a.inventory = takeInventory(index);
    a.warnings = a.inventory.problems;
    if (a.inventory.gpus == 0)
        a.warnings.push_back({Severity::Error, "/components",
                              "the design has no GPUs: add accelerators inside nodes to see the analyses", "no_gpus"});
    // A serving design without a training run: the training analyses run
    // on an empty training section, so what they say about it is not shown
    // (core/serving has the design's figures).
    a.serving = design.workload.isServing() && design.workload.training == TrainingSpec{};
    const bool servingOnly = a.serving;
    std::vector<Problem> unshown;
    std::vector<Problem>& trainingWarnings = servingOnly ? unshown : a.warnings;
    a.workload = shapeWorkload(design.workload, a.inventory.gpus, trainingWarnings);
    // A serving design's peak, ceilings and ridge are at its weights' precision.
    const std::string precision = servingOnly && design.workload.serving
        ? orDefault(design.workload.serving->weight_precision, defaults::kServingPrecision)
        : a.workload.precision;
    a.hardware = profileHardware(index, a.inventory, precision, trainingWarnings);
    a.hierarchy = buildHierarchy(a.hardware, a.workload, trainingWarnings);
    const double cv = inputOr(design.operations.straggler_cv, defaults::kStragglerCv).value;
    a.step = modelStepTime(a.hardware, a.hierarchy, a.workload, cv);
    a.memory = modelMemory(a.hardware, a.workload, trainingWarnings);
    a.data = modelDataPipeline(a.hardware, a.workload, design.workload, a.step.tokensPerS, trainingWarnings);
    a.power = modelPower(index, a.inventory, design.facility, a.warnings);
    const bool storage = a.hardware.storage.systems > 0 && a.data.writePathGbPerS > 0;
    a.reliability =
        modelReliability(a.inventory, design.operations, storage ? a.data.writeAtNicsS : -1, a.step.daysToTrain);
    a.clusterPeakPflops = double(a.inventory.gpus) * a.hardware.gpu.trainingPeakTflops.value / 1000;
    // Idle GPUs (a layout smaller than the design) deliver nothing.
    const double usedPeakPflops =
        double(std::min(a.workload.gpusUsed, a.inventory.gpus)) * a.hardware.gpu.trainingPeakTflops.value / 1000;
    a.utilization = buildUtilization(a.step, a.reliability, usedPeakPflops);
    a.roofline = buildRoofline(a.hardware, a.hierarchy, a.step, a.workload.params, a.workload.tp);
    // Serving has no training step to place: its operations are the decode
    // steps, one point per batch of the curve.
    // A serving-only design's hardware is profiled at the serving weights'
    // precision (above): the serving analysis reuses it.
    if (design.workload.isServing())
        a.served = std::make_shared<const Serving>(servingOnly
                                                       ? analyzeServing(design, index, a.inventory, a.hardware, a.power)
                                                       : analyzeServing(design, catalog));
    if (servingOnly)
        a.roofline.points = decodeRooflinePoints(*a.served, a.hardware.gpu.hbmTbPerS.value);
    a.trainingRunMwh = a.power.facilityKw * a.reliability.wallDays * 24 / 1000;
    a.cost = modelCost(index, a.inventory, a.power, design.facility);
    if (servingOnly) {
        if (a.served->ok())
            costServing(a.cost, a.served->decode.tokensPerSPerGpu);
    } else {
        costTrainingRun(a.cost, a.reliability.wallDays, a.trainingRunMwh, a.power.pricePerKwh.value, a.workload.tokens);
    }
    // The inventory's errors are about the drawing (a fabric too large for
    // its switch); the analyses' errors (no GPUs included) say the layout
    // cannot run.
    for (std::size_t i = a.inventory.problems.size(); i < a.warnings.size(); ++i)
        if (a.warnings[i].severity == Severity::Error)
            a.notRunnable.push_back(a.warnings[i]);
    if (servingOnly)
        a.notRunnable.insert(a.notRunnable.begin(),
                             {Severity::Error, "/workload/kind",
                              "the workload is serving: it has no training run (its figures are under serving)",
                              "serving_workload"});
    if (!a.step.valid && a.notRunnable.empty())
        a.notRunnable.push_back({Severity::Error, "/components",
                                 "the GPU has no training peak or HBM bandwidth to model a step with", "no_gpus"});
    a.totals.resize(index.size());
    for (std::size_t i = 0; i < index.size(); ++i) {
        a.totals[i].kw = a.power.componentKw[i];
        // Walk up from each GPU, NIC and node, crediting every ancestor.
        const PartKind k = index.kind(i);
        if (k != PartKind::Accelerator && k != PartKind::Nic && k != PartKind::Node)
            continue;
        for (std::optional<std::size_t> at = i; at; at = index.parent(*at)) {
            const std::int64_t per = index.instances(i) / std::max<std::int64_t>(1, index.instances(*at));
            auto& t = a.totals[*at];
            (k == PartKind::Accelerator ? t.gpus : k == PartKind::Nic ? t.nics : t.nodes) += per;
        }
    }
    // Which GPUs a disaggregated layout makes prefill and which decode: the
    // design's GPUs in design order (servingRoles), credited to every
    // ancestor.
    if (a.served && a.served->ok() && a.served->disaggregation) {
        std::int64_t first = 0;
        for (std::size_t i = 0; i < index.size(); ++i) {
            if (index.kind(i) != PartKind::Accelerator)
                continue;
            const GpuRoles roles = servingRoles(*a.served->disaggregation, first, index.instances(i));
            first += index.instances(i);
            for (std::optional<std::size_t> at = i; at; at = index.parent(*at)) {
                a.totals[*at].prefillGpus += roles.prefill;
                a.totals[*at].decodeGpus += roles.decode;
            }
        }
    }
    return a;
}

std::string stepUnavailable(const Analysis& a)
{
    if (a.runnable())
        return {};
    // A serving design is not a training run that fails: it has none.
    const Problem& why = a.notRunnable.front();
    return why.code == "serving_workload" ? kNoTrainingRun : "not runnable: " + why.message;
}

std::string runUnavailable(const Analysis& a)
{
    return a.reliability.neverCompletes.empty() ? stepUnavailable(a)
                                                : "never completes: " + a.reliability.neverCompletes;
}

}  // namespace studio
