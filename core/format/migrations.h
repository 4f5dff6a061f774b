#pragma once
// Migrations bring a design written in an older format version up to the
// current one, one step at a time, before it is read. Format 1.0 is the
// first released format; each format change adds its step here, with a test
// that loads a file of the old form.
#include <functional>
#include <optional>
#include <span>
#include <string_view>

#include "core/json/format_version.h"
#include "core/problem.h"

namespace studio {

struct Migration {
    FormatVersion from;
    FormatVersion to;
    std::string_view description;
    std::function<void(Json&)> apply;  // rewrites the document in place
};

std::span<const Migration> designMigrations();

// Applies the steps of `chain` from `version` up to `target`, in order, and
// sets "format_version" to each step's result. A gap in the chain is an error
// naming the version that has no way forward.
std::optional<Problem> migrate(Json& doc, FormatVersion version, FormatVersion target,
                               std::span<const Migration> chain);

}  // namespace studio
