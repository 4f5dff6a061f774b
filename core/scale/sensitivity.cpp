#include "core/scale/sensitivity.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "core/design/defaults.h"
#include "core/design/design_index.h"
#include "core/model/analysis.h"
#include "core/search/layout_search.h"
#include "core/text.h"

namespace studio {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

enum class Field { Figures, Pue, Price, Restart, FailureRates, PartPrices, Utilization, CostOfCapital };

// Catalog figures scaled together: every part of `kind` that has one of
// `keys`, and every component of that kind overriding one.
struct Scaled {
    PartKind kind;
    std::vector<std::string> keys;
    // The measured kernel tables scale too: on a GPU with a kernel profile
    // they, not the catalog's factors, set the kernels' speed.
    bool kernelTables = false;
};

struct InputSpec {
    const char* key;
    const char* label;
    const char* unit;
    bool moreIsBetter;
    bool affectsLayout;
    Field field;
    std::vector<Scaled> figures;  // Field::Figures
    double hi = kInf;             // the largest value the input can take (an efficiency is at most 1)
    double lo = 0;                // the smallest (a PUE is at least 1)
    bool total = false;           // today's value is the design's sum (storage), not one part's
};

const std::vector<InputSpec>& inputSpecs()
{
    static const std::vector<InputSpec> specs = {
        {"gpu_peak",
         "GPU peak FLOP/s",
         "TFLOP/s",
         true,
         true,
         Field::Figures,
         {{PartKind::Accelerator,
           {"bf16_tflops", "fp16_tflops", "fp8_tflops", "fp4_tflops", "tf32_tflops", "fp32_tflops", "fp64_tflops",
            "fp64_tensor_tflops", "int8_tops"}}}},
        {"hbm_bandwidth",
         "HBM bandwidth",
         "TB/s",
         true,
         true,
         Field::Figures,
         {{PartKind::Accelerator, {"hbm_tb_per_s"}}}},
        {"hbm_capacity", "HBM capacity", "GB", true, true, Field::Figures, {{PartKind::Accelerator, {"hbm_gb"}}}},
        {"nvlink_bandwidth",
         "NVLink (scale-up) bandwidth",
         "GB/s",
         true,
         true,
         Field::Figures,
         {{PartKind::Accelerator, {"scaleup_gb_per_s"}}}},
        // A link runs at its slowest part: the NIC, its cable and the
        // switch port scale together.
        {"nic_bandwidth",
         "NIC and fabric bandwidth",
         "Gb/s",
         true,
         true,
         Field::Figures,
         {{PartKind::Nic, {"port_gbps"}}, {PartKind::Switch, {"port_gbps"}}, {PartKind::Link, {"gbps"}}}},
        {"network_latency", "network latency", "us", false, true, Field::Figures, {{PartKind::Nic, {"latency_us"}}}},
        {"kernel_efficiency",
         "kernel efficiency",
         "of peak",
         true,
         true,
         Field::Figures,
         {{PartKind::Accelerator,
           {"gemm_efficiency", "fp8_gemm_efficiency", "attention_efficiency", "hbm_efficiency"},
           true}},
         1.0},
        {"storage_bandwidth",
         "storage read bandwidth",
         "GB/s",
         true,
         false,
         Field::Figures,
         {{PartKind::Storage, {"read_gb_per_s"}}},
         kInf,
         0,
         true},
        {"checkpoint_write_bandwidth",
         "checkpoint write bandwidth",
         "GB/s",
         true,
         false,
         Field::Figures,
         {{PartKind::Storage, {"write_gb_per_s"}}},
         kInf,
         0,
         true},
        {"failure_rates", "failure rates", "failures/day", false, false, Field::FailureRates, {}},
        {"restart_time", "restart time", "min", false, false, Field::Restart, {}},
        {"pue", "PUE", "", false, false, Field::Pue, {}, kInf, 1.0},
        {"electricity_price", "electricity price", "USD/kWh", false, false, Field::Price, {}},
        // What the design costs to own (docs/model.md section 20): they move
        // the cost of the run and of a GPU-hour, never the days.
        {"part_prices", "part prices (capex)", "USD", false, false, Field::PartPrices, {}},
        {"cost_of_capital", "cost of capital", "a year", false, false, Field::CostOfCapital, {}},
        {"utilization", "utilisation", "of the year", true, false, Field::Utilization, {}, 1.0},
    };
    return specs;
}

// Today's value of a figure input: the first component of its kind that has
// it (the design's GPU, NIC), or with `total` the sum over every instance
// (the storage's aggregate bandwidth).
std::optional<double> todaysFigure(const DesignIndex& index, const Scaled& s, bool total)
{
    std::optional<double> sum;
    for (std::size_t i = 0; i < index.size(); ++i)
        if (index.kind(i) == s.kind)
            if (auto v = index.figure(i, s.keys.front())) {
                if (!total)
                    return v;
                sum = sum.value_or(0) + *v * double(index.instances(i));
            }
    return sum;
}

// Scales the figures in a copy of the catalog (through merge, which checks
// them as it checks a user's catalog) and in the design's overrides.
std::string scaleFigures(Design& d, Catalog& c, const Scaled& s, double factor, double hi)
{
    auto scaled = [&](double v) { return std::min(hi, v * factor); };
    std::vector<std::string> ids;
    for (const Part& p : c.parts())
        if (p.kind == s.kind && std::any_of(s.keys.begin(), s.keys.end(), [&](const auto& k) { return p.figure(k); }))
            ids.push_back(p.id);
    Json doc = c.subset(ids);
    for (Json& pj : doc["parts"])
        for (const auto& k : s.keys)
            if (auto f = pj["figures"].find(k); f != pj["figures"].end()) {
                Json& v = f->is_object() ? (*f)["value"] : *f;
                v = scaled(v.get<double>());
            }
    for (const Problem& p : c.merge(doc, "sensitivity", false))
        if (p.severity == Severity::Error)
            return p.pointer + ": " + p.message;
    if (s.kernelTables)
        c.scaleKernelEfficiencies(factor, hi);
    for (Component& comp : d.components) {
        const Part* part = c.find(comp.part);
        if (!part || part->kind != s.kind)
            continue;
        for (const auto& k : s.keys)
            if (auto it = comp.props.find(k); it != comp.props.end() && it->second.is_number())
                it->second = scaled(it->second.get<double>());
    }
    return "";
}

struct Variant {
    Design design;
    Catalog catalog;
    std::string error;
};

Variant vary(const Design& design, const Catalog& catalog, const InputSpec& spec, double factor)
{
    Variant v{design, catalog, {}};
    auto& ops = v.design.operations;
    switch (spec.field) {
    case Field::Figures:
        for (const Scaled& s : spec.figures)
            if (v.error = scaleFigures(v.design, v.catalog, s, factor, spec.hi); !v.error.empty())
                break;
        break;
    case Field::Pue:
        v.design.facility.pue = std::max(spec.lo, v.design.facility.pue.value_or(defaults::kPue.value) * factor);
        break;
    case Field::Price:
        v.design.facility.electricity_usd_per_kwh =
            v.design.facility.electricity_usd_per_kwh.value_or(defaults::kElectricityPrice.value) * factor;
        break;
    case Field::Restart:
        ops.checkpoint.restart_min = ops.checkpoint.restart_min.value_or(defaults::kRestart.value) * factor;
        break;
    case Field::PartPrices: v.catalog.scalePrices(factor); break;
    case Field::CostOfCapital:
        v.design.facility.cost_of_capital =
            v.design.facility.cost_of_capital.value_or(defaults::kCostOfCapital.value) * factor;
        break;
    case Field::Utilization:
        v.design.facility.utilization =
            std::min(spec.hi, v.design.facility.utilization.value_or(defaults::kUtilization.value) * factor);
        break;
    case Field::FailureRates: {
        // A rate times f is a mean time to failure over f, class by class.
        auto& m = ops.failure_mttf_h;
        const std::pair<std::optional<double>*, const SourcedDefault*> classes[] = {
            {&m.gpu, &defaults::kGpuMttf},          {&m.hbm, &defaults::kHbmMttf},
            {&m.host, &defaults::kHostMttf},        {&m.nic, &defaults::kNicMttf},
            {&m.network, &defaults::kNetworkMttf},  {&m.psu, &defaults::kPsuMttf},
            {&m.software, &defaults::kSoftwareMttf}};
        for (auto [field, fallback] : classes)
            *field = field->value_or(fallback->value) / factor;
        break;
    }
    }
    return v;
}

double costOf(const Analysis& a)
{
    return a.trainingRunMwh * 1000 * a.power.pricePerKwh.value;
}

// The run's cost with ownership (cost.run_cost_usd, typical).
double runCostOf(const Analysis& a)
{
    return a.completes() && a.cost.runCost ? a.cost.runCost->typical : kInf;
}

double daysOf(const Analysis& a)
{
    return a.completes() ? a.reliability.wallDays : kInf;
}

// The day's figures of one changed design: the design's own layout, or the
// best one where the change leaves the design's layout unable to run.
struct Today {
    double days = 0, costUsd = 0, runCostUsd = 0;  // the design's own layout
    Layout best;                   // the search's best
    double bestDays = 0, bestRunCostUsd = 0;  // with the best layout
};

SensitivityChange evaluate(const Variant& v, const InputSpec& spec, double change, const Today& today,
                           const std::atomic<bool>* cancel, bool* cancelled)
{
    SensitivityChange c;
    c.change = change;
    if (!v.error.empty()) {
        c.days = kInf;
        c.whyNot = v.error;
        return c;
    }
    const Analysis a = analyzeDesign(v.design, v.catalog);
    std::optional<Layout> best;
    if (spec.affectsLayout || !a.runnable()) {
        SearchOptions o;
        o.top = 1;
        o.cancel = cancel;
        const SearchResult r = searchLayouts(v.design, v.catalog, o);
        *cancelled = r.cancelled;
        if (!r.top.empty())
            best = r.top.front().layout;
    }
    if (best && !(*best == today.best))
        c.bestLayout = best;
    c.usdPerGpuHour = a.cost.usdPerGpuHour.typical;
    if (a.runnable()) {
        c.days = daysOf(a);
        c.costUsd = costOf(a);
        c.runCostUsd = runCostOf(a);
    } else if (best) {
        Design d = v.design;
        applyLayout(d.workload, *best);
        const Analysis b = analyzeDesign(d, v.catalog);
        // The change's effect on the best layout, applied to today's days:
        // the best layout after the change against today's own layout would
        // credit the change with the search's gain (half the HBM making the
        // run faster).
        const double ratio = daysOf(b) / today.bestDays;
        c.reSearched = true;
        c.days = today.days * ratio;
        c.costUsd = today.costUsd * ratio;
        c.runCostUsd = today.runCostUsd * runCostOf(b) / today.bestRunCostUsd;
    } else {
        c.days = kInf;
        c.runCostUsd = kInf;
        c.whyNot = stepUnavailable(a);
    }
    return c;
}

std::string percentChange(double now, double before)
{
    const double p = 100 * (now / before - 1);
    return (p > 0 ? "+" : "") + formatReadable(p) + "%";
}

// "Days to train are most sensitive to HBM capacity: 50% more gives 61.2
// days (-20.5%), 50% less 98 days (+28%). 10% more of it saves 4.1%."
std::string bindingSentence(const SensitivityResult& r)
{
    if (r.inputs.empty() || r.inputs.front().effectDays <= 0)
        return "No input moves the days to train by more than rounding.";
    const SensitivityInput& in = r.inputs.front();
    auto days = [](const SensitivityChange& c) {
        return std::isfinite(c.days) ? formatReadable(c.days) + " days" : std::string("a run that never completes");
    };
    auto delta = [&](const SensitivityChange& c) {
        return std::isfinite(c.days) ? " (" + percentChange(c.days, r.days) + ")" : std::string();
    };
    const SensitivityChange& up = in.at(0.5);
    const SensitivityChange& down = in.at(-0.5);
    std::string s = "Days to train are most sensitive to " + in.label + ": 50% more gives " + days(up) + delta(up) +
        ", 50% less " + days(down) + delta(down) + ".";
    // What buying more of it (or cutting it, for a cost like latency) gives.
    const SensitivityChange& better = in.at(in.moreIsBetter ? 0.1 : -0.1);
    if (std::isfinite(better.days) && better.days < r.days)
        s += std::string(" ") + (in.moreIsBetter ? "10% more of it" : "10% less of it") + " saves " +
            formatReadable(100 * (1 - better.days / r.days)) + "% of the days" +
            (better.reSearched || better.bestLayout ? " (with the layout searched again)" : "") + ".";
    else
        s += std::string(" More of it than today gains little: ") +
            (in.moreIsBetter ? "the limit is the other way." : "cutting it is what pays.");
    return s;
}

}  // namespace

