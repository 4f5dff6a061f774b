#pragma once
// Measured serving points in bulk (format "cluster-studio.serving-samples":
// tools/aic-kernels/silicon_sample.py writes AIConfigurator's silicon_sample.csv
// as one), checked against the serving model the way docs/validation.md's
// serving runs are, and summarised by GPU, engine and precision.
#include <string>
#include <vector>

#include "core/catalog/catalog.h"
#include "core/metrics/validation_runs.h"

namespace studio {

// Each point: one replica of tp GPUs of the set's base design for its GPU,
// serving `concurrency` requests at once (closed loop). Measured tokens/s per
// GPU = concurrency x output / (TTFT + (output - 1) x TPOT) / tp: each of the
// requests in flight finishes `output` tokens in that time. The model's
// figure is the decode point at a batch of the concurrency (or as many as fit
// beside the weights, which is what an engine admits), with the prompts'
// prefill charged to the same GPUs. Problems name `path` and the point's
// JSON pointer; `ptr` is where runs.json names the set.
ServingSamples readServingSamples(const std::string& path, const Catalog& catalog, const std::string& ptr,
                                  std::vector<Problem>& problems);

// docs/validation.md's section on the set: errors by GPU, engine and weight
// precision, with the catalog factors and with the kernel profiles.
std::string servingSamplesMarkdown(const ServingSamples& samples);

}  // namespace studio
