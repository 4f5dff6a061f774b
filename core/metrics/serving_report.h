#pragma once
// A serving analysis as `metrics` prints it: the `serving` object (the
// interface scripts read; docs/model.md section 19 defines each key).
#include "core/design/design.h"
#include "core/metrics/explanations.h"
#include "core/serving/closed_loop_replay.h"
#include "core/serving/serving.h"

namespace studio {

// Only for a serving analysis without errors.
Json servingJson(const Serving& serving);

// How each `serving.<key>` figure is made: its formula and the inputs it
// used, with where each comes from (the same explanations the training
// figures have). Only for a serving analysis without errors.
std::vector<ExplainedMetric> explainServing(const Serving& serving);

// A serving design's metrics gain the `serving` object, or, when it cannot
// be served, `unavailable.serving` saying why; a training design's are left
// as they are. Returns the serving analysis (with errors for a training
// design) so a caller can report them.
Serving addServingMetrics(Json& metrics, const Design& design, const Catalog& catalog);

// The first token as the users' requests line up (closed_loop_replay.h's
// arrivalBand, replayed apart as it takes up to seconds): in the served
// TTFT's explanation, `explain["serving.ttft_s"].arrival_band`.
void addArrivalBand(Json& metrics, const ArrivalBand& band);

}  // namespace studio