const char* measureLabel(SensitivityMeasure m)
{
    switch (m) {
    case SensitivityMeasure::Days: return "days to train";
    case SensitivityMeasure::RunCost: return "cost of the run";
    case SensitivityMeasure::GpuHour: return "cost per GPU-hour owned";
    }
    return "days to train";
}

double measureOf(const SensitivityChange& c, SensitivityMeasure m)
{
    switch (m) {
    case SensitivityMeasure::Days: return c.days;
    case SensitivityMeasure::RunCost: return c.runCostUsd;
    case SensitivityMeasure::GpuHour: return c.usdPerGpuHour;
    }
    return c.days;
}

double measureToday(const SensitivityResult& r, SensitivityMeasure m)
{
    switch (m) {
    case SensitivityMeasure::Days: return r.days;
    case SensitivityMeasure::RunCost: return r.runCostUsd;
    case SensitivityMeasure::GpuHour: return r.usdPerGpuHour;
    }
    return r.days;
}

std::vector<std::size_t> inputsByEffect(const SensitivityResult& r, SensitivityMeasure m)
{
    const double today = measureToday(r, m);
    std::vector<double> effect;
    for (const auto& in : r.inputs) {
        double e = 0;
        for (const auto& c : in.changes) {
            const double v = measureOf(c, m);
            e = std::max(e, std::isfinite(v) && std::isfinite(today) ? std::abs(v - today) : kInf);
        }
        effect.push_back(e);
    }
    std::vector<std::size_t> order(r.inputs.size());
    for (std::size_t i = 0; i < order.size(); ++i)
        order[i] = i;
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return effect[a] > effect[b]; });
    return order;
}

