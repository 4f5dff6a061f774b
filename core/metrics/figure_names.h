#pragma once
// The one display name of each headline figure, by its metrics key. The
// status bar, the analysis panels' figure tables, the compare view, both
// PDF reports and the `compare` text output all name a figure from here, so
// one name never means two figures: the failure-free days of compute and
// the wall-clock days with failures, restarts and checkpoints are told apart
// everywhere (tst_explanations fails if two keys share a name).
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace studio {

// Every named figure: (metrics key, display name), in no particular order.
const std::vector<std::pair<std::string_view, std::string_view>>& figureNames();

// The display name of `key` ("reliability.wall_days" -> "Days to train, wall
// clock"). A key without one is a bug: the program stops (core/contract.h).
std::string figureName(std::string_view key);

}  // namespace studio
