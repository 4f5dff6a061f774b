// Serving (core/serving): the seeds' decode and Little's-law figures, what
// fits beside the weights, how the step grows with the batch, the batch the
// latency targets allow, mixture-of-experts reads, and the errors that say
// why a workload cannot be served, each at its JSON pointer.
#include <QtTest>

#include <algorithm>
#include <cmath>

#include "core/design/model_presets.h"
#include "core/format/design_reader.h"
#include "core/format/design_validator.h"
#include "core/model/analysis.h"
#include "core/scale/scale_sweep.h"
#include "core/scale/sensitivity.h"
#include "core/scale/upgrades.h"
#include "core/search/layout_search.h"
#include "core/serving/closed_loop_replay.h"
#include "core/serving/replica.h"
#include "core/serving/serving.h"
#include "core/text.h"
#include "tests/test_support.h"

using namespace studio;

namespace {

// Llama 3 70B in BF16 on one DGX H100, tp 8 (tests/data/good).
Design seventyB()
{
    const DesignLoad l = loadDesignFile(
        test::sourcePath("tests/data/good/serving-70b-h100-node.cluster.json").toStdString(), Catalog::builtin());
    if (!l.ok())
        qFatal("the serving design does not load");
    return *l.design;
}

// A published model shape (core/design/model_presets).
ModelSpec model(const char* id)
{
    const ModelPreset* p = findModelPreset(id);
    if (!p)
        qFatal("no model preset %s", id);
    return p->model;
}

Serving serve(const Design& d, const Catalog& catalog = Catalog::builtin())
{
    if (hasErrors(validateDesign(d, catalog)))
        qFatal("the test design is not valid");
    return analyzeServing(d, catalog);
}

// Every kernel at the catalog's factors (--kernels none): the roofline the
// seed's formulas are.
Catalog withoutKernels()
{
    Catalog c = Catalog::builtin();
    c.clearKernels();
    return c;
}

}  // namespace

class TestServing : public QObject {
    Q_OBJECT

private slots:
    // Seed 002: single-stream decode of an 8B model in BF16 on one H100
    // reads 16.1 GB per token: about 208.6 tokens/s at the full 3.35 TB/s.
    // The model reproduces the seed's bound from the weights it holds, and
    // reads one row of the input embedding, a lookup, instead of all of it:
    // 1.05 GB less per token, 7% faster than the seed's bound.
    void seed002SingleStreamDecodeIsTheWeightReadRate()
    {
        Design d = seventyB();
        d.workload.model = model("llama3-8b");
        d.workload.parallelism.tp = 1;
        d.workload.serving->prompt_tokens = 1;
        d.workload.serving->output_tokens = 1;
        d.workload.serving->batch = 1;
        d.workload.serving->ttft_target_s.reset();
        d.workload.serving->tpot_target_s.reset();
        d.component("dgx.gpu")->props["hbm_efficiency"] = 1.0;  // the seed reads at the full bandwidth
        const Catalog roofline = withoutKernels();
        const Serving s = serve(d, roofline);
        QVERIFY(s.ok());
        QCOMPARE(s.gpusPerReplica, 1);
        QVERIFY(s.decode.bandwidthBound());
        QVERIFY(std::abs(s.weightsGbPerGpu - 16.06) < 0.01);
        const double seedBound = s.hbmTbPerS * 1e3 / s.weightsGbPerGpu;  // every weight read once per token
        QVERIFY2(std::abs(seedBound / 208.6 - 1) < 0.002, qPrintable(QString::number(seedBound)));
        const ModelSpec& m = d.workload.model;
        const double embedding = double(m.vocab) * double(m.hidden) * 2;  // the input embedding's bytes
        const double kv = 2.0 * 32 * 8 * 128 * 2 * 1.5;  // one token's KV cache at the average context of 1.5
        const double bytes = s.weightsGbPerGpu * 1e9 - embedding + double(m.hidden) * 2 + kv;
        QCOMPARE(s.decode.bytesPerGpu, bytes);
        QVERIFY2(std::abs(s.decode.tokensPerSPerUser / (s.hbmTbPerS * 1e12 / bytes) - 1) < 1e-12,
                 qPrintable(QString::number(s.decode.tokensPerSPerUser)));
        QVERIFY(s.decode.tokensPerSPerUser > 1.065 * seedBound && s.decode.tokensPerSPerUser < 1.075 * seedBound);
        // At the catalog's achievable share of the bandwidth, that share of it.
        d.component("dgx.gpu")->props.erase("hbm_efficiency");
        const Serving achievable = serve(d, roofline);
        QVERIFY(achievable.decode.tokensPerSPerUser < 0.75 * s.decode.tokensPerSPerUser);
    }

