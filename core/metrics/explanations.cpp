#include "core/metrics/explanations.h"

#include <cmath>

#include "core/metrics/error_band.h"

namespace studio {

std::vector<ExplainedMetric> explainMetrics(const Analysis& a)
{
    std::vector<ExplainedMetric> out;
    auto add = [&out](std::string key, Explanation e) { out.emplace_back(std::move(key), std::move(e)); };
    const auto& g = a.hardware.gpu;
    const auto& s = a.step;
    const auto& w = a.workload;
    const auto& r = a.reliability;
    const auto& p = a.power;
    const double gpusUsed = double(w.gpusUsed);
    const ExplainInput peak = g.trainingPeakTflops.as("peak per GPU (" + g.trainingPrecision + ")", "TFLOP/s");

    // Counts: what the drawing holds, through replication, plus what each
    // fabric needs to connect its endpoints.
    const Inventory& inv = a.inventory;
    const std::string counted = "the design, through replication";
    add("inventory.gpus",
        {"every accelerator's count x the counts of the containers around it, summed",
         {{"nodes", double(inv.nodes), "", counted},
          {"GPUs per node", double(a.hardware.gpusPerNode), "", "the node platform"}}});
    add("inventory.nodes",
        {"every node's count x the counts of the containers around it, summed",
         {{"nodes", double(inv.nodes), "", counted}, {"racks", double(inv.racks), "", counted}}});
    add("inventory.racks",
        {"every rack's count x the counts of the containers around it, summed",
         {{"racks", double(inv.racks), "", counted}}});
    {
        Explanation e{"switches placed in the design + the leaf, spine and core switches each fabric needs (a fat "
                      "tree sized from its endpoints and the switch's ports)",
                      {}};
        for (const char* tier : {"leaf", "spine", "core", "other"})
            e.inputs.push_back({std::string(tier) + " switches", double(inv.switchesByTier.at(tier)), "",
                                std::string_view(tier) == "other" ? counted : "fabric sizing (docs/model.md)"});
        add("inventory.switches.total", std::move(e));
    }
    {
        Explanation e{"each link's count per instance of its more replicated end, plus each fabric's inter-switch "
                      "cables, by part",
                      {}};
        for (const auto& [part, n] : inv.cablesByPart)
            e.inputs.push_back({part, double(n), "cables", counted + " and fabric sizing"});
        if (e.inputs.empty())
            e.inputs.push_back({"cables", 0, "", counted});
        add("inventory.cables.total", std::move(e));
    }

    add("compute.cluster_peak_pflops",
        {"GPUs x peak per GPU at the training precision",
         {{"GPUs", double(a.inventory.gpus), "", "the design"}, peak}});
    add("compute.peak_tflops_per_gpu", {"the accelerator's dense peak at the training precision", {peak}});
    add("compute.ridge_flop_per_byte", a.roofline.explainRidge);
    add("roofline.decode_tokens_per_s",
        {"the bound on batch-1 decode on the training layout's tp GPUs (not one GPU), every weight read once per "
         "token at the full bandwidth: HBM bandwidth x tp / (2 bytes x parameters) (seed 002, R3); a serving "
         "design's Serving panel adds the achievable share of the bandwidth and the TP all-reduces",
         {g.hbmTbPerS.as("HBM bandwidth per GPU", "TB/s"),
          {"tensor-parallel GPUs reading in parallel", double(w.tp), "", "/workload/parallelism/tp"},
          {"parameters", w.params, "", "the workload's model"},
          {"bytes per parameter", 2, "B", "16-bit weights"}}});
    add("roofline.ridge_batch",
        {"decode intensity equals the batch (2 FLOPs per 2-byte weight per sequence), so the "
         "batch that makes decode compute-bound is the ridge point, rounded up",
         {{"ridge point", a.roofline.ridgeFlopPerByte, "FLOP/byte", "peak / HBM bandwidth"}}});
    for (const auto& t : a.hierarchy.tiers)
        add("hierarchy." + t.key, t.explain);

    add("training.step_time_s", s.explainStep);
    add("training.tokens_per_s", s.explainTokens);
    add("training.mfu", s.explainMfu);
    add("training.hfu",
        {"HFU = hardware FLOPs per step (model FLOPs + recompute) / (step time x GPUs x peak)",
         {{"hardware FLOPs per step", s.hardwareFlopsPerStep, "FLOP", "model FLOPs + recomputed forward"},
          {"step time", s.stepS, "s", "this model"},
          {"GPUs", gpusUsed, "", "tp x pp x cp x dp"},
          peak}});
    add("training.tflops_per_gpu_model",
        {"model FLOPs per step / step time / GPUs",
         {{"model FLOPs per step", s.modelFlopsPerStep, "FLOP", "3 x forward FLOPs"},
          {"step time", s.stepS, "s", "this model"},
          {"GPUs", gpusUsed, "", "tp x pp x cp x dp"}}});
    add("training.tflops_per_gpu_hardware",
        {"hardware FLOPs per step / step time / GPUs",
         {{"hardware FLOPs per step", s.hardwareFlopsPerStep, "FLOP", "model FLOPs + recomputed forward"},
          {"step time", s.stepS, "s", "this model"},
          {"GPUs", gpusUsed, "", "tp x pp x cp x dp"}}});
    add("training.days_to_train",
        {"tokens to train / tokens per second / 86,400 s (compute time, before goodput)",
         {{"tokens to train", w.tokens, "tokens", "/workload/training/tokens"},
          {"tokens per second", s.tokensPerS, "tokens/s", "this model"}}});
    add("training.memory_gb_per_gpu.activations", a.memory.explainActivations);
    add("training.memory_gb_per_gpu.total", a.memory.explainTotal);
    add("training.delivered_fraction",
        {"delivered = MFU x goodput",
         {{"MFU", a.utilization.mfu, "", "this model"}, {"goodput", a.utilization.goodput, "", "this model"}}});
    // The waterfall: each loss is its time's share of the step, so the bars
    // from peak down to MFU sum to 1 - MFU; after MFU, goodput's losses.
    namespace wk = waterfall_key;
    for (const auto& b : a.utilization.waterfall) {
        const std::string key = "training.waterfall." + std::string(b.key);
        if (b.key == wk::kPeak) {
            add(key,
                {"100% of peak: every GPU the layout uses at its dense peak",
                 {peak, {"GPUs", gpusUsed, "", "tp x pp x cp x dp"}}});
        } else if (b.key == wk::kMfu) {
            add(key, s.explainMfu);
        } else if (b.key == wk::kDelivered) {
            add(key,
                {"delivered = MFU x goodput",
                 {{"MFU", a.utilization.mfu, "", "this model"}, {"goodput", a.utilization.goodput, "", "this model"}}});
        } else if (b.key == wk::kKernelEfficiency) {
            double compute = 0;
            for (const auto& part : s.breakdown)
                if (part.compute())
                    compute += part.seconds;
            add(key,
                {"(time running kernels - model FLOPs at peak) / step time",
                 {{"time running kernels", compute, "s", "GEMMs, attention, memory-bound ops, output layer"},
                  {"model FLOPs at peak", s.computeAtPeakS, "s", "model FLOPs / (GPUs x peak)"},
                  {"step time", s.stepS, "s", "this model"}}});
        } else if (b.key == wk::kCheckpointing || b.key == wk::kMaintenance || b.key == wk::kFailures) {
            const bool ckpt = b.key == wk::kCheckpointing, maint = b.key == wk::kMaintenance;
            const double share = ckpt ? r.checkpointFraction : maint ? r.maintenanceFraction.value : r.failureFraction;
            add(key,
                {"MFU x share of wall time lost",
                 {{"MFU", a.utilization.mfu, "", "this model"},
                  {"share of wall time", share, "",
                   ckpt        ? "checkpoint stall / (interval + stall)"
                       : maint ? r.maintenanceFraction.source
                               : "((interval + write) / 2 + restart) / MTBF"}}});
        } else {
            const StepPart* part = nullptr;
            for (const auto& p : s.breakdown)
                if (p.key() == b.key)
                    part = &p;
            std::string source(part ? part->source : "step-time model (docs/model.md)");
            if (const std::string tier = part ? kernelTierSource(g, *part) : ""; !tier.empty())
                source += "; " + tier;
            add(key,
                {"time of " + std::string(b.name) + " / step time",
                 {{std::string(b.name), part ? part->seconds : 0, "s", source},
                  {"step time", s.stepS, "s", "this model"}}});
        }
    }

    add("storage.data_demand_gb_per_s", a.data.explainDemand);
    add("storage.checkpoint_write_s", a.data.explainCheckpoint);

    add("power.it_kw", p.explainIt);
    add("power.facility_kw", p.explainFacility);
    add("power.pue", {"PUE = facility power / IT power", {p.pue.as("PUE", "")}});
    add("power.energy_mwh_per_year", p.explainEnergy);
    add("power.cost_usd_per_year", p.explainEnergy);
    add("power.co2_tonnes_per_year", p.explainEnergy);
    add("power.training_run_mwh",
        {"facility kW x wall-clock days of the run x 24 h / 1,000",
         {{"facility load", p.facilityKw, "kW", "this model"},
          {"wall-clock days", r.wallDays, "days", "days to train / goodput"}}});
    if (!p.racks.empty())
        add("power.max_rack_kw", p.racks[p.maxRack].explain);
    for (const auto& rack : p.racks)
        add("power.racks." + rack.component, rack.explain);
    add("power.air_cooling_limit_kw",
        {"the most forced air removes from one rack", {p.airCoolingLimitKw.as("air-cooling limit", "kW")}});

    add("reliability.cluster_mtbf_h", r.explainMtbf);
    add("reliability.failures_per_day",
        {"24 h / cluster MTBF: the sum of every class's devices x 24 / MTTF",
         {{"cluster MTBF", r.clusterMtbfH, "h", "this model"}}});
    for (const auto& c : r.classes)
        add("reliability.by_class." + c.key,
            {"failures per day = devices x 24 h / MTTF per device",
             {{c.name + " devices (per " + c.per + ")", c.devices, "", "the design"},
              c.mttfH.as(c.name + " MTTF", "h")}});
    add("reliability.p_failure_24h",
        {"P(at least one failure in 24 h) = 1 - exp(-24 h / MTBF)",
         {{"cluster MTBF", r.clusterMtbfH, "h", "this model"}}});
    add("reliability.checkpoint_interval_min", r.explainInterval);
    add("reliability.goodput", r.explainGoodput);
    add("reliability.wall_days",
        {"wall-clock days = days of compute / goodput",
         {{"days of compute", s.daysToTrain, "days", "tokens / tokens per second"},
          {"goodput", r.goodput, "", "this model"}}});
    add("reliability.expected_interruptions",
        {"failures per day x wall-clock days of the run",
         {{"failures per day", r.failuresPerDay, "", "24 h / MTBF"},
          {"wall-clock days", r.wallDays, "days", "days to train / goodput"}}});
    for (auto& [key, e] : explainCost(a.cost, p, a.serving))
        add(std::move(key), std::move(e));
    // A figure that cannot exist keeps its formula but no input without a
    // value: the tip never prints a NaN. The parts of one (a memory's, the
    // waterfall's bars of a step that cannot be run) go with it.
    auto unavailable = unavailableFigures(a);
    if (const std::string why = stepUnavailable(a); !why.empty())
        unavailable.emplace_back("training.waterfall", why);
    for (const auto& [key, why] : unavailable)
        for (auto& [k, e] : out)
            if (k == key || (k.starts_with(key) && k.size() > key.size() && k[key.size()] == '.')) {
                e.unavailable = why;
                std::erase_if(e.inputs, [](const auto& in) { return !std::isfinite(in.value); });
            }
    // The figures that follow from the step time carry the model's error on
    // the published runs nearest this configuration.
    // The nearest-run search runs once; each figure only phrases it.
    const auto nearest = nearestValidatedRuns(a);
    std::optional<ErrorBand> slower, faster;
    if (nearest) {
        slower = phrasedFor(*nearest, true);
        faster = phrasedFor(*nearest, false);
    }
    for (auto& [k, e] : out) {
        if (!e.unavailable.empty())
            continue;
        if (k == "training.step_time_s" || k == "training.days_to_train" || k == "reliability.wall_days")
            e.errorBand = slower;
        else if (k == "training.tokens_per_s" || k == "training.tflops_per_gpu_model" ||
                 k == "training.tflops_per_gpu_hardware" || k == "training.mfu" || k == "training.hfu")
            e.errorBand = faster;
    }
    return out;
}

std::vector<std::pair<std::string, std::string>> unavailableFigures(const Analysis& a)
{
    std::vector<std::pair<std::string, std::string>> out;
    if (const std::string why = stepUnavailable(a); !why.empty())
        for (const char* key : {"step_time_s", "tokens_per_s", "tflops_per_gpu_model", "tflops_per_gpu_hardware", "mfu",
                                "hfu", "days_to_train", "bubble_fraction", "delivered_fraction", "delivered_pflops"})
            out.emplace_back(std::string("training.") + key, why);
    if (const std::string why = runUnavailable(a); !why.empty())
        for (const char* key : {"reliability.wall_days", "reliability.expected_interruptions", "power.training_run_mwh",
                                "cost.run_cost_usd", "cost.cloud_run_cost_usd"})
            out.emplace_back(key, why);
    if (!a.roofline.decodeUnavailable.empty())
        out.emplace_back("roofline.decode_tokens_per_s", a.roofline.decodeUnavailable);
    // A training run's cost per token; a serving design's is the serving analysis'.
    if (const std::string why = runUnavailable(a); !why.empty() && !a.serving)
        out.emplace_back("cost.usd_per_million_tokens", why);
    // A serving design's training analyses ran on an empty training section:
    // the memory of a run it has not got, and that run's checkpoint.
    if (a.serving)
        for (const char* key : {"training.memory_gb_per_gpu", "training.fits_in_hbm", "storage.checkpoint_gb",
                                "storage.checkpoint_write_s", "storage.checkpoint_write_at_storage_s"})
            out.emplace_back(key, kNoTrainingRun);
    return out;
}

const Explanation* findExplanation(const std::vector<ExplainedMetric>& explained, std::string_view key)
{
    for (const auto& [k, e] : explained)
        if (k == key)
            return &e;
    return nullptr;
}

}  // namespace studio
