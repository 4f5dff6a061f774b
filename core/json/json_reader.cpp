#include "core/json/json_reader.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "core/json/json_pointer.h"
#include "core/text.h"

namespace studio {
namespace {

std::string typeName(const Json& v)
{
    if (v.is_number_integer() || v.is_number_unsigned())
        return "integer " + v.dump();
    if (v.is_number_float())
        return "number " + v.dump();
    if (v.is_string()) {
        std::string s = v.get<std::string>();
        if (s.size() > 40)
            s = s.substr(0, 40) + "...";
        return "string \"" + s + "\"";
    }
    return v.type_name();
}

}  // namespace

bool JsonReader::fileHeader(const Json& doc, std::string_view format, std::string_view versionKey, std::int64_t newest)
{
    if (const auto f = string(doc, "", "format", true); f && *f != format) {
        error("/format", "must be " + inQuotes(format) + ", got " + inQuotes(*f));
        return false;
    }
    if (const auto v = integer(doc, "", versionKey, true, 1, 1000000); v && *v > newest)
        error("/" + std::string(versionKey),
              "version " + formatCount(*v) + " is newer than this studio reads (" + formatCount(newest) +
                  "): update Cluster Studio",
              "out_of_range");
    return true;
}

void JsonReader::error(const std::string& pointer, std::string message, std::string code)
{
    problems_.push_back({Severity::Error, pointer, std::move(message), std::move(code)});
}

void JsonReader::warning(const std::string& pointer, std::string message, std::string code)
{
    problems_.push_back({Severity::Warning, pointer, std::move(message), std::move(code)});
}

bool JsonReader::failed() const
{
    return hasErrors(problems_);
}

std::size_t JsonReader::errorCount() const
{
    return std::size_t(std::count_if(problems_.begin(), problems_.end(),
                                     [](const Problem& p) { return p.severity == Severity::Error; }));
}

bool JsonReader::isObject(const Json& value, const std::string& pointer)
{
    if (value.is_object())
        return true;
    error(pointer, "must be an object, got " + typeName(value), "wrong_type");
    return false;
}

bool JsonReader::isArray(const Json& value, const std::string& pointer)
{
    if (value.is_array())
        return true;
    error(pointer, "must be an array, got " + typeName(value), "wrong_type");
    return false;
}

const Json* JsonReader::member(const Json& obj, const std::string& ptr, std::string_view key, bool required)
{
    const auto it = obj.find(key);
    if (it != obj.end())
        return &*it;
    if (required)
        error(ptr, "missing (required)", "missing");
    return nullptr;
}

std::optional<std::string> JsonReader::string(const Json& obj, const std::string& pointer, std::string_view key,
                                              bool required, bool allowEmpty)
{
    const std::string ptr = pointerAppend(pointer, key);
    const Json* it = member(obj, ptr, key, required);
    if (!it)
        return std::nullopt;
    if (!it->is_string()) {
        error(ptr, "must be a string, got " + typeName(*it), "wrong_type");
        return std::nullopt;
    }
    std::string s = it->get<std::string>();
    if (s.empty() && !allowEmpty) {
        error(ptr, "must not be empty", "empty");
        return std::nullopt;
    }
    return s;
}

std::optional<std::string> JsonReader::choice(const Json& obj, const std::string& pointer, std::string_view key,
                                              const std::vector<std::string_view>& allowed, bool required)
{
    auto s = string(obj, pointer, key, required);
    if (!s || !choiceValue(*s, pointerAppend(pointer, key), allowed))
        return std::nullopt;
    return s;
}

bool JsonReader::choiceValue(const std::string& value, const std::string& pointer,
                             const std::vector<std::string_view>& allowed)
{
    if (std::find(allowed.begin(), allowed.end(), value) != allowed.end())
        return true;
    std::string list;
    for (auto a : allowed)
        list += (list.empty() ? "" : ", ") + inQuotes(a);
    error(pointer, "must be one of " + list + ", got " + inQuotes(value), "not_allowed");
    return false;
}

std::optional<std::int64_t> JsonReader::integer(const Json& obj, const std::string& pointer, std::string_view key,
                                                bool required, std::int64_t min, std::int64_t max)
{
    const std::string ptr = pointerAppend(pointer, key);
    const Json* it = member(obj, ptr, key, required);
    return it ? integerValue(*it, ptr, min, max) : std::nullopt;
}

std::optional<std::int64_t> JsonReader::integerValue(const Json& v, const std::string& ptr, std::int64_t min,
                                                     std::int64_t max)
{
    std::int64_t n = 0;
    // Unsigned first: nlohmann counts an unsigned number as an integer too,
    // and 2^64 - 1 read as int64 would be -1.
    if (v.is_number_unsigned()) {
        const auto u = v.get<std::uint64_t>();
        if (u > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max())) {
            error(ptr, "is " + v.dump() + ", above the limit of " + formatCount(max), "out_of_range");
            return std::nullopt;
        }
        n = static_cast<std::int64_t>(u);
    } else if (v.is_number_integer()) {
        n = v.get<std::int64_t>();
    } else if (v.is_number_float()) {
        const double d = v.get<double>();
        if (!std::isfinite(d))
            error(ptr, "must be a finite whole number", "not_finite");
        else
            error(ptr, "must be a whole number, got " + v.dump(), "not_whole");
        return std::nullopt;
    } else {
        error(ptr, "must be a whole number, got " + typeName(v), "wrong_type");
        return std::nullopt;
    }
    if (n < min) {
        error(ptr, "must be at least " + formatCount(min) + ", got " + formatCount(n), "out_of_range");
        return std::nullopt;
    }
    if (n > max) {
        error(ptr, "is " + formatCount(n) + ", above the limit of " + formatCount(max), "out_of_range");
        return std::nullopt;
    }
    return n;
}