    // Seed 004: 8 x H100 cannot serve a 1-trillion-parameter dense model at
    // 33.33 tokens/s: the weights alone do not fit, in BF16 or FP8.
    void seed004OneTrillionDenseDoesNotFitEightH100()
    {
        Design d = seventyB();
        d.workload.model = model("megatron-1t");  // 1.008e12 parameters
        for (const char* precision : {"bf16", "fp8"}) {
            d.workload.serving->weight_precision = precision;
            const Serving s = serve(d);
            QVERIFY(!s.ok());
            QCOMPARE(s.errors.front().pointer, std::string("/workload/parallelism/tp"));
            // The H100's 80 GiB (85.9 GB) less TensorRT-LLM's own: a step's
            // activations 2 x 8,192 tokens x 25,600 x 5 (GPT at tp 8) = 2.10
            // GB, NCCL's 392 MiB and the runtime's 3.5 GiB: 6.27 GB.
            QVERIFY2(s.errors.front().message.find("more than the 79.6 GB TensorRT-LLM leaves them (85.9 GB of HBM "
                                                   "less 6.27 GB of activations, NCCL buffers and runtime)") !=
                         std::string::npos,
                     s.errors.front().message.c_str());
        }
    }

    // Little's law (seed 002): requests in flight = arrival rate x latency,
    // and a replica holds `batch` of them.
    void littlesLawSizesTheReplicas()
    {
        Design d = seventyB();
        const Serving s = serve(d);
        QVERIFY(s.ok());
        QCOMPARE(s.concurrentRequests, 10 * s.e2eS);
        QCOMPARE(s.e2eS, s.ttftS + 255 * s.decode.tpotS);
        QCOMPARE(s.replicasNeeded, std::int64_t(std::ceil(s.concurrentRequests / double(s.batch))));
        d.workload.serving->arrival_rate_per_s = 1000;
        const Serving busy = serve(d);
        QCOMPARE(busy.concurrentRequests, 100 * s.concurrentRequests);
        QVERIFY(busy.replicasNeeded > 1);
        QCOMPARE(busy.gpusNeeded, busy.replicasNeeded * 8);
    }

    // At the arrival rate the replicas hold what Little's law gives at the
    // latencies that load causes: the fewest users N with arrival per
    // replica x e2e(N) <= N, below the batch the replicas were sized at.
    void theLoadSettlesWhereLittlesLawHolds()
    {
        Design d = seventyB();
        const Serving s = serve(d);
        QVERIFY(s.ok() && s.arrivalRatePerS == 10);
        const ServingOperation& o = s.operation;
        QVERIFY(o.set());
        QCOMPARE(o.replicas, 1);
        QVERIFY(o.designHoldsLoad);
        QCOMPARE(o.arrivalPerReplica, 10.0);
        const std::int64_t n = o.at.batch;
        QVERIFY(n >= 1 && n < s.batch);
        QVERIFY(10 * o.at.e2eS <= double(n));  // N users keep up
        d.workload.serving->batch = n - 1;
        QVERIFY(10 * serve(d).decode.e2eS > double(n - 1));  // one fewer does not
        d.workload.serving->batch.reset();
        QCOMPARE(o.inFlightPerReplica, 10 * o.at.e2eS);
        QCOMPARE(o.tokensPerSPerGpu, 10.0 * 256 / 8);
        // A lighter load is served faster than the capacity's batch.
        QVERIFY(o.at.tpotS < s.decode.tpotS && o.at.ttftS <= s.ttftS);
        // A load the design cannot hold: the replicas it needs, said so.
        d.workload.serving->arrival_rate_per_s = 200;
        const Serving busy = serve(d);
        QVERIFY(busy.replicasNeeded > 1);
        QCOMPARE(busy.operation.replicas, busy.replicasNeeded);
        QVERIFY(!busy.operation.designHoldsLoad);
        QVERIFY(busy.operation.arrivalPerReplica * busy.operation.at.e2eS <= double(busy.operation.at.batch));
        // No arrival rate, no operation.
        d.workload.serving->arrival_rate_per_s.reset();
        QVERIFY(!serve(d).operation.set());
    }

