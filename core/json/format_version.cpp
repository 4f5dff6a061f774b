#include "core/json/format_version.h"

#include <charconv>

#include "core/json/json_pointer.h"
#include "core/text.h"

namespace studio {

std::optional<FormatVersion> parseFormatVersion(const std::string& text)
{
    FormatVersion v;
    const char* begin = text.data();
    const char* end = begin + text.size();
    auto [p1, e1] = std::from_chars(begin, end, v.major);
    if (e1 != std::errc() || p1 == end || *p1 != '.')
        return std::nullopt;
    auto [p2, e2] = std::from_chars(p1 + 1, end, v.minor);
    if (e2 != std::errc() || p2 != end || v.major < 0 || v.minor < 0)
        return std::nullopt;
    return v;
}

std::string toString(FormatVersion v)
{
    return std::to_string(v.major) + "." + std::to_string(v.minor);
}

std::optional<FormatVersion> checkFormatVersion(JsonReader& r, const Json& doc, const std::string& pointer,
                                                FormatVersion current, bool required)
{
    const auto text = r.string(doc, pointer, "format_version", required);
    if (!text)
        return std::nullopt;
    const std::string ptr = pointerAppend(pointer, "format_version");
    const auto v = parseFormatVersion(*text);
    if (!v) {
        r.error(ptr, "must look like \"1.0\" (major.minor), got " + inQuotes(*text));
        return std::nullopt;
    }
    if (v->major > current.major) {
        r.error(ptr,
                "format " + *text + " is newer than this Cluster Studio reads (" + toString(current) +
                    "); update Cluster Studio to open it");
        return std::nullopt;
    }
    if (v->major == current.major && v->minor > current.minor)
        r.warning(ptr,
                  "written in format " + *text + ", newer than this Cluster Studio's " + toString(current) +
                      "; fields it does not know are kept unchanged on save");
    return v;
}

}  // namespace studio
