#pragma once
// The metrics object as readable aligned tables, for `metrics --format text`.
// Generic over the object's shape, so every analysis added to the metrics
// prints without new formatting code.
#include <string>

#include <nlohmann/json.hpp>

namespace studio {

std::string metricsText(const nlohmann::ordered_json& metrics);

}  // namespace studio
