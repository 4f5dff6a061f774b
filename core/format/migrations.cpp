#include "core/format/migrations.h"

namespace studio {

std::span<const Migration> designMigrations()
{
    // 1.1 added workload.parallelism.cp_comm; its default keeps 1.0's
    // meaning, so a 1.0 file needs nothing but the new number.
    static const Migration chain[] = {
        {{1, 0}, {1, 1}, "workload.parallelism.cp_comm added (default p2p, 1.0's meaning)", [](Json&) {}}};
    return chain;
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
