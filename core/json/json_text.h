#pragma once
// Reading JSON text safely: a size cap, a nesting cap, and parse errors given
// as line and column rather than a byte offset.
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "core/problem.h"

namespace studio {

inline constexpr std::size_t kMaxJsonBytes = 100u * 1024u * 1024u;
inline constexpr int kMaxJsonDepth = 64;

struct ParsedJson {
    nlohmann::ordered_json doc;
    std::optional<Problem> error;  // set when the text is not usable JSON
};

ParsedJson parseJsonText(std::string_view text);

// Whole file into memory, refusing files over kMaxJsonBytes.
struct FileText {
    std::string text;
    std::optional<std::string> error;  // "cannot open: No such file or directory"
};
FileText readTextFile(const std::string& path);

}  // namespace studio