    // The KV cache (2 x layers x kv_heads x head_dim x bytes per token)
    // fills the engine's budget: TensorRT-LLM's 0.9 of what the weights and
    // its own buffers leave of the H100's 80 GiB (85.9 GB; taken as 80 GB,
    // the cache was 10% short), vLLM's 0.9 of the whole less those, SGLang's
    // mem_fraction_static of the whole less the weights.
    void whatFitsBesideTheWeights()
    {
        Design d = seventyB();
        const Serving s = serve(d);
        QCOMPARE(s.kvBytesPerToken, 2.0 * 80 * 8 * 128 * 2);
        const double hbmGb = 80 * 1.073741824;
        // A step of 8,192 tokens x 8,192 wide x 5 (Llama at tp 8), NCCL's
        // 392 MiB over tp 8, the runtime's 3.5 GiB.
        const double ownGb = (2.0 * 8192 * 8192 * 5 + 392 * 1048576.0 + 3.5 * 1073741824) / 1e9;
        QCOMPARE(s.memory.engineOwn() / 1e9, ownGb);
        const double perSequenceGb = 1280 * s.kvBytesPerToken / 8 / 1e9;  // tp 8 splits the 8 KV heads
        const double freeGb = 0.9 * (hbmGb - s.weightsGbPerGpu - ownGb);
        QVERIFY(std::abs(s.memory.kvBudget / 1e9 - freeGb) < 1e-9);
        QCOMPARE(s.maxBatch, std::int64_t(std::floor(freeGb / perSequenceGb)));
        QVERIFY(s.memory.fractionSource.find("free_gpu_memory_fraction") != std::string::npos);
        // vLLM's share is of the whole: weights, activations and runtime within it.
        d.workload.serving->engine = "vllm";
        const Serving vllm = serve(d);
        QVERIFY(std::abs(vllm.memory.kvBudget / 1e9 - (0.9 * hbmGb - s.weightsGbPerGpu - ownGb)) < 1e-9);
        QCOMPARE(vllm.maxBatch,
                 std::min<std::int64_t>(
                     1024, std::int64_t(std::floor((0.9 * hbmGb - s.weightsGbPerGpu - ownGb) / perSequenceGb))));
        // SGLang 0.5.16 reserves 512 MB + 1.5 MB x 8,192 + 8 / 8 GiB + 2 MB x
        // 512 graph batches = 14,848 MiB of 81,920: a share of 0.819.
        d.workload.serving->engine = "sglang";
        const Serving sglang = serve(d);
        QCOMPARE(sglang.memory.fraction, 0.819);
        QCOMPARE(sglang.memory.engineOwn(), 0.0);
        QVERIFY(std::abs(sglang.memory.kvBudget / 1e9 - (0.819 * hbmGb - s.weightsGbPerGpu)) < 1e-9);
        // The design's own share replaces the engine's default.
        d.workload.serving->engine.reset();
        d.workload.serving->memory_fraction = 0.5;
        const Serving half = serve(d);
        QVERIFY(std::abs(half.memory.kvBudget / 1e9 - 0.5 * (hbmGb - s.weightsGbPerGpu - ownGb)) < 1e-9);
        QCOMPARE(half.memory.fractionSource, std::string("workload.serving.memory_fraction"));
        d.workload.serving->memory_fraction.reset();
        // FP8 KV cache holds twice the sequences (less the rounding), as
        // many as an engine that takes them all keeps in flight.
        d.workload.serving->kv_precision = "fp8";
        d.workload.serving->max_requests = 1'000'000;
        QVERIFY(std::abs(double(serve(d).maxBatch) / double(s.maxBatch) - 2) < 0.01);
        // TensorRT-LLM's default keeps at most 2,048 (BuildConfig.max_batch_size).
        d.workload.serving->max_requests.reset();
        QCOMPARE(serve(d).maxBatch, 2048);
        d.workload.serving->batch = 2049;
        QCOMPARE(
            serve(d).errors.front().message,
            std::string("a batch of 2,049 is more than the 2,048 requests the engine keeps in flight "
                        "(TensorRT-LLM BuildConfig.max_batch_size, 2,048): lower the batch or raise max_requests"));
        d.workload.serving->batch.reset();
        // A batch beyond it is refused at its pointer, with the numbers.
        d.workload.serving->kv_precision.reset();
        d.workload.serving->batch = s.maxBatch + 1;
        const Serving over = serve(d);
        QVERIFY(!over.ok());
        QCOMPARE(over.errors.front().pointer, std::string("/workload/serving/batch"));
        QVERIFY(over.errors.front().message.find("at most " + formatCount(s.maxBatch) + " sequences") !=
                std::string::npos);
    }

