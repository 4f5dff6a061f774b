#pragma once
// A benchmark's closed loop replayed step by step on a replica's engine
// (docs/model.md section 19, "The arrival pattern"). The serving analysis
// prices the steady state in closed form: users whose prompts come in
// cohorts that fill a step. How a benchmark's users line up moves the first
// token far more than that: users that start together queue their prompts
// behind each other's, users whose requests end at different times do
// not. This replays the two ends, every step timed as the analysis times
// it, to bound what the first token can be on the same engine. A replay
// takes milliseconds, too slow for every recompute and search candidate:
// it stands beside the analysis, in validation-report
// (core/metrics/serving_samples.cpp) and, off the GUI thread, the Serving
// panel's Time to first token (widgets/serving/arrival_band_service.h).
#include <atomic>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>

namespace studio {

class Catalog;
struct Design;
struct Replica;
struct Serving;

enum class ArrivalStart {
    Together,  // every user's first request sent at once
    Spread,    // the users' first requests spread evenly over one request's time
};

struct ReplayedLoop {
    double ttftS = 0, tpotS = 0;  // means over the measured requests
    std::int64_t requests = 0;    // measured
};

// How many requests a benchmark run issues per user: AIConfigurator's
// benchmark (src/aiconfigurator/generator/config/backend_templates/benchmark/
// bench_run.sh.j2 at 095f58a: aiperf with --warmup-request-count 2 x
// concurrency and --num-requests 20 x concurrency) warms up on two rounds
// and measures the next twenty.
inline constexpr std::int64_t kReplayWarmupRounds = 2, kReplayMeasuredRounds = 20;

// A replay visits every user at every step it takes: past this many such
// visits (a second or so on one core; AIConfigurator's points and the
// serving presets take a hundredth of it) it stops and measures nothing,
// so a runs file or a design of a million users or tokens cannot hang
// validation-report or the studio's replay.
inline constexpr double kReplayMaxVisits = 4e8;

// `users` clients, each sending its next request when the last ends, to an
// engine that keeps at most `slots` of them in flight (the rest wait for a
// slot in the order they came). Each step runs every decode in flight and
// as many prompt tokens as the engine's budget leaves, first come first
// served, a prompt in chunks where it does not fit; a request that comes
// while a step runs waits for the next. `requestS` is how long one request
// takes in the steady state (its TTFT + (output - 1) x TPOT), over which
// Spread lays out the first requests. `requests` is 0 where the replay
// stopped at `maxVisits` or on `cancel`. `progress` (0..1, the share of the
// run's requests done) is called once a round.
using ReplayProgress = std::function<void(double done)>;
ReplayedLoop replayClosedLoop(const Replica& replica, std::int64_t slots, std::int64_t users, ArrivalStart start,
                              double requestS, double maxVisits = kReplayMaxVisits,
                              const std::atomic<bool>* cancel = nullptr, const ReplayProgress& progress = {});

// The first token at the two ends of the arrival pattern: a served
// replica's engine with `users` clients, replayed started spread and
// together. None where either replay stopped short.
struct ArrivalBand {
    double spreadTtftS = 0, togetherTtftS = 0;
};
std::optional<ArrivalBand> replayArrivals(const Serving& served, const Replica& replica, std::int64_t users,
                                          const std::atomic<bool>* cancel = nullptr,
                                          const ReplayProgress& progress = {});

// The band in words: "As the users' requests line up: 216 ms spread
// evenly, 1.2 s sent together (...)", with the replay's rounds and where
// docs/model.md explains it.
std::string arrivalBandText(const ArrivalBand& band);

// The same for a design's own serving, its batch's users: none for a
// disaggregated layout (the replay runs one engine), a design that cannot
// be served, or a cancelled replay. The studio runs it off the GUI thread
// (widgets/serving/arrival_band_service.h).
std::optional<ArrivalBand> arrivalBand(const Design& design, const Catalog& catalog,
                                       const std::atomic<bool>* cancel = nullptr, const ReplayProgress& progress = {});

}  // namespace studio
