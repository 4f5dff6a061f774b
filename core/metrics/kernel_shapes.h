#pragma once
// The kernel shapes a design's step asks of its GPU, as
// `cluster-studio kernel-shapes FILE` prints them for
// tools/collect-kernels.py to measure (docs/kernel-profiles.md): every GEMM
// of a layer forward and its two backward GEMMs (or a serving replica's
// prefill and decode GEMMs), attention, the memory-bound kernels by bytes
// and the scale-up collectives by message size.
#include <string>

#include <nlohmann/json.hpp>

#include "core/catalog/catalog.h"
#include "core/design/design.h"

namespace studio {

inline constexpr std::string_view kKernelShapesFormat = "cluster-studio.kernel-shapes";

// The design must be valid (validateDesign) against `catalog`.
nlohmann::ordered_json kernelShapesJson(const Design& design, const Catalog& catalog, const std::string& designPath);
// As the command line prints it: one entry a line.
std::string kernelShapesText(const nlohmann::ordered_json& shapes);

}  // namespace studio
