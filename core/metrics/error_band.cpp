#include "core/metrics/error_band.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <stdexcept>

#include "core/design/design.h"
#include "core/text.h"

namespace studio {

std::string_view builtinValidationErrorsJson();  // generated from resources/validation-errors.json

std::vector<ValidationPoint> parseValidationPoints(std::string_view jsonText)
{
    const Json doc = Json::parse(jsonText);
    std::vector<ValidationPoint> points;
    for (const Json& r : doc.at("runs")) {
        ValidationPoint p;
        p.id = r.at("id").get<std::string>();
        p.role = r.at("role").get<std::string>();
        p.gpuPart = r.at("gpu_part").get<std::string>();
        p.precision = r.at("precision").get<std::string>();
        p.gpus = r.at("gpus").get<std::int64_t>();
        p.tp = r.at("tp").get<std::int64_t>();
        p.pp = r.at("pp").get<std::int64_t>();
        p.cp = r.at("cp").get<std::int64_t>();
        p.dp = r.at("dp").get<std::int64_t>();
        p.zero = r.at("zero").get<std::int64_t>();
        p.stepError = r.at("step_error").get<double>();
        points.push_back(std::move(p));
    }
    return points;
}

const std::vector<ValidationPoint>& builtinValidationPoints()
{
    static const std::vector<ValidationPoint> points = parseValidationPoints(builtinValidationErrorsJson());
    return points;
}

namespace {

// The layout traits that move the model's error most (docs/validation.md):
// tensor parallelism (its communication), pipelining, context parallelism,
// fully sharded weights, and the precision.
struct Trait {
    const char* name;
    bool (*differs)(const ValidationPoint&, const BandQuery&);
};
const Trait kTraits[] = {
    {"tensor parallelism", [](const ValidationPoint& p, const BandQuery& w) { return (p.tp > 1) != (w.tp > 1); }},
    {"pipelining", [](const ValidationPoint& p, const BandQuery& w) { return (p.pp > 1) != (w.pp > 1); }},
    {"context parallelism", [](const ValidationPoint& p, const BandQuery& w) { return (p.cp > 1) != (w.cp > 1); }},
    {"sharded weights (ZeRO-3)",
     [](const ValidationPoint& p, const BandQuery& w) { return (p.zero >= 3) != (w.zero >= 3); }},
    {"precision", [](const ValidationPoint& p, const BandQuery& w) { return p.precision != w.precision; }},
};

// "23% too short": a step-time error in words, since a sign on an error
// reads either way.
std::string stepErrorWords(double e)
{
    char buf[48];
    std::snprintf(buf, sizeof buf, "%.0f%% too %s", std::fabs(e) * 100, e < 0 ? "short" : "long");
    return buf;
}

std::string percentWords(double f)
{
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.0f%%", f * 100);
    return buf;
}

std::string times(double f)
{
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.2fx", f);
    return buf;
}

}  // namespace

BandQuery bandQueryOf(const Analysis& a)
{
    const WorkloadShape& w = a.workload;
    return {a.inventory.gpuPart,
            a.hardware.gpu.name.empty() ? a.inventory.gpuPart : a.hardware.gpu.name,
            w.precision,
            w.gpusUsed,
            w.tp,
            w.pp,
            w.cp,
            w.zero};
}

double checkRunSpread(const std::vector<ValidationPoint>& points)
{
    double n = 0, squares = 0;
    for (const auto& p : points)
        if (p.role == "check") {
            n += 1;
            squares += p.stepError * p.stepError;
        }
    return n > 0 ? std::sqrt(squares / n) : 0;
}

std::optional<ErrorBand> nearestValidatedRuns(const Analysis& a, const std::vector<ValidationPoint>& points)
{
    if (!a.runnable())
        return std::nullopt;
    return nearestValidatedRuns(bandQueryOf(a), points);
}

ErrorBand nearestValidatedRuns(const BandQuery& w, const std::vector<ValidationPoint>& points)
{
    const std::string& gpuName = w.gpuName;
    const double gpus = double(w.gpus);
    ErrorBand band;
    std::vector<const ValidationPoint*> sameGpu, nearScale;
    for (const auto& p : points)
        if (p.gpuPart == w.gpuPart)
            sameGpu.push_back(&p);
    for (const auto* p : sameGpu)
        if (std::max(gpus, double(p->gpus)) <= kErrorBandScaleRange * std::min(gpus, double(p->gpus)))
            nearScale.push_back(p);
    if (sameGpu.empty()) {
        band.text = "Expected error unknown: no published run on " + gpuName +
            " has been compared with the model (docs/validation.md).";
        return band;
    }
    if (nearScale.empty()) {
        const auto nearest = *std::min_element(sameGpu.begin(), sameGpu.end(), [&](auto* x, auto* y) {
            return std::fabs(std::log(double(x->gpus) / gpus)) < std::fabs(std::log(double(y->gpus) / gpus));
        });
        band.text = "Expected error unknown: no published run within 4x of this scale (" + formatCount(w.gpus) +
            " GPUs) on " + gpuName + "; the nearest is " + nearest->id + " at " + formatCount(nearest->gpus) + " GPUs.";
        return band;
    }
    // The runs sharing the most layout traits with this one.
    auto mismatches = [&](const ValidationPoint* p) {
        return std::count_if(std::begin(kTraits), std::end(kTraits), [&](const Trait& t) { return t.differs(*p, w); });
    };
    const auto fewest = mismatches(*std::min_element(nearScale.begin(), nearScale.end(),
                                                     [&](auto* x, auto* y) { return mismatches(x) < mismatches(y); }));
    std::vector<const ValidationPoint*> nearest;
    for (const auto* p : nearScale)
        if (mismatches(p) == fewest)
            nearest.push_back(p);
    band.errorLow = band.errorHigh = nearest.front()->stepError;
    for (const auto* p : nearest) {
        band.runs.push_back(p->id);
        band.errorLow = std::min(band.errorLow, p->stepError);
        band.errorHigh = std::max(band.errorHigh, p->stepError);
    }
    band.basis = "same GPU (" + gpuName + "), within 4x of " + formatCount(w.gpus) + " GPUs";
    if (fewest == 0) {
        band.basis += ", same layout kind";
    } else {
        std::string differ;
        for (const auto& t : kTraits)
            if (t.differs(*nearest.front(), w))
                differ += std::string(differ.empty() ? "" : ", ") + t.name;
        band.basis += "; the nearest differ in " + differ;
    }
    // The nearest runs alone are one or two errors: a run nothing was fit
    // to strays by the check runs' spread around them.
    band.nearestLow = band.errorLow;
    band.nearestHigh = band.errorHigh;
    band.spread = kErrorBandSpreads * checkRunSpread(points);
    // A step more than 20x too short is no band any run supports: the
    // factors stay finite.
    band.errorLow = std::max(-0.95, band.errorLow - band.spread);
    band.errorHigh += band.spread;
    return band;
}

BandCoverage leaveOneOutCoverage(const std::vector<ValidationPoint>& points)
{
    BandCoverage c;
    for (std::size_t i = 0; i < points.size(); ++i) {
        const ValidationPoint& p = points[i];
        std::vector<ValidationPoint> others;
        for (std::size_t j = 0; j < points.size(); ++j)
            if (j != i)
                others.push_back(points[j]);
        const ErrorBand band = nearestValidatedRuns(
            BandQuery{p.gpuPart, p.gpuPart, p.precision, p.gpus, p.tp, p.pp, p.cp, p.zero}, others);
        ++c.runs;
        if (band.runs.empty())
            continue;
        ++c.banded;
        if (p.stepError >= band.errorLow && p.stepError <= band.errorHigh)
            ++c.inside;
        else
            c.outside.push_back(p.id);
    }
    return c;
}

ErrorBand phrasedFor(ErrorBand band, bool timeLike)
{
    if (band.runs.empty())
        return band;  // its text already says why there is no band
    // The real step is the predicted one / (1 + error).
    auto factor = [&](double e) { return timeLike ? 1 / (1 + e) : 1 + e; };
    band.lowFactor = std::min(factor(band.errorLow), factor(band.errorHigh));
    band.highFactor = std::max(factor(band.errorLow), factor(band.errorHigh));
    const std::string errors = band.nearestLow == band.nearestHigh
        ? stepErrorWords(band.nearestLow)
        : "between " + stepErrorWords(band.nearestLow) + " and " + stepErrorWords(band.nearestHigh);
    const std::string range = band.highFactor - band.lowFactor < 0.005
        ? times(band.lowFactor)
        : times(band.lowFactor) + " to " + times(band.highFactor);
    std::string ids;
    for (const auto& id : band.runs)
        ids += std::string(ids.empty() ? "" : "; ") + id;
    band.text = "On the " +
        (band.runs.size() == 1 ? std::string("published run") : std::to_string(band.runs.size()) + " published runs") +
        " nearest this configuration (" + ids + "; " + band.basis + "), the model's step time was " + errors +
        "; widened by how far the model strays on runs nothing was fit to (" + percentWords(band.spread) +
        ": 1.64 x the check runs' root-mean-square error), the real figure is likely " + range + " the one shown.";
    return band;
}

std::optional<ErrorBand> errorBandFor(const Analysis& a, bool timeLike, const std::vector<ValidationPoint>& points)
{
    const auto nearest = nearestValidatedRuns(a, points);
    return nearest ? std::optional(phrasedFor(*nearest, timeLike)) : std::nullopt;
}

}  // namespace studio
