#include "core/metrics/serving_error_band.h"

#include <algorithm>
#include <cmath>
#include <map>

#include "core/metrics/validation_runs.h"
#include "core/serving/engine.h"
#include "core/text.h"

namespace studio {

std::string_view builtinValidationErrorsJson();  // generated from resources/validation-errors.json

namespace {

constexpr const char* kFigureKeys[] = {"ttft", "tpot", "tokens_per_s_per_gpu"};
constexpr const char* kFigureNames[] = {"time to first token", "time per output token", "tokens/s per GPU"};

// The p-th percentile (0..1) of sorted values, linear between neighbours.
double percentile(const std::vector<double>& sorted, double p)
{
    const double at = p * double(sorted.size() - 1);
    const std::size_t below = std::size_t(std::floor(at));
    const std::size_t above = std::min(below + 1, sorted.size() - 1);
    return sorted[below] + (at - double(below)) * (sorted[above] - sorted[below]);
}

// "trtllm" of "trtllm 1.0.0rc3" or "trtllm (version not stated)".
std::string engineOf(const std::string& engine)
{
    return engine.substr(0, engine.find(' '));
}

}  // namespace

const char* servedFigureKey(ServedFigure figure)
{
    static constexpr const char* keys[] = {"serving.ttft_s", "serving.tpot_s", "serving.tokens_per_s_per_gpu"};
    return keys[std::size_t(figure)];
}

std::vector<ServingBandGroup> servingBandGroups(const std::vector<ServingValidationRow>& rows)
{
    // Real over shown of each figure, by GPU and engine, in name order.
    std::map<std::pair<std::string, std::string>, std::array<std::vector<double>, 3>> ratios;
    for (const ServingValidationRow& r : rows) {
        if (r.engine.empty() || !(r.predictedTtftS > 0 && r.predictedTpotS > 0 && r.predicted > 0))
            continue;
        auto& group = ratios[{r.system, engineOf(r.engine)}];
        group[0].push_back(r.measuredTtftS / r.predictedTtftS);
        group[1].push_back(r.measuredTpotS / r.predictedTpotS);
        group[2].push_back(r.measured / r.predicted);
    }
    std::vector<ServingBandGroup> groups;
    for (auto& [key, figures] : ratios) {
        ServingBandGroup g{key.first, key.second, std::int64_t(figures[0].size()), {}};
        for (std::size_t f = 0; f < figures.size(); ++f) {
            std::sort(figures[f].begin(), figures[f].end());
            g.realOverShown[f] = {percentile(figures[f], 0.1), percentile(figures[f], 0.9)};
        }
        groups.push_back(std::move(g));
    }
    return groups;
}

Json servingBandsJson(const std::vector<ServingBandGroup>& groups)
{
    Json out = Json::array();
    for (const ServingBandGroup& g : groups) {
        Json j = {{"gpu", g.gpuName}, {"engine", g.engine}, {"points", g.points}};
        // To four decimals, as the runs' errors are: the file is read by people too.
        const auto rounded = [](double v) { return std::round(v * 1e4) / 1e4; };
        for (std::size_t f = 0; f < g.realOverShown.size(); ++f)
            j[kFigureKeys[f]] = {rounded(g.realOverShown[f][0]), rounded(g.realOverShown[f][1])};
        out.push_back(std::move(j));
    }
    return out;
}

std::vector<ServingBandGroup> parseServingBands(std::string_view jsonText)
{
    const Json doc = Json::parse(jsonText);
    std::vector<ServingBandGroup> groups;
    for (const Json& j : doc.at("serving")) {
        ServingBandGroup g;
        g.gpuName = j.at("gpu").get<std::string>();
        g.engine = j.at("engine").get<std::string>();
        g.points = j.at("points").get<std::int64_t>();
        for (std::size_t f = 0; f < g.realOverShown.size(); ++f)
            g.realOverShown[f] = {j.at(kFigureKeys[f]).at(0).get<double>(), j.at(kFigureKeys[f]).at(1).get<double>()};
        groups.push_back(std::move(g));
    }
    return groups;
}

const std::vector<ServingBandGroup>& builtinServingBands()
{
    static const std::vector<ServingBandGroup> groups = parseServingBands(builtinValidationErrorsJson());
    return groups;
}

ErrorBand servingErrorBand(const std::string& gpuName, const std::string& engine, ServedFigure figure,
                           const std::vector<ServingBandGroup>& groups)
{
    const std::size_t f = std::size_t(figure);
    ErrorBand band;
    band.basis = "AIConfigurator's measured serving points of the same GPU and engine (docs/validation.md)";
    const auto g = std::find_if(groups.begin(), groups.end(),
                                [&](const ServingBandGroup& x) { return x.gpuName == gpuName && x.engine == engine; });
    const std::string served = gpuName + " with " + engineDisplayName(engine);
    if (g == groups.end()) {
        band.text = "No measured serving point of " + served + " to check the model against (docs/validation.md)";
        return band;
    }
    band.runs = {formatCount(g->points) + " measured points of " + served};
    band.lowFactor = g->realOverShown[f][0];
    band.highFactor = g->realOverShown[f][1];
    // The model's error, (predicted - measured) / measured, at those ends.
    band.errorLow = 1 / band.highFactor - 1;
    band.errorHigh = 1 / band.lowFactor - 1;
    band.nearestLow = band.errorLow;
    band.nearestHigh = band.errorHigh;
    band.text = "On " + formatCount(g->points) + " measured points of " + served +
        " (AIConfigurator, Llama 3.1 8B and 70B), the real " + kFigureNames[f] + " was " +
        formatReadable(band.lowFactor, 2) + "x to " + formatReadable(band.highFactor, 2) +
        "x the model's for the middle 80% of them (docs/validation.md)";
    return band;
}

}  // namespace studio
