#pragma once
// What the design costs to own (docs/model.md section 20): its parts'
// prices by kind with their bands, the facility built or rented, the
// annual cost of ownership (capital recovered over the parts' and the
// building's lives at the cost of capital, electricity for the hours it
// works, colocation, operations), a GPU-hour owned against the cloud's, and
// what a training run or a million served tokens costs. A part without a
// price is named and leaves the totals incomplete, never priced at 0.
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/analysis/explanation.h"
#include "core/analysis/inventory.h"
#include "core/analysis/power.h"
#include "core/analysis/sourced.h"
#include "core/design/design_index.h"

namespace studio {

// A price band summed or scaled: every input at its low, its typical, its high.
struct UsdBand {
    double low = 0, typical = 0, high = 0;
    UsdBand& operator+=(const UsdBand& o)
    {
        low += o.low;
        typical += o.typical;
        high += o.high;
        return *this;
    }
    friend UsdBand operator+(UsdBand a, const UsdBand& b) { return a += b; }
    friend UsdBand operator*(UsdBand a, double k) { return {a.low * k, a.typical * k, a.high * k}; }
    bool operator==(const UsdBand&) const = default;
};

// What the capex is spent on; the facility only when it is built, not rented.
enum class CapexKind { Compute, Network, Storage, Racks, Facility };
inline constexpr std::array<CapexKind, 5> kCapexKinds{CapexKind::Compute, CapexKind::Network, CapexKind::Storage,
                                                      CapexKind::Racks, CapexKind::Facility};
std::string_view capexKindKey(CapexKind kind);    // "compute", ... (metrics' capex_by_kind)
std::string_view capexKindLabel(CapexKind kind);  // "Compute", "Scale-out fabric", ...

// One priced part's share: its units bought and what they cost.
struct CostLine {
    std::string part, name;
    CapexKind kind = CapexKind::Compute;
    std::int64_t count = 0;
    UsdBand unit, total;
    std::string source, date;
};

struct UnpricedPart {
    std::string part, name;
    std::int64_t count = 0;
    std::optional<CapexKind> kind;  // none for a part the catalog lacks
};

struct Cost {
    std::vector<CostLine> lines;  // catalog order
    std::vector<UnpricedPart> unpriced;
    bool complete() const { return unpriced.empty(); }
    // Units inside a priced node, whose price covers them (its GPUs, NICs, drives).
    std::int64_t coveredByNodes = 0;
    std::array<UsdBand, kCapexKinds.size()> capexByKind{};
    UsdBand itCapex, facilityCapex, capex;
    bool colocated = false;
    double itMw = 0;
    Sourced capexPerMw, colocationPerKwMonth, yearsIt, yearsFacility, costOfCapital, utilization, operationsShare;
    double recoveryIt = 0, recoveryFacility = 0;  // capital recovery factors: the share of capex repaid a year
    UsdBand capitalPerYear;                       // IT and facility capex recovered a year
    double colocationPerYear = 0;
    UsdBand operationsPerYear;
    double electricityPerYear = 0;  // facility power for the hours it works
    UsdBand fixedPerYear;           // capital, colocation and operations: what accrues whether it works or not
    UsdBand annualTco;
    double workHoursPerYear = 0;  // hours in a year x utilisation
    std::int64_t gpus = 0;
    UsdBand usdPerGpuHour;  // owned, per hour it works
    std::optional<UsdBand> cloudUsdPerGpuHour;
    std::string cloudSource;
    // A training run: the cluster's fixed cost for its wall-clock hours plus
    // its energy; per million tokens trained. Unset without a run.
    std::optional<UsdBand> runCost, usdPerMillionTokens;
    // Rent or own: the same run on the design's GPUs rented at the cloud
    // price for its wall-clock hours (energy included in the price).
    std::optional<UsdBand> cloudRunCost;
    double runWallDays = 0, runMwh = 0, runTokens = 0, runEnergyUsd = 0;
    // A serving design: owned GPU-hours over the tokens they serve.
    std::optional<UsdBand> servingUsdPerMillionTokens;
    double servingTokensPerSPerGpu = 0;
};

// Capital recovered each year for each dollar of capex over `years` at
// `rate` a year: rate / (1 - (1 + rate)^-years), or 1 / years at no cost of
// capital.
double capitalRecoveryFactor(double rate, double years);

Cost modelCost(const DesignIndex& index, const Inventory& inventory, const Power& power, const Facility& facility);
// A training run of `wallDays` (0: it never completes) using `runMwh` of
// facility energy to train `tokens`.
void costTrainingRun(Cost& cost, double wallDays, double runMwh, double pricePerKwh, double tokens);
// Serving at `tokensPerSPerGpu` on every GPU of a replica.
void costServing(Cost& cost, double tokensPerSPerGpu);
// Each figure's formula, inputs with their sources, and band, by its
// metrics key ("cost.capex_usd", ...): made when asked, not with every
// analysis a layout search or sweep runs.
std::vector<std::pair<std::string, Explanation>> explainCost(const Cost& cost, const Power& power, bool serving);

}  // namespace studio
