// The layout search and what is built on it, from structured bytes: a
// shipped training design (first byte) resized to a few of its growth units
// (at most kMaxGpus GPUs), with the fuzzer's values for its training,
// parallelism, model, operations and facility fields and its GPUs' figures
// (design_mutation.h), then one of
// - `search` with the options the CLI takes (objective, --top, --gpus,
//   --batch-range, --within, --fix, --allow, --exhaustive) and the Layouts panel's
//   (keepPoints);
// - `sweep` (--from, --to at most kMaxSweepGpus, --weak);
// - `sensitivity`, with the what-if upgrades, on at most
//   kMaxSensitivityGpus GPUs.
// The CLI's usage rules are kept (a usage error never reaches the core),
// and the outputs must print without a NaN or an infinity (fuzz_checks.h).
#include <atomic>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include <fuzzer/FuzzedDataProvider.h>

#include "core/catalog/catalog.h"
#include "core/design/resize.h"
#include "core/format/design_reader.h"
#include "core/format/design_validator.h"
#include "core/format/workload_limits.h"
#include "core/scale/scale_sweep.h"
#include "core/scale/sensitivity.h"
#include "core/scale/sensitivity_report.h"
#include "core/scale/sweep_report.h"
#include "core/scale/upgrades.h"
#include "core/search/layout_search.h"
#include "core/search/search_report.h"
#include "tests/fuzz/design_mutation.h"
#include "tests/fuzz/fuzz_checks.h"
#include "tests/fuzz/shipped_designs.h"

