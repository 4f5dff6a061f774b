#pragma once
// The explanation of every number the studio prints, keyed by its metrics
// key ("training.mfu", "hierarchy.nvlink", "reliability.by_class.gpu"): the
// CLI's `explain` object and the studio's tooltips read the same list, so a
// figure explains itself the same way everywhere.
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/model/analysis.h"

namespace studio {

using ExplainedMetric = std::pair<std::string, Explanation>;

std::vector<ExplainedMetric> explainMetrics(const Analysis& analysis);
// The figures the analysis cannot give, each with why: the step's when the
// layout is not runnable, the run's wall-clock ones when it never completes.
std::vector<std::pair<std::string, std::string>> unavailableFigures(const Analysis& analysis);
// nullptr when `key` has no explanation.
const Explanation* findExplanation(const std::vector<ExplainedMetric>& explained, std::string_view key);

}  // namespace studio
