#pragma once
// A scale sweep as the command line prints it: JSON (the interface scripts
// read), a text table, or CSV of the points.
#include <string>
#include <vector>

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
// "fewer tokens/s than 61,440 GPUs: no layout splits these as well" where a
// smaller size's best layout gives more (SweepPoint::slowerThanGpus), else
// empty.
std::string slowerThanNote(const SweepPoint& p);
// What the text table's and the review's Notes say of point `i`: this
// design, a tier added, from where it runs under one sequence per GPU or
// over the site's budget, the cheapest and the fastest run, GPUs left
// spare, a smaller size that gives more tokens/s, or why no layout runs.
std::vector<std::string> sweepNotes(const SweepResult& result, std::size_t i);

}  // namespace studio
