#include "core/serving/closed_loop_replay.h"

#include <algorithm>
#include <cmath>
#include <deque>
#include <limits>
#include <unordered_map>
#include <vector>

#include "core/serving/replica.h"
#include "core/text.h"

namespace studio {

ReplayedLoop replayClosedLoop(const Replica& replica, std::int64_t slots, std::int64_t users, ArrivalStart start,
                              double requestS, double maxVisits, const std::atomic<bool>* cancel,
                              const ReplayProgress& progress)
{
    ReplayedLoop out;
    if (users < 1 || slots < 1)
        return out;
    const std::int64_t prompt = std::max<std::int64_t>(1, replica.prompt);
    const std::int64_t output = std::max<std::int64_t>(1, replica.output);
    const std::int64_t budget = std::max<std::int64_t>(1, std::int64_t(replica.engineStepTokens));
    // A step's time depends on its decodes and prompt tokens alone.
    std::unordered_map<std::int64_t, double> stepTimes;
    const auto stepS = [&](std::int64_t decodes, std::int64_t promptTokens) {
        const std::int64_t key = decodes * (budget + 1) + promptTokens;
        const auto [it, fresh] = stepTimes.try_emplace(key, 0.0);
        if (fresh)
            it->second = replica.stepS(double(decodes), double(promptTokens));
        return it->second;
    };

    enum class State { Coming, Waiting, Prefilling, Decoding };
    struct Request {
        State state = State::Coming;
        std::int64_t number = 0;  // in the order the benchmark issued it
        double arrivesS = 0, firstTokenS = 0;
        std::int64_t promptLeft = 0, outputLeft = 0;
    };
    std::vector<Request> user(static_cast<std::size_t>(users));
    std::int64_t issued = 0;
    const auto issue = [&](Request& r, double atS) { r = Request{State::Coming, issued++, atS, 0, prompt, 0}; };
    const double gapS = start == ArrivalStart::Spread ? std::max(0.0, requestS) / double(users) : 0;
    for (std::int64_t i = 0; i < users; ++i)
        issue(user[std::size_t(i)], double(i) * gapS);

    const std::int64_t warmup = kReplayWarmupRounds * users;
    const std::int64_t last = warmup + kReplayMeasuredRounds * users;
    double ttftSum = 0, tpotSum = 0;
    std::int64_t finished = 0;
    const auto finish = [&](Request& r, double atS) {
        if (progress && ++finished % users == 0)
            progress(std::min(1.0, double(finished) / double(last)));
        if (r.number >= warmup && r.number < last) {
            ttftSum += r.firstTokenS - r.arrivesS;
            tpotSum += output > 1 ? (atS - r.firstTokenS) / double(output - 1) : 0;
            ++out.requests;
        }
        issue(r, atS);  // the user's next request, which the next step cannot take
    };

    std::deque<std::size_t> queue;  // waiting for a slot or a prompt chunk, in order of arrival
    std::int64_t inFlight = 0;
    double nowS = 0;
    double visits = 0;
    while (out.requests < last - warmup) {
        visits += double(users);
        if (visits > maxVisits || (cancel && cancel->load(std::memory_order_relaxed)))
            return {};
        // Requests that came before this step begins join the queue in the
        // order they came.
        std::vector<std::size_t> came;
        double nextArrivalS = std::numeric_limits<double>::infinity();
        for (std::size_t i = 0; i < user.size(); ++i)
            if (user[i].state == State::Coming) {
                if (user[i].arrivesS <= nowS)
                    came.push_back(i);
                else
                    nextArrivalS = std::min(nextArrivalS, user[i].arrivesS);
            }
        std::sort(came.begin(), came.end(), [&](std::size_t a, std::size_t b) {
            return std::pair(user[a].arrivesS, user[a].number) < std::pair(user[b].arrivesS, user[b].number);
        });
        for (std::size_t i : came) {
            user[i].state = State::Waiting;
            queue.push_back(i);
        }
        std::int64_t decodes = 0, fewestLeft = std::numeric_limits<std::int64_t>::max();
        for (const Request& r : user)
            if (r.state == State::Decoding) {
                ++decodes;
                fewestLeft = std::min(fewestLeft, r.outputLeft);
            }
        // The prompt tokens this step: first come, first served, within
        // the budget the decodes leave and the slots.
        std::vector<std::pair<std::size_t, std::int64_t>> chunks;
        std::int64_t room = budget - decodes, promptTokens = 0;
        for (std::size_t i : queue) {
            if (room <= 0)
                break;
            Request& r = user[i];
            if (r.state == State::Waiting) {
                if (inFlight >= slots)
                    break;
                r.state = State::Prefilling;
                ++inFlight;
            }
            const std::int64_t chunk = std::min(room, r.promptLeft);
            chunks.emplace_back(i, chunk);
            room -= chunk;
            promptTokens += chunk;
        }
        if (decodes == 0 && promptTokens == 0) {
            if (!std::isfinite(nextArrivalS))
                break;            // nothing in flight and nobody to come: cannot happen in a closed loop
            nowS = nextArrivalS;  // idle until the next request comes
            continue;
        }
        const double stepTimeS = stepS(decodes, promptTokens);
        // Steps of decodes alone are alike until a decode finishes (what
        // waits, waits for a slot or for room beside the decodes) or a
        // request comes: take them at once.
        std::int64_t steps = 1;
        if (promptTokens == 0) {
            steps = fewestLeft;
            if (std::isfinite(nextArrivalS) && stepTimeS > 0)  // in double: the quotient can pass 2^63
                steps = std::int64_t(std::clamp(std::floor((nextArrivalS - nowS) / stepTimeS) + 1, 1.0, double(steps)));
        }
        nowS += double(steps) * stepTimeS;
        for (const auto& [i, chunk] : chunks)
            user[i].promptLeft -= chunk;
        for (Request& r : user) {
            if (r.state == State::Decoding) {
                r.outputLeft -= steps;
                if (r.outputLeft <= 0) {
                    --inFlight;
                    finish(r, nowS);
                }
            } else if (r.state == State::Prefilling && r.promptLeft <= 0) {
                r.firstTokenS = nowS;  // the step that ends the prompt gives the first token
                r.outputLeft = output - 1;
                r.state = State::Decoding;
                if (r.outputLeft == 0) {
                    --inFlight;
                    finish(r, nowS);
                }
            }
        }
        std::erase_if(queue, [&](std::size_t i) {
            return user[i].state != State::Waiting && user[i].state != State::Prefilling;
        });
        // A request issued at this step's end comes as the next step has begun.
        for (Request& r : user)
            if (r.state == State::Coming && r.arrivesS == nowS)
                r.arrivesS = std::nextafter(nowS, std::numeric_limits<double>::infinity());
    }
    if (out.requests > 0) {
        out.ttftS = ttftSum / double(out.requests);
        out.tpotS = tpotSum / double(out.requests);
    }
    return out;
}

std::optional<ArrivalBand> replayArrivals(const Serving& served, const Replica& replica, std::int64_t users,
                                          const std::atomic<bool>* cancel, const ReplayProgress& progress)
{
    const auto ttft = [&](ArrivalStart start) -> std::optional<double> {
        // The two replays, one half of the progress each.
        const double before = start == ArrivalStart::Spread ? 0.0 : 0.5;
        const ReplayProgress half =
            progress ? ReplayProgress([&](double done) { progress(before + done / 2); }) : ReplayProgress();
        const ReplayedLoop loop =
            replayClosedLoop(replica, served.batch, users, start, served.decode.e2eS, kReplayMaxVisits, cancel, half);
        return loop.requests > 0 ? std::optional(loop.ttftS) : std::nullopt;
    };
    const auto spread = ttft(ArrivalStart::Spread);
    const auto together = spread ? ttft(ArrivalStart::Together) : std::nullopt;
    if (!together)
        return std::nullopt;
    return ArrivalBand{*spread, *together};
}

std::optional<ArrivalBand> arrivalBand(const Design& design, const Catalog& catalog, const std::atomic<bool>* cancel,
                                       const ReplayProgress& progress)
{
    std::optional<ArrivalBand> band;
    analyzeServing(design, catalog, [&](const Serving& served, const Replica& replica) {
        if (served.ok())
            band = replayArrivals(served, replica, served.batch, cancel, progress);
    });
    return band;
}

std::string arrivalBandText(const ArrivalBand& band)
{
    return "As the users' requests line up: " + formatSeconds(band.spreadTtftS) + " spread evenly, " +
        formatSeconds(band.togetherTtftS) + " sent together (this engine replayed step by step, " +
        std::to_string(kReplayMeasuredRounds) + " rounds after " + std::to_string(kReplayWarmupRounds) +
        " to warm up: docs/model.md section 19, \"The arrival pattern\")";
}

}  // namespace studio
