#include "core/analysis/step_time.h"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "core/analysis/collectives.h"
#include "core/text.h"

namespace studio {
namespace {

constexpr double kBytes = 2;               // 16-bit activations
constexpr double kGradBytes = 4;           // fp32 main gradients (Megatron default for mixed precision)
constexpr double kOptimizerBytes = 18;     // model-notes: Adam streams ~16-18 bytes per parameter
constexpr double kOptimizerFlops = 10;     // Adam update FLOPs per parameter
constexpr double kFlashBackward = 2.5;     // FlashAttention backward: ~2.5x the forward FLOPs (it recomputes scores)
constexpr double kCausalShare = 0.5;       // a fused causal kernel skips the masked half

double logInterp(const std::pair<double, double>* pts, std::size_t n, double x)
{
    if (x <= pts[0].first)
        return pts[0].second;
    for (std::size_t i = 1; i < n; ++i)
        if (x <= pts[i].first) {
            const double f = (std::log(x) - std::log(pts[i - 1].first)) / (std::log(pts[i].first) - std::log(pts[i - 1].first));
            return pts[i - 1].second + f * (pts[i].second - pts[i - 1].second);
        }
    return pts[n - 1].second;
}

}  // namespace

double gemmSizeFactor(double flops)
{
    static const std::pair<double, double> pts[] = {
        {1e7, 0.1 / 0.95}, {1e9, 0.6 / 0.95}, {16e9, 0.9 / 0.95}, {128e9, 1.0}};
    return logInterp(pts, 4, flops);
}

double memorySizeFactor(double bytes)
{
    static const std::pair<double, double> pts[] = {{1e4, 0.3 / 0.9}, {1e6, 0.6 / 0.9}, {1e7, 0.75 / 0.9}, {1e8, 1.0}};
    return logInterp(pts, 4, bytes);
}

namespace {

struct Machine {
    double peak;       // FLOP/s for GEMMs at the training precision
    double peak16;     // FLOP/s at 16-bit (attention)
    double gemmEff, attnEff;
    double hbm;        // bytes/s
    double hbmEff;

