#include "core/analysis/reliability.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "core/analysis/fleet_formulas.h"
#include "core/text.h"

namespace studio {
namespace {

struct Goodput {
    double checkpoint = 0, failure = 0, value = 0;
};

// Shares of wall time: a blocking checkpoint of delta every tau; each failure
// loses half an interval and its checkpoint on average, plus the restart;
// maintenance as given (seed 002 table 8's categories, additive).
Goodput goodputAt(double tauH, double stallH, double writeH, double restartH, double mtbfH, double maintenance)
{
    Goodput g;
    g.checkpoint = tauH + stallH > 0 ? stallH / (tauH + stallH) : 0;
    g.failure = mtbfH > 0 ? ((tauH + writeH) / 2 + restartH) / mtbfH : 1;
    g.value = fleet::goodputAfter(0, g.checkpoint, g.failure, maintenance);
    return g;
}

// Without checkpoints every failure restarts the run: a job of J hours
// needs e^(J/M) - 1 failed attempts on average, each costing its time plus
// a restart, so the wall time is (M + R)(e^(J/M) - 1) (capped to stay
// finite).
Goodput restartOnlyGoodput(double computeDays, double mtbfH, double restartH, double maintenance)
{
    const double j = computeDays * 24;
    const double attempts = std::expm1(std::min(j / mtbfH, 50.0));
    const double wall = j > 0 ? (mtbfH + restartH) * attempts : 0;
    const double useful = wall > 0 ? std::min(1.0, j / wall) : 1;
    return {0, 1 - useful, std::max(0.0, useful - maintenance)};
}

}  // namespace

double wallDaysFor(const Reliability& r, double computeDays)
{
    double goodput = r.goodput;
    if (!r.canCheckpoint && r.clusterMtbfH > 0)
        goodput =
            restartOnlyGoodput(computeDays, r.clusterMtbfH, r.restartMin.value / 60, r.maintenanceFraction.value).value;
    return goodput > 0 ? computeDays / goodput : std::numeric_limits<double>::infinity();
}

Reliability modelReliability(const Inventory& inv, const Operations& ops, double checkpointWriteS, double computeDays)
{
    Reliability r;
    const auto& m = ops.failure_mttf_h;
    const double gpus = double(inv.gpus), nodes = double(inv.nodes), nics = double(inv.nics);
    r.classes = {
        {"gpu", "GPU", "gpu", gpus, inputOr(m.gpu, defaults::kGpuMttf)},
        {"hbm", "GPU memory (HBM)", "gpu", gpus, inputOr(m.hbm, defaults::kHbmMttf)},
        {"host", "host", "node", nodes, inputOr(m.host, defaults::kHostMttf)},
        {"nic", "NIC", "nic", nics, inputOr(m.nic, defaults::kNicMttf)},
        {"network", "network switch and cable", "gpu", gpus, inputOr(m.network, defaults::kNetworkMttf)},
        {"psu", "power supply", "node", nodes, inputOr(m.psu, defaults::kPsuMttf)},
        {"software", "software", "gpu", gpus, inputOr(m.software, defaults::kSoftwareMttf)},
    };
    double ratePerH = 0;
    for (auto& c : r.classes) {
        const double rate = c.devices / c.mttfH.value;
        c.perDay = rate * 24;
        ratePerH += rate;
    }
    r.clusterMtbfH = ratePerH > 0 ? 1 / ratePerH : 0;
    r.failuresPerDay = ratePerH * 24;
    r.pFailure24h = ratePerH > 0 ? fleet::failureProbability(24, r.clusterMtbfH) : 0;

    r.canCheckpoint = checkpointWriteS >= 0;
    checkpointWriteS = std::max(0.0, checkpointWriteS);
    r.checkpointWriteS = checkpointWriteS;
    r.checkpointStallS = ops.checkpoint.async.value_or(false) ? 0 : checkpointWriteS;
    r.restartMin = inputOr(ops.checkpoint.restart_min, defaults::kRestart);
    r.maintenanceFraction = inputOr(ops.maintenance_fraction, defaults::kMaintenance);
    const double mtbfMin = r.clusterMtbfH * 60;
    const double deltaMin = r.checkpointWriteS / 60;
    if (mtbfMin > 0) {
        r.youngIntervalMin = fleet::youngInterval(deltaMin, mtbfMin);
        r.dalyIntervalMin = fleet::dalyInterval(deltaMin, mtbfMin);
    }
    const double given = ops.checkpoint.interval_min.value_or(0);
    r.intervalIsOptimum = given <= 0;
    // An interval shorter than a write cannot be kept.
    r.intervalMin = std::max(r.intervalIsOptimum ? r.dalyIntervalMin : given, deltaMin);

    const double stallH = r.checkpointStallS / 3600, writeH = r.checkpointWriteS / 3600;
    const double restartH = r.restartMin.value / 60;
    Goodput g = ratePerH > 0
        ? goodputAt(r.intervalMin / 60, stallH, writeH, restartH, r.clusterMtbfH, r.maintenanceFraction.value)
        : Goodput{0, 0, 1 - r.maintenanceFraction.value};
    if (!r.canCheckpoint && ratePerH > 0) {
        r.intervalMin = 0;
        g = restartOnlyGoodput(computeDays, r.clusterMtbfH, restartH, r.maintenanceFraction.value);
    }
    r.checkpointFraction = g.checkpoint;
    r.failureFraction = g.failure;
    r.goodput = g.value;
    r.wallDays = r.goodput > 0 ? computeDays / r.goodput : 0;
    if (r.goodput <= 0)
        r.neverCompletes = "the cluster fails every " + formatDuration(r.clusterMtbfH) +
            " on average; checkpointing (" + formatValue(100 * g.checkpoint, 3) +
            "% of wall time), work lost "
            "to failures and restarts (" +
            formatValue(100 * std::min(1.0, g.failure), 3) + "%) and maintenance (" +
            formatValue(100 * r.maintenanceFraction.value, 3) + "%) leave no time to train";
    r.expectedInterruptions = ratePerH * r.wallDays * 24;

    // MTBF against cluster size, the design's device mix per GPU kept.
    if (gpus > 0 && ratePerH > 0) {
        const double perGpuRate = ratePerH / gpus;
        for (double n = 8; n <= std::max(1e6, gpus * 4); n *= 1.5)
            r.mtbfCurve.emplace_back(n, 1 / (perGpuRate * n));
    }
    if (gpus > 0 && ratePerH > 0 && r.canCheckpoint) {
        for (auto [tauMin, out] :
             {std::pair{r.youngIntervalMin, &r.youngGoodput}, std::pair{r.dalyIntervalMin, &r.dalyGoodput}})
            *out = goodputAt(std::max(tauMin, deltaMin) / 60, stallH, writeH, restartH, r.clusterMtbfH,
                             r.maintenanceFraction.value)
                       .value;
        const double lo = std::max(deltaMin, 0.5), hi = std::max(lo * 10, r.dalyIntervalMin * 20);
        for (double tau = lo; tau <= hi * 1.0001; tau *= std::pow(hi / lo, 1.0 / 40))
            r.goodputCurve.emplace_back(
                tau, goodputAt(tau / 60, stallH, writeH, restartH, r.clusterMtbfH, r.maintenanceFraction.value).value);
    }

    r.explainMtbf = {"cluster MTBF = 1 / sum over classes of devices / MTTF", {}};
    for (const auto& c : r.classes) {
        r.explainMtbf.inputs.push_back({c.name + " devices (per " + c.per + ")", c.devices, "", "the design"});
        r.explainMtbf.inputs.push_back(c.mttfH.as(c.name + " MTTF", "h"));
    }
    r.explainInterval = {
        "Daly (2006): sqrt(2 delta M) [1 + 1/3 sqrt(delta/2M) + 1/9 delta/2M] - delta; Young: sqrt(2 delta M)",
        {{"checkpoint write time delta", deltaMin, "min", "checkpoint size / write path"},
         {"cluster MTBF M", mtbfMin, "min", "this model"}}};
    r.explainGoodput = {
        "1 - stall/(interval + stall) - ((interval + write)/2 + restart)/MTBF - maintenance",
        {{"interval", r.intervalMin, "min",
          r.intervalIsOptimum ? "Daly optimum" : "/operations/checkpoint/interval_min"},
         {"checkpoint stall", r.checkpointStallS / 60, "min",
          ops.checkpoint.async.value_or(false) ? "asynchronous: training does not wait" : "synchronous write"},
         r.restartMin.as("restart", "min"),
         {"cluster MTBF", mtbfMin, "min", "this model"},
         r.maintenanceFraction.as("maintenance", "fraction")}};
    return r;
}

}  // namespace studio
