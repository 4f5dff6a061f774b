#pragma once
// A shipped design's JSON changed as the fuzzer's bytes say, field by field,
// by the same tables the reader checks (core/format/design_fields.h). Each
// field takes one byte saying what happens to it: kept (also when the bytes
// run out, so the empty input is the design itself), a typical value (powers
// of two and their multiples of 3 and 5: what divides), any value in the
// field's range, one just outside it, the wrong type, or no value. Going
// through the file format means the reader's checks stand between the bytes
// and the analyses, as they do for a user.
#include <cstdint>
#include <string_view>
#include <type_traits>
#include <variant>

#include <fuzzer/FuzzedDataProvider.h>

#include "core/catalog/part_kind.h"
#include "core/design/design.h"
#include "core/format/design_fields.h"

namespace studio::fuzz {

Json fuzzedInteger(FuzzedDataProvider& in, const Json& current, double min, double max);
Json fuzzedNumber(FuzzedDataProvider& in, const Json& current, double min, double max);
Json fuzzedChoice(FuzzedDataProvider& in, const Json& current, const std::vector<std::string_view>& choices);
Json fuzzedText(FuzzedDataProvider& in, const Json& current);
Json fuzzedFlag(FuzzedDataProvider& in, const Json& current);

// A discarded Json: remove the key.
void putField(Json& section, std::string_view key, Json value);

// Every field of `table` in `section` (made an object when it is not one).
template <typename S>
void mutateFields(FuzzedDataProvider& in, Json& section, const fields::Table<S>& table)
{
    if (!section.is_object())
        section = Json::object();
    for (const auto& f : table) {
        const std::string key(f.key);
        const Json current = section.contains(key) ? section[key] : Json(Json::value_t::discarded);
        Json next = std::visit(
            [&](auto member) {
                using T = std::remove_cvref_t<decltype(std::declval<S&>().*member)>;
                if constexpr (std::is_same_v<T, std::int64_t> || std::is_same_v<T, std::optional<std::int64_t>>)
                    return fuzzedInteger(in, current, f.min, f.max);
                else if constexpr (std::is_same_v<T, double> || std::is_same_v<T, std::optional<double>>)
                    return fuzzedNumber(in, current, f.min, f.max);
                else if constexpr (std::is_same_v<T, bool> || std::is_same_v<T, std::optional<bool>>)
                    return fuzzedFlag(in, current);
                else if (!f.choices.empty())
                    return fuzzedChoice(in, current, f.choices);
                else
                    return fuzzedText(in, current);
            },
            f.member);
        putField(section, key, std::move(next));
    }
}

// Each component's count, as the fuzzer says (the replication the
// analyses multiply through).
void mutateCounts(FuzzedDataProvider& in, Json& design);

// The figure overrides (props) of the components of `kind`, each figure of
// the kind's schema (part_schema.h) by its range: an override is how a
// user tries a faster or slower part without writing a catalog.
void mutateFigures(FuzzedDataProvider& in, Json& design, PartKind kind);

// Components of `kind` given another built-in part of that kind (another
// GPU in a node, another switch for a fabric's setting is not touched).
void mutateParts(FuzzedDataProvider& in, Json& design, PartKind kind);

}  // namespace studio::fuzz
