#pragma once
// Number formatting shared by messages, the text tables of the CLI and the
// panels: one place decides how a count or a measured value reads.
#include <cstdint>
#include <string>
#include <string_view>

namespace studio {

std::string formatCount(std::int64_t n);      // 16384 -> "16,384"
std::string formatValue(double v, int significant = 6);  // 989.4 -> "989.4", 1e-7 -> "1e-07"
// For people, never in exponent notation: 1470 -> "1,470", 20.43 -> "20.4",
// 0.01234 -> "0.0123" (to `significant` digits, whole numbers in full).
std::string formatReadable(double v, int significant = 3);
// kW as "20.4 kW", or "1.47 MW" from 1,000 kW.
std::string formatPowerKw(double kw);
std::string inQuotes(std::string_view s);       // 'text'

}  // namespace studio
