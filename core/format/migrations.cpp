#include "core/format/migrations.h"

namespace studio {

std::span<const Migration> designMigrations()
{
    return {};
}

std::optional<Problem> migrate(Json& doc, FormatVersion version, FormatVersion target, std::span<const Migration> chain)
{
    while (version < target) {
        const Migration* step = nullptr;
        for (const auto& m : chain)
            if (m.from == version)
                step = &m;
        if (!step)
            return Problem{Severity::Error, "/format_version",
                           "format " + toString(version) + " is older than " + toString(target) +
                               " and no migration from it exists"};
        step->apply(doc);
        version = step->to;
        doc["format_version"] = toString(version);
    }
    return std::nullopt;
}

}  // namespace studio
