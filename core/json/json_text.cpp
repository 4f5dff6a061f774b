#include "core/json/json_text.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>

#include "core/text.h"

namespace studio {
namespace {

// nlohmann reports a byte offset; people look for lines and columns.
std::string lineAndColumn(std::string_view text, std::size_t byte)
{
    std::size_t line = 1, column = 1;
    const std::size_t end = std::min(byte, text.size());
    for (std::size_t i = 0; i < end; ++i) {
        if (text[i] == '\n') {
            ++line;
            column = 1;
        } else {
            ++column;
        }
    }
    return "line " + formatCount(static_cast<std::int64_t>(line)) + ", column " +
        formatCount(static_cast<std::int64_t>(column));
}

// The part of nlohmann's message after "syntax error while parsing ...: ".
std::string parseReason(const std::string& what)
{
    const auto pos = what.find(" - ");
    std::string reason = pos == std::string::npos ? what : what.substr(pos + 3);
    const auto semicolon = reason.find("; expected");
    if (semicolon != std::string::npos)
        reason = reason.substr(0, semicolon);
    // The "last read" snippet can hold the offending raw bytes: show bytes
    // outside printable ASCII as \xNN so the message itself stays valid text.
    std::string printable;
    for (unsigned char c : reason) {
        if (c >= 0x20 && c < 0x7f) {
            printable += static_cast<char>(c);
        } else {
            char buf[8];
            std::snprintf(buf, sizeof buf, "\\x%02X", c);
            printable += buf;
        }
    }
    return printable;
}

}  // namespace

ParsedJson parseJsonText(std::string_view text)
{
    ParsedJson result;
    if (text.size() > kMaxJsonBytes) {
        result.error = Problem{Severity::Error, "",
                               "file is " + formatCount(static_cast<std::int64_t>(text.size() >> 20)) +
                                   " MB, above the limit of " +
                                   formatCount(static_cast<std::int64_t>(kMaxJsonBytes >> 20)) + " MB"};
        return result;
    }
    bool tooDeep = false;
    // The callback sees every value with its depth: refuse absurd nesting
    // before it can cost memory or stack in later recursive walks.
    auto depthGuard = [&tooDeep](int depth, nlohmann::ordered_json::parse_event_t, nlohmann::ordered_json&) {
        if (depth > kMaxJsonDepth)
            tooDeep = true;
        return !tooDeep;
    };
    try {
        result.doc = nlohmann::ordered_json::parse(text.begin(), text.end(), depthGuard);
    } catch (const nlohmann::json::parse_error& e) {
        result.error = Problem{Severity::Error, "",
                               "not valid JSON: " + parseReason(e.what()) + " at " +
                                   lineAndColumn(text, e.byte == 0 ? 0 : e.byte - 1)};
        return result;
    } catch (const nlohmann::json::exception& e) {
        // e.g. out_of_range 406 "number overflow parsing '1e999'": drop the
        // library's "[json.exception...] " prefix, keep what it says.
        std::string what = e.what();
        if (const auto close = what.find("] "); what.rfind("[json.exception", 0) == 0 && close != std::string::npos)
            what = what.substr(close + 2);
        result.error = Problem{Severity::Error, "", "not valid JSON: " + what + " (numbers must be finite)"};
        return result;
    }
    if (tooDeep) {
        result.doc = nullptr;
        result.error = Problem{Severity::Error, "",
                               "nested deeper than " + std::to_string(kMaxJsonDepth) +
                                   " levels; a design or catalog never needs that"};
    }
    return result;
}

FileText readTextFile(const std::string& path)
{
    FileText out;
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        out.error = std::string("cannot open: ") + std::strerror(errno);
        return out;
    }
    in.seekg(0, std::ios::end);
    const auto size = in.tellg();
    if (size < 0) {
        out.error = "cannot read the file's size";
        return out;
    }
    if (static_cast<std::size_t>(size) > kMaxJsonBytes) {
        out.error = "file is " + formatCount(static_cast<std::int64_t>(size) >> 20) + " MB, above the limit of " +
            formatCount(static_cast<std::int64_t>(kMaxJsonBytes >> 20)) + " MB";
        return out;
    }
    in.seekg(0);
    out.text.resize(static_cast<std::size_t>(size));
    in.read(out.text.data(), size);
    if (!in)
        out.error = "read failed";
    return out;
}

}  // namespace studio
