#pragma once
// Calculon's output for the studio's Calculon export of each shipped
// training preset (tests/data/published/calculon-runs.json, written by
// tools/calculon-side-by-side.py), beside the studio's own figures for the
// same design: docs/validation.md's side-by-side section. Neither model is
// fit to the other; the table shows where and by how much they part.
#include <string>
#include <vector>

#include "core/catalog/catalog.h"
#include "core/problem.h"

namespace studio {

struct CalculonSideBySideRow {
    std::string design;  // the preset's name
    std::int64_t gpus = 0, sequence = 0;  // GPUs of the layout, tokens per sequence
    // The studio's step and its parts (seconds).
    double stepS = 0, mfu = 0, computeS = 0, tpS = 0, ppS = 0, dpS = 0;
    // Calculon's (total_time and its parts, seconds; total_efficiency), or
    // the error it stopped with.
    std::string error;
    double calculonStepS = 0, calculonEfficiency = 0, calculonComputeS = 0, calculonTpS = 0, calculonPpS = 0,
           calculonDpS = 0, calculonHbmGiB = 0;
};

struct CalculonSideBySide {
    std::string commit, command;
    std::vector<CalculonSideBySideRow> rows;
};

// Problems name `ptr` (where runs.json names the file) and the file's own
// JSON pointer.
CalculonSideBySide readCalculonRuns(const std::string& path, const Catalog& catalog, const std::string& ptr,
                                    std::vector<Problem>& problems);
std::string calculonSideBySideMarkdown(const CalculonSideBySide& side);

}  // namespace studio
