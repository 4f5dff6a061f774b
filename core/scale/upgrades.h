#pragma once
// What-if upgrades (docs/model.md section 18): the design with one thing
// bought better -- the next GPU generation in the catalog, twice the NIC
// bandwidth, NVL72 scale-up domains, liquid cooling -- each an edit of the
// design's own components, cables and facility (nothing added or removed,
// so the studio applies it as one undo step), and what it does against
// today: tokens/s, days, cost, facility power.
#include <atomic>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/catalog/catalog.h"
#include "core/design/design.h"
#include "core/scale/scale_sweep.h"

namespace studio {

enum class UpgradeKind { NextGpu, DoubleNic, Nvl72, LiquidCooling };
inline constexpr UpgradeKind kUpgradeKinds[] = {UpgradeKind::NextGpu, UpgradeKind::DoubleNic, UpgradeKind::Nvl72,
                                                UpgradeKind::LiquidCooling};
const char* upgradeKey(UpgradeKind kind);    // "next_gpu", "double_nic", "nvl72", "liquid_cooling"
const char* upgradeTitle(UpgradeKind kind);  // "Next GPU generation", ...

// PUE of a liquid-cooled AI facility (seed 002, table 13).
inline constexpr double kLiquidCooledPue = 1.06;

struct ProposedUpgrade {
    UpgradeKind kind = UpgradeKind::NextGpu;
    std::string unavailable;           // why it does not apply to this design; "" when it does
    Design design;                     // the upgraded design, when it applies
    std::vector<std::string> changes;  // what it changes, one line each
    bool ok() const { return unavailable.empty(); }
};
// The design (valid against `catalog`) with `kind` applied, or why not.
ProposedUpgrade proposeUpgrade(UpgradeKind kind, const Design& design, const Catalog& catalog);

struct UpgradeOutcome {
    ProposedUpgrade proposal;
    std::int64_t gpus = 0;
    std::optional<ScaleFigures> after;  // the workload's own layout on the upgraded design
    std::string whyNot;                 // when that does not run
    // The layout search's best on the upgraded design, when the upgrade
    // makes another layout the best and it trains more than 1% faster than
    // the workload's layout.
    std::optional<ScaleFigures> best;
};

struct UpgradesResult {
    std::string error;  // today's design does not run: nothing to compare with
    bool cancelled = false;
    std::int64_t gpus = 0;
    ScaleFigures today;
    std::optional<Layout> todayBest;       // the layout search's best for today's design
    std::vector<UpgradeOutcome> upgrades;  // in kUpgradeKinds' order
    bool ok() const { return error.empty() && !cancelled; }
};
UpgradesResult analyzeUpgrades(const Design& design, const Catalog& catalog, const std::atomic<bool>* cancel = nullptr);

}  // namespace studio