const SensitivityChange& SensitivityInput::at(double change) const
{
    for (const auto& c : changes)
        if (std::abs(c.change - change) < 1e-9)
            return c;
    return changes.front();
}

SensitivityResult analyzeSensitivity(const Design& design, const Catalog& catalog, const std::atomic<bool>* cancel,
                                     const std::function<void(double done)>& progress)
{
    SensitivityResult r;
    const Analysis today = analyzeDesign(design, catalog);
    // Changes in days to train mean nothing against a run that never
    // completes ("Today: inf days", found with fuzz_set's inputs).
    if (!today.completes()) {
        r.error = runUnavailable(today);
        return r;
    }
    r.days = daysOf(today);
    r.costUsd = costOf(today);
    r.runCostUsd = runCostOf(today);
    r.usdPerGpuHour = today.cost.usdPerGpuHour.typical;
    r.costComplete = today.cost.complete();
    Today now{r.days, r.costUsd, r.runCostUsd, layoutOf(today.workload), r.days, r.runCostUsd};
    {
        SearchOptions o;
        o.top = 1;
        o.cancel = cancel;
        const SearchResult found = searchLayouts(design, catalog, o);
        if (found.cancelled) {
            r.cancelled = true;
            return r;
        }
        if (!found.top.empty()) {
            now.best = found.top.front().layout;
            Design d = design;
            applyLayout(d.workload, now.best);
            const Analysis best = analyzeDesign(d, catalog);
            now.bestDays = daysOf(best);
            now.bestRunCostUsd = runCostOf(best);
        }
        r.bestLayout = now.best;
    }
    const DesignIndex index(design, catalog);
    for (const InputSpec& spec : inputSpecs()) {
        SensitivityInput in;
        in.key = spec.key;
        in.label = spec.label;
        in.unit = spec.unit;
        in.moreIsBetter = spec.moreIsBetter;
        in.affectsLayout = spec.affectsLayout;
        switch (spec.field) {
        case Field::Figures: {
            const auto v = todaysFigure(index, spec.figures.front(), spec.total);
            if (!v)
                continue;  // the design has nothing of this (no storage, say)
            in.value = *v;
            break;
        }
        case Field::Pue: in.value = today.power.pue.value; break;
        case Field::Price: in.value = today.power.pricePerKwh.value; break;
        case Field::Restart:
            in.value = design.operations.checkpoint.restart_min.value_or(defaults::kRestart.value);
            break;
        case Field::FailureRates: in.value = today.reliability.failuresPerDay; break;
        case Field::PartPrices:
            if (today.cost.lines.empty())
                continue;  // nothing priced to change
            in.value = today.cost.itCapex.typical;
            break;
        case Field::CostOfCapital: in.value = today.cost.costOfCapital.value; break;
        case Field::Utilization: in.value = today.cost.utilization.value; break;
        }
        for (double change : kSensitivityChanges) {
            if (cancel && cancel->load(std::memory_order_relaxed)) {
                r.cancelled = true;
                return r;
            }
            bool cancelled = false;
            SensitivityChange c =
                evaluate(vary(design, catalog, spec, 1 + change), spec, change, now, cancel, &cancelled);
            if (cancelled) {
                r.cancelled = true;
                return r;
            }
            c.value = std::clamp(in.value * (1 + change), spec.lo, spec.hi);
            in.effectDays = std::max(in.effectDays, std::isfinite(c.days) ? std::abs(c.days - r.days) : kInf);
            in.effectRunCost = std::max(in.effectRunCost,
                                        std::isfinite(c.runCostUsd) && std::isfinite(r.runCostUsd)
                                            ? std::abs(c.runCostUsd - r.runCostUsd)
                                            : kInf);
            in.changes.push_back(std::move(c));
        }
        r.inputs.push_back(std::move(in));
        if (progress)
            progress(double(&spec - inputSpecs().data() + 1) / double(inputSpecs().size()));
    }
    std::stable_sort(r.inputs.begin(), r.inputs.end(),
                     [](const SensitivityInput& a, const SensitivityInput& b) { return a.effectDays > b.effectDays; });
    r.binding = bindingSentence(r);
    return r;
}

}  // namespace studio
