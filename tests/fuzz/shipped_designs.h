#pragma once
// The designs that ship with the studio or its tests (presets/,
// tests/data/good, tests/data/published), read once when a harness starts:
// the harnesses that edit a design (--set, serving, search, a user catalog)
// edit one of these, as a user would.
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "core/design/design.h"

namespace studio::fuzz {

struct ShippedDesign {
    std::string file;  // relative to the source tree, for messages
    std::string text;  // the file's bytes
    Json doc;          // parsed
    bool serving = false;
    std::vector<std::string> parts;  // every catalog part it uses
    std::int64_t gpus = 0;
    std::int64_t unitGpus = 0;  // GPUs of the count that resizes it (resize.h); 0 when none does
};

// Every shipped design, in a fixed order (so an input that picks one by
// number picks the same one on every run).
const std::vector<ShippedDesign>& shippedDesigns();

// The `n`th (modulo their count) of the shipped designs `keep` accepts.
const ShippedDesign& pickDesign(unsigned n, const std::function<bool(const ShippedDesign&)>& keep);

}  // namespace studio::fuzz