    // Batching trades each user's speed for the GPU's throughput: the step
    // grows, tokens/s per GPU rise, per user fall, and decode turns
    // compute-bound at the ridge.
    void theCurveTradesUsersForThroughput()
    {
        const Serving s = serve(seventyB());
        QVERIFY(s.curve.size() >= 8);
        QCOMPARE(s.curve.front().batch, 1);
        QCOMPARE(s.curve.back().batch, s.maxBatch);
        for (std::size_t i = 1; i < s.curve.size(); ++i) {
            QVERIFY(s.curve[i].tpotS > s.curve[i - 1].tpotS);
            QVERIFY(s.curve[i].tokensPerSPerGpu > s.curve[i - 1].tokensPerSPerGpu);
            QVERIFY(s.curve[i].tokensPerSPerUser < s.curve[i - 1].tokensPerSPerUser);
        }
        // Continuous batching: the batch's prompts are prefilled on the same
        // GPUs, and each of the B users finishes its output tokens in its
        // request's time: B x output / (TTFT + (output - 1) x TPOT).
        for (const DecodePoint& p : s.curve) {
            QVERIFY(p.prefillShare > 0 && p.prefillShare < 1);
            QCOMPARE(p.e2eS, p.ttftS + 255 * p.tpotS);
            QVERIFY(std::abs(p.tokensPerSPerReplica / (double(p.batch) * 256 / p.e2eS) - 1) < 1e-12);
            QVERIFY(p.tpotS >= p.stepS);  // the others' prompt chunks only lengthen a decode
        }
        QVERIFY(s.curve.front().bandwidthBound());
        QVERIFY(s.ridgeBatch > 1 && s.ridgeBatch <= s.maxBatch);
        // MFU of serving at batch 1 is tiny (seed 004: under 5%).
        QVERIFY(s.curve.front().mfu < 0.05);
    }

    // The engine's scheduler (docs/model.md section 19), hand-worked on the
    // 70B design (1,024-token prompts, 256 output tokens, TensorRT-LLM's
    // 8,192 tokens per step). 8 users: their prompts fill one step, so
    // they move in lockstep: the first token after that step, then decode
    // steps alone. 64 users: a cohort's prompts fill the budget less the
    // 56 decodes sharing the step, 8,136 tokens; every user's prompt once
    // takes 65,536 / 8,136 = 8.06 such steps, 7.06 of them during another
    // user's 255 decode steps; a new request waits for the step in flight.
    void theEngineServesUsersInCohorts()
    {
        Design d = seventyB();
        d.workload.serving->ttft_target_s.reset();
        d.workload.serving->tpot_target_s.reset();
        const Catalog roofline = withoutKernels();
        d.workload.serving->batch = 8;
        const Serving lockstep = serve(d, roofline);
        QVERIFY(lockstep.ok());
        QCOMPARE(lockstep.engine.stepTokens, 8192.0);
        const EngineRun& l = lockstep.decode.engine;
        QCOMPARE(l.prefillTokensPerMixStep, 8192.0);
        QCOMPARE(l.decodesPerMixStep, 0.0);
        QCOMPARE(l.mixStepsPerCycle, 1.0);
        QCOMPARE(l.arrivalWaitS, 0.0);
        QCOMPARE(lockstep.ttftS, l.mixStepS);
        QCOMPARE(lockstep.decode.tpotS, lockstep.decode.stepS);
        // One user: its prompt alone, the idle prefill.
        d.workload.serving->batch = 1;
        const Serving one = serve(d, roofline);
        QCOMPARE(one.ttftS, one.prefillS);
        QCOMPARE(one.decode.tpotS, one.decode.stepS);

        d.workload.serving->batch = 64;
        const Serving s = serve(d, roofline);
        const EngineRun& e = s.decode.engine;
        QCOMPARE(e.decodesPerMixStep, 56.0);
        QCOMPARE(e.prefillTokensPerMixStep, 8136.0);
        QCOMPARE(e.mixStepsPerCycle, 65536.0 / 8136);
        QCOMPARE(e.promptSteps, 1.0);
        QCOMPARE(e.decodeStepS, s.decode.stepS);
        QVERIFY(e.mixStepS > 5 * e.decodeStepS);  // 8,136 prompt tokens against 64 decodes
        const double others = 65536.0 / 8136 - 1;
        const double tpot = (others * e.mixStepS + (255 - others) * e.decodeStepS) / 255;
        QVERIFY(std::abs(s.decode.tpotS / tpot - 1) < 1e-12);
        QCOMPARE(e.arrivalWaitS, s.decode.tpotS);
        QVERIFY(std::abs(s.ttftS / (s.decode.tpotS + e.mixStepS) - 1) < 1e-12);
        QVERIFY(std::abs(s.decode.tokensPerSPerReplica / (64.0 * 256 / (s.ttftS + 255 * s.decode.tpotS)) - 1) < 1e-12);

        // A smaller budget: more, shorter mix steps; a prompt longer than it
        // takes several.
        d.workload.serving->step_tokens = 512;
        const Serving small = serve(d, roofline);
        QCOMPARE(small.engine.stepTokensSource, std::string("workload.serving.step_tokens"));
        QCOMPARE(small.decode.engine.prefillTokensPerMixStep, 512.0 - 63);
        QCOMPARE(small.decode.engine.promptSteps, std::ceil(1024.0 / 449));
    }

