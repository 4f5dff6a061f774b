#pragma once
// The core speaks UTF-8 std::string; the views speak QString.
#include <QString>

#include <string_view>

namespace studio {

inline QString q(std::string_view s)
{
    return QString::fromUtf8(s.data(), qsizetype(s.size()));
}

}  // namespace studio