namespace {

using namespace studio;

// The sizes are bounds on a fuzzing input's work, not on what is valid:
// in the instrumented build a search takes 10-100 ms at these sizes, a
// sweep's every size searches, and the tornado searches 29 times
// (docs/performance.md has the uninstrumented times).
constexpr std::int64_t kMaxGpus = 128;
constexpr std::int64_t kMaxSweepGpus = 256;
constexpr std::int64_t kMaxSensitivityGpus = 16;
// --top takes up to 10,000; keeping K candidates costs K per feasible
// layout, seconds instrumented at K in the thousands (0.5 s uninstrumented
// on the 16,384-GPU preset), and the ranking is the same code at any K.
constexpr int kMaxTop = 100;
constexpr std::int64_t kMaxRangeWidth = 4;

std::string anyOf(FuzzedDataProvider& in, std::initializer_list<const char*> words)
{
    const std::size_t pick = in.ConsumeIntegralInRange<std::size_t>(0, words.size());
    return pick < words.size() ? std::string(words.begin()[pick]) : fuzz::asUtf8Text(in.ConsumeRandomLengthString(8));
}

// A whole number as `--top`, `--gpus` or `--batch-range` could give it.
std::int64_t count(FuzzedDataProvider& in, std::int64_t typicalMax)
{
    switch (in.ConsumeIntegralInRange(0, 3)) {
    case 0: return in.ConsumeIntegralInRange<std::int64_t>(1, typicalMax);
    case 1: return std::int64_t(1) << in.ConsumeIntegralInRange(0, 62);
    case 2: return 3 * (std::int64_t(1) << in.ConsumeIntegralInRange(0, 60));
    default: return in.ConsumeIntegralInRange<std::int64_t>(1, std::numeric_limits<std::int64_t>::max());
    }
}

void search(FuzzedDataProvider& in, const Design& design, const Catalog& catalog, std::int64_t designGpus,
            const std::string& userText)
{
    SearchOptions options;
    options.objective = static_cast<Objective>(in.ConsumeIntegralInRange(0, 2));
    options.top = in.ConsumeBool() ? 10 : in.ConsumeIntegralInRange(1, kMaxTop);
    if (in.ConsumeBool())
        options.gpus =
            in.ConsumeBool() ? in.ConsumeIntegralInRange<std::int64_t>(1, designGpus) : count(in, 2 * kMaxGpus);
    if (in.ConsumeBool()) {  // parseRange: 1 <= MIN <= MAX
        // Each batch in the range (2^k and 3 x 2^k) is a search of its
        // own: at most kMaxRangeWidth x MIN, or one that ends past the
        // largest global batch (which the search refuses).
        options.batchMin = count(in, 4096);
        if (options.batchMin > limits::kGlobalBatch.max || in.ConsumeBool())
            options.batchMax = in.ConsumeIntegralInRange(std::max(options.batchMin, limits::kGlobalBatch.max + 1),
                                                         std::numeric_limits<std::int64_t>::max());
        else
            options.batchMax = in.ConsumeIntegralInRange(options.batchMin, options.batchMin * kMaxRangeWidth);
    }
    for (int n = in.ConsumeIntegralInRange(0, 3); n > 0; --n)
        options.within[anyOf(in, {"tp", "cp", "ep", "dp", "pp"})] =
            anyOf(in, {"nvlink", "leaf", "spine", "core", "any"});
    // --fix and --allow: the CLI refuses an empty value before the core
    // sees it; anything else (an unknown axis, a value the axis does not
    // take) is the core's to refuse.
    for (int n = in.ConsumeIntegralInRange(0, 2); n > 0; --n) {
        std::vector<std::string>& values =
            options.allowed[anyOf(in,
                                  {"tp", "pp", "dp", "cp", "ep", "micro_batch", "interleave", "zero", "recompute",
                                   "sequence_parallel", "layers"})];
        for (int k = in.ConsumeIntegralInRange(1, 3); k > 0; --k)
            values.push_back(in.ConsumeBool() ? std::to_string(in.ConsumeIntegralInRange(0, 64))
                                              : anyOf(in, {"none", "selective", "full", "true", "false", "08", "-1"}));
    }
    options.prune = in.ConsumeBool();
    options.keepPoints = in.ConsumeIntegralInRange(0, 3) == 0;

    const SearchResult result = searchLayouts(design, catalog, options);
    if (!result.error.empty())
        return;  // `search` prints it and exits 1
    fuzz::requirePrintable(searchJson(result), "search");
    fuzz::requireFiniteText(searchText(result), "search --format text", userText);
    fuzz::requireFiniteText(searchCsv(result), "search --format csv", userText);
    fuzz::requireFiniteText(currentRankText(result), "the Workload dock's rank", userText);
    for (const SearchPoint& p : result.points)
        if (!std::isfinite(p.stepS) || !std::isfinite(p.memoryGb) || !std::isfinite(p.objective))
            fuzz::finding("search: a point of the Layouts panel's scatter is not finite");
}

void sweep(FuzzedDataProvider& in, const Design& design, const Catalog& catalog, const std::string& userText)
{
    SweepOptions options;
    options.scaling = in.ConsumeBool() ? Scaling::Weak : Scaling::Strong;
    options.to = in.ConsumeIntegralInRange<std::int64_t>(1, kMaxSweepGpus);
    if (in.ConsumeBool())
        options.from = in.ConsumeIntegralInRange<std::int64_t>(1, options.to);  // parseSweepGpus, from <= to
    const SweepResult result = sweepScale(design, catalog, options);
    if (!result.error.empty())
        return;
    fuzz::requirePrintable(sweepJson(result), "sweep");
    fuzz::requireFiniteText(sweepText(result), "sweep --format text", userText);
    fuzz::requireFiniteText(sweepCsv(result), "sweep --format csv", userText);
}

// The tornado's 29 searches take 0.3-3 s in the instrumented build even on
// a node, so a watchdog cancels it past kSensitivityBudget, as the studio
// cancels it on the next edit (each search checks between its groups); a
// tornado that finishes in time is checked whole. A hang inside a search
// still stops the run (-timeout).
constexpr auto kSensitivityBudget = std::chrono::milliseconds(400);

class Watchdog {
public:
    explicit Watchdog(std::chrono::milliseconds budget)
        : thread_([this, budget] {
              std::unique_lock lock(mutex_);
              if (!done_changed_.wait_for(lock, budget, [this] { return done_; }))
                  cancel = true;
          })
    {}
    ~Watchdog()
    {
        {
            const std::lock_guard lock(mutex_);
            done_ = true;
        }
        done_changed_.notify_one();
        thread_.join();
    }
    std::atomic<bool> cancel = false;

private:
    std::mutex mutex_;
    std::condition_variable done_changed_;
    bool done_ = false;
    std::thread thread_;
};

void sensitivity(const Design& design, const Catalog& catalog, const std::string& userText)
{
    const Watchdog watchdog(kSensitivityBudget);
    const SensitivityResult result = analyzeSensitivity(design, catalog, &watchdog.cancel);
    const UpgradesResult upgrades = analyzeUpgrades(design, catalog, &watchdog.cancel);
    if (!result.ok() || upgrades.cancelled)
        return;
    Json json = sensitivityJson(result);
    json["upgrades"] = upgradesJson(upgrades);
    fuzz::requirePrintable(json, "sensitivity");
    fuzz::requireFiniteText(sensitivityText(result) + "\n" + upgradesText(upgrades), "sensitivity --format text",
                            userText);
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***)
{
    studio::fuzz::prepare();
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    FuzzedDataProvider in(data, size);
    const fuzz::ShippedDesign& shipped =
        fuzz::pickDesign(in.ConsumeIntegral<std::uint8_t>(), [](const fuzz::ShippedDesign& d) {
            return !d.serving && d.unitGpus > 0 && d.unitGpus <= kMaxGpus;
        });
    const std::int64_t units = in.ConsumeIntegralInRange<std::int64_t>(1, kMaxGpus / shipped.unitGpus);
    const int verb = in.ConsumeIntegralInRange(0, 7);  // mostly search: the others search many times
    Json doc = shipped.doc;
    Json& workload = doc["workload"];
    fuzz::mutateFields(in, workload["training"], fields::training());
    fuzz::mutateFields(in, workload["parallelism"], fields::parallelism());
    fuzz::mutateFields(in, workload["model"], fields::model());
    // What the days objective, the sweep's wall days and the tornado's
    // failure and price inputs read.
    Json& operations = doc["operations"];
    fuzz::mutateFields(in, operations, fields::operations());
    fuzz::mutateFields(in, operations["failure_mttf_h"], fields::failureMttf());
    fuzz::mutateFields(in, operations["checkpoint"], fields::checkpoint());
    fuzz::mutateFields(in, doc["facility"], fields::facility());
    fuzz::mutateFigures(in, doc, PartKind::Accelerator);

    fuzz::printDesignIfAsked(doc);
    const Catalog& base = Catalog::builtin();
    DesignLoad loaded = readDesignJson(doc, base);
    if (!loaded.ok())
        return 0;  // the reader's refusals are fuzz_design's and fuzz_serving's
    Design& design = *loaded.design;
    const Catalog& catalog = *loaded.catalog;
    // As `--gpus N` resizes (loadForAnalysis): the count, then the checks.
    const std::int64_t gpus = units * shipped.unitGpus;
    if (resizeToGpus(design, catalog, gpus) || hasErrors(validateDesign(design, catalog)))
        return 0;
    const std::string userText = fuzz::userTextOf(doc);
    if (verb < 6)
        search(in, design, catalog, gpus, userText);
    else if (verb == 6)
        sweep(in, design, catalog, userText);
    else if (gpus <= kMaxSensitivityGpus)
        sensitivity(design, catalog, userText);
    return 0;
}
