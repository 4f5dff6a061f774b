#pragma once
// Typed reads from a parsed JSON object that never throw: every wrong type,
// missing key or out-of-range value becomes a Problem at its JSON pointer,
// and reading goes on so one pass reports every problem in a file.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/problem.h"

namespace studio {

using Json = nlohmann::ordered_json;

class JsonReader {
public:
    explicit JsonReader(std::vector<Problem>& problems) : problems_(problems) {}

    // `code` names the rule broken ("out_of_range", "missing", ...): callers
    // compare problems by code and pointer, never by message text.
    void error(const std::string& pointer, std::string message, std::string code = "invalid");
    void warning(const std::string& pointer, std::string message, std::string code = "warning");
    bool failed() const;
    std::size_t errorCount() const;

    // Checks `value` is an object; reports "must be an object, got array".
    bool isObject(const Json& value, const std::string& pointer);
    bool isArray(const Json& value, const std::string& pointer);

    // Member of `obj` at `pointer` (the object's own pointer). Absent keys
    // give nullopt, and an error when `required`.
    std::optional<std::string> string(const Json& obj, const std::string& pointer, std::string_view key, bool required,
                                      bool allowEmpty = false);
    std::optional<std::string> choice(const Json& obj, const std::string& pointer, std::string_view key,
                                      const std::vector<std::string_view>& allowed, bool required);
    std::optional<std::int64_t> integer(const Json& obj, const std::string& pointer, std::string_view key,
                                        bool required, std::int64_t min, std::int64_t max);
    std::optional<double> number(const Json& obj, const std::string& pointer, std::string_view key, bool required,
                                 double min, double max, bool minExclusive = false);
    std::optional<bool> boolean(const Json& obj, const std::string& pointer, std::string_view key, bool required);

    // Value-level checks, for values not read through a key.
    std::optional<std::int64_t> integerValue(const Json& v, const std::string& pointer, std::int64_t min,
                                             std::int64_t max);
    std::optional<double> numberValue(const Json& v, const std::string& pointer, double min, double max,
                                      bool minExclusive = false);
    bool choiceValue(const std::string& value, const std::string& pointer,
                     const std::vector<std::string_view>& allowed);

    // Copies keys not in `known` into `extra` (kept on save) and warns about
    // each one, since a typo ("cuont") would otherwise pass silently.
    void keepUnknown(const Json& obj, const std::string& pointer, const std::vector<std::string_view>& known,
                     Json& extra);
    // Refuses each key of `obj` not in `known`: another tool's file, where
    // an unknown key is a typo or a newer format, not something to keep.
    // The error reads "unknown key: " + `why`.
    void refuseUnknown(const Json& obj, const std::string& pointer, const std::vector<std::string_view>& known,
                       const std::string& why);

    // A standalone file's header: "format" must be `format` (false, with an
    // error, when it is another kind of file), and the version under
    // `versionKey` no newer than `newest`.
    bool fileHeader(const Json& doc, std::string_view format, std::string_view versionKey, std::int64_t newest);

    // obj[key], or nullptr (an error at `ptr` when required).
    const Json* member(const Json& obj, const std::string& ptr, std::string_view key, bool required);

private:
    std::vector<Problem>& problems_;
};

}  // namespace studio
