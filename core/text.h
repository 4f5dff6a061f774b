#pragma once
// Number formatting shared by messages, the text tables of the CLI and the
// panels: one place decides how a count or a measured value reads.
#include <cstdint>
#include <string>
#include <string_view>

namespace studio {

std::string formatCount(std::int64_t n);      // 16384 -> "16,384"
std::string formatValue(double v, int significant = 6);  // 989.4 -> "989.4", 1e-7 -> "1e-07"
std::string inQuotes(std::string_view s);       // 'text'

}  // namespace studio
