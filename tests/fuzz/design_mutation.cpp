#include "tests/fuzz/design_mutation.h"

#include <cmath>
#include <limits>

#include "core/catalog/catalog.h"
#include "core/catalog/part_schema.h"
#include "tests/fuzz/fuzz_checks.h"

namespace studio::fuzz {
namespace {

// What happens to one field; the first values keep it, so a mutation that
// shortens the input leaves most of the design as it was.
enum class Change { Keep, Typical, Small, InRange, Outside, WrongType, Remove };

Change change(FuzzedDataProvider& in)
{
    switch (in.ConsumeIntegral<std::uint8_t>() % 12) {
    case 0:
    case 1:
    case 2:
    case 3:
    case 4: return Change::Keep;
    case 5:
    case 6: return Change::Typical;
    case 7: return Change::Small;
    case 8:
    case 9: return Change::InRange;
    case 10: return Change::Outside;
    default: return in.ConsumeBool() ? Change::WrongType : Change::Remove;
    }
}

Json wrongType(FuzzedDataProvider& in, const Json& current)
{
    switch (in.ConsumeIntegralInRange(0, 4)) {
    case 0: return current.is_string() ? Json(1) : Json(current.dump());
    case 1: return Json(nullptr);
    case 2: return Json::array();
    case 3: return Json::object();
    default: return Json(1.5);
    }
}

Json discarded()
{
    return Json(Json::value_t::discarded);
}

}  // namespace

Json fuzzedInteger(FuzzedDataProvider& in, const Json& current, double min, double max)
{
    const auto lo = static_cast<std::int64_t>(min), hi = static_cast<std::int64_t>(max);
    switch (change(in)) {
    case Change::Keep: return current;
    case Change::Typical: {
        // 2^a x 3^b x 5^c: the sizes layouts divide by.
        std::int64_t v = std::int64_t(1) << in.ConsumeIntegralInRange(0, 40);
        for (int i = in.ConsumeIntegralInRange(0, 2); i > 0; --i)
            v *= in.ConsumeBool() ? 3 : 5;
        return v;
    }
    case Change::Small: return in.ConsumeIntegralInRange<std::int64_t>(0, 16);
    case Change::InRange: return in.ConsumeIntegralInRange(lo, hi);
    case Change::Outside:
        switch (in.ConsumeIntegralInRange(0, 3)) {
        case 0: return lo - 1;
        case 1: return hi + 1;
        case 2: return std::numeric_limits<std::int64_t>::max();
        default: return std::numeric_limits<std::int64_t>::min();
        }
    case Change::WrongType: return wrongType(in, current);
    case Change::Remove: return discarded();
    }
    return current;
}

Json fuzzedNumber(FuzzedDataProvider& in, const Json& current, double min, double max)
{
    switch (change(in)) {
    case Change::Keep: return current;
    case Change::Typical: {
        static constexpr double kMantissas[] = {1, 1.5, 2, 2.5, 3, 5, 7.5, 9.99};
        const double m = kMantissas[in.ConsumeIntegralInRange<std::size_t>(0, std::size(kMantissas) - 1)];
        return m * std::pow(10.0, in.ConsumeIntegralInRange(-9, 15));
    }
    case Change::Small: return in.ConsumeIntegralInRange(0, 16) / 4.0;
    case Change::InRange: return in.ConsumeFloatingPointInRange(min, max);
    case Change::Outside:
        switch (in.ConsumeIntegralInRange(0, 4)) {
        case 0: return min - 1;
        case 1: return max * 2 + 1;
        case 2: return std::numeric_limits<double>::max();
        case 3: return std::numeric_limits<double>::denorm_min();
        default: return -0.0;
        }
    case Change::WrongType: return wrongType(in, current);
    case Change::Remove: return discarded();
    }
    return current;
}

Json fuzzedChoice(FuzzedDataProvider& in, const Json& current, const std::vector<std::string_view>& choices)
{
    switch (change(in)) {
    case Change::Keep: return current;
    case Change::Typical:
    case Change::Small:
    case Change::InRange: return std::string(choices[in.ConsumeIntegralInRange<std::size_t>(0, choices.size() - 1)]);
    case Change::Outside: return asUtf8Text(in.ConsumeRandomLengthString(16));
    case Change::WrongType: return wrongType(in, current);
    case Change::Remove: return discarded();
    }
    return current;
}

Json fuzzedText(FuzzedDataProvider& in, const Json& current)
{
    switch (change(in)) {
    case Change::Keep: return current;
    case Change::Typical:
    case Change::Small:
    case Change::InRange:
    case Change::Outside: return asUtf8Text(in.ConsumeRandomLengthString(32));
    case Change::WrongType: return wrongType(in, current);
    case Change::Remove: return discarded();
    }
    return current;
}

Json fuzzedFlag(FuzzedDataProvider& in, const Json& current)
{
    switch (change(in)) {
    case Change::Keep: return current;
    case Change::Typical:
    case Change::Small:
    case Change::InRange:
    case Change::Outside: return in.ConsumeBool();
    case Change::WrongType: return wrongType(in, current);
    case Change::Remove: return discarded();
    }
    return current;
}

void putField(Json& section, std::string_view key, Json value)
{
    if (value.is_discarded())
        section.erase(std::string(key));
    else
        section[std::string(key)] = std::move(value);
}

void mutateCounts(FuzzedDataProvider& in, Json& design)
{
    const auto& count = fields::find(fields::component(), "count");
    for (Json& c : design["components"]) {
        const Json current = c.contains("count") ? c["count"] : Json(Json::value_t::discarded);
        putField(c, "count", fuzzedInteger(in, current, count.min, count.max));
    }
}

void mutateFigures(FuzzedDataProvider& in, Json& design, PartKind kind)
{
    for (Json& c : design["components"]) {
        const Part* part = Catalog::builtin().find(c["part"].get<std::string>());
        if (!part || part->kind != kind)
            continue;
        Json props = c.contains("props") ? c["props"] : Json::object();
        for (const FieldSpec& f : fieldSpecs(kind)) {
            const std::string key(f.key);
            const Json current = props.contains(key) ? props[key] : Json(Json::value_t::discarded);
            putField(props, key,
                     f.integer ? fuzzedInteger(in, current, f.min, f.max)
                               : fuzzedNumber(in, current, f.floor(), f.max));
        }
        if (!props.empty())
            c["props"] = std::move(props);
    }
}

void mutateParts(FuzzedDataProvider& in, Json& design, PartKind kind)
{
    std::vector<const Part*> ofKind;
    for (const Part& p : Catalog::builtin().parts())
        if (p.kind == kind)
            ofKind.push_back(&p);
    for (Json& c : design["components"]) {
        const Part* part = Catalog::builtin().find(c["part"].get<std::string>());
        if (part && part->kind == kind && in.ConsumeIntegralInRange(0, 3) == 3)
            c["part"] = ofKind[in.ConsumeIntegralInRange<std::size_t>(0, ofKind.size() - 1)]->id;
    }
}

}  // namespace studio::fuzz