    // A benchmark's closed loop replayed step by step on the same engine
    // (core/serving/closed_loop_replay.h), worked by hand where the users
    // move in lockstep.
    void aClosedLoopReplaysStepByStep()
    {
        Design d = seventyB();  // 1,024-token prompts, 256 output tokens
        d.workload.serving->ttft_target_s.reset();
        d.workload.serving->tpot_target_s.reset();
        const Catalog roofline = withoutKernels();
        const auto near = [](double a, double b) { return std::abs(a / b - 1) < 1e-9; };
        const auto replayed = [&](std::int64_t batch, std::int64_t users, ArrivalStart start) {
            d.workload.serving->batch = batch;
            ReplayedLoop loop;
            Serving served;
            analyzeServing(d, roofline, [&](const Serving& s, const Replica& r) {
                served = s;
                loop = replayClosedLoop(r, batch, users, start, s.decode.e2eS);
            });
            return std::pair(served, loop);
        };
        // One user: its prompt on an idle engine, then its decode alone;
        // twenty requests measured after two to warm up.
        const auto [one, alone] = replayed(1, 1, ArrivalStart::Together);
        QVERIFY(one.ok());
        QCOMPARE(alone.requests, kReplayMeasuredRounds);
        QVERIFY(near(alone.ttftS, one.prefillS));
        QVERIFY(near(alone.tpotS, one.decode.stepS));
        // Eight users started together: their 8,192 prompt tokens fill one
        // step, they decode in lockstep and come back together, as the
        // steady state has it when one cohort is every user.
        const auto [eight, lockstep] = replayed(8, 8, ArrivalStart::Together);
        QCOMPARE(lockstep.requests, 8 * kReplayMeasuredRounds);
        QVERIFY(near(lockstep.ttftS, eight.ttftS));
        QVERIFY(near(lockstep.ttftS, eight.decode.engine.mixStepS));
        QVERIFY(near(lockstep.tpotS, eight.decode.stepS));
        // Sixteen users, eight slots: each half waits for the other's
        // whole request (its prompt's step and 255 decode steps), then its
        // own prompt's step.
        const auto [halves, waiting] = replayed(8, 16, ArrivalStart::Together);
        QVERIFY(near(waiting.ttftS, 2 * eight.decode.engine.mixStepS + 255 * eight.decode.stepS));
        // Sixty-four users: spread, a prompt shares its step with few
        // others; together, every prompt queues behind the rest.
        const auto [many, together] = replayed(64, 64, ArrivalStart::Together);
        const ReplayedLoop spread = replayed(64, 64, ArrivalStart::Spread).second;
        QVERIFY2(spread.ttftS > one.prefillS && spread.ttftS < together.ttftS,
                 qPrintable(QString("spread %1 s, together %2 s, one prompt alone %3 s")
                                .arg(spread.ttftS)
                                .arg(together.ttftS)
                                .arg(one.prefillS)));
        // The steady state's cohorts (one prompt step after the step in
        // flight) lie between the two ends.
        QVERIFY(spread.ttftS < many.ttftS && many.ttftS < together.ttftS);
        // A replay that would visit its users more than it may stops and
        // measures nothing (validation-report on a runs file of a million
        // users must not hang).
        d.workload.serving->batch = 64;
        bool visited = false;
        analyzeServing(d, roofline, [&](const Serving& s, const Replica& r) {
            visited = true;
            const ReplayedLoop cut = replayClosedLoop(r, 64, 64, ArrivalStart::Together, s.decode.e2eS, 64 * 100.0);
            QCOMPARE(cut.requests, 0);
            QCOMPARE(cut.ttftS, 0.0);
        });
        QVERIFY(visited);
        // The design's own band: its batch's users; none where one engine
        // is not what serves it (a disaggregated layout) or nothing is served.
        d.workload.serving->batch = 8;
        std::vector<double> done;  // a round of 8 requests each, spread then together
        const auto band = arrivalBand(d, roofline, nullptr, [&](double share) { done.push_back(share); });
        QVERIFY(band && near(band->togetherTtftS, lockstep.ttftS));
        QVERIFY(std::is_sorted(done.begin(), done.end()));
        QVERIFY(done.front() > 0 && done.front() <= 0.5 / double(kReplayWarmupRounds + kReplayMeasuredRounds));
        QVERIFY2(near(done.back(), 1.0), qPrintable(QString::number(done.back())));
        QCOMPARE(std::int64_t(done.size()), 2 * (kReplayWarmupRounds + kReplayMeasuredRounds));
        Design split = d;
        DisaggregatedSpec fourAndFour;
        fourAndFour.prefill.tp = fourAndFour.decode.tp = 4;
        split.workload.serving->disaggregated = fourAndFour;
        QVERIFY(serve(split, roofline).ok());
        QVERIFY(!arrivalBand(split, roofline));
        Design training = d;
        training.workload.kind = std::string(workloadKindName(WorkloadKind::Training));
        QVERIFY(!arrivalBand(training, roofline));
    }

