#include "core/format/json_pointer.h"

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

std::optional<Problem> setAtPointer(nlohmann::ordered_json& doc, const std::string& pointer,
                                    const nlohmann::ordered_json& value)
{
    if (pointer.empty() || pointer.front() != '/')
        return Problem{Severity::Error, pointer, "a --set pointer must start with '/'"};
    nlohmann::ordered_json::json_pointer ptr;
    try {
        ptr = nlohmann::ordered_json::json_pointer(pointer);
    } catch (const nlohmann::json::exception& e) {
        return Problem{Severity::Error, pointer, std::string("malformed pointer: ") + e.what()};
    }
    const auto parentPtr = ptr.parent_pointer();
    const std::string last = ptr.back();
    if (!doc.contains(parentPtr))
        return Problem{Severity::Error, pointer,
                       "nothing at " + (parentPtr.to_string().empty() ? "/" : parentPtr.to_string()) +
                           " to set a value in"};
    auto& parent = doc.at(parentPtr);
    if (parent.is_object()) {
        parent[last] = value;
        return std::nullopt;
    }
    if (parent.is_array()) {
        std::size_t index = 0;
        try {
            std::size_t used = 0;
            index = std::stoul(last, &used);
            if (used != last.size())
                throw std::invalid_argument(last);
        } catch (const std::exception&) {
            return Problem{Severity::Error, pointer, "'" + last + "' is not an array index"};
        }
        if (index >= parent.size())
            return Problem{Severity::Error, pointer,
                           "index " + last + " is past the end of an array of " + std::to_string(parent.size())};
        parent[index] = value;
        return std::nullopt;
    }
    return Problem{Severity::Error, pointer,
                   "the parent is a " + std::string(parent.type_name()) + ", not an object or array"};
}

nlohmann::ordered_json parseSetValue(const std::string& text)
{
    auto parsed = nlohmann::ordered_json::parse(text, nullptr, /*allow_exceptions=*/false);
    if (parsed.is_discarded())
        return text;
    return parsed;
}

}  // namespace studio
