#include "core/import/yaml_subset.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <optional>
#include <regex>
#include <stdexcept>

namespace studio {
namespace {

struct Line {
    int number = 0;    // 1-based, for messages
    int indent = 0;    // leading spaces
    std::string text;  // after the indent, trailing comment and spaces removed
    std::string raw;   // as written, for block scalars
};

struct Refused : std::runtime_error {
    Refused(int line, const std::string& why) : std::runtime_error("line " + std::to_string(line) + ": " + why) {}
};

// The text before an unquoted " #" (or a # at the start).
std::string withoutComment(const std::string& s)
{
    char quote = 0;
    for (std::size_t i = 0; i < s.size(); ++i) {
        const char c = s[i];
        if (quote) {
            if (c == quote)
                quote = 0;
            else if (c == '\\' && quote == '"')
                ++i;
        } else if (c == '"' || c == '\'') {
            if (i == 0 || s[i - 1] == ' ' || s[i - 1] == ':' || s[i - 1] == '-')
                quote = c;
        } else if (c == '#' && (i == 0 || s[i - 1] == ' ')) {
            return s.substr(0, i);
        }
    }
    return s;
}

std::string trimRight(std::string s)
{
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r'))
        s.pop_back();
    return s;
}

Json scalar(const std::string& s, int line)
{
    if (s.empty() || s == "~" || s == "null" || s == "Null" || s == "NULL")
        return nullptr;
    const char first = s.front();
    if (first == '[' || first == '{')
        throw Refused(line, "flow collections ([...], {...}) are not read: write the list or mapping in block style");
    if (first == '&' || first == '*')
        throw Refused(line, "anchors and aliases are not read: write the value out");
    if (first == '!')
        throw Refused(line, "tags are not read");
    if (first == '|' || first == '>')
        throw Refused(line, "a block scalar must be a mapping's value");
    if (first == '"') {
        if (s.size() < 2 || s.back() != '"')
            throw Refused(line, "a double-quoted string must end on its line");
        std::string out;
        for (std::size_t i = 1; i + 1 < s.size(); ++i) {
            if (s[i] != '\\') {
                out += s[i];
                continue;
            }
            const char e = s[++i];
            out += e == 'n' ? '\n' : e == 't' ? '\t' : e;
        }
        return out;
    }
    if (first == '\'') {
        if (s.size() < 2 || s.back() != '\'')
            throw Refused(line, "a single-quoted string must end on its line");
        std::string out;
        for (std::size_t i = 1; i + 1 < s.size(); ++i) {
            out += s[i];
            if (s[i] == '\'' && s[i + 1] == '\'')
                ++i;
        }
        return out;
    }
    if (s.find(": ") != std::string::npos || s.back() == ':')
        throw Refused(line, "a plain value holds ': ': quote it");
    if (s == "true" || s == "True" || s == "TRUE")
        return true;
    if (s == "false" || s == "False" || s == "FALSE")
        return false;
    static const std::regex integer("[-+]?[0-9]+");
    static const std::regex real("[-+]?([0-9]+\\.?[0-9]*|\\.[0-9]+)([eE][-+]?[0-9]+)?");
    if (std::regex_match(s, integer)) {
        long long v = 0;
        const auto* begin = s.data() + (s.front() == '+' ? 1 : 0);
        if (std::from_chars(begin, s.data() + s.size(), v).ec == std::errc())
            return v;
    }
    if (std::regex_match(s, real)) {
        const double v = std::strtod(s.c_str(), nullptr);
        if (std::isfinite(v))
            return v;
    }
    return s;
}

// Where a mapping line's key ends (its ':' followed by a space or the end),
// or npos when the line is not "key: value".
std::size_t keyEnd(const std::string& s)
{
    if (s.empty())
        return std::string::npos;
    if (s.front() == '"' || s.front() == '\'') {
        const std::size_t close = s.find(s.front(), 1);
        if (close != std::string::npos && close + 1 < s.size() && s[close + 1] == ':' &&
            (close + 2 == s.size() || s[close + 2] == ' '))
            return close + 1;
        return std::string::npos;
    }
    for (std::size_t i = 0; i < s.size(); ++i)
        if (s[i] == ':' && (i + 1 == s.size() || s[i + 1] == ' '))
            return i;
    return std::string::npos;
}

class Parser {
public:
    explicit Parser(std::vector<Line> lines) : lines_(std::move(lines)) {}