    // Each engine's defaults, with their sources (core/serving/engine.cpp).
    void eachEngineHasItsDefaults()
    {
        const EngineLimits trt = engineDefaults("trtllm", 80, false);
        QCOMPARE(trt.stepTokens, 8192.0);
        QCOMPARE(trt.maxRequests, 2048);
        const EngineLimits vllm = engineDefaults("vllm", 80, false);  // 80 GiB
        QCOMPARE(vllm.stepTokens, 8192.0);
        QCOMPARE(vllm.maxRequests, 1024);
        const EngineLimits vllmA100 = engineDefaults("vllm", 80, true);
        QCOMPARE(vllmA100.stepTokens, 2048.0);
        QCOMPARE(vllmA100.maxRequests, 256);
        QCOMPARE(engineDefaults("vllm", 48, false).stepTokens, 2048.0);
        QCOMPARE(engineDefaults("sglang", 80, false).stepTokens, 8192.0);
        QCOMPARE(engineDefaults("sglang", 141, false).stepTokens, 8192.0);   // 141 GiB
        QCOMPARE(engineDefaults("sglang", 180, false).stepTokens, 16384.0);  // 180 GiB
        QCOMPARE(engineDefaults("sglang", 48, false).stepTokens, 4096.0);
        QCOMPARE(engineDefaults("sglang", 180, false).maxRequests, 0);
        for (const EngineLimits& e : {trt, vllm, engineDefaults("sglang", 80, false)})
            QVERIFY(!e.stepTokensSource.empty() && !e.maxRequestsSource.empty());
        // TensorRT-LLM's and vLLM's memory shares; SGLang works its own out.
        QCOMPARE(trt.memoryFraction, 0.9);
        QCOMPARE(vllm.memoryFraction, 0.9);
        QCOMPARE(engineDefaults("sglang", 80, false).memoryFraction, 0.0);
        // A design's engine is TensorRT-LLM's unless it names another.
        Design d = seventyB();
        QCOMPARE(serve(d).engine.engine, std::string("trtllm"));
        d.workload.serving->engine = "vllm";
        QCOMPARE(serve(d).engine.maxRequests, 1024);
    }

    // With no batch given, the largest that meets the per-token target.
    void theTargetsChooseTheBatch()
    {
        Design d = seventyB();
        const Serving s = serve(d);
        QVERIFY(s.meetsLatencyTargets);
        QVERIFY(s.decode.tpotS <= 0.05);
        d.workload.serving->batch = s.batch + 1;
        QVERIFY(serve(d).decode.tpotS > 0.05);
        QVERIFY(!serve(d).meetsLatencyTargets);
        // A target no batch meets says which and why.
        d.workload.serving->batch.reset();
        d.workload.serving->tpot_target_s = 0.001;
        const Serving fast = serve(d);
        QVERIFY(fast.ok());
        QCOMPARE(fast.batch, 1);
        QVERIFY(!fast.meetsLatencyTargets);
        QVERIFY2(fast.whyNotMet.find("the time-per-output-token target of 0.001 s is missed: even at batch 1") == 0,
                 fast.whyNotMet.c_str());
        d.workload.serving->tpot_target_s.reset();
        d.workload.serving->ttft_target_s = 0.001;
        QVERIFY(serve(d).whyNotMet.find("the time-to-first-token target") == 0);
    }

