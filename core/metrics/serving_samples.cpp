#include "core/metrics/serving_samples.h"

#include "core/metrics/serving_error_band.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <map>
#include <tuple>

#include "core/json/json_pointer.h"
#include "core/json/json_reader.h"
#include "core/json/json_text.h"
#include "core/serving/closed_loop_replay.h"
#include "core/serving/replica.h"
#include "core/serving/serving.h"
#include "core/text.h"

namespace studio {
namespace {

constexpr const char* kFormat = "cluster-studio.serving-samples";
constexpr std::int64_t kVersion = 1;
// A sample's replica lives on one node of its base design.
constexpr std::int64_t kNodeGpus = 8;
// A measured TTFT this close to a replay's counts as between the two: the
// replays' own rounding (a request comes as a step has begun) is a few
// percent of a first token.
constexpr double kArrivalSlack = 0.05;

// One point read from the set, before the model sees it.
struct SamplePoint {
    std::string id, system, engine, model, weightPrecision;
    std::int64_t tp = 1, prompt = 0, output = 0, concurrency = 0;
    double ttftMs = 0, tpotMs = 0;
};

std::optional<SamplePoint> readPoint(const Json& p, const std::string& ptr, JsonReader& r)
{
    if (!r.isObject(p, ptr))
        return std::nullopt;
    const std::size_t before = r.errorCount();
    SamplePoint s;
    s.id = r.string(p, ptr, "id", true).value_or("");
    s.system = r.string(p, ptr, "system", true).value_or("");
    s.engine = r.string(p, ptr, "engine", true).value_or("");
    s.model = r.string(p, ptr, "model", true).value_or("");
    s.weightPrecision = r.choice(p, ptr, "weight_precision", {"bf16", "fp8", "fp4"}, true).value_or("bf16");
    s.tp = r.integer(p, ptr, "tp", true, 1, kNodeGpus).value_or(1);
    s.prompt = r.integer(p, ptr, "prompt_tokens", true, 1, 10'000'000).value_or(1);
    s.output = r.integer(p, ptr, "output_tokens", true, 1, 10'000'000).value_or(1);
    s.concurrency = r.integer(p, ptr, "concurrency", true, 1, 1'000'000).value_or(1);
    s.ttftMs = r.number(p, ptr, "ttft_ms", true, 0, 1e9, true).value_or(1);
    s.tpotMs = r.number(p, ptr, "tpot_ms", true, 0, 1e9, true).value_or(1);
    if (r.errorCount() != before)
        return std::nullopt;
    return s;
}

// The engine a point names ("trtllm 1.0.0rc3", "vllm (version not
// stated)"): its first word.
std::string engineOf(const std::string& named)
{
    return named.substr(0, named.find(' '));
}

// The point's replica as a validation run: the base design of its GPU with a
// serving workload of its model, lengths, precisions and tp.
Json runOf(const SamplePoint& p, const std::string& design, const Json& model, const std::string& kvPrecision)
{
    return {{"design", design},
            {"workload",
             {{"kind", "serving"},
              {"model", model},
              {"serving",
               {{"prompt_tokens", p.prompt},
                {"output_tokens", p.output},
                {"batch", p.concurrency},
                {"weight_precision", p.weightPrecision},
                {"engine", engineOf(p.engine)},
                {"kv_precision", kvPrecision}}},
              {"parallelism", {{"tp", p.tp}, {"pp", 1}}}}}};
}

// The model at the point: a batch of the requests in flight, or as many as
// fit when fewer do (an engine admits no more than its KV cache holds).
Serving serveAdmitted(Design& design, const Catalog& catalog, std::int64_t concurrency, const ReplicaVisit& visit)
{
    design.workload.serving->batch = concurrency;
    Serving s = analyzeServing(design, catalog, visit);
    if (!s.ok() && s.maxBatch >= 1 && s.maxBatch < concurrency) {
        design.workload.serving->batch = s.maxBatch;
        s = analyzeServing(design, catalog, visit);
    }
    return s;
}

}  // namespace

ServingSamples readServingSamples(const std::string& path, const Catalog& catalog, const std::string& ptr,
                                  std::vector<Problem>& problems)
{
    ServingSamples set;
    LinkedFile linked(path, ptr, problems);
    set.file = linked.name();
    std::vector<Problem>& own = linked.problems();
    const std::optional<Json> parsed = linked.read();
    if (!parsed)
        return set;
    const Json& doc = *parsed;
    JsonReader r(own);
    if (!r.isObject(doc, "")) {
        return set;
    }
    if (!r.fileHeader(doc, kFormat, "version", kVersion)) {
        return set;
    }
    set.source = r.string(doc, "", "source", true).value_or("");
    set.license = r.string(doc, "", "license", true).value_or("");
    set.kvPrecision = r.choice(doc, "", "kv_precision", {"bf16", "fp8"}, true).value_or("bf16");
    set.kvPrecisionWhy = r.string(doc, "", "kv_precision_why", true).value_or("");
    const Json* systems = r.member(doc, "", "systems", true);
    const Json* models = r.member(doc, "", "models", true);
    const Json* points = r.member(doc, "", "points", true);
    if (const Json* left = r.member(doc, "", "left_out", false); left && r.isObject(*left, "/left_out"))
        for (const auto& [why, count] : left->items())
            if (const auto n = r.integerValue(count, pointerAppend("/left_out", why), 0, 1'000'000'000))
                set.leftOut.emplace_back(why, *n);
    if (!systems || !models || !points || !r.isObject(*systems, "/systems") || !r.isObject(*models, "/models") ||
        !r.isArray(*points, "/points") || r.failed()) {
        return set;
    }
    const std::filesystem::path dir = std::filesystem::path(path).parent_path();
    for (std::size_t i = 0; i < points->size(); ++i) {
        const std::string pointPtr = pointerAppend("/points", i);
        const auto p = readPoint((*points)[i], pointPtr, r);
        if (!p)
            continue;
        if (!systems->contains(p->system) || !(*systems)[p->system].is_string()) {
            r.error(pointerAppend(pointPtr, "system"),
                    "no base design for system " + inQuotes(p->system) + " in /systems");
            continue;
        }
        if (!models->contains(p->model)) {
            r.error(pointerAppend(pointPtr, "model"), "no model " + inQuotes(p->model) + " in /models");
            continue;
        }
        const Json run = runOf(*p, (*systems)[p->system].get<std::string>(), (*models)[p->model], set.kvPrecision);
        auto loaded = loadValidationRun(run, pointPtr, p->id, kNodeGpus, dir, catalog, own);
        if (!loaded)
            continue;
        Design& design = *loaded->design;
        // The point's closed loop replayed on the engine the model admitted
        // (closed_loop_replay.h), with as many users as it keeps in flight.
        std::optional<ArrivalBand> band;
        const Serving s =
            serveAdmitted(design, *loaded->catalog, p->concurrency, [&](const Serving& served, const Replica& replica) {
                if (served.ok())
                    band = replayArrivals(served, replica, p->concurrency);
            });
        if (!s.ok()) {
            set.notServed.push_back({p->id, s.errors.front().message});
            continue;
        }
        const Serving plain = analyzeServing(design, withoutKernels(*loaded));
        ServingValidationRow row;
        row.id = p->id;
        row.metric = "serving.tokens_per_s_per_gpu";
        row.source = set.source;
        describeReplica(row, s);
        row.system = s.gpuName;
        row.engine = p->engine;
        row.model = p->model;
        row.batchChosen = s.batch < p->concurrency;
        row.concurrency = p->concurrency;
        row.promptTokens = p->prompt;
        row.outputTokens = p->output;
        const double e2eS = (p->ttftMs + double(p->output - 1) * p->tpotMs) / 1e3;
        row.measured = double(p->concurrency) * double(p->output) / e2eS / double(s.gpusPerReplica);
        row.predicted = s.decode.tokensPerSPerGpu;
        row.factorPredicted = plain.ok() ? plain.decode.tokensPerSPerGpu : 0;
        row.measuredTpotS = p->tpotMs / 1e3;
        row.predictedTpotS = s.decode.tpotS;
        row.measuredTtftS = p->ttftMs / 1e3;
        row.predictedTtftS = s.ttftS;
        if (band) {
            row.togetherTtftS = band->togetherTtftS;
            row.spreadTtftS = band->spreadTtftS;
        }
        set.rows.push_back(std::move(row));
    }
    return set;
}

namespace {

double median(std::vector<double> v)
{
    if (v.empty())
        return 0;
    std::sort(v.begin(), v.end());
    const std::size_t n = v.size();
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

// One line of a summary table: the rows' throughput errors with the
// catalog factors and the kernel profiles, and their TPOT and TTFT errors
// (median absolute, median signed).
std::string summaryCells(const std::vector<const ServingValidationRow*>& rows)
{
    std::vector<double> factor, profile, absProfile, tpot, absTpot, ttft, absTtft;
    for (const auto* r : rows) {
        factor.push_back(r->factorError());
        profile.push_back(r->error());
        absProfile.push_back(std::fabs(r->error()));
        tpot.push_back(r->tpotError());
        absTpot.push_back(std::fabs(r->tpotError()));
        ttft.push_back(r->ttftError());
        absTtft.push_back(std::fabs(r->ttftError()));
    }
    const ErrorSummary f = summarizeErrors(factor), p = summarizeErrors(profile);
    return std::to_string(p.runs) + " | " + formatPercent(f.meanAbs, false) + " | " + formatPercent(p.meanAbs, false) +
        " | " + formatPercent(median(absProfile), false) + " | " + formatPercent(median(profile)) + " | " +
        formatPercent(median(absTpot), false) + " | " + formatPercent(median(tpot)) + " | " +
        formatPercent(median(absTtft), false) + " | " + formatPercent(median(ttft)) + " |\n";
}

constexpr const char* kSummaryHeader =
    " | points | tokens/s: mean error, catalog factors | mean error, kernel profiles | median | median signed | "
    "TPOT: median error | median signed | TTFT: median error | median signed |\n";
constexpr const char* kSummaryRule = "|---|---|---|---|---|---|---|---|---|";

// "4-16" style bands of requests in flight.
std::string concurrencyBand(std::int64_t c)
{
    if (c <= 16)
        return "1-16";
    if (c <= 64)
        return "17-64";
    if (c <= 256)
        return "65-256";
    return "over 256";
}

// How a set's TTFT moves with the output length: points alike but for
// their output, taken in pairs of neighbours, each giving the TTFT's change
// over the change in the interval between two requests' ends, (output - 1)
// x TPOT / requests in flight (in a steady closed loop one request ends
// every such interval). Measured with the measured TPOT and requests in
// flight, the model's with its own and its batch. Empty where no point of
// the set has a neighbour.
struct OutputSlopes {
    std::vector<double> measured, model;
};

std::map<std::pair<std::string, std::string>, OutputSlopes> slopesWithOutput(const ServingSamples& samples)
{
    using Key =
        std::tuple<std::string, std::string, std::string, std::string, std::int64_t, std::int64_t, std::int64_t>;
    std::map<Key, std::vector<const ServingValidationRow*>> alike;
    for (const auto& r : samples.rows)
        alike[{r.system, r.engine, r.model, r.weightPrecision, r.tp, r.promptTokens, r.concurrency}].push_back(&r);
    const auto interval = [](double tpotS, std::int64_t output, std::int64_t inFlight) {
        return double(output - 1) * tpotS / double(inFlight);
    };
    std::map<std::pair<std::string, std::string>, OutputSlopes> slopes;
    for (auto& [key, rows] : alike) {
        std::sort(rows.begin(), rows.end(),
                  [](const auto* a, const auto* b) { return a->outputTokens < b->outputTokens; });
        for (std::size_t i = 1; i < rows.size(); ++i) {
            const ServingValidationRow &a = *rows[i - 1], &b = *rows[i];
            const double measured = interval(b.measuredTpotS, b.outputTokens, b.concurrency) -
                interval(a.measuredTpotS, a.outputTokens, a.concurrency);
            const double model = interval(b.predictedTpotS, b.outputTokens, b.batch) -
                interval(a.predictedTpotS, a.outputTokens, a.batch);
            if (measured <= 0 || model <= 0)
                continue;
            OutputSlopes& s = slopes[{a.system, a.engine}];
            s.measured.push_back((b.measuredTtftS - a.measuredTtftS) / measured);
            s.model.push_back((b.predictedTtftS - a.predictedTtftS) / model);
        }
    }
    return slopes;
}

// A slope to two decimals, as the table compares them with 0 and 1.
std::string slopeText(double v)
{
    char text[32];
    std::snprintf(text, sizeof text, "%.2f", std::fabs(v) < 0.005 ? 0.0 : v);
    return text;
}

// The middle half of `v`: "0.60 to 1.19".
std::string middleHalf(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    return slopeText(v[v.size() / 4]) + " to " + slopeText(v[3 * v.size() / 4]);
}

using RowsByGroup =
    std::map<std::tuple<std::string, std::string, std::string>, std::vector<const ServingValidationRow*>>;

// How far the arrival pattern moves the first token: each point's closed
// loop replayed with its users starting together and spread, and where the
// measured TTFT falls between the two.
std::string arrivalPatternMarkdown(const RowsByGroup& byGroup, const std::vector<const ServingValidationRow*>& all)
{
    const auto line = [](const std::vector<const ServingValidationRow*>& rows) {
        std::vector<double> together, spread, steady;
        std::int64_t between = 0;
        for (const auto* r : rows) {
            if (!r->replayed())
                continue;
            together.push_back(std::fabs(relativeError(r->measuredTtftS, r->togetherTtftS)));
            spread.push_back(std::fabs(relativeError(r->measuredTtftS, r->spreadTtftS)));
            steady.push_back(std::fabs(r->ttftError()));
            const auto [low, high] = std::minmax(r->togetherTtftS, r->spreadTtftS);
            between += r->measuredTtftS >= low * (1 - kArrivalSlack) && r->measuredTtftS <= high * (1 + kArrivalSlack);
        }
        if (steady.empty())
            return std::to_string(rows.size()) + " | none replayed | | | |\n";
        return std::to_string(steady.size()) + " | " + formatCount(between) + " (" +
            formatPercent(double(between) / double(steady.size()), false) + ") | " +
            formatPercent(median(spread), false) + " | " + formatPercent(median(together), false) + " | " +
            formatPercent(median(steady), false) + " |\n";
    };
    std::string md =
        "\n### How the first token moves with the arrival pattern\n\n"
        "Each point's closed loop replayed step by step on the model's engine (core/serving/closed_loop_replay.h: "
        "the same step times, budget of tokens per step and requests in flight; prompts first come, first served, "
        "in chunks), as AIConfigurator's benchmark runs it: " +
        std::to_string(kReplayWarmupRounds) + " rounds of requests per user to warm up, the next " +
        std::to_string(kReplayMeasuredRounds) +
        " measured. Two ends of how the users' requests line up: *spread*, their first requests laid out evenly over "
        "one request's time, and *together*, all sent at once (as a benchmark starts them; with equal lengths they "
        "stay bunched). Nothing but the start differs. \"Between\" counts the points whose measured TTFT lies "
        "between the two replays (within " +
        formatPercent(kArrivalSlack, false) +
        "); the errors are median absolute TTFT errors of each replay and of the model's steady state (the "
        "tables above).\n\n"
        "| GPU | engine | weights | points | between | spread: median error | together | steady state |\n"
        "|---|---|---|---|---|---|---|---|\n";
    for (const auto& [key, rows] : byGroup)
        md += "| " + std::get<0>(key) + " | " + std::get<1>(key) + " | " + std::get<2>(key) + " | " + line(rows);
    return md + "| all | | | " + line(all);
}

}  // namespace

std::string servingSamplesMarkdown(const ServingSamples& samples)
{
    std::int64_t leftOut = 0;
    for (const auto& [why, n] : samples.leftOut)
        leftOut += n;
    std::string md = "\n## Measured serving points of AIConfigurator (checks)\n\n"
                     "`tests/data/published/" +
        samples.file + "`, converted by `tools/aic-kernels/silicon_sample.py` from " + samples.source + " (" +
        samples.license +
        "): measured aggregated serving (one engine prefilling and decoding), each point a closed loop holding a "
        "fixed number of requests in flight, with its TTFT and TPOT as measured (the CSV does not say whether they are "
        "means or medians, nor how the benchmark started its requests). The measured tokens/s per GPU is requests in "
        "flight x output tokens / (TTFT + (output - 1) x TPOT) / tp: each request in flight finishes its output in "
        "that time. The model serves the requests in flight as the point's engine runs them (docs/model.md section "
        "19, \"The engine's scheduler\"), with that engine's defaults for the tokens one step carries and the "
        "requests it keeps in flight (as many as its KV cache budget holds where fewer do), on one 8-GPU node of the "
        "base design of its GPU, KV cache in " +
        samples.kvPrecision + " (" + samples.kvPrecisionWhy +
        "). Its TTFT, TPOT and tokens/s all come from that one model. No factor was fit on these points. Targets "
        "(issue 37): median TPOT error at most 15%, median TTFT error at most 25%; \"median signed\" is positive "
        "where the model serves more tokens/s or takes longer than measured.\n\n"
        "Of the " +
        formatCount(std::int64_t(samples.rows.size() + samples.notServed.size()) + leftOut) + " rows, " +
        formatCount(std::int64_t(samples.rows.size())) + " are modelled here";
    if (!samples.notServed.empty())
        md += ", " + formatCount(std::int64_t(samples.notServed.size())) +
            " the model says cannot be served (listed below)";
    md += "; left out:";
    for (std::size_t i = 0; i < samples.leftOut.size(); ++i)
        md += std::string(i ? ";" : "") + " " + samples.leftOut[i].first + " (" +
            formatCount(samples.leftOut[i].second) + ")";
    md += ".\n\n| GPU | engine | weights" + std::string(kSummaryHeader) + kSummaryRule + "---|---|---|\n";
    RowsByGroup byGroup;
    std::map<std::pair<std::string, std::string>, std::vector<const ServingValidationRow*>> byLoad;
    std::vector<const ServingValidationRow*> all;
    for (const auto& r : samples.rows) {
        byGroup[{r.system, r.engine, r.weightPrecision}].push_back(&r);
        byLoad[{r.system, concurrencyBand(r.concurrency)}].push_back(&r);
        all.push_back(&r);
    }
    for (const auto& [key, rows] : byGroup)
        md +=
            "| " + std::get<0>(key) + " | " + std::get<1>(key) + " | " + std::get<2>(key) + " | " + summaryCells(rows);
    md += "| all | | | " + summaryCells(all);
    md += "\nBy requests in flight:\n\n"
          "| GPU | requests in flight" +
        std::string(kSummaryHeader) + kSummaryRule + "---|---|\n";
    for (const char* band : {"1-16", "17-64", "65-256", "over 256"})
        for (const auto& [key, rows] : byLoad)
            if (key.second == band)
                md += "| " + key.first + " | " + key.second + " | " + summaryCells(rows);
    if (const auto slopes = slopesWithOutput(samples); !slopes.empty()) {
        md += "\n### How the first token moves with the output length\n\n"
              "Points alike but for their output length (same model, weights, tp, prompt and requests in flight), in "
              "pairs of neighbours: the change in TTFT over the change in the interval between two requests' ends, "
              "(output - 1) x TPOT / requests in flight (in a steady closed loop one request ends every such "
              "interval). 0: the first token does not wait on the other requests' outputs, as the model's does not "
              "(it waits for the step in flight and the prompts ahead of it); 1: a new request waits, on average, "
              "for one more request to end before its first token, however many steps that takes. The model's "
              "column is its own: its TTFT, TPOT and batch.\n\n"
              "| GPU | engine | pairs | measured: median | middle half | model: median |\n"
              "|---|---|---|---|---|---|\n";
        for (const auto& [key, s] : slopes)
            md += "| " + key.first + " | " + key.second + " | " + std::to_string(s.measured.size()) + " | " +
                slopeText(median(s.measured)) + " | " + middleHalf(s.measured) + " | " + slopeText(median(s.model)) +
                " |\n";
    }
    md += arrivalPatternMarkdown(byGroup, all);
    md += "\n### The served figures' bands\n\n"
          "What the studio says of a served TTFT, TPOT and tokens/s per GPU (the Serving panel's rows, `metrics`' "
          "`explain.serving.*.error_band`): on the points of the design's GPU and engine (versions together), the "
          "real figure over the model's, 10th to 90th percentile, so the middle 80% of those points lie inside. "
          "A GPU and engine with no point here gets no band, and says so. "
          "Written to resources/validation-errors.json (`--format json`).\n\n"
          "| GPU | engine | points | TTFT: real over model | TPOT | tokens/s per GPU |\n|---|---|---|---|---|---|\n";
    for (const ServingBandGroup& g : servingBandGroups(samples.rows)) {
        md += "| " + g.gpuName + " | " + g.engine + " | " + formatCount(g.points);
        for (const auto& [low, high] : g.realOverShown)
            md += " | " + formatReadable(low, 2) + "x to " + formatReadable(high, 2) + "x";
        md += " |\n";
    }
    if (!samples.notServed.empty()) {
        md += "\n### Points the model says cannot be served\n\n";
        for (const auto& n : samples.notServed)
            md += "- " + n.id + ": " + n.reason + "\n";
    }
    return md;
}

}  // namespace studio
