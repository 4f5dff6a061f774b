#pragma once
// Building RFC 6901 pointers while walking a document, and applying a
// "--set /pointer=value" edit to a parsed document.
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "core/problem.h"

namespace studio {

std::string pointerAppend(const std::string& base, std::string_view key);
std::string pointerAppend(const std::string& base, std::size_t index);

// Sets the value at `pointer`, creating the last key of an existing object.
// Returns a problem (naming the pointer) when the parent does not exist or is
// not a container, or the pointer is malformed.
std::optional<Problem> setAtPointer(nlohmann::ordered_json& doc, const std::string& pointer,
                                    const nlohmann::ordered_json& value);

// "64" -> 64, "true" -> true, "\"x\"" -> "x"; text that is not JSON is taken
// as a string, so `--set /name=My pod` works without quoting.
nlohmann::ordered_json parseSetValue(const std::string& text);

}  // namespace studio
