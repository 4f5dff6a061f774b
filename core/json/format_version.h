#pragma once
// "major.minor" format versions. A newer minor version only adds keys, so it
// loads (with a warning) and its unknown keys are kept; a newer major version
// cannot be read; older versions are migrated (format/migrations.h).
#include <optional>
#include <string>

#include "core/json/json_reader.h"

namespace studio {

struct FormatVersion {
    int major = 0;
    int minor = 0;
    auto operator<=>(const FormatVersion&) const = default;
};

inline constexpr FormatVersion kDesignFormatVersion{1, 8};
inline constexpr FormatVersion kCatalogFormatVersion{1, 0};

std::optional<FormatVersion> parseFormatVersion(const std::string& text);
std::string toString(FormatVersion v);

// Reads `format_version` from `doc`; reports a malformed or newer-major
// version as an error and a newer minor version as a warning.
std::optional<FormatVersion> checkFormatVersion(JsonReader& r, const Json& doc, const std::string& pointer,
                                                FormatVersion current, bool required);

}  // namespace studio
