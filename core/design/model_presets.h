#pragma once
// Published model shapes the workload dock offers as starting points, each
// with the training setup its paper reports (sequence length, global batch,
// tokens) and where every figure comes from. Choosing one replaces the
// design's model and training sizes; the parallel layout stays the user's.
#include <span>
#include <string>

#include "core/design/design.h"

namespace studio {

struct ModelPreset {
    std::string id;                // stable key ("llama3-405b")
    ModelSpec model;               // name, shape, vocabulary, sequence length
    std::int64_t globalBatch = 0;  // sequences per step
    double tokens = 0;             // tokens to train
    std::string source;            // where the shape and the training sizes come from
};

std::span<const ModelPreset> modelPresets();
const ModelPreset* findModelPreset(const std::string& id);

// The preset whose model shape `model` has (name aside), or nullptr.
const ModelPreset* matchModelPreset(const ModelSpec& model);

}  // namespace studio