    // A mixture of experts reads at batch 1 only the experts its token picks.
    void expertsReadOnlyWhatTheBatchPicks()
    {
        Design d = seventyB();
        d.workload.model = model("llama3-8b");
        d.workload.serving->batch = 1;
        d.workload.serving->tpot_target_s.reset();
        const Serving dense = serve(d);
        d.workload.model.experts = 8;
        d.workload.model.experts_per_token = 2;
        const Serving moe = serve(d);
        QVERIFY(moe.ok());
        // Eight times the expert weights held, a quarter of them read.
        QVERIFY(moe.weightsGbPerGpu > 5 * dense.weightsGbPerGpu);
        QVERIFY(moe.decode.memoryS < 0.5 * moe.weightsGbPerGpu * 1e9 / (3.35e12 * 0.7));
        d.workload.serving->batch = 64;
        QVERIFY(serve(d).decode.memoryS > 2 * moe.decode.memoryS);  // nearly every expert by then
    }

    // A replica spreads its experts over its own GPUs: training's rule that
    // expert groups come out of the data-parallel ranks does not apply.
    void expertsSpreadOverTheReplica()
    {
        Design d = seventyB();
        d.workload.model = model("mixtral-8x7b");
        d.workload.parallelism.ep = 8;
        const Serving spread = serve(d);
        QVERIFY2(spread.ok(), spread.ok() ? "" : spread.errors.front().message.c_str());
        QCOMPARE(spread.ep, std::int64_t(8));
        d.workload.parallelism.ep = 1;
        // The same weights per GPU; the all-to-alls add to the step.
        QCOMPARE(serve(d).weightsGbPerGpu, spread.weightsGbPerGpu);
        QVERIFY(spread.decode.commS > serve(d).decode.commS);
        d.workload.parallelism.ep = 3;  // does not divide the replica's 8 GPUs
        d.workload.model.experts = 6;
        d.workload.model.experts_per_token = 2;
        const Serving s = analyzeServing(d, Catalog::builtin());
        QCOMPARE(s.errors.front().pointer, std::string("/workload/parallelism/ep"));
        QCOMPARE(s.errors.front().message,
                 std::string("expert parallelism of 3 does not divide the replica's tp x pp = 8 GPUs"));
    }

    // The roofline of a serving design places its decode steps by batch, at
    // the weights' precision: intensity rises with the batch until the
    // step is compute-bound.
    void theRooflinePlacesTheDecodeStepsByBatch()
    {
        Design d = seventyB();
        d.workload.serving->weight_precision = "fp8";
        const Serving s = serve(d);
        const Analysis a = analyzeDesign(d, Catalog::builtin());
        QCOMPARE(a.hardware.gpu.trainingPrecision, std::string("fp8"));
        QCOMPARE(a.roofline.peakTflops, s.peakTflops);
        QCOMPARE(a.roofline.points.size(), s.curve.size());
        for (std::size_t i = 0; i < s.curve.size(); ++i) {
            const RooflinePoint& p = a.roofline.points[i];
            const DecodePoint& c = s.curve[i];
            QCOMPARE(p.kind, std::string_view("decode"));
            QCOMPARE(p.name, "decode, batch " + formatCount(c.batch));
            QCOMPARE(p.intensity, c.flopsPerGpu / c.bytesPerGpu);
            QCOMPARE(p.achievedTflops, c.flopsPerGpu / c.stepS / 1e12);
            QVERIFY(p.achievedTflops <= p.attainableTflops);
            QCOMPARE(p.bound, std::string(c.bandwidthBound() ? "memory" : "compute"));
            if (i > 0)
                QVERIFY(p.intensity > a.roofline.points[i - 1].intensity);
        }
        // Batch 1 of a dense model in FP8: about 2 FLOPs per 1-byte weight.
        QVERIFY(a.roofline.points.front().intensity > 1.9 && a.roofline.points.front().intensity < 2.1);
    }

    // The design's analysis carries its serving analysis, worked out from
    // the index, hardware and power it already has: the same figures as
    // analysing the serving on its own, with and without kernel profiles.
    void theDesignsAnalysisCarriesTheSameServing()
    {
        for (const char* preset : {"serving-llama3-70b-dgx-h100", "serving-grok1-moe-gb200-nvl72"}) {
            const DesignLoad l = loadDesignFile(
                test::sourcePath(QString("presets/%1.cluster.json").arg(preset)).toStdString(), Catalog::builtin());
            QVERIFY2(l.ok(), preset);
            const Serving alone = analyzeServing(*l.design, *l.catalog);
            const Analysis a = analyzeDesign(*l.design, *l.catalog);
            QVERIFY(a.served && a.served->ok() && alone.ok());
            QCOMPARE(a.served->batch, alone.batch);
            QCOMPARE(a.served->ridgeBatch, alone.ridgeBatch);
            QCOMPARE(a.served->ttftS, alone.ttftS);
            QCOMPARE(a.served->decode.tpotS, alone.decode.tpotS);
            QCOMPARE(a.served->kwhPerMillionTokens, alone.kwhPerMillionTokens);
            QCOMPARE(a.served->kernelSource, alone.kernelSource);
            QCOMPARE(a.served->curve.size(), alone.curve.size());
            for (std::size_t i = 0; i < alone.curve.size(); ++i)
                QCOMPARE(a.served->curve[i].tokensPerSPerGpu, alone.curve[i].tokensPerSPerGpu);
        }
        // A training design has none.
        const DesignLoad training = loadDesignFile(
            test::sourcePath("presets/dgx-h100-superpod-4su.cluster.json").toStdString(), Catalog::builtin());
        QVERIFY(training.ok());
        QVERIFY(!analyzeDesign(*training.design, *training.catalog).served);
    }