std::optional<double> JsonReader::number(const Json& obj, const std::string& pointer, std::string_view key,
                                         bool required, double min, double max, bool minExclusive)
{
    const std::string ptr = pointerAppend(pointer, key);
    const Json* it = member(obj, ptr, key, required);
    return it ? numberValue(*it, ptr, min, max, minExclusive) : std::nullopt;
}

std::optional<double> JsonReader::numberValue(const Json& v, const std::string& ptr, double min, double max,
                                              bool minExclusive)
{
    if (!v.is_number()) {
        error(ptr, "must be a number, got " + typeName(v), "wrong_type");
        return std::nullopt;
    }
    const double d = v.get<double>();
    if (!std::isfinite(d)) {
        error(ptr, "must be a finite number", "not_finite");
        return std::nullopt;
    }
    if (minExclusive ? d <= min : d < min) {
        error(ptr,
              std::string(minExclusive ? "must be greater than " : "must be at least ") + formatValue(min) + ", got " +
                  formatValue(d),
              "out_of_range");
        return std::nullopt;
    }
    if (d > max) {
        error(ptr, "is " + formatValue(d) + ", above the limit of " + formatValue(max), "out_of_range");
        return std::nullopt;
    }
    return d;
}

std::optional<bool> JsonReader::boolean(const Json& obj, const std::string& pointer, std::string_view key,
                                        bool required)
{
    const std::string ptr = pointerAppend(pointer, key);
    const Json* it = member(obj, ptr, key, required);
    if (!it)
        return std::nullopt;
    if (!it->is_boolean()) {
        error(ptr, "must be true or false, got " + typeName(*it), "wrong_type");
        return std::nullopt;
    }
    return it->get<bool>();
}

void JsonReader::keepUnknown(const Json& obj, const std::string& pointer, const std::vector<std::string_view>& known,
                             Json& extra)
{
    for (auto it = obj.begin(); it != obj.end(); ++it) {
        if (std::find(known.begin(), known.end(), it.key()) != known.end())
            continue;
        extra[it.key()] = it.value();
        warning(pointerAppend(pointer, it.key()), "unknown key " + inQuotes(it.key()) + " (kept as is on save)",
                "unknown_key");
    }
}

void JsonReader::refuseUnknown(const Json& obj, const std::string& pointer, const std::vector<std::string_view>& known,
                               const std::string& why)
{
    for (auto it = obj.begin(); it != obj.end(); ++it)
        if (std::find(known.begin(), known.end(), it.key()) == known.end())
            error(pointerAppend(pointer, it.key()), "unknown key: " + why, "unknown_key");
}

}  // namespace studio
