#pragma once
// Every analysis of a design, computed together: a pure function of the
// design (and the catalog it resolves against). metrics/ turns it into the
// one metrics object the CLI, panels, compare view and report share.
#include <memory>
#include <vector>

#include "core/analysis/cost.h"
#include "core/analysis/data_pipeline.h"
#include "core/analysis/hardware_profile.h"
#include "core/analysis/hierarchy.h"
#include "core/analysis/inventory.h"
#include "core/analysis/memory.h"
#include "core/analysis/power.h"
#include "core/analysis/reliability.h"
#include "core/analysis/roofline.h"
#include "core/analysis/step_time.h"
#include "core/analysis/utilization.h"
#include "core/analysis/workload_shape.h"
#include "core/serving/serving.h"

namespace studio {

// What one instance of a component holds, for the canvas's badges.
struct ComponentTotals {
    std::int64_t gpus = 0, nics = 0, nodes = 0;
    double kw = 0;
    // A disaggregated serving layout's roles, over all of the component's
    // instances (not each): its GPUs in prefill and in decode workers.
    std::int64_t prefillGpus = 0, decodeGpus = 0;
    bool operator==(const ComponentTotals&) const = default;
};

struct Analysis {
    // The workload is serving with no training run: the training figures
    // are not set (core/serving has the design's figures).
    bool serving = false;
    WorkloadKind workloadKind() const { return serving ? WorkloadKind::Serving : WorkloadKind::Training; }
    Inventory inventory;
    HardwareProfile hardware;
    WorkloadShape workload;
    Hierarchy hierarchy;
    StepTime step;
    MemoryUse memory;
    DataPipeline data;
    Power power;
    Reliability reliability;
    Utilization utilization;
    Roofline roofline;
    Cost cost;  // what the design costs to own, its training run or its served tokens
    // A serving workload's analysis (analyzeServing), computed once with the
    // rest: the roofline draws its decode steps, the Serving panel its
    // figures. Null unless the workload is serving.
    std::shared_ptr<const Serving> served;
    double clusterPeakPflops = 0;         // at the training precision
    double trainingRunMwh = 0;            // facility energy over the run's wall time
    std::vector<ComponentTotals> totals;  // per component, in design order
    std::vector<Problem> warnings;        // inventory first, then each analysis's
    // Why the layout cannot run on this design (the errors among the
    // warnings, or no GPUs): the training figures are then not shown.
    std::vector<Problem> notRunnable;
    bool runnable() const { return notRunnable.empty(); }
    // The run's wall-clock figures exist: it runs, and failures leave it
    // some goodput.
    bool completes() const { return runnable() && reliability.goodput > 0; }
};

// Why the step's figures (MFU, step time, days) are not shown: "not
// runnable: <first reason>", or "" when they are.
// Why a serving design's training figures are missing: it has no training
// run (not a run that fails).
inline constexpr const char* kNoTrainingRun =
    "no training run: the workload is serving (its figures are under serving)";
std::string stepUnavailable(const Analysis& analysis);
// Why the run's wall-clock figures (wall days, run energy, interruptions)
// are not shown: "never completes: <why>" first, else stepUnavailable.
std::string runUnavailable(const Analysis& analysis);

// The design must be valid (validateDesign) against `catalog`.
Analysis analyzeDesign(const Design& design, const Catalog& catalog);

}  // namespace studio
