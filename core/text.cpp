#include "core/text.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace studio {

namespace {

// `v` as formatReadable would print it: a unit is chosen on this, so that
// 0.9999 s reads "1.00 s", not "1,000 ms".
double roundedToSignificant(double v, int significant)
{
    if (v == 0 || !std::isfinite(v))
        return v;
    const double scale = std::pow(10.0, significant - 1 - int(std::floor(std::log10(std::fabs(v)))));
    return std::isfinite(scale) && std::isfinite(v * scale) ? std::round(v * scale) / scale : v;
}

}  // namespace

std::string formatCount(std::int64_t n)
{
    const bool negative = n < 0;
    // Unsigned magnitude so INT64_MIN does not overflow.
    const std::uint64_t magnitude =
        negative ? std::uint64_t{0} - static_cast<std::uint64_t>(n) : static_cast<std::uint64_t>(n);
    const std::string digits = std::to_string(magnitude);
    std::string out;
    const int len = static_cast<int>(digits.size());
    for (int i = 0; i < len; ++i) {
        out += digits[i];
        const int left = len - i - 1;
        if (left > 0 && left % 3 == 0)
            out += ',';
    }
    return negative ? "-" + out : out;
}

std::string formatValue(double v, int significant)
{
    if (std::isnan(v))
        return "NaN";
    if (std::isinf(v))
        return v > 0 ? "inf" : "-inf";
    if (v == std::floor(v) && std::fabs(v) < 1e15)
        return formatCount(static_cast<std::int64_t>(v));
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*g", significant, v);
    return buf;
}

std::string formatReadable(double v, int significant)
{
    if (!std::isfinite(v))
        return formatValue(v);
    const double mag = std::fabs(v);
    // Past 10^15 whole numbers are no longer exact, and past 2^63 llround
    // has no answer (a run of 10^19 days printed as -9,223,...,808).
    if (mag >= 1e15)
        return formatValue(v, significant);
    if (mag >= std::pow(10.0, significant - 1) || mag == 0)
        return formatCount(static_cast<std::int64_t>(std::llround(v)));
    const int decimals = std::max(0, significant - 1 - int(std::floor(std::log10(mag))));
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*f", std::min(decimals, 12), v);
    return buf;
}

std::string formatUsd(double v)
{
    const double mag = std::fabs(v);
    const auto in = [v](double unit, const char* suffix) { return "$" + formatReadable(v / unit) + suffix; };
    if (mag >= 1e9)
        return in(1e9, "B");
    if (mag >= 1e6)
        return in(1e6, "M");
    if (mag >= 1e4)
        return in(1e3, "k");
    return in(1, "");
}

std::string formatQuantity(double v, std::string_view unit)
{
    std::string text;
    if (std::isfinite(v) && std::fabs(v) >= 1e9) {
        int exponent = int(std::floor(std::log10(std::fabs(v))));
        double mantissa = v / std::pow(10.0, exponent);
        if (std::fabs(std::round(mantissa * 100) / 100) >= 10) {  // 9.999e9 reads 1e10, not 10e9
            mantissa /= 10;
            ++exponent;
        }
        char buf[64];
        std::snprintf(buf, sizeof buf, "%.3ge%d", mantissa, exponent);
        text = buf;
    } else {
        text = formatReadable(v);
    }
    return unit.empty() ? text : text + " " + std::string(unit);
}

std::string formatDuration(double hours)
{
    hours = roundedToSignificant(hours, 3);
    if (std::fabs(hours) < 1)
        return formatReadable(hours * 60) + " min";
    if (std::fabs(hours) > 48)
        return formatReadable(hours / 24) + " days";
    return formatReadable(hours) + " h";
}

std::string formatSeconds(double s)
{
    if (!std::isfinite(s))
        return formatValue(s) + " s";
    s = roundedToSignificant(s, 3);
    if (s != 0 && std::fabs(s) < 1e-3)
        return formatReadable(s * 1e6) + " us";
    if (std::fabs(s) < 1)
        return formatReadable(s * 1e3) + " ms";
    return formatReadable(s) + " s";
}

std::string formatPowerKw(double kw)
{
    return std::fabs(kw) >= 1000 ? formatReadable(kw / 1000) + " MW" : formatReadable(kw) + " kW";
}

std::string formatPercent(double fraction, bool sign)
{
    char buf[32];
    std::snprintf(buf, sizeof buf, sign ? "%+.1f%%" : "%.1f%%", fraction * 100);
    return buf;
}

std::string formatChange(double fraction)
{
    const double pct = 100 * std::fabs(fraction);
    if (pct <= 1e-7)
        return "0%";
    if (pct < 0.01)
        return "<0.01%";
    return (fraction > 0 ? "+" : "-") + formatReadable(pct, pct < 1 ? 2 : 3) + "%";
}

std::string inQuotes(std::string_view s)
{
    return "'" + std::string(s) + "'";
}

std::string alignedColumns(const std::vector<std::vector<std::string>>& rows,
                           const std::vector<std::size_t>& leftAligned, const std::vector<std::size_t>& rulesAfter,
                           std::string_view indent)
{
    auto chars = [](const std::string& t) {
        std::size_t n = 0;
        for (unsigned char ch : t)
            n += (ch & 0xC0) != 0x80;
        return n;
    };
    std::vector<std::size_t> width;
    for (const auto& row : rows) {
        width.resize(std::max(width.size(), row.size()), 0);
        for (std::size_t i = 0; i < row.size(); ++i)
            width[i] = std::max(width[i], chars(row[i]));
    }
    std::string s;
    const auto line = [&](const std::vector<std::string>& row) {
        s += indent;
        for (std::size_t i = 0; i < row.size(); ++i) {
            const bool last = i + 1 == row.size();
            const bool left = std::find(leftAligned.begin(), leftAligned.end(), i) != leftAligned.end();
            const std::string pad(left && last ? 0 : width[i] - chars(row[i]), ' ');  // no trailing blanks
            s += (left ? row[i] + pad : pad + row[i]) + (last ? "" : "  ");
        }
        while (!s.empty() && s.back() == ' ')  // an empty last cell, or an empty row's indent
            s.pop_back();
        s += "\n";
    };
    std::vector<std::string> rule;
    for (const std::size_t w : width)
        rule.push_back(std::string(w, '-'));
    for (std::size_t r = 0; r < rows.size(); ++r) {
        line(rows[r]);
        if (std::find(rulesAfter.begin(), rulesAfter.end(), r) != rulesAfter.end())
            line(rule);
    }
    return s;
}

std::string csvField(std::string_view text)
{
    if (text.find_first_of(",\"\n\r") == std::string_view::npos)
        return std::string(text);
    std::string out = "\"";
    for (const char c : text)
        out += c == '"' ? std::string("\"\"") : std::string(1, c);
    return out + "\"";
}

std::string csvLine(const std::vector<std::string>& fields)
{
    std::string line;
    for (std::size_t i = 0; i < fields.size(); ++i)
        line += (i ? "," : "") + csvField(fields[i]);
    return line + "\n";
}

}  // namespace studio
