#pragma once
// The performance model against published runs: each run is a base design
// resized to the run's GPUs with the run's workload, and one metric compared
// with the published measurement. A training run goes through analyzeDesign;
// a serving run (workload.kind "serving") through analyzeServing, kept apart
// from the training figures (its own rows and summary, not in the error
// bands). Used by the test suite (with a tolerance) and by `cluster-studio
// validation-report` (docs/validation.md).
#include <filesystem>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/catalog/catalog.h"
#include "core/design/design.h"
#include "core/format/design_reader.h"
#include "core/metrics/calculon_side_by_side.h"
#include "core/problem.h"
#include "core/search/layout.h"
#include "core/serving/serving.h"

namespace studio {

// (predicted - measured) / measured; 0 when nothing was measured.
inline double relativeError(double measured, double predicted)
{
    return measured != 0 ? (predicted - measured) / measured : 0;
}

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
    // The same run with every kernel at the catalog's factors (--kernels
    // none), and where the prediction's kernel speeds came from: "measured"
    // (the GPU's kernel profile) or "catalog factors".
    double factorPredicted = 0;
    std::string kernels;
    // Where the published layout ranks in the layout search on the same
    // GPUs (by step time), and the best layout the model finds there.
    struct Standing {
        Layout published, best;
        std::string whyNot;  // why the published layout is not ranked ("" when it is)
        std::string software;  // the software profile searched within (the run's workload.software)
        std::int64_t rank = 0, feasible = 0;
        double gap = 0, bestStepS = 0;
    } standing;
    double error() const { return relativeError(measured, predicted); }
    double factorError() const { return relativeError(measured, factorPredicted); }
};

// A published serving measurement (docs/evidence/serving-measurements.md):
// one replica of the run's workload analysed by analyzeServing. Every one is
// a check: no factor was fit on serving measurements.
struct ServingValidationRow {
    std::string id, metric, source;
    std::string system;     // the base design's name
    std::int64_t gpus = 0;  // the replica's GPUs, tp x pp
    std::int64_t tp = 1, pp = 1, ep = 1;
    std::string weightPrecision, kvPrecision;
    std::int64_t batch = 0;    // the batch served
    bool batchChosen = false;  // the run left it at 0: the largest that fits, the model's choice
    std::int64_t promptTokens = 0, outputTokens = 0;
    double measured = 0, predicted = 0;
    double factorPredicted = 0;  // with every kernel at the catalog's factors
    std::string kernels;         // "measured" or "catalog factors"
    // A measured point of a serving sample set (core/metrics/serving_samples.h):
    // the engine that served it, the requests it kept in flight (the batch
    // is fewer where fewer fit), and its TPOT beside the model's.
    std::string engine, model;  // the model as the set names it
    std::int64_t concurrency = 0;
    double measuredTpotS = 0, predictedTpotS = 0;
    double measuredTtftS = 0, predictedTtftS = 0;
    // The same closed loop replayed step by step, its users starting
    // together and spread (core/serving/closed_loop_replay.h): the first
    // token's two ends on the model's engine.
    double togetherTtftS = 0, spreadTtftS = 0;  // 0: not replayed (kReplayMaxVisits)
    bool replayed() const { return togetherTtftS > 0 && spreadTtftS > 0; }
    double error() const { return relativeError(measured, predicted); }
    double factorError() const { return relativeError(measured, factorPredicted); }
    double tpotError() const { return relativeError(measuredTpotS, predictedTpotS); }
    double ttftError() const { return relativeError(measuredTtftS, predictedTtftS); }
};

// A published comparison of two ways to serve one workload on one design
// (runs.json's "serving_comparisons"): the run's layout (disaggregated) and
// the one it was measured against (`versus`: aggregated replicas of tp x
// pp), as the ratio of their tokens/s per GPU of the design. A check.
struct ServingComparisonRow {
    std::string id, source, system;
    std::string layout, versus;  // describeServingLayout of each
    double measured = 0, predicted = 0;
    double perGpu = 0, versusPerGpu = 0;  // tokens/s per GPU of the design, each
    double error() const { return relativeError(measured, predicted); }
};

