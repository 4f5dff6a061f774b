#pragma once
// The performance model against published training runs: each run is a base
// design resized to the run's GPUs with the run's workload, and one metric
// compared with the paper's measurement. Used by the test suite (with a
// tolerance) and by `cluster-studio validation-report` (docs/validation.md).
#include <string>
#include <vector>

#include "core/catalog/catalog.h"
#include "core/design/design.h"
#include "core/problem.h"
#include "core/search/layout.h"

namespace studio {

struct ValidationRow {
    std::string id, metric, source, role;  // role: calibration (published-runs.md) or check
    std::string published;                 // the figure as published when it was not a step time
    std::string system;                    // the base design's name: GPU and fabric the run was modelled on
    std::int64_t gpus = 0;                 // GPUs the run used (tp x pp x cp x dp)
    // What the run was, for finding the runs nearest a configuration
    // (core/metrics/error_band.h): its GPU part and layout.
    std::string gpuPart, precision;
    std::int64_t tp = 1, pp = 1, cp = 1, ep = 1, dp = 1, zero = 0;
    double measured = 0, predicted = 0;
    // Where the published layout ranks in the layout search on the same
    // GPUs (by step time), and the best layout the model finds there.
    struct Standing {
        Layout published, best;
        std::string whyNot;  // why the published layout is not ranked ("" when it is)
        std::int64_t rank = 0, feasible = 0;
        double gap = 0, bestStepS = 0;
    } standing;
    double error() const { return measured != 0 ? (predicted - measured) / measured : 0; }
};

struct ValidationReport {
    std::vector<ValidationRow> rows;
    double meanAbsError = 0, maxAbsError = 0;            // over the calibration rows
    double checkMeanAbsError = 0, checkMaxAbsError = 0;  // over the check rows, reported apart
    std::vector<Problem> problems;
};

ValidationReport runValidation(const std::string& runsPath, const Catalog& catalog);
std::string validationMarkdown(const ValidationReport& report, const std::string& command);
// The rows as resources/validation-errors.json holds them: what each run was
// and the model's step-time error on it, for the error bands.
Json validationErrorsJson(const ValidationReport& report, const std::string& command);

}  // namespace studio
