#pragma once
// A served figure's expected error: how far the model was from measured
// serving on the same GPU and engine. The points are AIConfigurator's
// measured aggregated serving (docs/validation.md, "Measured serving points
// of AIConfigurator"), summarised per GPU and engine into
// resources/validation-errors.json by `cluster-studio validation-report
// ... --format json` and compiled in. Nothing is fit to them: the band only
// says how far the real figure fell from the model's on those points.
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/analysis/explanation.h"
#include "core/json/json_reader.h"

namespace studio {

struct ServingValidationRow;

// The three served figures a band is drawn for.
enum class ServedFigure { Ttft, Tpot, TokensPerGpu };
inline constexpr std::array kServedFigures = {ServedFigure::Ttft, ServedFigure::Tpot, ServedFigure::TokensPerGpu};
// Its metrics key: "serving.ttft_s", "serving.tpot_s", "serving.tokens_per_s_per_gpu".
const char* servedFigureKey(ServedFigure figure);

// One GPU and engine's points: the real figure over the model's, its 10th
// and 90th percentiles (the middle 80% of the points lie between).
struct ServingBandGroup {
    std::string gpuName, engine;  // the catalog's GPU name; "trtllm", "vllm", "sglang"
    std::int64_t points = 0;
    std::array<std::array<double, 2>, 3> realOverShown{};  // by ServedFigure: {p10, p90}
};

// The groups of a sample set's modelled points, by GPU and engine (its
// version set aside: few sets state one).
std::vector<ServingBandGroup> servingBandGroups(const std::vector<ServingValidationRow>& rows);
Json servingBandsJson(const std::vector<ServingBandGroup>& groups);
std::vector<ServingBandGroup> parseServingBands(std::string_view jsonText);
// The compiled-in groups; a broken resource is a build defect, so it throws.
const std::vector<ServingBandGroup>& builtinServingBands();

// The band of `figure` for a replica of `gpuName` served by `engine`: the
// group's percentiles, or a band whose text says no point was measured
// there.
ErrorBand servingErrorBand(const std::string& gpuName, const std::string& engine, ServedFigure figure,
                           const std::vector<ServingBandGroup>& groups = builtinServingBands());

}  // namespace studio
