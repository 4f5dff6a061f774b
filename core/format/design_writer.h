#pragma once
// Writing *.cluster.json in canonical form: fixed key order, optional inputs
// only when set, unknown keys after the known ones in the order read. So
// load -> save -> load -> save gives the same bytes, and diffs stay small.
#include <string>

#include "core/design/design.h"

namespace studio {

Json designToJson(const Design& design);
struct Fragment;
Json fragmentToJson(const Fragment& fragment);
std::string writeDesignText(const Design& design);  // 2-space indent, trailing newline

}  // namespace studio
