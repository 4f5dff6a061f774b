#include "core/format/migrations.h"

namespace studio {

std::span<const Migration> designMigrations()
{
    // Each step adds an optional key whose default keeps the older file's
    // meaning, so an older file needs nothing but the new number.
    static const Migration chain[] = {
        {{1, 0}, {1, 1}, "workload.parallelism.cp_comm added (default p2p, 1.0's meaning)", [](Json&) {}},
        {{1, 1}, {1, 2}, "workload.parallelism.tp_comm_overlap added (default false, 1.1's meaning)", [](Json&) {}},
        {{1, 2}, {1, 3}, "workload.kind and workload.serving added (default training, 1.2's meaning)", [](Json&) {}},
        {{1, 3},
         {1, 4},
         "workload.serving.engine, step_tokens and max_requests added (default TensorRT-LLM's, whose 8,192 tokens a "
         "step 1.3's model took)",
         [](Json&) {}},
        {{1, 4},
         {1, 5},
         "workload.serving.disaggregated added (default aggregated: every replica prefills and decodes, 1.4's meaning)",
         [](Json&) {}},
        {{1, 5},
         {1, 6},
         "workload.software added (default anything: every layout the model knows, 1.5's meaning)",
         [](Json&) {}},
        {{1, 6},
         {1, 7},
         "facility cost inputs added (capex or colocation, amortisation, cost of capital, utilisation, operations, "
         "cloud price; none changes a figure 1.6 had)",
         [](Json&) {}},
        {{1, 7},
         {1, 8},
         "workload.serving.memory_fraction added (default the engine's: TensorRT-LLM's share of the memory the model "
         "leaves free, vLLM's and SGLang's of the whole)",
         [](Json&) {}}};
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