    Json document()
    {
        skip();
        if (at_ >= lines_.size())
            return nullptr;
        Json j = node(lines_[at_].indent);
        skip();
        if (at_ < lines_.size())
            throw Refused(lines_[at_].number, "indented less than the document's first line, or not a key");
        return j;
    }

private:
    std::vector<Line> lines_;
    std::size_t at_ = 0;
    int depth_ = 0;
    // A device type nests three deep; this bounds the recursion a hostile
    // file could drive, far above any real one.
    static constexpr int kMaxDepth = 64;

    static bool isItem(const std::string& t) { return t == "-" || t.rfind("- ", 0) == 0; }

    // Past blank and comment-only lines: they belong to no node (block
    // scalars read their own from the raw text).
    void skip()
    {
        while (at_ < lines_.size() && lines_[at_].text.empty())
            ++at_;
    }

    Json node(int indent)
    {
        if (++depth_ > kMaxDepth)
            throw Refused(lines_[at_].number, "nested deeper than " + std::to_string(kMaxDepth) + " levels");
        struct Leave {
            int& depth;
            ~Leave() { --depth; }
        } leave{depth_};
        const Line& l = lines_[at_];
        if (isItem(l.text))
            return sequence(indent);
        if (keyEnd(l.text) != std::string::npos)
            return mapping(indent);
        ++at_;
        const Json value = scalar(l.text, l.number);
        skip();
        if (at_ < lines_.size() && lines_[at_].indent > indent)
            throw Refused(lines_[at_].number,
                          "a plain value runs over several lines: quote it or use a block "
                          "scalar (|)");
        return value;
    }

    Json sequence(int indent)
    {
        Json out = Json::array();
        for (skip(); at_ < lines_.size() && lines_[at_].indent == indent && isItem(lines_[at_].text); skip()) {
            Line& l = lines_[at_];
            const std::string rest = l.text.size() > 2 ? l.text.substr(2) : "";
            std::size_t pad = 0;
            while (pad < rest.size() && rest[pad] == ' ')
                ++pad;
            const std::string item = rest.substr(pad);
            if (item.empty()) {
                ++at_;
                skip();
                if (at_ < lines_.size() && lines_[at_].indent > indent)
                    out.push_back(node(lines_[at_].indent));
                else
                    out.push_back(nullptr);
            } else {
                // "- key: value" opens a mapping whose keys line up with
                // "key"; "- - x" a nested list: read the rest as that node.
                l.indent = indent + 2 + int(pad);
                l.text = item;
                out.push_back(node(l.indent));
            }
        }
        if (at_ < lines_.size() && lines_[at_].indent > indent)
            throw Refused(lines_[at_].number, "indented more than the list it follows");
        return out;
    }

    Json mapping(int indent)
    {
        Json out = Json::object();
        for (skip(); at_ < lines_.size() && lines_[at_].indent == indent && !isItem(lines_[at_].text); skip()) {
            const Line& l = lines_[at_];
            const std::size_t end = keyEnd(l.text);
            if (end == std::string::npos)
                throw Refused(l.number, "expected \"key: value\"");
            Json keyJson = scalar(l.text.substr(0, end), l.number);
            const std::string key = keyJson.is_string() ? keyJson.get<std::string>() : keyJson.dump();
            if (out.contains(key))
                throw Refused(l.number, "the key '" + key + "' appears twice");
            std::string rest = l.text.substr(end + 1);
            while (!rest.empty() && rest.front() == ' ')
                rest.erase(rest.begin());
            const int number = l.number;
            ++at_;
            if (!rest.empty() && (rest.front() == '|' || rest.front() == '>')) {
                out[key] = block(rest, indent, number);
                continue;
            }
            skip();
            if (!rest.empty()) {
                out[key] = scalar(rest, number);
                if (at_ < lines_.size() && lines_[at_].indent > indent)
                    throw Refused(lines_[at_].number,
                                  "a plain value runs over several lines: quote it or use a "
                                  "block scalar (|)");
            } else if (at_ < lines_.size() && lines_[at_].indent > indent) {
                out[key] = node(lines_[at_].indent);
            } else if (at_ < lines_.size() && lines_[at_].indent == indent && isItem(lines_[at_].text)) {
                out[key] = sequence(indent);  // a list at its key's indent
            } else {
                out[key] = nullptr;
            }
        }
        if (at_ < lines_.size() && lines_[at_].indent > indent)
            throw Refused(lines_[at_].number, "indented more than the keys around it");
        return out;
    }

