#pragma once
// Number formatting shared by messages, the text tables of the CLI and the
// panels: one place decides how a count or a measured value reads.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace studio {

std::string formatCount(std::int64_t n);                 // 16384 -> "16,384"
std::string formatValue(double v, int significant = 6);  // 989.4 -> "989.4", 1e-7 -> "1e-07"
// For people, never in exponent notation: 1470 -> "1,470", 20.43 -> "20.4",
// 0.01234 -> "0.0123" (to `significant` digits, whole numbers in full).
std::string formatReadable(double v, int significant = 3);
// Dollars for people, to 3 significant digits: "$2.39", "$1,894", "$31.3k",
// "$65.6M", "$1.2B".
std::string formatUsd(double v);
// A measured quantity with its unit, for tooltips and tables: readable to 3
// significant digits, and "1.23e18" from a billion up (FLOP counts, bytes).
std::string formatQuantity(double v, std::string_view unit);
// Hours as a person reads them: "45 min" below an hour, "3.1 h", and
// "12.5 days" from two days up.
std::string formatDuration(double hours);
// kW as "20.4 kW", or "1.47 MW" from 1,000 kW.
std::string formatPowerKw(double kw);
// 0.000922 -> "922 us", 0.0216 -> "21.6 ms", 2.5 -> "2.50 s": a latency in
// the unit that reads.
std::string formatSeconds(double s);
// A share as a percentage to one decimal: 0.0312 -> "+3.1%" (signed, for an
// error whose direction matters) or "3.1%".
std::string formatPercent(double fraction, bool sign = true);
// A relative change in percent, to hundredths at most: 0.1 -> "+10.0%",
// -0.00524 -> "-0.52%", 7e-6 -> "<0.01%", 0 -> "0%" (a change of 1e-6
// printed as "+0.000722%" wrapped in a narrow column).
std::string formatChange(double fraction);
std::string inQuotes(std::string_view s);  // 'text'
// Rows as aligned columns two spaces apart, widths in characters (UTF-8
// aware: layouts are written with two-byte middle dots): the columns in
// `leftAligned` (text) to the left, the rest (figures) to the right. One
// line per row, each after `indent`, no trailing blanks; after each row
// index in `rulesAfter` a rule of dashes as wide as each column. Every text
// table of the command line is drawn here.
std::string alignedColumns(const std::vector<std::vector<std::string>>& rows,
                           const std::vector<std::size_t>& leftAligned, const std::vector<std::size_t>& rulesAfter = {},
                           std::string_view indent = "");

// A CSV field (RFC 4180): as it is, or in double quotes (quotes doubled)
// when it holds a comma, a quote or a line break. A line of them, ended.
std::string csvField(std::string_view text);
std::string csvLine(const std::vector<std::string>& fields);

}  // namespace studio
