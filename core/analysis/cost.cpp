#include "core/analysis/cost.h"

#include <cmath>
#include <map>

#include "core/text.h"

namespace studio {
namespace {

constexpr double kHoursPerYear = 365.25 * 24;
constexpr const char* kRunFormula =
    "wall-clock hours x the cluster's fixed cost per working hour (capital, colocation and operations a year / (hours "
    "a year x utilisation)) + the run's energy x electricity price";

std::optional<CapexKind> kindOf(PartKind kind)
{
    switch (kind) {
    case PartKind::Accelerator:
    case PartKind::Node: return CapexKind::Compute;
    case PartKind::Nic:
    case PartKind::Switch:
    case PartKind::Link: return CapexKind::Network;
    case PartKind::Storage: return CapexKind::Storage;
    case PartKind::Rack: return CapexKind::Racks;
    case PartKind::Group:
    case PartKind::Fabric: return std::nullopt;
    }
    return std::nullopt;
}

UsdBand bandOf(const Price& p)
{
    return {p.low, p.typical, p.high};
}

// Units bought of each catalog part, by its position in the catalog (an
// analysis runs for every layout a search tries: no string keys); a part
// the catalog lacks (a cable named but not defined) by its id.
class Purchases {
public:
    explicit Purchases(const Catalog& catalog) : catalog_(catalog), counts_(catalog.parts().size(), 0) {}
    void add(const Part* part, std::int64_t n)
    {
        if (n > 0)
            counts_[std::size_t(part - catalog_.parts().data())] += n;
    }
    void add(const std::string& id, std::int64_t n)
    {
        if (n <= 0)
            return;
        if (const Part* part = catalog_.find(id))
            add(part, n);
        else
            missing_[id] += n;
    }
    void fill(Cost& cost) const
    {
        const std::vector<Part>& parts = catalog_.parts();
        for (std::size_t i = 0; i < parts.size(); ++i) {
            const Part& p = parts[i];
            const std::optional<CapexKind> kind = kindOf(p.kind);
            if (counts_[i] == 0 || !kind)
                continue;
            if (!p.price) {
                cost.unpriced.push_back({p.id, p.name, counts_[i], kind});
                continue;
            }
            CostLine line{p.id,
                          p.name,
                          *kind,
                          counts_[i],
                          bandOf(*p.price),
                          bandOf(*p.price) * double(counts_[i]),
                          p.price->source,
                          p.price->date};
            cost.capexByKind[std::size_t(*kind)] += line.total;
            cost.lines.push_back(std::move(line));
        }
        for (const auto& [id, n] : missing_)
            cost.unpriced.push_back({id, id, n, std::nullopt});
    }

private:
    const Catalog& catalog_;
    std::vector<std::int64_t> counts_;
    std::map<std::string, std::int64_t> missing_;
};

// The priced node an item sits in (its price covers the item), if any.
std::optional<std::size_t> pricedNodeAround(const DesignIndex& index, std::size_t i)
{
    const std::optional<std::size_t> p = index.parent(i);
    if (!p)
        return std::nullopt;
    const std::optional<std::size_t> node = index.enclosing(*p, PartKind::Node);
    if (node && index.part(*node).price)
        return node;
    return std::nullopt;
}

}  // namespace

std::string_view capexKindKey(CapexKind kind)
{
    switch (kind) {
    case CapexKind::Compute: return "compute";
    case CapexKind::Network: return "network";
    case CapexKind::Storage: return "storage";
    case CapexKind::Racks: return "racks";
    case CapexKind::Facility: return "facility";
    }
    return "";
}

std::string_view capexKindLabel(CapexKind kind)
{
    switch (kind) {
    case CapexKind::Compute: return "Compute";
    case CapexKind::Network: return "Scale-out fabric";
    case CapexKind::Storage: return "Storage";
    case CapexKind::Racks: return "Racks";
    case CapexKind::Facility: return "Facility";
    }
    return "";
}

double capitalRecoveryFactor(double rate, double years)
{
    if (years <= 0)
        return 0;
    if (rate <= 0)
        return 1 / years;
    // 1 - (1 + r)^-n through log1p and expm1: the plain form loses every
    // digit to rounding as r shrinks and divides by zero below ~1e-16.
    return rate / -std::expm1(-years * std::log1p(rate));
}

Cost modelCost(const DesignIndex& index, const Inventory& inventory, const Power& power, const Facility& facility)
{
    Cost c;
    Purchases bought(index.catalog());
    for (std::size_t i = 0; i < index.size(); ++i) {
        if (!kindOf(index.kind(i)))
            continue;
        if (pricedNodeAround(index, i)) {
            c.coveredByNodes += index.instances(i);
            continue;
        }
        bought.add(&index.part(i), index.instances(i));
    }
    for (const FabricSizing& f : inventory.fabrics) {
        bought.add(f.switchPart, f.tree.switches());
        if (!f.cablePart.empty())
            bought.add(f.cablePart, f.tree.leafSpineCables + f.tree.spineCoreCables);
    }
    for (std::size_t j = 0; j < index.design().links.size(); ++j) {
        // A cable between two items of one priced node came with it.
        const auto from = index.linkFrom(j), to = index.linkTo(j);
        const auto node = from ? pricedNodeAround(index, *from) : std::nullopt;
        if (node && to && pricedNodeAround(index, *to) == node) {
            c.coveredByNodes += index.cables(j);
            continue;
        }
        if (const Part* cable = index.linkPart(j))
            bought.add(cable, index.cables(j));
        else
            bought.add(index.design().links[j].part, index.cables(j));
    }
    bought.fill(c);
    for (CapexKind k : {CapexKind::Compute, CapexKind::Network, CapexKind::Storage, CapexKind::Racks})
        c.itCapex += c.capexByKind[std::size_t(k)];

    // The facility: rented by the kW of IT load, or built for it.
    c.itMw = power.itKw / 1000;
    c.colocated = facility.colocation_usd_per_kw_month.has_value();
    c.yearsIt = inputOr(facility.amortization_years_it, defaults::kAmortizationYearsIt);
    c.yearsFacility = inputOr(facility.amortization_years_facility, defaults::kAmortizationYearsFacility);
    c.costOfCapital = inputOr(facility.cost_of_capital, defaults::kCostOfCapital);
    c.utilization = inputOr(facility.utilization, defaults::kUtilization);
    c.operationsShare = inputOr(facility.operations_share, defaults::kOperationsShare);
    c.recoveryIt = capitalRecoveryFactor(c.costOfCapital.value, c.yearsIt.value);
    c.recoveryFacility = capitalRecoveryFactor(c.costOfCapital.value, c.yearsFacility.value);
    if (c.colocated) {
        c.colocationPerKwMonth = {*facility.colocation_usd_per_kw_month,
                                  "design (facility.colocation_usd_per_kw_month)"};
        c.colocationPerYear = c.colocationPerKwMonth.value * power.itKw * 12;
    } else {
        c.capexPerMw = inputOr(facility.capex_usd_per_mw, defaults::kFacilityCapexPerMw);
        const double facilityCapex = c.capexPerMw.value * c.itMw;
        c.facilityCapex = {facilityCapex, facilityCapex, facilityCapex};
        c.capexByKind[std::size_t(CapexKind::Facility)] = c.facilityCapex;
    }
    c.capex = c.itCapex + c.facilityCapex;

    c.capitalPerYear = c.itCapex * c.recoveryIt + c.facilityCapex * c.recoveryFacility;
    c.operationsPerYear = c.capex * c.operationsShare.value;
    c.workHoursPerYear = kHoursPerYear * c.utilization.value;
    c.electricityPerYear = power.facilityKw * c.workHoursPerYear * power.pricePerKwh.value;
    const UsdBand colocation{c.colocationPerYear, c.colocationPerYear, c.colocationPerYear};
    c.fixedPerYear = c.capitalPerYear + c.operationsPerYear + colocation;
    const UsdBand electricity{c.electricityPerYear, c.electricityPerYear, c.electricityPerYear};
    c.annualTco = c.fixedPerYear + electricity;
    c.gpus = inventory.gpus;
    if (c.gpus > 0 && c.workHoursPerYear > 0)
        c.usdPerGpuHour = c.annualTco * (1 / (double(c.gpus) * c.workHoursPerYear));

    // The rent-or-own line: the design's cloud price, else its GPU's.
    if (facility.cloud_usd_per_gpu_hour) {
        const double v = *facility.cloud_usd_per_gpu_hour;
        c.cloudUsdPerGpuHour = UsdBand{v, v, v};
        c.cloudSource = "design (facility.cloud_usd_per_gpu_hour)";
    } else if (const Part* gpu = index.catalog().find(inventory.gpuPart); gpu && gpu->cloudPrice) {
        c.cloudUsdPerGpuHour = bandOf(*gpu->cloudPrice);
        c.cloudSource = gpu->cloudPrice->source + " (" + gpu->cloudPrice->date + ")";
    }

    return c;
}

void costTrainingRun(Cost& c, double wallDays, double runMwh, double pricePerKwh, double tokens)
{
    c.runCost.reset();
    c.usdPerMillionTokens.reset();
    c.cloudRunCost.reset();
    c.runWallDays = wallDays;
    c.runMwh = runMwh;
    c.runTokens = tokens;
    c.runEnergyUsd = runMwh * 1000 * pricePerKwh;
    if (wallDays <= 0 || tokens <= 0 || c.workHoursPerYear <= 0)
        return;
    const UsdBand energy{c.runEnergyUsd, c.runEnergyUsd, c.runEnergyUsd};
    c.runCost = c.fixedPerYear * (wallDays * 24 / c.workHoursPerYear) + energy;
    c.usdPerMillionTokens = *c.runCost * (1e6 / tokens);
    if (c.cloudUsdPerGpuHour)
        c.cloudRunCost = *c.cloudUsdPerGpuHour * (double(c.gpus) * wallDays * 24);
}

void costServing(Cost& c, double tokensPerSPerGpu)
{
    c.servingUsdPerMillionTokens.reset();
    c.servingTokensPerSPerGpu = tokensPerSPerGpu;
    if (tokensPerSPerGpu > 0 && c.gpus > 0)
        c.servingUsdPerMillionTokens = c.usdPerGpuHour * (1e6 / (tokensPerSPerGpu * 3600));
}

std::vector<std::pair<std::string, Explanation>> explainCost(const Cost& c, const Power& power, bool serving)
{
    std::vector<std::pair<std::string, Explanation>> out;
    const auto add = [&out](std::string key, Explanation e, const UsdBand& band) {
        e.priceBand = Explanation::Band{band.low, band.high};
        out.emplace_back("cost." + std::move(key), std::move(e));
    };
    const auto line = [](const CostLine& l) -> ExplainInput {
        return {l.name + " x " + formatCount(l.count), l.total.typical, "USD", l.source + " (" + l.date + ")"};
    };
    const auto missing = [](const UnpricedPart& u) -> ExplainInput {
        return {u.name + " x " + formatCount(u.count) + ": no price", 0, "USD", "no price in the catalog: left out"};
    };
    const ExplainInput itLoad{"IT load", c.itMw, "MW", "this model (power)"};
    const std::string incomplete = c.complete() ? std::string()
                                                : " (incomplete: " + formatCount(std::int64_t(c.unpriced.size())) +
            " part" + (c.unpriced.size() == 1 ? "" : "s") + " without a price, left out)";

    Explanation capex{"sum over the parts bought of units x unit price (a node's price covers what it holds), plus "
                      "the facility built: capex per MW x IT MW" +
                          incomplete,
                      {}};
    for (const CostLine& l : c.lines)
        capex.inputs.push_back(line(l));
    for (const UnpricedPart& u : c.unpriced)
        capex.inputs.push_back(missing(u));
    if (!c.colocated)
        capex.inputs.push_back(c.capexPerMw.as("facility capex per MW of IT load", "USD"));
    capex.inputs.push_back(itLoad);
    add("capex_usd", std::move(capex), c.capex);
    for (CapexKind k : kCapexKinds) {
        Explanation e;
        if (k == CapexKind::Facility) {
            e = {c.colocated ? "0: the facility is rented (colocation), paid a year" : "capex per MW x IT MW",
                 {c.colocated ? c.colocationPerKwMonth.as("colocation per kW-month", "USD")
                              : c.capexPerMw.as("facility capex per MW of IT load", "USD"),
                  itLoad}};
        } else {
            e = {"sum over its parts of units x unit price" + incomplete, {}};
            for (const CostLine& l : c.lines)
                if (l.kind == k)
                    e.inputs.push_back(line(l));
            for (const UnpricedPart& u : c.unpriced)
                if (u.kind == k)
                    e.inputs.push_back(missing(u));
            if (e.inputs.empty())
                e.inputs.push_back({"parts of this kind", 0, "", "none in the design"});
        }
        add("capex_by_kind." + std::string(capexKindKey(k)), std::move(e), c.capexByKind[std::size_t(k)]);
    }
    add("annual_tco_usd",
        {"IT capex x CRF(cost of capital, IT years) + facility capex x CRF(cost of capital, facility years) + "
         "colocation a year + operations share x capex + facility kW x hours a year x utilisation x electricity "
         "price; CRF(r, n) = r / (1 - (1 + r)^-n)",
         {{"IT capex", c.itCapex.typical, "USD", "the parts' prices"},
          {"facility capex", c.facilityCapex.typical, "USD", c.colocated ? "rented: none" : "capex per MW x IT MW"},
          c.costOfCapital.as("cost of capital", "a year"),
          c.yearsIt.as("IT amortisation", "years"),
          c.yearsFacility.as("facility amortisation", "years"),
          {"colocation a year", c.colocationPerYear, "USD",
           c.colocated ? "colocation per kW-month x IT kW x 12" : "none: the facility is built"},
          c.operationsShare.as("operations a year", "of capex"),
          {"facility load", power.facilityKw, "kW", "this model (power)"},
          c.utilization.as("utilisation", "of hours"),
          power.pricePerKwh.as("electricity price", "USD/kWh")}},
        c.annualTco);
    add("usd_per_gpu_hour",
        {"annual cost of ownership / (GPUs x hours a year x utilisation)",
         {{"annual cost of ownership", c.annualTco.typical, "USD", "this model"},
          {"GPUs", double(c.gpus), "", "the design"},
          c.utilization.as("utilisation", "of hours")}},
        c.usdPerGpuHour);
    add("cloud_usd_per_gpu_hour",
        {"the design's cloud price per GPU-hour, else its GPU's in the catalog",
         {{"cloud price", c.cloudUsdPerGpuHour ? c.cloudUsdPerGpuHour->typical : 0, "USD per GPU-hour",
           c.cloudUsdPerGpuHour ? c.cloudSource : "no cloud price for this GPU"}}},
        c.cloudUsdPerGpuHour.value_or(UsdBand{}));
    // A serving design has no run: its explanation says why (unavailableFigures).
    Explanation run{kRunFormula, {}};
    if (!serving)
        run.inputs = {{"wall-clock hours", c.runWallDays * 24, "h", "wall-clock days x 24"},
                      {"fixed cost a year", c.fixedPerYear.typical, "USD", "this model"},
                      c.utilization.as("utilisation", "of hours"),
                      {"run energy", c.runMwh, "MWh", "this model (power)"},
                      power.pricePerKwh.as("electricity price", "USD/kWh")};
    add("run_cost_usd", std::move(run), c.runCost.value_or(UsdBand{}));
    Explanation rented{"cloud price per GPU-hour x the design's GPUs x wall-clock hours (the price includes the "
                       "network, storage, power and operations)",
                       {}};
    if (!serving)
        rented.inputs = {{"cloud price", c.cloudUsdPerGpuHour ? c.cloudUsdPerGpuHour->typical : 0, "USD per GPU-hour",
                          c.cloudUsdPerGpuHour ? c.cloudSource : "no cloud price for this GPU"},
                         {"GPUs", double(c.gpus), "", "this model (inventory)"},
                         {"wall-clock hours", c.runWallDays * 24, "h", "wall-clock days x 24"}};
    add("cloud_run_cost_usd", std::move(rented), c.cloudRunCost.value_or(UsdBand{}));
    if (serving)
        add("usd_per_million_tokens",
            {"cost per GPU-hour owned / (tokens/s per GPU x 3,600) x 10^6",
             {{"cost per GPU-hour", c.usdPerGpuHour.typical, "USD", "this model"},
              {"tokens/s per GPU", c.servingTokensPerSPerGpu, "tokens/s",
               "the serving analysis, at the served batch"}}},
            c.servingUsdPerMillionTokens.value_or(UsdBand{}));
    else
        add("usd_per_million_tokens",
            {"cost of the run / (tokens to train / 10^6)",
             {{"cost of the run", c.runCost ? c.runCost->typical : 0, "USD", "this model"},
              {"tokens to train", c.runTokens, "", "workload.training.tokens"}}},
            c.usdPerMillionTokens.value_or(UsdBand{}));
    return out;
}

}  // namespace studio