    // A | (literal) or > (folded) scalar: the lines indented past its key,
    // blank ones kept, the trailing newline kept, stripped (-) or all (+).
    Json block(const std::string& header, int indent, int number)
    {
        const bool folded = header.front() == '>';
        const std::string chomp = header.substr(1);
        if (!chomp.empty() && chomp != "-" && chomp != "+")
            throw Refused(number, "a block scalar's header is |, |-, |+, >, >- or >+");
        std::vector<std::string> body;
        int blockIndent = -1;
        while (at_ < lines_.size()) {
            const Line& l = lines_[at_];
            const std::string raw = trimRight(l.raw);
            const std::size_t first = raw.find_first_not_of(' ');
            if (first == std::string::npos) {
                body.emplace_back();
                ++at_;
                continue;
            }
            if (int(first) <= indent)
                break;
            if (blockIndent < 0)
                blockIndent = int(first);
            if (int(first) < blockIndent)
                throw Refused(l.number, "a block scalar's lines must keep its first line's indent");
            body.push_back(raw.substr(std::size_t(blockIndent)));
            ++at_;
        }
        while (!body.empty() && body.back().empty())
            body.pop_back();
        std::string out;
        for (std::size_t i = 0; i < body.size(); ++i) {
            // Folded: lines join with a space, and each blank line between
            // them is one line break.
            if (i > 0 && !folded)
                out += "\n";
            else if (i > 0)
                out += body[i].empty() ? "\n" : (body[i - 1].empty() ? "" : " ");
            out += body[i];
        }
        if (chomp != "-" && !out.empty())
            out += "\n";
        return out;
    }
};

}  // namespace

YamlDocuments readYamlSubset(std::string_view text)
{
    YamlDocuments out;
    std::vector<std::vector<Line>> docs(1);
    int number = 0;
    std::size_t start = 0;
    bool sawSeparator = false;
    while (start <= text.size()) {
        std::size_t end = text.find('\n', start);
        if (end == std::string_view::npos)
            end = text.size();
        std::string raw(text.substr(start, end - start));
        start = end + 1;
        ++number;
        if (const std::size_t ws = raw.find_first_not_of(" \t");
            ws != std::string::npos && raw.substr(0, ws).find('\t') != std::string::npos) {
            out.error = "line " + std::to_string(number) + ": a tab in the indent (YAML indents with spaces)";
            return out;
        }
        Line l;
        l.number = number;
        l.raw = raw;
        const std::size_t first = raw.find_first_not_of(' ');
        l.indent = first == std::string::npos ? 0 : int(first);
        l.text = first == std::string::npos ? "" : trimRight(withoutComment(raw.substr(first)));
        if (l.indent == 0 && (l.text == "---" || l.text == "...")) {
            if (l.text == "---" && (sawSeparator || !docs.back().empty()))
                docs.emplace_back();
            sawSeparator = true;
            continue;
        }
        if (l.indent == 0 && l.text.rfind('%', 0) == 0) {
            out.error = "line " + std::to_string(number) + ": directives (%...) are not read";
            return out;
        }
        // Blank and comment lines count only inside a block scalar; the
        // parser tells them apart by the empty text.
        docs.back().push_back(std::move(l));
        if (end == text.size())
            break;
    }
    try {
        for (auto& lines : docs) {
            if (std::all_of(lines.begin(), lines.end(), [](const Line& l) { return l.text.empty(); }))
                continue;
            Parser p(std::move(lines));
            out.documents.push_back(p.document());
        }
    } catch (const Refused& e) {
        out.documents.clear();
        out.error = e.what();
    }
    return out;
}

}  // namespace studio