    void whatCannotBeServedSaysWhere()
    {
        Design d = seventyB();
        d.workload.serving->weight_precision = "fp4";
        Serving s = serve(d);
        QCOMPARE(s.errors.front().pointer, std::string("/workload/serving/weight_precision"));
        QVERIFY(s.errors.front().message.find("has no fp4 peak") != std::string::npos);
        d.workload.serving->weight_precision.reset();
        d.workload.parallelism.tp = 16;
        s = serve(d);
        QCOMPARE(s.errors.front().pointer, std::string("/workload/parallelism/tp"));
        QVERIFY(s.errors.front().message.find("more than the 8 the design has") != std::string::npos);
        d.workload.parallelism.tp = 3;  // does not divide 64 heads
        QVERIFY(!serve(d).ok());
        d.workload.kind.reset();
        d.workload.training.global_batch = 8;
        d.workload.training.tokens = 1e9;
        QCOMPARE(analyzeServing(d, Catalog::builtin()).errors.front().code, std::string("not_serving"));
    }

    // A GPU whose peak in the weights' precision is 0 (the catalog's "none";
    // -0 reads as 0) has no such peak: serving refuses it as it refuses a
    // GPU the catalog gives none, instead of serving at 0 FLOP/s into
    // infinite prompts and a NaN prefill share (fuzz finding 16). Training
    // falls back to the bf16 peak with its warning.
    void aPeakOfZeroIsNoPeak()
    {
        for (const double zero : {0.0, -0.0}) {
            Design d = seventyB();
            d.workload.serving->weight_precision = "fp8";
            for (Component& c : d.components)
                if (c.part == "gpu.h100-sxm")
                    c.props["fp8_tflops"] = zero;
            const Serving s = serve(d);
            QVERIFY(!s.ok());
            QCOMPARE(s.errors.front().pointer, std::string("/workload/serving/weight_precision"));
            QCOMPARE(s.errors.front().code, std::string("precision_unsupported"));
            QVERIFY(s.errors.front().message.find("has no fp8 peak") != std::string::npos);

            d.workload.kind.reset();
            d.workload.training.global_batch = 8;
            d.workload.training.tokens = 1e9;
            d.workload.training.precision = "fp8";
            const Analysis a = analyzeDesign(d, Catalog::builtin());
            QCOMPARE(a.hardware.gpu.trainingPrecision, std::string("bf16"));
            QVERIFY(a.hardware.gpu.trainingPeakTflops.value > 0);
            QVERIFY(std::isfinite(a.step.stepS));
            QVERIFY(std::any_of(a.warnings.begin(), a.warnings.end(),
                                [](const Problem& p) { return p.code == "precision_unsupported"; }));
        }
    }

    // The training analyses of a serving design (the step, the sweep, the
    // search, the tornado, the upgrades) say so, once, and raise no training
    // warnings.
    void aServingDesignHasNoTrainingRun()
    {
        const Design d = seventyB();
        QCOMPARE(sweepScale(d, Catalog::builtin()).error,
                 std::string("the workload is serving: the scale sweep sizes a training run"));
        QCOMPARE(searchLayouts(d, Catalog::builtin(), {}).error,
                 std::string("the workload is serving: the layout search lays out a training run"));
        QVERIFY(analyzeSensitivity(d, Catalog::builtin()).error.find("the workload is serving") != std::string::npos);
        QVERIFY(analyzeUpgrades(d, Catalog::builtin()).error.find("the workload is serving") != std::string::npos);
        const Analysis a = analyzeDesign(seventyB(), Catalog::builtin());
        QVERIFY(!a.runnable());
        QCOMPARE(a.notRunnable.front().code, std::string("serving_workload"));
        for (const Problem& p : a.warnings)
            QVERIFY2(p.pointer.rfind("/workload/training", 0) != 0, p.message.c_str());
    }
};

QTEST_APPLESS_MAIN(TestServing)
#include "tst_serving.moc"
