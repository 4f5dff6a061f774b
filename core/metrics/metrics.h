#pragma once
// The one place that assembles every analysis of a design into the metrics
// object the CLI prints and the panels, compare view and report read. Keys
// named by the issues are part of the product's interface: keep them.
#include "core/catalog/catalog.h"
#include "core/design/design.h"
#include "core/model/analysis.h"

namespace studio {

Json metricsJson(const Design& design, const Analysis& analysis);
// One `explain` entry: the formula, its inputs with their sources, and the
// error and price bands where there are.
Json explainJson(const Explanation& e);
Json computeMetrics(const Design& design, const Catalog& catalog);  // analyzeDesign + metricsJson

}  // namespace studio
