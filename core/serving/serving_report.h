#pragma once
// A serving analysis as `metrics` prints it: the `serving` object (the
// interface scripts read; docs/model.md section 19 defines each key).
#include "core/design/design.h"
#include "core/serving/serving.h"

namespace studio {

// Only for a serving analysis without errors.
Json servingJson(const Serving& serving);

}  // namespace studio
