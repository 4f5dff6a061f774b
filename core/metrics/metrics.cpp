#include "core/metrics/metrics.h"

#include <algorithm>
#include <cmath>

#include "core/json_number.h"
#include "core/metrics/explanations.h"
#include "core/search/layout.h"

namespace studio {
namespace {

// A figure unavailableFigures says the analysis cannot give is null, with
// its reason in `unavailable`: its value means nothing, so it is neither
// guarded nor printed.
class Figures {
public:
    explicit Figures(const Analysis& a)
    {
        for (auto& [key, why] : unavailableFigures(a))
            unavailable_.push_back(std::move(key));
    }
    Json operator()(std::string_view key, double value) const
    {
        if (std::find(unavailable_.begin(), unavailable_.end(), key) != unavailable_.end())
            return nullptr;
        return finiteOrZero(value);
    }

private:
    std::vector<std::string> unavailable_;
};

Json inventoryJson(const Inventory& inv, const std::string& gpuName)
{
    Json j = Json::object();
    j["gpus"] = inv.gpus;
    j["nodes"] = inv.nodes;
    j["racks"] = inv.racks;
    j["nics"] = inv.nics;
    j["gpu_part"] = inv.gpuPart;
    j["gpu_name"] = gpuName;
    j["storage_systems"] = inv.storageSystems;
    j["local_drives"] = inv.localDrives;
    Json switches = Json::object();
    switches["total"] = inv.switches;
    for (const char* tier : {"leaf", "spine", "core", "other"})
        switches[tier] = inv.switchesByTier.at(tier);
    j["switches"] = std::move(switches);
    Json cables = Json::object();
    cables["total"] = inv.cables;
    Json byPart = Json::object();
    for (const auto& [part, n] : inv.cablesByPart)
        byPart[part] = n;
    cables["by_part"] = std::move(byPart);
    j["cables"] = std::move(cables);
    Json fabrics = Json::array();
    for (const auto& f : inv.fabrics)
        fabrics.push_back({{"id", f.component},
                           {"name", f.name},
                           {"switch", f.switchPart},
                           {"tiers", f.tree.tiers},
                           {"endpoints", f.tree.endpoints},
                           {"nodes", f.nodes},
                           {"rails", f.rails},
                           {"nodes_per_unit", f.tree.nodesPerUnit},
                           {"leaf_down_ports", f.tree.leafDown},
                           {"leaf_up_ports", f.tree.leafUp},
                           {"leaf", f.tree.leaf},
                           {"spine", f.tree.spine},
                           {"core", f.tree.core},
                           {"inter_switch_cables", f.tree.leafSpineCables + f.tree.spineCoreCables},
                           {"oversubscription", {{"leaf", f.oversubscription}, {"spine", 1}, {"core", 1}}},
                           {"port_gbps", f.portGbps},
                           {"max_endpoints", f.tree.maxEndpoints},
                           {"bisection_gb_per_s", f.bisectionGbPerS()}});
    j["fabrics"] = std::move(fabrics);
    Json bom = Json::array();
    for (const auto& line : inv.bom)
        bom.push_back(
            {{"part", line.part}, {"name", line.name}, {"kind", partKindName(line.kind)}, {"count", line.count}});
    j["bom"] = std::move(bom);
    return j;
}

Json computeJson(const Analysis& a)
{
    const auto& g = a.hardware.gpu;
    Json peaks = Json::object(), cluster = Json::object();
    for (const auto& [precision, s] : g.peaksTflops) {
        peaks[precision] = finiteOrZero(s.value);
        cluster[precision] = finiteOrZero(s.value * double(a.inventory.gpus) / 1000);
    }
    return {{"gpu_name", g.name},
            {"precision", g.trainingPrecision},
            {"peak_tflops_per_gpu", std::move(peaks)},
            {"cluster_peak_pflops", std::move(cluster)},
            {"hbm_tb_per_s", finiteOrZero(g.hbmTbPerS.value)},
            {"hbm_gb", finiteOrZero(g.hbmGb.value)},
            {"ridge_flop_per_byte", finiteOrZero(a.roofline.ridgeFlopPerByte)},
            {"scaleup_gb_per_s", finiteOrZero(g.scaleupGbPerS.value)},
            {"scaleup_domain_gpus", a.hardware.scaleupDomainGpus},
            {"gpus_per_node", a.hardware.gpusPerNode},
            {"scaleup_domains", a.hardware.scaleupDomainGpus > 0 ? a.inventory.gpus / a.hardware.scaleupDomainGpus : 0},
            {"nic_gb_per_s_per_gpu", finiteOrZero(a.hardware.scaleOut.nicGbPerSPerGpu.value)},
            {"storage_read_gb_per_s", finiteOrZero(a.hardware.storage.readGbPerS.value)},
            {"storage_write_gb_per_s", finiteOrZero(a.hardware.storage.writeGbPerS.value)},
            {"storage_metadata_kiops", finiteOrZero(a.hardware.storage.metadataKiops.value)}};
}

Json hierarchyJson(const Hierarchy& h)
{
    Json tiers = Json::array();
    for (const auto& t : h.tiers)
        tiers.push_back({{"tier", t.key},
                         {"name", t.name},
                         {"gb_per_s_per_gpu", finiteOrZero(t.gbPerSPerGpu)},
                         {"latency_us", finiteOrZero(t.latencyUs)},
                         {"scope_gpus", t.scopeGpus},
                         {"ratio_to_above", finiteOrZero(t.ratioToAbove)},
                         {"axes", t.axes}});
    return tiers;
}

Json rooflineJson(const Analysis& a)
{
    const Roofline& r = a.roofline;
    const Figures figure(a);
    Json ceilings = Json::array(), slopes = Json::array(), points = Json::array();
    for (const auto& c : r.ceilings)
        ceilings.push_back({{"precision", c.precision},
                            {"tflops", finiteOrZero(c.tflops)},
                            {"ridge_flop_per_byte", finiteOrZero(c.ridgeFlopPerByte)}});
    for (const Slope* s : {&r.hbm})
        slopes.push_back({{"key", s->key},
                          {"name", s->name},
                          {"gb_per_s", finiteOrZero(s->gbPerS)},
                          {"ridge_flop_per_byte", finiteOrZero(s->ridgeFlopPerByte)}});
    for (const auto& s : r.fleet)
        slopes.push_back({{"key", s.key},
                          {"name", s.name},
                          {"gb_per_s", finiteOrZero(s.gbPerS)},
                          {"ridge_flop_per_byte", finiteOrZero(s.ridgeFlopPerByte)}});
    for (const auto& p : r.points)
        points.push_back({{"name", p.name},
                          {"kind", p.kind},
                          {"intensity", finiteOrZero(p.intensity)},
                          {"attainable_tflops", finiteOrZero(p.attainableTflops)},
                          {"achieved_tflops", finiteOrZero(p.achievedTflops)},
                          {"bound", p.bound}});
    return {{"peak_tflops", finiteOrZero(r.peakTflops)},
            {"ridge_flop_per_byte", finiteOrZero(r.ridgeFlopPerByte)},
            {"ridge_batch", finiteOrZero(r.ridgeBatch)},
            {"decode_tokens_per_s", figure("roofline.decode_tokens_per_s", r.decodeTokensPerS)},
            {"ceilings", std::move(ceilings)},
            {"slopes", std::move(slopes)},
            {"points", std::move(points)}};
}

Json trainingJson(const Analysis& a)
{
    const Figures figure(a);
    const auto& s = a.step;
    const auto& m = a.memory;
    Json breakdown = Json::array();
    for (const auto& p : s.breakdown)
        breakdown.push_back({{"key", p.key()}, {"name", p.name()}, {"seconds", finiteOrZero(p.seconds)}});
    Json waterfall = Json::array();
    for (const auto& b : a.utilization.waterfall)
        waterfall.push_back({{"key", b.key},
                             {"name", b.name},
                             {"fraction", finiteOrZero(b.fraction)},
                             {"level", b.level},
                             {"from", finiteOrZero(b.from)},
                             {"to", finiteOrZero(b.to)}});
    Json axes = Json::array();
    for (const auto& x : a.hierarchy.axes)
        axes.push_back({{"axis", x.axis},
                        {"degree", x.degree},
                        {"span_gpus", x.spanGpus},
                        {"tier", x.tier},
                        {"too_slow", x.tooSlow}});
    const auto& w = a.workload;
    const bool ok = a.runnable();
    if (!ok) {
        breakdown = Json::array();
        waterfall = Json::array();
    }
    // The layout analysed, in the search's keys, so a compared column's
    // layout feeds `metrics --set` back as it is.
    Json layout = layoutJson(layoutOf(w));
    layout["gpus_used"] = w.gpusUsed;
    Json j = {{"model", w.name},
              {"params_b", finiteOrZero(w.params / 1e9)},
              {"active_params_b", finiteOrZero(w.activeParamsPerToken / 1e9)},
              {"layout", std::move(layout)},
              {"parallelism", std::move(axes)},
              {"runnable", ok},
              {"step_time_s", figure("training.step_time_s", s.stepS)},
              {"tokens_per_s", figure("training.tokens_per_s", s.tokensPerS)},
              {"tflops_per_gpu_model", figure("training.tflops_per_gpu_model", s.tflopsPerGpuModel)},
              {"tflops_per_gpu_hardware", figure("training.tflops_per_gpu_hardware", s.tflopsPerGpuHardware)},
              {"mfu", figure("training.mfu", s.mfu)},
              {"hfu", figure("training.hfu", s.hfu)},
              {"days_to_train", figure("training.days_to_train", s.daysToTrain)},
              {"micro_batches", finiteOrZero(s.microBatches)},
              {"bubble_fraction", figure("training.bubble_fraction", s.bubbleFraction)},
              {"breakdown", std::move(breakdown)},
              {"memory_gb_per_gpu",
               {{"weights", finiteOrZero(m.weightsGb)},
                {"gradients", finiteOrZero(m.gradientsGb)},
                {"optimizer", finiteOrZero(m.optimizerGb)},
                {"activations", finiteOrZero(m.activationsGb)},
                {"workspace", finiteOrZero(m.workspaceGb)},
                {"total", finiteOrZero(m.totalGb)}}},
              {"hbm_gb", finiteOrZero(m.hbmGb)},
              {"hbm_capacity_gb", finiteOrZero(m.capacityGb)},
              {"fits_in_hbm", m.fits},
              {"waterfall", std::move(waterfall)},
              {"delivered_fraction", figure("training.delivered_fraction", a.utilization.delivered)},
              {"delivered_pflops", figure("training.delivered_pflops", a.utilization.deliveredPflops)}};
    if (!ok) {
        std::string why;
        for (const auto& p : a.notRunnable)
            why += (why.empty() ? "" : "; ") + p.message;
        j["not_runnable"] = why;
    }
    return j;
}

Json storageJson(const DataPipeline& d)
{
    return {{"data_demand_gb_per_s", finiteOrZero(d.demandGbPerS)},
            {"files_per_s", finiteOrZero(d.filesPerS)},
            {"read_supply_gb_per_s", finiteOrZero(d.readSupplyGbPerS)},
            {"read_headroom", finiteOrZero(d.readHeadroom)},
            {"metadata_ops_per_s", finiteOrZero(d.metadataOpsPerS)},
            {"checkpoint_gb", finiteOrZero(d.checkpointGb)},
            {"checkpoint_write_at_storage_s", finiteOrZero(d.writeAtStorageS)},
            {"checkpoint_write_s", finiteOrZero(d.writeAtNicsS)},
            {"write_path_gb_per_s", finiteOrZero(d.writePathGbPerS)},
            {"local_read_gb_per_s_per_node", finiteOrZero(d.localReadGbPerSPerNode)}};
}

Json powerJson(const Analysis& a)
{
    const Figures figure(a);
    const auto& p = a.power;
    Json racks = Json::array();
    for (const auto& r : p.racks)
        racks.push_back({{"component", r.component},
                         {"name", r.name},
                         {"count", r.count},
                         {"nodes_each", r.nodesEach},
                         {"gpus_each", r.gpusEach},
                         {"kw_each", finiteOrZero(r.kwEach)},
                         {"limit_kw", finiteOrZero(r.limitKw)},
                         {"cooling", r.cooling}});
    return {{"gpu_kw", finiteOrZero(p.gpuKw)},
            {"compute_kw", finiteOrZero(p.computeKw)},
            {"network_kw", finiteOrZero(p.networkKw)},
            {"storage_kw", finiteOrZero(p.storageKw)},
            {"it_kw", finiteOrZero(p.itKw)},
            {"facility_kw", finiteOrZero(p.facilityKw)},
            {"overhead_kw", finiteOrZero(p.overheadKw)},
            {"pue", finiteOrZero(p.pue.value)},
            {"max_rack_kw", finiteOrZero(p.maxRackKw)},
            {"racks_over_cooling_limit", p.racksOverLimit},
            {"air_cooling_limit_kw", finiteOrZero(p.airCoolingLimitKw.value)},
            {"racks", std::move(racks)},
            {"energy_mwh_per_year", finiteOrZero(p.energyMwhPerYear)},
            {"cost_usd_per_year", finiteOrZero(p.costUsdPerYear)},
            {"co2_tonnes_per_year", finiteOrZero(p.co2TonnesPerYear)},
            {"training_run_mwh", figure("power.training_run_mwh", a.trainingRunMwh)},
            {"electricity_usd_per_kwh", finiteOrZero(p.pricePerKwh.value)},
            {"carbon_g_per_kwh", finiteOrZero(p.carbonGPerKwh.value)}};
}

Json usdJson(const UsdBand& b)
{
    return {{"typical", finiteOrZero(b.typical)}, {"low", finiteOrZero(b.low)}, {"high", finiteOrZero(b.high)}};
}

Json usdJson(const std::optional<UsdBand>& b)
{
    return b ? usdJson(*b) : Json(nullptr);
}

// docs/model.md section 20. Every figure a band, {typical, low, high}; a
// figure that needs a part without a price is still given, over the parts
// that have one, with `complete` false and the parts in `unpriced`.
Json costJson(const Analysis& a)
{
    const Cost& c = a.cost;
    Json byKind = Json::object();
    for (CapexKind k : kCapexKinds)
        byKind[std::string(capexKindKey(k))] = usdJson(c.capexByKind[std::size_t(k)]);
    Json unpriced = Json::array();
    for (const UnpricedPart& u : c.unpriced)
        unpriced.push_back({{"part", u.part}, {"name", u.name}, {"count", u.count}});
    Json lines = Json::array();
    for (const CostLine& l : c.lines)
        lines.push_back({{"part", l.part},
                         {"name", l.name},
                         {"kind", std::string(capexKindKey(l.kind))},
                         {"count", l.count},
                         {"unit_usd", usdJson(l.unit)},
                         {"total_usd", usdJson(l.total)},
                         {"source", l.source},
                         {"date", l.date}});
    return {{"complete", c.complete()},
            {"unpriced", std::move(unpriced)},
            {"covered_by_nodes", c.coveredByNodes},
            {"capex_usd", usdJson(c.capex)},
            {"capex_by_kind", std::move(byKind)},
            {"facility", c.colocated ? "colocation" : "built"},
            {"annual_tco_usd", usdJson(c.annualTco)},
            {"usd_per_gpu_hour", c.gpus > 0 ? usdJson(c.usdPerGpuHour) : Json(nullptr)},
            {"cloud_usd_per_gpu_hour", usdJson(c.cloudUsdPerGpuHour)},
            {"run_cost_usd", usdJson(c.runCost)},
            {"cloud_run_cost_usd", usdJson(c.cloudRunCost)},
            {"usd_per_million_tokens", usdJson(a.serving ? c.servingUsdPerMillionTokens : c.usdPerMillionTokens)},
            {"lines", std::move(lines)},
            {"inputs",
             {{"amortization_years_it", finiteOrZero(c.yearsIt.value)},
              {"amortization_years_facility", finiteOrZero(c.yearsFacility.value)},
              {"cost_of_capital", finiteOrZero(c.costOfCapital.value)},
              {"utilization", finiteOrZero(c.utilization.value)},
              {"operations_share", finiteOrZero(c.operationsShare.value)},
              {"capex_usd_per_mw", c.colocated ? Json(nullptr) : Json(finiteOrZero(c.capexPerMw.value))},
              {"colocation_usd_per_kw_month",
               c.colocated ? Json(finiteOrZero(c.colocationPerKwMonth.value)) : Json(nullptr)}}}};
}

Json reliabilityJson(const Analysis& a)
{
    const Figures figure(a);
    const auto& r = a.reliability;
    Json classes = Json::array();
    for (const auto& c : r.classes)
        classes.push_back({{"class", c.key},
                           {"name", c.name},
                           {"per", c.per},
                           {"devices", finiteOrZero(c.devices)},
                           {"mttf_h", finiteOrZero(c.mttfH.value)},
                           {"per_day", finiteOrZero(c.perDay)}});
    Json mtbf = Json::array(), goodput = Json::array();
    for (const auto& [n, hours] : r.mtbfCurve)
        mtbf.push_back({finiteOrZero(n), finiteOrZero(hours)});
    for (const auto& [tau, g] : r.goodputCurve)
        goodput.push_back({finiteOrZero(tau), finiteOrZero(g)});
    Json j = {{"cluster_mtbf_h", finiteOrZero(r.clusterMtbfH)},
              {"p_failure_24h", finiteOrZero(r.pFailure24h)},
              {"failures_per_day", finiteOrZero(r.failuresPerDay)},
              {"by_class", std::move(classes)},
              {"checkpoint_gb", finiteOrZero(a.data.checkpointGb)},
              {"checkpoint_write_s", finiteOrZero(r.checkpointWriteS)},
              {"checkpoint_interval_min", finiteOrZero(r.intervalMin)},
              {"young_interval_min", finiteOrZero(r.youngIntervalMin)},
              {"daly_interval_min", finiteOrZero(r.dalyIntervalMin)},
              {"restart_min", finiteOrZero(r.restartMin.value)},
              {"checkpoint_fraction", finiteOrZero(r.checkpointFraction)},
              {"failure_fraction", finiteOrZero(r.failureFraction)},
              {"maintenance_fraction", finiteOrZero(r.maintenanceFraction.value)},
              {"goodput", finiteOrZero(r.goodput)},
              {"young_goodput", finiteOrZero(r.youngGoodput)},
              {"daly_goodput", finiteOrZero(r.dalyGoodput)},
              {"completes", r.goodput > 0},
              {"wall_days", figure("reliability.wall_days", r.wallDays)},
              {"expected_interruptions", figure("reliability.expected_interruptions", r.expectedInterruptions)},
              {"mtbf_curve", std::move(mtbf)},
              {"goodput_curve", std::move(goodput)}};
    if (!r.neverCompletes.empty())
        j["never_completes"] = r.neverCompletes;
    return j;
}

// Every null figure and why: "not runnable: ..." or "never completes: ...".
Json unavailableJson(const Analysis& a)
{
    Json j = Json::object();
    for (const auto& [key, why] : unavailableFigures(a))
        j[key] = why;
    return j;
}

Json warningJson(const Problem& p)
{
    return {{"severity", p.severity == Severity::Error ? "error" : "warning"},
            {"code", p.code},
            {"message", p.message},
            {"pointer", p.pointer}};
}

}  // namespace

Json explainJson(const Explanation& e)
{
    Json inputs = Json::array();
    for (const auto& in : e.inputs)
        inputs.push_back(
            {{"name", in.name}, {"value", finiteOrZero(in.value)}, {"unit", in.unit}, {"source", in.source}});
    Json j = {{"formula", e.formula}, {"inputs", std::move(inputs)}};
    if (!e.unavailable.empty())
        j["unavailable"] = e.unavailable;
    if (e.errorBand) {
        const ErrorBand& b = *e.errorBand;
        Json band = {{"runs", b.runs}, {"text", b.text}};
        if (!b.runs.empty()) {
            band["basis"] = b.basis;
            band["model_error"] = {finiteOrZero(b.errorLow), finiteOrZero(b.errorHigh)};
            band["real_over_shown"] = {finiteOrZero(b.lowFactor), finiteOrZero(b.highFactor)};
        }
        j["error_band"] = std::move(band);
    }
    if (e.priceBand)
        j["band"] = {{"low", finiteOrZero(e.priceBand->low)}, {"high", finiteOrZero(e.priceBand->high)}};
    return j;
}

Json metricsJson(const Design& design, const Analysis& a)
{
    Json m = Json::object();
    m["design"] = {{"name", design.name}, {"format_version", design.format_version}};
    m["inventory"] = inventoryJson(a.inventory, a.hardware.gpu.name);
    m["compute"] = computeJson(a);
    m["hierarchy"] = hierarchyJson(a.hierarchy);
    m["roofline"] = rooflineJson(a);
    m["training"] = trainingJson(a);
    m["storage"] = storageJson(a.data);
    m["power"] = powerJson(a);
    m["reliability"] = reliabilityJson(a);
    m["cost"] = costJson(a);
    Json explain = Json::object();
    for (const auto& [key, e] : explainMetrics(a))
        explain[key] = explainJson(e);
    m["explain"] = std::move(explain);
    // The figures the analysis cannot give, from the one list that says why:
    // null, never a number that looks valid.
    m["unavailable"] = unavailableJson(a);
    for (const auto& [key, why] : unavailableFigures(a)) {
        const auto dot = key.find('.');
        m[key.substr(0, dot)][key.substr(dot + 1)] = nullptr;
    }
    Json warnings = Json::array();
    for (const auto& p : a.warnings)
        warnings.push_back(warningJson(p));
    m["warnings"] = std::move(warnings);
    return m;
}

Json computeMetrics(const Design& design, const Catalog& catalog)
{
    return metricsJson(design, analyzeDesign(design, catalog));
}

}  // namespace studio
