#pragma once
// What a training framework runs: for each layout axis it constrains, the
// values it supports (Megatron-LM's distributed optimizer is ZeRO-1 and no
// more; DeepSpeed ZeRO has no tensor parallelism of its own). The catalog
// holds the profiles, each with its source; a design names one
// (workload.software) and the layout search stays within it
// (docs/model.md "Layout search").
#include <array>
#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

namespace studio {

class JsonReader;

// The layout axes a profile or `search --fix/--allow` may constrain, and
// their values as written: whole numbers ("4"), a ZeRO stage ("0".."3"), a
// recompute mode ("none", "selective", "full"), "true" or "false".
inline constexpr std::array<std::string_view, 10> kConstrainedAxes = {
    "tp", "pp", "dp", "cp", "ep", "micro_batch", "interleave", "zero", "recompute", "sequence_parallel"};

// Axis -> the values allowed; an axis not named takes any.
using AllowedValues = std::map<std::string, std::vector<std::string>>;

// Why a constraint cannot be read ("" when every value reads): an unknown
// axis, no value, or a value that is not one of the axis's.
std::string constraintError(const std::string& axis, const std::vector<std::string>& values);

// `a` and `b` both met: for an axis both name, the values in both, in a's
// order (possibly none: the search then says no value is allowed).
AllowedValues intersectAllowed(const AllowedValues& a, const AllowedValues& b);

// "tp 1; zero 0, 1; recompute none, full": a constraint set in one line,
// "" when it allows anything.
std::string describeAllowed(const AllowedValues& allowed);

// The design's profile when it names none: every layout the model knows.
inline constexpr std::string_view kAnySoftware = "anything";

struct SoftwareProfile {
    std::string id;               // "megatron-lm", as a design's workload.software names it
    std::string name;             // "Megatron-LM"
    std::string sourceKey;        // into the catalog's sources table
    std::string source;           // the citation itself
    std::string note;             // what the profile leaves out, and why
    AllowedValues allowed;        // empty: anything
    nlohmann::ordered_json json;  // as read, so a design can embed it verbatim
};

// Reads the catalog's "software" array (at `ptr`) into `out`; the values of
// `allowed` may be written as JSON numbers, booleans or strings. `source`
// resolves a source key to its citation, or nullptr when the catalog has no
// such source. Problems go to the reader.
void readSoftwareProfiles(JsonReader& r, const nlohmann::ordered_json& array, const std::string& ptr,
                          std::vector<SoftwareProfile>& out,
                          const std::function<const std::string*(std::string_view key)>& source);

}  // namespace studio
