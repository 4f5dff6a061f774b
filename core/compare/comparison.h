#pragma once
// Two to four designs side by side: the key figures of each with its
// difference from the baseline, judged better or worse for that figure, and
// the bill of materials of each, part by part. The compare view, the
// `compare` verb (json, text, CSV) and the comparison PDF all read this.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/analysis/analysis.h"
#include "core/design/design.h"
#include "core/metrics/explanations.h"
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
    // The workload the figure belongs to ("training", "serving"), or "" for
    // a figure of the cluster itself: a comparison shows a workload's rows
    // only when one of its designs has that workload.
    std::string workload = "";
};

// The compare table's rows, in order.
const std::vector<KeyFigure>& keyFigures();
const KeyFigure* findKeyFigure(const std::string& key);

// The value of a figure in a metrics object (metricsJson), in metrics units;
// nullopt when the metrics do not hold it.
std::optional<double> figureValue(const Json& metrics, const KeyFigure& figure);
// Why `figure` has no value in `metrics` ("not runnable: ..."), or "".
std::string figureUnavailable(const Json& metrics, const KeyFigure& figure);

struct ComparedDesign {
    std::string label;   // the design's name, made unique among those compared
    std::string source;  // the file it came from, or what it is ("open document")
    Analysis analysis;
    Json metrics;                    // metricsJson of the analysis, with the serving object of a serving design
    std::optional<Serving> serving;  // a serving design's serving analysis
};

// How each of a compared design's figures is made: the analysis's, and a
// servable design's serving figures.
std::vector<ExplainedMetric> explainCompared(const ComparedDesign& design);

// Analyses `design` (valid against `catalog`) for comparison.
ComparedDesign compareEntry(const Design& design, const Catalog& catalog, std::string source);

enum class Verdict { Baseline, Same, Better, Worse, Changed };  // Changed: differs, neither better nor worse
const char* verdictName(Verdict v);                             // "baseline", "same", "better", "worse", "changed"

struct FigureCell {
    std::optional<double> value;     // metrics units
    std::optional<double> delta;     // value - baseline
    std::optional<double> relative;  // delta / |baseline|; nullopt when the baseline is 0
    Verdict verdict = Verdict::Same;
    std::string unavailable;  // why there is no value ("not runnable: ..."), else ""
    // The value as the tables print it; else its reason's first words, or "-".
    std::string text(const KeyFigure& figure) const;
};

struct FigureComparison {
    KeyFigure figure;
    std::vector<FigureCell> cells;  // one per design
};

struct BomComparison {
    std::string part, name, kind;
    std::vector<std::int64_t> counts;  // one per design, 0 where the design has none
};

struct Comparison {
    std::vector<ComparedDesign> designs;
    std::size_t baseline = 0;
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
// baseline, "=" when the same.
std::string formatDelta(const KeyFigure& figure, const FigureCell& cell);

// The `compare` verb's outputs. JSON: an array, one object per design: the
// metrics keys, plus "label", "source", "baseline" (bool) and "deltas"
// (figure key -> value, baseline, delta, relative, verdict).
Json comparisonJson(const Comparison& c);
std::string comparisonText(const Comparison& c);
// One table: a row per key figure, then a row per bill-of-materials part;
// columns figure, key, unit, each design's value, and each other design's
// delta and relative delta. Plain numbers in the unit column's unit.
std::string comparisonCsv(const Comparison& c);

}  // namespace studio
