#pragma once
// Two to four designs side by side: the key figures of each with its
// difference from the baseline, judged better or worse for that figure, and
// the bill of materials of each, part by part. The compare view, the
// `compare` verb (json, text, CSV) and the comparison PDF all read this.
//
// "Which of these should we build for our model?" needs every design on one
// workload, each at its own best layout for it: by default the baseline's
// workload runs on every design, at the layout the search ranks first
// there. Designs shown on their own, different workloads are marked so: the
// figures whose meaning the workload changes say "different workloads"
// instead of a delta that answers nothing.
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "core/compare/equal_budget.h"
#include "core/design/design.h"
#include "core/metrics/explanations.h"
#include "core/model/analysis.h"
#include "core/search/layout.h"
#include "core/search/layout_search.h"
#include "core/serving/serving.h"

namespace studio {

// Which way is better for a figure. Sizes (GPUs, switch and cable counts)
// are neither: a bigger cluster is not a worse one; what size costs shows
// in the power, energy and cost rows.
enum class Better { Higher, Lower, Neither };

struct KeyFigure {
    std::string key;    // the metrics key, dotted: "training.mfu"
    std::string label;  // "MFU"
    std::string unit;   // as shown: "%", "MW", "PFLOP/s"; "" for a count or ratio
    Better better = Better::Neither;
    double scale = 1;  // shown value = metrics value x scale (kW -> MW, fraction -> %)
    // The metrics list it per precision ({"bf16": ..., "fp8": ...}): the
    // figure is the one at the precision the design trains at, or serves
    // its weights at.
    bool atTrainingPrecision = false;
    // The kind of workload the figure belongs to, or none for a figure of
    // the cluster itself: a comparison shows a workload's rows only when one
    // of its designs has that kind of workload.
    std::optional<WorkloadKind> workload;
    // Its meaning changes with the workload (a run's throughput, days or
    // energy; the peak at the workload's precision): designs on different
    // workloads are not better or worse at it, only different.
    bool ofTheWorkload() const { return workload || atTrainingPrecision; }
    // Shown with the precision it is at (the peak, and MFU: a share of that
    // peak), which changes the figure.
    bool namesItsPrecision() const { return atTrainingPrecision || key == "training.mfu"; }
};

// The compare table's rows, in order.
const std::vector<KeyFigure>& keyFigures();
const KeyFigure* findKeyFigure(const std::string& key);

// The precision a design's figures at a precision are at: the training
// precision, or a serving design's weight precision ("bf16", "fp8").
std::string figurePrecision(const Json& metrics);
// The value of a figure in a metrics object (metricsJson), in metrics units;
// nullopt when the metrics do not hold it.
std::optional<double> figureValue(const Json& metrics, const KeyFigure& figure);
// Why `figure` has no value in `metrics` ("not runnable: ..."), or "".
std::string figureUnavailable(const Json& metrics, const KeyFigure& figure);

// Where the designs' workload comes from, and which layout each runs it at.
enum class WorkloadFrom { Baseline, Own, Other };
enum class LayoutFrom { Best, Own };

struct ComparedDesign;
// "own", "baseline" or the file the workload came from.
std::string workloadSourceName(const ComparedDesign& d);
// "own", "best", or "none" (no layout runs).
const char* layoutSourceName(const std::optional<LayoutFrom>& from);

struct ComparedDesign {
    std::string label;   // the design's name, made unique among those compared
    std::string source;  // the file it came from, or what it is ("open document")
    Design design;       // as analysed: on the workload compared, at the layout chosen
    // Where its workload came from: its own, the baseline's, or the design
    // file `workloadFile` (workloadSourceName: `metrics`' "workload_source").
    WorkloadFrom workloadFrom = WorkloadFrom::Own;
    std::string workloadFile;
    // How its layout was chosen: its own (the file's), the best (the layout
    // search's first for the workload, by `objective`), or nullopt: the
    // search found none that runs, so the design is not runnable
    // (layoutSourceName: "layout_source").
    std::optional<LayoutFrom> layoutFrom = LayoutFrom::Own;
    Objective objective = Objective::Time;  // what the best was best at
    Analysis analysis;
    Json metrics;                    // metricsJson of the analysis, with the serving object of a serving design
    std::optional<Serving> serving;  // a serving design's serving analysis
    // Compared at equal budget: the size it was resized to (the baseline's
    // is its own). Its metrics' "equal_budget" object.
    std::optional<EqualBudget> equalBudget;
};

struct CompareSetup {
    WorkloadFrom workload = WorkloadFrom::Baseline;
    // With WorkloadFrom::Other: the workload every design runs, and the file
    // it was taken from.
    std::optional<Workload> other;
    std::string otherSource;
    LayoutFrom layout = LayoutFrom::Best;
    Objective objective = Objective::Time;  // what "best" means
    // As designed, or each design other than the baseline resized to the
    // baseline's capex or facility power (equal_budget.h).
    Budget budget = Budget::AsDesigned;
};

// `own` running `shared`'s model and run instead of its own: the model, the
// training run (tokens, global batch, precision, attention kernel), a
// serving workload's requests and the data, with `own`'s layout (its
// parallelism and micro-batch). A serving workload keeps `shared`'s replica
// (tp, pp, ep) unless `keepOwnLayout`: it has no layout search.
Workload runOn(const Workload& own, const Workload& shared, bool keepOwnLayout);
// Whether two workloads are the same run (their layouts may differ).
bool sameRun(const Workload& a, const Workload& b);
// "Llama 3 70B · BF16 · 15T tokens · batch 1,024", or the serving
// equivalent: what a design runs, for the compare table's first rows.
std::string describeRun(const Workload& w);

// How each of a compared design's figures is made: the analysis's, and a
// servable design's serving figures.
std::vector<ExplainedMetric> explainCompared(const ComparedDesign& design);

// Analyses `design` (valid against `catalog`) for comparison, on its own
// workload at its own layout.
ComparedDesign compareEntry(const Design& design, const Catalog& catalog, std::string source);
// The same on `shared` (nullptr: its own workload), which is the baseline's
// or setup.other as `setup` says, at the layout `setup` asks for.
// A workload no layout runs on this design (it does not fit, it does not
// divide) leaves the design not runnable, saying why. Returns nullopt only
// when `cancel` was set during the layout search.
std::optional<ComparedDesign> compareEntry(const Design& design, const Catalog& catalog, std::string source,
                                           const Workload* shared, const CompareSetup& setup,
                                           const std::atomic<bool>* cancel = nullptr);

struct CompareInput {
    const Design* design = nullptr;  // valid against `catalog`
    const Catalog* catalog = nullptr;
    std::string source;
};
// Every design's entry as `setup` says: on the baseline's workload, or
// setup.other's, or each its own; at equal budget when setup.budget asks,
// each design other than the baseline first resized to the baseline's
// figure. nullopt only when `cancel` was set. `progress` (0..1) is called
// before each design.
std::optional<std::vector<ComparedDesign>> prepareComparison(const std::vector<CompareInput>& inputs,
                                                             std::size_t baseline, const CompareSetup& setup,
                                                             const std::atomic<bool>* cancel = nullptr,
                                                             const std::function<void(double)>& progress = {});

// Changed: differs, neither better nor worse. DifferentWorkloads: a figure
// of the workload, on a design that runs another workload than the
// baseline's: no delta.
enum class Verdict { Baseline, Same, Better, Worse, Changed, DifferentWorkloads };
// "baseline", "same", "better", "worse", "changed", "different_workloads"
const char* verdictName(Verdict v);

struct FigureCell {
    std::optional<double> value;     // metrics units
    std::optional<double> delta;     // value - baseline
    std::optional<double> relative;  // delta / |baseline|; nullopt when the baseline is 0
    Verdict verdict = Verdict::Same;
    std::string unavailable;  // why there is no value ("not runnable: ..."), else ""
    std::string qualifier;    // what the value is at, when designs differ in it ("FP8")
    // The value as the tables print it; else its reason's first words, or "-".
    std::string text(const KeyFigure& figure) const;
};

struct FigureComparison {
    KeyFigure figure;
    std::string label;              // the figure's name, with the precision when every design runs one ("MFU, BF16")
    std::vector<FigureCell> cells;  // one per design
};

struct BomComparison {
    std::string part, name, kind;
    std::vector<std::int64_t> counts;  // one per design, 0 where the design has none
};

struct Comparison {
    std::vector<ComparedDesign> designs;
    std::size_t baseline = 0;
    // Every design runs the baseline's model and run (their layouts may
    // differ); when not, the figures of the workload are not compared.
    bool sameWorkload = true;
    std::vector<FigureComparison> figures;  // the rows of the workloads compared
    std::vector<BomComparison> bom;         // parts in first-seen order
};

inline constexpr std::size_t kMinCompared = 2, kMaxCompared = 4;

// Needs 2 to 4 designs and a baseline among them (else std::invalid_argument).
// Labels that repeat get " (2)", " (3)" so every column is told apart.
Comparison compareDesigns(std::vector<ComparedDesign> designs, std::size_t baseline = 0);

// A figure's value as shown: "41.2 %", "1.47 MW", "16,384".
std::string formatFigure(const KeyFigure& figure, double metricsValue);
// A cell's difference from the baseline as shown: "+2.1 pts" for a
// percentage, else "+12.5 %" (relative) or "+3" for a count; "" for the
// baseline, "=" when the same, "different workloads" when not comparable.
std::string formatDelta(const KeyFigure& figure, const FigureCell& cell);
// A relative change as the comparison shows it: formatChange's (at most
// hundredths of a percent: "+0.01 %", not "+0.00919 %"), spaced as the
// comparison's percentages are.
std::string relativeChangeText(double fraction);

// What a comparison ran, in a sentence: "Every design runs Llama 3 70B ·
// BF16 · ... (the baseline's workload), each at the best layout the search
// finds for it by step time." or that the designs run different workloads.
std::string describeComparison(const Comparison& c);
// At equal budget, what each design was resized to: "At equal capex (the
// baseline's, $41.2M): B200 pod at 640 GPUs, resized from 1,024 GPUs:
// capex $41.0M".
// "" as designed.
std::string describeBudgets(const Comparison& c);

// The layout a design ran as the tables show it: "tp 8 · pp 4 · dp 32 · mb 1
// · ZeRO-1 · selective (best found)", a serving replica's shape, or why it
// cannot run. Without `howChosen`, no "(best found)" / "(its own)": where
// the page says it once for all.
std::string layoutText(const ComparedDesign& design, bool howChosen = true);

// The `compare` verb's outputs. JSON: an array, one object per design: the
// metrics keys (training.layout: the layout it ran), plus "label",
// "source", "baseline" (bool), "workload_source" ("own", "baseline" or the
// file), "layout_source" ("own" or "best"), "run" (describeRun) and
// "deltas" (figure key -> value, baseline, delta, relative, verdict).
Json comparisonJson(const Comparison& c);
std::string comparisonText(const Comparison& c);
// One table: a row per key figure, then a row per bill-of-materials part;
// columns figure, key, unit, each design's value, and each other design's
// delta and relative delta. Plain numbers in the unit column's unit.
std::string comparisonCsv(const Comparison& c);

}  // namespace studio