    double memS(double bytes) const { return bytes <= 0 ? 0 : bytes / (hbm * hbmEff * memorySizeFactor(bytes)); }
    // A GEMM on the roofline: the slower of its compute and its memory traffic.
    double gemmS(double flops, double bytes) const
    {
        if (flops <= 0)
            return 0;
        return std::max(flops / (peak * gemmEff * gemmSizeFactor(flops)), memS(bytes));
    }
};

// Time of one layer's compute on one GPU for one micro-batch.
struct LayerCost {
    double gemmF = 0, gemmB = 0;
    double attnF = 0, attnB = 0;
    double memF = 0, memB = 0;
    double recompute = 0;
    double modelFlops = 0, recomputeFlops = 0;  // forward FLOPs on this GPU
};

}  // namespace

StepTime modelStepTime(const HardwareProfile& hw, const Hierarchy& hier, const WorkloadShape& w, double stragglerCv,
                       bool explain)
{
    StepTime st;
    const auto& g = hw.gpu;
    if (hw.gpus <= 0 || !g.component || g.trainingPeakTflops.value <= 0 || g.hbmTbPerS.value <= 0)
        return st;

    Machine mc;
    mc.peak = g.trainingPeakTflops.value * 1e12;
    mc.peak16 = g.bf16PeakTflops * 1e12;
    mc.gemmEff = g.gemmEfficiency.value;
    mc.attnEff = g.attentionEfficiency.value;
    mc.hbm = g.hbmTbPerS.value * 1e12;
    mc.hbmEff = g.hbmEfficiency.value;

    const double b = double(w.microBatch), s = double(w.seq), h = double(w.hidden), f = double(w.ffn);
    const double t = double(w.tp), c = double(w.cp);
    const double heads = double(w.heads), kv = w.kvDim, dh = w.headDim, V = double(w.vocab);
    const double T = b * s / c;                      // tokens of a micro-batch on this GPU
    const double r = w.sequenceParallel ? T / t : T;  // tokens in the norm/dropout regions
    const bool dropout = w.dropout > 0;
    const bool full = w.fullRecompute, selective = w.selectiveRecompute;

    LayerCost L;
    std::vector<OpPoint> ops;
    ops.reserve(24);
    // A GEMM M x K x N (times `batch`): backward is a data-gradient and a
    // weight-gradient GEMM, the latter accumulating into fp32 main grads.
    // Attention's batched GEMMs multiply activations by activations: no
    // weights, so no weight gradient to accumulate.
    auto gemm = [&](std::string_view name, double M, double K, double N, double batch, bool attention,
                    bool recomputed) {
        const double flops = 2 * M * K * N * batch;
        const double bytes = (M * K + K * N + M * N) * batch * kBytes;
        const double fw = mc.gemmS(flops, bytes);
        const double accumulate = attention ? 0 : K * N * batch * 2 * kGradBytes;  // read + write fp32 main grads
        const double bw = mc.gemmS(flops, bytes) + mc.gemmS(flops, bytes + accumulate);
        (attention ? L.attnF : L.gemmF) += fw;
        (attention ? L.attnB : L.gemmB) += bw;
        L.modelFlops += flops;
        if (recomputed) {
            L.recompute += fw;
            L.recomputeFlops += flops;
        }
        ops.push_back({name, attention ? "attention" : "gemm", flops, bytes, fw});
    };
    // A memory-bound kernel over n elements: passes = elements read + written.
    auto elementwise = [&](std::string_view name, double n, double fwPasses, double bwPasses, bool recomputed) {
        const double fw = mc.memS(n * fwPasses * kBytes), bw = mc.memS(n * bwPasses * kBytes);
        L.memF += fw;
        L.memB += bw;
        if (recomputed)
            L.recompute += fw;
        ops.push_back({name, "memory", n * 4 /* a few FLOPs per element */, n * fwPasses * kBytes, fw});
    };

    // --- one transformer block, forward (Korthikanti et al. 2022, Fig. 2/4).
    elementwise("attention norm", r * h, 2, 3, full);
    gemm("QKV projection", T, h, (h + 2 * kv) / t, 1, false, full);
    const double attnHeads = b * heads / t;
    if (w.flash) {
        const double flops = 4 * attnHeads * (s / c) * s * dh;  // full count, as model FLOPs are counted
        const double executed = flops * kCausalShare;
        const double fw = executed / (mc.peak16 * mc.attnEff * gemmSizeFactor(executed));
        L.attnF += fw;
        L.attnB += kFlashBackward * fw;
        L.modelFlops += flops;
        if (full) {
            L.recompute += fw;
            L.recomputeFlops += flops;
        }
        // The roofline point shows what the kernel executes; it reads Q, K, V
        // and writes O once.
        ops.push_back({"attention (fused)", "attention", executed, 2 * T * (h + kv) / t * kBytes, fw});
    } else {
        const double scores = attnHeads * (s / c) * s;
        gemm("attention scores QK^T", s / c, dh, s, attnHeads, true, full || selective);
        elementwise("softmax", scores, 2, 3, full || selective);
        if (dropout)
            elementwise("attention dropout", scores, 2.5, 2.5, full || selective);
        gemm("attention over values", s / c, s, dh, attnHeads, true, full || selective);
    }
    gemm("attention output projection", T, h / t, h, 1, false, full);
    if (dropout)
        elementwise("dropout", r * h, 2.5, 2.5, full);
    elementwise("residual add", r * h, 3, 2, full);
    elementwise("MLP norm", r * h, 2, 3, full);
    const double k = w.moe() ? double(w.expertsPerToken) : 1;
    if (w.moe()) {
        gemm("router", T, h, double(w.experts), 1, false, full);
        elementwise("router softmax", T * double(w.experts), 2, 3, full);
    }
    // Expert GEMMs run per expert: smaller GEMMs on each one's share of tokens.
    const double expertsHere = w.moe() ? std::max(1.0, double(w.experts) / double(w.ep)) : 1;
    const double tokensPerExpert = w.moe() ? T * k / expertsHere : T;
    const double upWidth = (w.swiglu ? 2 : 1) * f / t;
    gemm(w.swiglu ? "MLP gate and up projection" : "MLP up projection", tokensPerExpert, h, upWidth, expertsHere, false,
         full);
    if (w.swiglu)
        elementwise("SwiGLU", T * k * f / t, 3, 5, full);
    else
        elementwise("GeLU", T * k * f / t, 2, 3, full);
    gemm("MLP down projection", tokensPerExpert, f / t, h, expertsHere, false, full);
    if (dropout)
        elementwise("dropout", r * h, 2.5, 2.5, full);
    elementwise("residual add", r * h, 3, 2, full);

    // --- communication per layer per micro-batch.
    const Tier& tpTier = hier.tierForSpan(w.tp);
    const double tpBuffer = T * h * kBytes;
    double tpF = 0, tpB = 0, tpRe = 0;
    if (w.tp > 1) {
        if (w.sequenceParallel) {
            // all-gather + reduce-scatter twice forward; their conjugates
            // backward, plus the all-gathers redone for weight gradients.
            const double one = ringGatherSeconds(tpBuffer, w.tp, tpTier.collectiveBytesPerS, tpTier.alphaS);
            tpF = 4 * one;
            tpB = 6 * one;
            tpRe = full ? 4 * one : 0;
        } else {
            const double one = ringAllReduceSeconds(tpBuffer, w.tp, tpTier.collectiveBytesPerS, tpTier.alphaS);
            tpF = 2 * one;
            tpB = 2 * one;
            tpRe = full ? 2 * one : 0;
        }
    }
    double epF = 0, epB = 0;
    if (w.moe() && w.ep > 1) {
        const Tier& epTier = hier.tierForSpan(w.tp * w.cp * w.ep);
        const double one = allToAllSeconds(T * k * h * kBytes / t, w.ep, epTier.collectiveBytesPerS, epTier.alphaS);
        epF = 2 * one;
        epB = 2 * one + (full ? 2 * one : 0);
    }
    double cpF = 0, cpB = 0;
    if (w.cp > 1) {
        // Ring attention: K and V blocks travel c-1 steps, hidden behind the
        // attention compute where it is long enough.
        const Tier& cpTier = hier.tierForSpan(w.tp * w.cp);
        const double kvBytes = 2 * b * (s / c) * kv / t * kBytes;
        const double ring = double(w.cp - 1) * sendSeconds(kvBytes, cpTier.collectiveBytesPerS, cpTier.alphaS);
        cpF = std::max(0.0, ring - L.attnF);
        cpB = std::max(0.0, 2 * ring - L.attnB) + (full ? cpF : 0);
    }

    // --- the slowest stage: its layers plus the output layer (last stage).
    const double layers = w.layersPerStage;
    const double logitsFlops = 2 * T * h * V / t;
    const double logitsBytes = (T * h + h * V / t + T * V / t) * kBytes;
    const double outF = mc.gemmS(logitsFlops, logitsBytes) + mc.memS(T * V / t * 3 * kBytes);
    const double outB = 2 * mc.gemmS(logitsFlops, logitsBytes + h * V / t * 2 * kGradBytes) + mc.memS(T * V / t * 2 * kBytes);
    ops.push_back({"output layer (logits)", "gemm", logitsFlops, logitsBytes, mc.gemmS(logitsFlops, logitsBytes)});
    // The first stage's embedding is lighter than the output layer, so the
    // last stage is the slowest.

    double ppPerSlot = 0;
    if (w.pp > 1) {
        const Tier& ppTier = hier.tierForSpan(std::min<std::int64_t>(w.gpusUsed, 2 * w.tp * w.cp * w.dp));
        const double act = T * h * kBytes / (w.sequenceParallel ? t : 1);
        ppPerSlot = 2 * double(w.interleave) * sendSeconds(act, ppTier.collectiveBytesPerS, ppTier.alphaS);
    }

    // One micro-batch through the slowest stage, forward and backward.
    const double slotGemm = layers * (L.gemmF + L.gemmB);
    const double slotAttn = layers * (L.attnF + L.attnB);
    const double slotMem = layers * (L.memF + L.memB);
    const double slotRe = layers * L.recompute;
    const double slotTp = layers * (tpF + tpB + tpRe);
    const double slotEp = layers * (epF + epB);
    const double slotCp = layers * (cpF + cpB);
    const double slotOut = outF + outB;
    const double slot = slotGemm + slotAttn + slotMem + slotRe + slotTp + slotEp + slotCp + slotOut + ppPerSlot;
    const double m = w.microBatches;
    const double v = double(w.interleave);
    const double bubble = double(w.pp - 1) / v * slot;

    // --- data parallelism: gradients reduced over dp x cp ranks.
    const double paramsPerGpu = w.paramsPerGpu;
    const std::int64_t dpRanks = w.dp * w.cp;
    double dpS = 0;
    if (dpRanks > 1) {
        // Hierarchical: ranks of the group sharing a node reduce over NVLink,
        // then each carries its 1/q share across nodes on its own NIC.
        const std::int64_t perDomain = std::max<std::int64_t>(1, hw.scaleupDomainGpus / std::max<std::int64_t>(1, w.tp * w.cp));
        const std::int64_t q = std::gcd(dpRanks, perDomain);  // ranks of the group inside one NVLink domain
        const std::int64_t acrossNodes = dpRanks / q;
        const Tier& nv = hier.nvlink();
        const Tier& across = hier.tierForSpan(w.tp * w.cp * w.dp);
        const double grads = paramsPerGpu * kGradBytes, weights = paramsPerGpu * kBytes;
        auto hierarchical = [&](double bytes, bool allReduce) {
            const double factor = allReduce ? 2 : 1;
            double sec = 0;
            if (q > 1)
                sec += factor * ringGatherSeconds(bytes, q, nv.collectiveBytesPerS, nv.alphaS);
            if (acrossNodes > 1)
                sec += factor * ringGatherSeconds(bytes / double(q), acrossNodes, across.collectiveBytesPerS, across.alphaS);
            return sec;
        };
        if (w.zero == 0)
            dpS = hierarchical(grads, true);
        else
            dpS = hierarchical(grads, false) + hierarchical(weights, false);
        if (w.zero >= 3)  // FSDP gathers the weights for every micro-batch, forward and backward
            dpS += 2 * m * hierarchical(weights, false);
    }
    // Gradient reduction overlaps the last micro-batch's backward; the
    // weight all-gather the next step's first forward.
    const double overlapWindow = slot - ppPerSlot;
    const double dpExposed = std::max(0.0, dpS - overlapWindow);

    const double optimizerParams = paramsPerGpu / (w.zero >= 1 ? double(dpRanks) : 1);
    const double optimizerS = mc.memS(optimizerParams * kOptimizerBytes);
    ops.push_back({"optimizer step (Adam)", "optimizer", optimizerParams * kOptimizerFlops,
                   optimizerParams * kOptimizerBytes, optimizerS});

    const double beforeStragglers = m * slot + bubble + dpExposed + optimizerS;
    // A synchronous step waits for the slowest of N ranks: mean x (1 + c sqrt(2 ln N)).
    st.stragglerFactor = 1 + stragglerCv * std::sqrt(2 * std::log(std::max<double>(1, double(w.gpusUsed))));
    st.stepS = beforeStragglers * st.stragglerFactor;
    st.slotS = slot;
    st.microBatches = m;
    st.bubbleFraction = bubble / (m * slot + bubble);

    st.breakdown = {{"GEMMs", m * slotGemm, true},
                    {"attention", m * slotAttn, true},
                    {"memory-bound ops", m * slotMem, true},
                    {"output layer and loss", m * slotOut, true},
                    {"recompute", m * slotRe},
                    {"TP communication", m * slotTp},
                    {"CP communication (exposed)", m * slotCp},
                    {"EP communication", m * slotEp},
                    {"PP communication", m * ppPerSlot},
                    {"pipeline bubble", bubble},
                    {"DP communication (exposed)", dpExposed},
                    {"optimizer step", optimizerS},
                    {"stragglers", st.stepS - beforeStragglers}};

    // --- FLOPs: model FLOPs are forward + backward (3x forward) with full
    // attention counted; hardware FLOPs add what recompute runs again.
    const double seqs = double(w.globalBatch);
    const double perSeqLayerFwd = 2 * s * h * (h + 2 * kv) + 2 * s * h * h + 4 * s * s * h +
                                  k * (w.swiglu ? 6 : 4) * s * h * f + (w.moe() ? 2 * s * h * double(w.experts) : 0);
    const double perSeqFwd = double(w.layers) * perSeqLayerFwd + 2 * s * h * V;
    st.modelFlopsPerStep = 3 * seqs * perSeqFwd;
    double recomputePerSeq = 0;
    if (full)
        recomputePerSeq = double(w.layers) * perSeqLayerFwd;
    else if (selective && !w.flash)
        recomputePerSeq = double(w.layers) * 4 * s * s * h;
    st.hardwareFlopsPerStep = st.modelFlopsPerStep + seqs * recomputePerSeq;
    const double gpus = double(w.gpusUsed);
    st.tflopsPerGpuModel = st.modelFlopsPerStep / st.stepS / gpus / 1e12;
    st.tflopsPerGpuHardware = st.hardwareFlopsPerStep / st.stepS / gpus / 1e12;
    st.mfu = st.tflopsPerGpuModel * 1e12 / mc.peak;
    st.hfu = st.tflopsPerGpuHardware * 1e12 / mc.peak;
    st.computeAtPeakS = st.modelFlopsPerStep / (gpus * mc.peak);
    st.tokensPerS = w.tokensPerStep / st.stepS;
    st.daysToTrain = w.tokens / st.tokensPerS / 86400;
    st.ops = std::move(ops);
    st.valid = true;
    if (!explain)
        return st;

    st.explainStep = {"step = (micro-batches + (pp - 1) / interleave) x slot + exposed DP + optimizer, x (1 + cv sqrt(2 ln N))",
                      {{"micro-batches per pipeline", m, "", "global_batch / (micro_batch x dp)"},
                       {"pipeline stages", double(w.pp), "", "/workload/parallelism/pp"},
                       {"interleave", v, "", "/workload/parallelism/interleave"},
                       {"slot: one micro-batch through the slowest stage", slot, "s", "sum of its operations (docs/model.md)"},
                       {"exposed DP communication", dpExposed, "s", "gradient reduction beyond the last backward"},
                       {"optimizer step", optimizerS, "s", "18 bytes per parameter at HBM speed"},
                       {"straggler cv", stragglerCv, "", "/operations/straggler_cv"},
                       {"GPUs", gpus, "", "tp x pp x cp x dp"}}};
    st.explainMfu = {"MFU = model FLOPs per step / (step time x GPUs x peak)",
                     {{"model FLOPs per step", st.modelFlopsPerStep, "FLOP", "3 x forward FLOPs, full attention"},
                      {"step time", st.stepS, "s", "this model"},
                      {"GPUs", gpus, "", "tp x pp x cp x dp"},
                      g.trainingPeakTflops.as("peak (" + g.trainingPrecision + ", dense)", "TFLOP/s")}};
    st.explainTokens = {"tokens/s = global batch x sequence length / step time",
                        {{"global batch", seqs, "sequences", "/workload/training/global_batch"},
                         {"sequence length", s, "tokens", "/workload/model/seq_len"},
                         {"step time", st.stepS, "s", "this model"}}};
    return st;
}

}  // namespace studio
