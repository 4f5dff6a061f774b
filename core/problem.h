#pragma once
// Errors in the core are values: each names the JSON pointer it is about, so
// the edges (CLI, dialogs, warnings dock) can point the user at the exact spot.
#include <string>
#include <vector>

namespace studio {

enum class Severity { Error, Warning };

struct Problem {
    Severity severity = Severity::Error;
    std::string pointer;  // RFC 6901 pointer into the file; "" is the whole document
    std::string message;
    std::string code;  // stable identifier for analysis findings ("rack_over_cooling_limit"); may be empty
};

bool hasErrors(const std::vector<Problem>& problems);

// "FILE: /json/pointer: message" (warnings add "warning: " before the message).
// The whole document is shown as "/" so the line always has three fields.
std::string formatProblem(const std::string& file, const Problem& problem);

}  // namespace studio
