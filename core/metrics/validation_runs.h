#pragma once
// The performance model against published training runs: each run is a base
// design resized to the run's GPUs with the run's workload, and one metric
// compared with the paper's measurement. Used by the test suite (with a
// tolerance) and by `cluster-studio validation-report` (docs/validation.md).
#include <string>
#include <vector>

#include "core/catalog/catalog.h"
#include "core/problem.h"

namespace studio {

struct ValidationRow {
    std::string id, metric, source, role;  // role: calibration (published-runs.md) or check
    std::int64_t gpus = 0;
    double measured = 0, predicted = 0;
    double error() const { return measured != 0 ? (predicted - measured) / measured : 0; }
};

struct ValidationReport {
    std::vector<ValidationRow> rows;
    double meanAbsError = 0, maxAbsError = 0;  // over the calibration rows
    std::vector<Problem> problems;
};

ValidationReport runValidation(const std::string& runsPath, const Catalog& catalog);
std::string validationMarkdown(const ValidationReport& report, const std::string& command);

}  // namespace studio
