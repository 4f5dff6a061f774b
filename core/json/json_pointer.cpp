#include "core/json/json_pointer.h"

#include <limits>
#include <vector>

namespace studio {

std::string pointerAppend(const std::string& base, std::string_view key)
{
    std::string out = base + "/";
    for (char c : key) {
        if (c == '~')
            out += "~0";
        else if (c == '/')
            out += "~1";
        else
            out += c;
    }
    return out;
}

std::string pointerAppend(const std::string& base, std::size_t index)
{
    return base + "/" + std::to_string(index);
}

namespace {

// An RFC 6901 array index: "0" or digits without a leading zero.
std::optional<std::size_t> arrayIndex(const std::string& token)
{
    if (token.empty() || (token.size() > 1 && token[0] == '0'))
        return std::nullopt;
    std::size_t index = 0;
    for (char c : token) {
        if (c < '0' || c > '9')
            return std::nullopt;
        if (index > (std::numeric_limits<std::size_t>::max() - std::size_t(c - '0')) / 10)
            return std::numeric_limits<std::size_t>::max();  // past the end of any array
        index = index * 10 + std::size_t(c - '0');
    }
    return index;
}

}  // namespace

// Walked by hand rather than by nlohmann's json_pointer, whose lookups throw
// on tokens such as "" in an array (fuzz_set: "/components//props=1").
std::optional<Problem> setAtPointer(nlohmann::ordered_json& doc, const std::string& pointer,
                                    const nlohmann::ordered_json& value)
{
    if (pointer.empty() || pointer.front() != '/')
        return Problem{Severity::Error, pointer, "a --set pointer must start with '/'"};
    std::vector<std::string> tokens;
    for (std::size_t at = 1;; ++at) {
        std::string token;
        for (; at < pointer.size() && pointer[at] != '/'; ++at) {
            if (pointer[at] != '~') {
                token += pointer[at];
                continue;
            }
            const char next = at + 1 < pointer.size() ? pointer[at + 1] : '\0';
            if (next != '0' && next != '1')
                return Problem{Severity::Error, pointer, "malformed pointer: '~' must be followed by 0 or 1"};
            token += next == '0' ? '~' : '/';
            ++at;
        }
        tokens.push_back(std::move(token));
        if (at >= pointer.size())
            break;
    }
    const std::string last = tokens.back();
    tokens.pop_back();
    const std::string parentText = pointer.substr(0, pointer.rfind('/'));
    nlohmann::ordered_json* parent = &doc;
    for (const std::string& token : tokens) {
        nlohmann::ordered_json* next = nullptr;
        if (parent->is_object()) {
            if (const auto it = parent->find(token); it != parent->end())
                next = &*it;
        } else if (parent->is_array()) {
            if (const auto index = arrayIndex(token); index && *index < parent->size())
                next = &(*parent)[*index];
        }
        if (!next)
            return Problem{Severity::Error, pointer,
                           "nothing at " + (parentText.empty() ? "/" : parentText) + " to set a value in"};
        parent = next;
    }
    if (parent->is_object()) {
        (*parent)[last] = value;
        return std::nullopt;
    }
    if (parent->is_array()) {
        const auto index = arrayIndex(last);
        if (!index)
            return Problem{Severity::Error, pointer, "'" + last + "' is not an array index"};
        if (*index >= parent->size())
            return Problem{Severity::Error, pointer,
                           "index " + last + " is past the end of an array of " + std::to_string(parent->size())};
        (*parent)[*index] = value;
        return std::nullopt;
    }
    return Problem{Severity::Error, pointer,
                   "the parent is a " + std::string(parent->type_name()) + ", not an object or array"};
}

nlohmann::ordered_json parseSetValue(const std::string& text)
{
    auto parsed = nlohmann::ordered_json::parse(text, nullptr, /*allow_exceptions=*/false);
    if (parsed.is_discarded())
        return text;
    return parsed;
}

}  // namespace studio
