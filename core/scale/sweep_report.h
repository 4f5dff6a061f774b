#pragma once
// A scale sweep as the command line prints it: JSON (the interface scripts
// read), a text table, or CSV of the points.
#include <string>

#include "core/design/design.h"
#include "core/scale/scale_sweep.h"

namespace studio {

Json sweepJson(const SweepResult& result);
std::string sweepText(const SweepResult& result);
std::string sweepCsv(const SweepResult& result);

// "512 of 576 GPUs used: no layout splits all" when the point's best
// layout leaves GPUs spare, else empty: the text, the charts' tips and the
// compare overlay say it in these words.
std::string spareGpusNote(const SweepPoint& p);

}  // namespace studio