// A published measurement the report lists without modelling it, and why.
struct NotModelledRun {
    std::string id, reason;
};

// Absolute errors over a set of runs.
struct ErrorSummary {
    std::size_t runs = 0, within10 = 0, within15 = 0, within25 = 0;  // |error| <= 10%, 15%, 25%
    double meanAbs = 0, maxAbs = 0;
};
ErrorSummary summarizeErrors(const std::vector<double>& errors);

// Measured serving points from a sample set (runs.json's "serving_samples",
// e.g. AIConfigurator's silicon_sample.csv converted by
// tools/aic-kernels/silicon_sample.py), all checks.
struct ServingSamples {
    std::string file, source, license;
    std::string kvPrecision, kvPrecisionWhy;  // the set's: its rows do not state it
    std::vector<ServingValidationRow> rows;
    std::vector<NotModelledRun> notServed;                      // points the model says cannot be served, and why
    std::vector<std::pair<std::string, std::int64_t>> leftOut;  // rows of the source not converted: why, how many
};

struct ValidationReport {
    std::vector<ValidationRow> rows;                     // training runs
    double meanAbsError = 0, maxAbsError = 0;            // over the calibration rows
    double checkMeanAbsError = 0, checkMaxAbsError = 0;  // over the check rows, reported apart
    std::vector<ServingValidationRow> serving;           // serving runs: none in the figures above
    ErrorSummary servingSummary;
    std::vector<NotModelledRun> notModelled;
    std::vector<ServingComparisonRow> comparisons;  // disaggregated against aggregated
    ServingSamples samples;  // empty when runs.json names no sample set
    CalculonSideBySide calculon;  // Calculon on the presets' exports; empty when runs.json names none
    std::vector<Problem> problems;
};

// Building blocks shared with the sample sets: a run's base design with its
// workload, resized to `gpus` (nothing, and problems, when it does not
// load); the loaded design's catalog with no kernel profile.
std::optional<DesignLoad> loadValidationRun(const Json& run, const std::string& ptr, const std::string& id,
                                            std::int64_t gpus, const std::filesystem::path& dir,
                                            const Catalog& catalog, std::vector<Problem>& problems);
Catalog withoutKernels(const DesignLoad& loaded);
// The replica `s` served, as a serving row shows it: its GPUs, layout,
// precisions, batch and where its kernels' speeds came from.
void describeReplica(ServingValidationRow& row, const Serving& s);

// A file runs.json names (a serving sample set, Calculon's runs): its own
// problems are kept apart and passed on (flush, or when it goes) pointed at runs.json's
// entry `ptr`, with the file's name and its own pointer in the message.
class LinkedFile {
public:
    LinkedFile(std::string path, std::string ptr, std::vector<Problem>& problems);
    ~LinkedFile() { flush(); }
    LinkedFile(const LinkedFile&) = delete;
    LinkedFile& operator=(const LinkedFile&) = delete;
    // The file parsed, or nothing when it cannot be read or parsed (the
    // problem already passed on).
    std::optional<Json> read();
    std::vector<Problem>& problems() { return own_; }
    void flush();
    const std::string& name() const { return name_; }

private:
    std::string path_, name_, ptr_;
    std::vector<Problem>& problems_;
    std::vector<Problem> own_;
};

ValidationReport runValidation(const std::string& runsPath, const Catalog& catalog);
std::string validationMarkdown(const ValidationReport& report, const std::string& command);
// The training rows as resources/validation-errors.json holds them: what each
// run was and the model's step-time error on it, for the error bands.
Json validationErrorsJson(const ValidationReport& report, const std::string& command);

}  // namespace studio
