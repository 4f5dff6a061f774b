#include "core/analysis/step_time.h"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "core/analysis/collectives.h"
#include "core/analysis/log_interpolate.h"
#include "core/text.h"

namespace studio {
namespace {

constexpr double kBytes = 2;            // 16-bit activations
constexpr double kGradBytes = 4;        // fp32 main gradients (Megatron default for mixed precision)
constexpr double kOptimizerBytes = 18;  // model-notes: Adam streams ~16-18 bytes per parameter
constexpr double kOptimizerFlops = 10;  // Adam update FLOPs per parameter
constexpr double kFlashBackward = 2.5;  // FlashAttention backward: ~2.5x the forward FLOPs (it recomputes scores)

// A fused attention backward's throughput as a share of its forward's at the
// same sequence length, where a kernel profile measured the forward alone:
// the mean of FlashAttention-3, FlashAttention-2 and cuDNN on H100 SXM5 at
// head size 128 (the FA3 paper's forward and backward figures,
// docs/evidence/factor-measurements.md 3c-3e), which agree within 0.05 from
// 2k tokens. The backward recomputes the scores and reduces dQ across
// blocks, so it trails the forward most at short sequences.
constexpr std::pair<double, double> kAttentionBackwardShare[] = {
    {512, 0.66}, {1024, 0.73}, {2048, 0.78}, {4096, 0.84}, {8192, 0.86}, {16384, 0.87}};
constexpr double kCausalShare = 0.5;    // a fused causal kernel skips the masked half
// Megatron's vocab-parallel cross-entropy (tensor_parallel/cross_entropy.py,
// the unfused default) runs in fp32 over every logit: forward casts the bf16
// logits up (2 + 4 bytes), takes the max (4), subtracts it (8), exponentiates
// (8), sums (4) and normalizes (8); backward scales the softmax by the
// incoming gradient (8) and casts it back to bf16 (4 + 2).
constexpr double kLossBytesForward = 38;   // per logit
constexpr double kLossBytesBackward = 14;  // per logit
// Kernels running beside a collective lose SMs and HBM bandwidth to it: Lee
// et al. 2025 (arXiv 2507.03114) measured compute 18.9% slower on average
// while communication overlapped it (GPT and Llama training on A100 and H100).
constexpr double kOverlapSlowdown = 0.189;

}  // namespace

std::array<GemmPass, 3> gemmPasses(double m, double k, double n, double batch)
{
    return {{{"forward", m * batch, n, k}, {"backward data", m * batch, k, n}, {"backward weight", k * batch, n, m}}};
}

double gemmSizeFactor(double flops)
{
    static const std::pair<double, double> pts[] = {
        {1e7, 0.1 / 0.95}, {1e9, 0.6 / 0.95}, {16e9, 0.9 / 0.95}, {128e9, 1.0}};
    return logInterpolate(pts, flops);
}

double memorySizeFactor(double bytes)
{
    static const std::pair<double, double> pts[] = {{1e4, 0.3 / 0.9}, {1e6, 0.6 / 0.9}, {1e7, 0.75 / 0.9}, {1e8, 1.0}};
    return logInterpolate(pts, bytes);
}

double forwardFlopsPerSequenceLayer(const WorkloadShape& w, FlopConvention convention)
{
    const double s = double(w.seq), h = double(w.hidden), f = double(w.ffn), kv = w.kvDim;
    const double k = w.moe() ? double(w.expertsPerToken) : 1;
    // QK^T and scores x V: 2 s^2 h each for the full square.
    const double attentionCore = (convention == FlopConvention::CausalHalf ? 2 : 4) * s * s * h;
    return 2 * s * h * (h + 2 * kv) + 2 * s * h * h + attentionCore + k * (w.swiglu ? 6 : 4) * s * h * f +
        (w.moe() ? 2 * s * h * double(w.experts) : 0);
}

double forwardFlopsPerSequence(const WorkloadShape& w, FlopConvention convention)
{
    return double(w.layers) * forwardFlopsPerSequenceLayer(w, convention) +
        2 * double(w.seq) * double(w.hidden) * double(w.vocab);
}

namespace {

// docs/model.md §5 "The machine": one GPU's roofline at the training
// precision. A GEMM, attention or memory-bound kernel runs at the share of
// peak the GPU's kernel profile measured for its shape
// (docs/kernel-profiles.md); without a table, at the part's catalog
// efficiency scaled by kernel size.
struct Machine {
    double peak;    // FLOP/s for GEMMs at the training precision
    double peak16;  // FLOP/s at 16-bit (attention)
    double gemmEff, attnEff;
    double hbm;  // bytes/s
    double hbmEff;
    bool fp8;                                 // GEMMs run in FP8 (Transformer Engine), which casts their operands
    const KernelGrid* gemmTable = nullptr;    // measured GEMMs at the training precision
    const KernelGrid* gemm16Table = nullptr;  // at 16 bits (unfused attention's GEMMs)
    GemmRoofline measuredOn, measuredOn16;    // the GPU the tables were measured on
    const KernelGrid* attnForward = nullptr;  // measured fused attention
    const KernelGrid* attnBackward = nullptr;
    const KernelGrid* memoryTable = nullptr;  // measured memory-bound kernels

    KernelValue memKernel(double bytes) const
    {
        if (bytes <= 0)
            return {0, KernelTier::Measured};
        if (memoryTable) {
            const KernelValue e = memoryTable->at(bytes);
            return {bytes / (hbm * e.value), e.tier};
        }
        return {bytes / (hbm * hbmEff * memorySizeFactor(bytes)), KernelTier::CatalogFactor};
    }
    double memS(double bytes) const { return memKernel(bytes).value; }
    // A GEMM on the roofline of the catalog factors: the slower of its
    // compute and its memory traffic.
    double factorGemmS(double flops, double bytes) const
    {
        if (flops <= 0)
            return 0;
        return std::max(flops / (peak * gemmEff * gemmSizeFactor(flops)), memS(bytes));
    }
    // One GEMM pass of `flops` (gemmPasses). A measured time already holds
    // the GEMM's own traffic: only `extraBytes` (fp32 main gradients
    // accumulated in place) can make it memory-bound.
    KernelValue gemm(const GemmPass& pass, double flops, double bytes, double extraBytes, bool sixteenBit = false) const
    {
        const KernelGrid* table = sixteenBit ? gemm16Table : gemmTable;
        if (flops <= 0)
            return {0, table ? KernelTier::Measured : KernelTier::CatalogFactor};
        if (table) {
            const KernelValue t = measuredGemm(*table, sixteenBit ? measuredOn16 : measuredOn,
                                               {sixteenBit ? peak16 : peak, hbm}, pass.rows, pass.n, pass.k, bytes);
            return {extraBytes > 0 ? std::max(t.value, memS(bytes + extraBytes)) : t.value, t.tier};
        }
        return {factorGemmS(flops, bytes + extraBytes), KernelTier::CatalogFactor};
    }
    // Fused causal attention, forward, executing `flops` over sequences
    // whose queries see `seq` keys on average in the square of that size.
    KernelValue attention(double flops, double headDim, double seq, const KernelGrid* table) const
    {
        if (!table)
            return {flops / (peak16 * attnEff * gemmSizeFactor(flops)), KernelTier::CatalogFactor};
        const KernelValue e = table->at(headDim, seq);
        return {flops / (peak16 * e.value), e.tier};
    }
};

Machine machineOf(const AcceleratorProfile& g)
{
    Machine mc;
    mc.peak = g.trainingPeakTflops.value * 1e12;
    mc.peak16 = g.bf16PeakTflops * 1e12;
    mc.gemmEff = g.gemmEfficiency.value;
    mc.attnEff = g.attentionEfficiency.value;
    mc.hbm = g.hbmTbPerS.value * 1e12;
    mc.hbmEff = g.hbmEfficiency.value;
    mc.fp8 = g.trainingPrecision == "fp8";
    if (const KernelProfile* k = g.kernels.get()) {
        mc.gemmTable = k->gemmTable(g.trainingPrecision);
        mc.gemm16Table = k->gemmTable("bf16");
        mc.measuredOn = k->measuredOn(g.trainingPrecision);
        mc.measuredOn16 = k->measuredOn("bf16");
        mc.attnForward = k->attentionForward ? &*k->attentionForward : nullptr;
        mc.attnBackward = k->attentionBackward ? &*k->attentionBackward : nullptr;
        mc.memoryTable = k->memory ? &*k->memory : nullptr;
    }
    return mc;
}

// The sizes of one micro-batch as this GPU sees them, shared by the block,
// its communication, the output layer and the FLOP count so they cannot
// disagree.
struct MicroBatch {
    double b, s, h, f;
    double t, c;
    double heads, kv, dh, V;
    double T;  // tokens of a micro-batch on this GPU
    double r;  // tokens in the norm/dropout regions (split by tp under sequence parallelism)
    double k;  // experts a token visits (1 for a dense model)
};

MicroBatch microBatchOf(const WorkloadShape& w)
{
    MicroBatch mb;
    mb.b = double(w.microBatch);
    mb.s = double(w.seq);
    mb.h = double(w.hidden);
    mb.f = double(w.ffn);
    mb.t = double(w.tp);
    mb.c = double(w.cp);
    mb.heads = double(w.heads);
    mb.kv = w.kvDim;
    mb.dh = w.headDim;
    mb.V = double(w.vocab);
    mb.T = mb.b * mb.s / mb.c;
    mb.r = w.sequenceParallel ? mb.T / mb.t : mb.T;
    mb.k = w.moe() ? double(w.expertsPerToken) : 1;
    return mb;
}

// Time of one layer's compute on one GPU for one micro-batch, and the
// worst tier each kind of kernel's time came from.
struct LayerCost {
    double gemmF = 0, gemmB = 0;
    double attnF = 0, attnB = 0;
    double memF = 0, memB = 0;
    double recompute = 0;
    double modelFlops = 0, recomputeFlops = 0;  // forward FLOPs on this GPU
    KernelTier gemmTier = KernelTier::Measured, attnTier = KernelTier::Measured, memTier = KernelTier::Measured;
};

// docs/model.md §5 "One transformer block": every operation of the block
// in forward order (Korthikanti et al. 2022, Fig. 2/4), each also a roofline
// point in `ops`.
LayerCost modelBlock(const Machine& mc, const WorkloadShape& w, const MicroBatch& mb, std::vector<OpPoint>& ops)
{
    const double b = mb.b, s = mb.s, h = mb.h, f = mb.f, t = mb.t, c = mb.c;
    const double heads = mb.heads, kv = mb.kv, dh = mb.dh;
    const double T = mb.T, r = mb.r, k = mb.k;
    const bool dropout = w.dropout > 0;
    const bool full = w.fullRecompute, selective = w.selectiveRecompute;

    LayerCost L;
    // A GEMM M x K x N (times `batch`): backward is a data-gradient and a
    // weight-gradient GEMM, the latter accumulating into fp32 main grads.
    // Attention's batched GEMMs multiply activations by activations: no
    // weights, so no weight gradient to accumulate.
    // Each at its own shape: forward M x K by K x N; the data gradient
    // M x N by N x K; the weight gradient K x M by M x N.
    auto gemm = [&](std::string_view name, double M, double K, double N, double batch, bool attention,
                    bool recomputed) {
        const double flops = 2 * M * K * N * batch;
        const double bytes = (M * K + K * N + M * N) * batch * kBytes;
        const double accumulate = attention ? 0 : K * N * batch * 2 * kGradBytes;  // read + write fp32 main grads
        const auto pass = gemmPasses(M, K, N, batch);
        const KernelValue fw = mc.gemm(pass[0], flops, bytes, 0, attention);
        const KernelValue dgrad = mc.gemm(pass[1], flops, bytes, 0, attention);
        const KernelValue wgrad = mc.gemm(pass[2], flops, bytes, accumulate, attention);
        (attention ? L.attnF : L.gemmF) += fw.value;
        (attention ? L.attnB : L.gemmB) += dgrad.value + wgrad.value;
        KernelTier& tier = attention ? L.attnTier : L.gemmTier;
        tier = worseTier(tier, worseTier(fw.tier, worseTier(dgrad.tier, wgrad.tier)));
        L.modelFlops += flops;
        if (recomputed) {
            L.recompute += fw.value;
            L.recomputeFlops += flops;
        }
        ops.push_back({name, attention ? "attention" : "gemm", flops, bytes, fw.value, fw.tier, M, K, N, batch});
    };
    // A memory-bound kernel over n elements: passes = elements read + written.
    auto elementwise = [&](std::string_view name, double n, double fwPasses, double bwPasses, bool recomputed) {
        const KernelValue f = mc.memKernel(n * fwPasses * kBytes), b = mc.memKernel(n * bwPasses * kBytes);
        const double fw = f.value, bw = b.value;
        L.memF += fw;
        L.memB += bw;
        L.memTier = worseTier(L.memTier, worseTier(f.tier, b.tier));
        if (recomputed)
            L.recompute += fw;
        // The roofline point is the forward kernel, or the backward one for
        // a cast that only the backward pass runs.
        const bool forward = fwPasses > 0;
        ops.push_back({name, "memory", n * 4 /* a few FLOPs per element */,
                       n * (forward ? fwPasses : bwPasses) * kBytes, forward ? fw : bw, forward ? f.tier : b.tier});
    };

    elementwise("attention norm", r * h, 2, 3, full);
    gemm("QKV projection", T, h, (h + 2 * kv) / t, 1, false, full);
    const double attnHeads = b * heads / t;
    if (w.flash) {
        // A fused causal kernel skips the masked half, which is also what
        // model FLOPs count (Megatron's convention).
        const double executed = 4 * attnHeads * (s / c) * s * dh * kCausalShare;
        const double flops = executed;
        // A rank of a context-parallel group runs s/c queries against s
        // keys: the work of a square of sqrt(s^2 / c).
        const double square = s / std::sqrt(c);
        const KernelValue f = mc.attention(executed, dh, square, mc.attnForward);
        const double fw = f.value;
        // Backward: measured where the profile has it, else FlashAttention-2's
        // 2.5x the forward (it recomputes the scores), at the forward's
        // throughput on the catalog's factor (a forward + backward figure),
        // at the published backward share of a measured forward's.
        const double share =
            mc.attnForward && f.tier != KernelTier::CatalogFactor ? logInterpolate(kAttentionBackwardShare, square) : 1;
        const KernelValue b = mc.attnBackward ? mc.attention(kFlashBackward * executed, dh, square, mc.attnBackward)
                                              : KernelValue{kFlashBackward * fw / share, f.tier};
        L.attnF += fw;
        L.attnB += b.value;
        L.attnTier = worseTier(L.attnTier, worseTier(f.tier, b.tier));
        L.modelFlops += flops;
        if (full) {
            L.recompute += fw;
            L.recomputeFlops += flops;
        }
        // The roofline point shows what the kernel executes; it reads Q, K, V
        // and writes O once.
        ops.push_back({"attention (fused)", "attention", executed, 2 * T * (h + kv) / t * kBytes, fw, f.tier});
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
    if (w.moe()) {
        gemm("router", T, h, double(w.experts), 1, false, full);
        elementwise("router softmax", T * double(w.experts), 2, 3, full);
        // Megatron's token dispatcher (moe_utils.permute) copies each token
        // once per expert it visits into expert order: read + write.
        elementwise("token permutation", T * k * h, 2, 2, full);
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
    if (w.moe())  // moe_utils.unpermute: read the k weighted copies of a token, write their sum
        elementwise("token unpermutation", T * k * h, 1 + 1 / k, 2, full);
    if (dropout)
        elementwise("dropout", r * h, 2.5, 2.5, full);
    elementwise("residual add", r * h, 3, 2, full);
    if (mc.fp8) {
        // Transformer Engine's FP8 GEMMs take both operands K-major, so each
        // GEMM input is cast to FP8 with its transpose kept for the
        // weight-gradient GEMM: read 2 bytes, write 1 + 1 (linear.py,
        // fp8_cast_transpose_fused), 2 passes. A norm that feeds a GEMM
        // writes FP8 itself and only the transpose is extra (0.5 pass net).
        // Backward casts every output gradient the same way for the dgrad
        // and wgrad GEMMs.
        elementwise("FP8 transpose of the normed QKV input", T * h, 0.5, 0, full);
        elementwise("FP8 cast of the attention output", T * h / t, 2, 0, full);
        if (w.moe())  // routed tokens reach the expert GEMMs permuted, not from the norm
            elementwise("FP8 cast of the routed tokens", T * k * h, 2, 0, full);
        else
            elementwise("FP8 transpose of the normed MLP input", T * h, 0.5, 0, full);
        elementwise("FP8 cast of the MLP activation", T * k * f / t, 2, 0, full);
        elementwise("FP8 cast of the output gradients", T * ((h + 2 * kv) / t + h + k * upWidth + k * h), 0, 2, false);
    }
    return L;
}

struct LayerComm {
    double tpF = 0, tpB = 0, tpRe = 0;
    double epF = 0, epB = 0;
    double cpF = 0, cpB = 0;      // exposed: what attention compute does not hide
    double hidden = 0;            // what compute hides, slowing it (kOverlapSlowdown)
    double tpAll = 0, cpAll = 0;  // TP and CP time, hidden or not
    KernelTier tpTier = KernelTier::Measured, epTier = KernelTier::Measured;  // where their bandwidth came from
};

// docs/model.md §5 "Communication per layer per micro-batch": each axis on
// the tier its group spans. None of it overlaps compute except CP, which
// ring attention hides behind the block's attention.
LayerComm modelLayerComm(const Hierarchy& hier, const WorkloadShape& w, const MicroBatch& mb, const LayerCost& L)
{
    const double b = mb.b, s = mb.s, h = mb.h, t = mb.t, c = mb.c, kv = mb.kv;
    const double T = mb.T, k = mb.k;
    const bool full = w.fullRecompute;

    LayerComm comm;
    const Tier& tpTier = hier.tierForSpan(w.tp);
    const double tpBuffer = T * h * kBytes;
    if (w.tp > 1) {
        // Korthikanti et al. 2022: sequence parallelism replaces each
        // all-reduce by a reduce-scatter and an all-gather of the same total
        // volume. Backward, Megatron gathers the input again for the weight
        // gradient but overlaps that with the data-gradient GEMM, so both
        // ways cost two all-reduces' worth per direction.
        KernelValue c = collectiveSeconds(tpTier, Collective::AllReduce, tpBuffer, w.tp);
        if (w.sequenceParallel) {
            const KernelValue ag = collectiveSeconds(tpTier, Collective::AllGather, tpBuffer, w.tp);
            const KernelValue rs = collectiveSeconds(tpTier, Collective::ReduceScatter, tpBuffer, w.tp);
            c = {ag.value + rs.value, worseTier(ag.tier, rs.tier)};
        }
        const double one = c.value;
        comm.tpTier = c.tier;
        comm.tpF = 2 * one;
        comm.tpB = 2 * one;
        comm.tpRe = full ? 2 * one : 0;
        comm.tpAll = comm.tpF + comm.tpB + comm.tpRe;
        if (w.tpCommOverlap) {
            // Transformer Engine's userbuffers (Megatron --tp-comm-overlap)
            // split each all-gather and reduce-scatter into tp chunks and
            // pipeline them with the GEMM that consumes or produces them:
            // what the block's GEMMs cannot cover stays exposed, and so does
            // one chunk, the pipeline's fill or drain.
            const auto exposed = [t](double comm, double gemm) { return std::max(comm - gemm, comm / t); };
            const double all = comm.tpF + comm.tpB + comm.tpRe;
            comm.tpF = exposed(comm.tpF, L.gemmF);
            comm.tpB = exposed(comm.tpB, L.gemmB);
            comm.tpRe = full ? exposed(comm.tpRe, L.gemmF) : 0;
            comm.hidden += all - (comm.tpF + comm.tpB + comm.tpRe);
        }
    }
    if (w.moe() && w.ep > 1) {
        const Tier& epTier = hier.tierForSpan(w.tp * w.cp * w.ep);
        const double buffer = T * k * h * kBytes / t;
        const KernelValue c = collectiveSeconds(epTier, Collective::AllToAll, buffer, w.ep);
        const double one = c.value;
        comm.epTier = c.tier;
        comm.epF = 2 * one;
        comm.epB = 2 * one + (full ? 2 * one : 0);
    }
    if (w.cp > 1) {
        const Tier& cpTier = hier.tierForSpan(w.tp * w.cp);
        const double kvBytes = 2 * b * (s / c) * kv / t * kBytes;  // this rank's K and V chunk
        if (w.cpComm == "p2p") {
            // Ring attention: K and V blocks travel c-1 steps, each hidden
            // behind the attention on the block before it; backward sends
            // dK and dV around too.
            const double ring =
                double(w.cp - 1) * sendSeconds(kvBytes, cpTier.collectiveBytesPerSAt(kvBytes), cpTier.alphaS);
            comm.cpF = std::max(0.0, ring - L.attnF);
            comm.cpB = std::max(0.0, 2 * ring - L.attnB);
            comm.hidden += 3 * ring - (comm.cpF + comm.cpB);
            comm.cpAll = (full ? 4 : 3) * ring;
        } else if (w.cpComm == "all_gather") {
            // Llama 3: K and V all-gathered before attention, dK and dV
            // reduce-scattered after; "exposed in the critical path".
            const double gathered = kvBytes * c;
            const double one = ringGatherSeconds(gathered, w.cp, cpTier.collectiveBytesPerSAt(gathered), cpTier.alphaS);
            comm.cpF = one;
            comm.cpB = one;
        } else {
            // Ulysses (a2a): Q, K, V and the output swap sequence for heads,
            // four all-to-alls each way, not overlapped.
            const double qkvo = b * (s / c) * (2 * mb.h + 2 * kv) / t * kBytes;
            comm.cpF = allToAllSeconds(qkvo, w.cp, cpTier.collectiveBytesPerSAt(qkvo / 4), cpTier.alphaS);
            comm.cpB = comm.cpF;
        }
        if (full)
            comm.cpB += comm.cpF;
        if (w.cpComm != "p2p")
            comm.cpAll = comm.cpF + comm.cpB;
    }
    return comm;
}

// The output layer and loss for one micro-batch, forward and backward.
struct OutputLayer {
    double seconds = 0;
    OpPoint op;  // its forward GEMM on the roofline
    KernelTier tier = KernelTier::Measured;
};

OutputLayer modelOutputLayer(const Machine& mc, const MicroBatch& mb)
{
    const double h = mb.h, t = mb.t, V = mb.V, T = mb.T;
    const double logitsFlops = 2 * T * h * V / t;
    const double logitsBytes = (T * h + h * V / t + T * V / t) * kBytes;
    const double logits = T * V / t;
    const auto pass = gemmPasses(T, h, V / t, 1);
    const KernelValue fw = mc.gemm(pass[0], logitsFlops, logitsBytes, 0);
    const double outF = fw.value + mc.memS(logits * kLossBytesForward);
    // Backward: the data gradient, then the weight gradient, which alone
    // accumulates into the fp32 main grads (as every block GEMM).
    const KernelValue dgrad = mc.gemm(pass[1], logitsFlops, logitsBytes, 0);
    const KernelValue wgrad = mc.gemm(pass[2], logitsFlops, logitsBytes, h * V / t * 2 * kGradBytes);
    const double outB = dgrad.value + wgrad.value + mc.memS(logits * kLossBytesBackward);
    return {outF + outB,
            {"output layer (logits)", "gemm", logitsFlops, logitsBytes, fw.value, fw.tier, T, h, V / t, 1},
            worseTier(fw.tier, worseTier(dgrad.tier, wgrad.tier))};
}

// One micro-batch through the slowest stage, forward and backward, by part.
struct Slot {
    double gemm = 0, attn = 0, mem = 0, re = 0, tp = 0, ep = 0, cp = 0, out = 0;
    KernelTier gemmTier = KernelTier::Measured, attnTier = KernelTier::Measured, memTier = KernelTier::Measured,
               outTier = KernelTier::Measured, tpTier = KernelTier::Measured, epTier = KernelTier::Measured;
    double ppSends = 0;
    double hidden = 0;  // communication the slot's compute hides
    double total = 0;
    double bubble = 0;
    double tpAll = 0, cpAll = 0;  // TP and CP time, hidden or not
};

// docs/model.md §5 "The pipeline": the slowest stage's layers, the output
// layer and loss (charged to the last stage: the first stage's embedding
// lookup is lighter), the stage-to-stage sends, and the 1F1B bubble.
Slot modelPipeline(const Machine& mc, const Hierarchy& hier, const WorkloadShape& w, const MicroBatch& mb,
                   const LayerCost& L, const LayerComm& comm, std::vector<OpPoint>& ops)
{
    const double h = mb.h, t = mb.t, T = mb.T;
    const double layers = w.layersPerStage;
    const OutputLayer out = modelOutputLayer(mc, mb);
    ops.push_back(out.op);

    Slot slot;
    if (w.pp > 1) {
        const Tier& ppTier = hier.tierForSpan(std::min<std::int64_t>(w.gpusUsed, 2 * w.tp * w.cp * w.dp));
        const double act = T * h * kBytes / (w.sequenceParallel ? t : 1);
        slot.ppSends = 2 * double(w.interleave) * sendSeconds(act, ppTier.collectiveBytesPerS, ppTier.alphaS);
    }
    slot.gemm = layers * (L.gemmF + L.gemmB);
    slot.attn = layers * (L.attnF + L.attnB);
    slot.mem = layers * (L.memF + L.memB);
    slot.re = layers * L.recompute;
    slot.tp = layers * (comm.tpF + comm.tpB + comm.tpRe);
    slot.ep = layers * (comm.epF + comm.epB);
    slot.cp = layers * (comm.cpF + comm.cpB);
    slot.out = out.seconds;
    slot.gemmTier = L.gemmTier;
    slot.attnTier = L.attnTier;
    slot.memTier = L.memTier;
    slot.outTier = out.tier;
    slot.hidden = layers * comm.hidden;
    slot.tpAll = layers * comm.tpAll;
    slot.tpTier = comm.tpTier;
    slot.epTier = comm.epTier;
    slot.cpAll = layers * comm.cpAll;
    slot.total = slot.gemm + slot.attn + slot.mem + slot.re + slot.tp + slot.ep + slot.cp + slot.out + slot.ppSends;
    // Interleaving divides the bubble by v (Narayanan et al. 2021).
    slot.bubble = double(w.pp - 1) / double(w.interleave) * slot.total;
    return slot;
}

// A synchronous step waits for the slowest of N ranks: mean x (1 + c sqrt(2 ln N)).
double stragglerFactorOf(double cv, std::int64_t gpus)
{
    return 1 + cv * std::sqrt(2 * std::log(std::max<double>(1, double(gpus))));
}

// The GPU has what a step is modelled with.
bool canModel(const HardwareProfile& hw)
{
    const auto& g = hw.gpu;
    return hw.gpus > 0 && g.component && g.trainingPeakTflops.value > 0 && g.hbmTbPerS.value > 0;
}

struct StepTotals {
    double dpExposed = 0;
    double hidden = 0;      // communication hidden behind compute, all step
    double contention = 0;  // what hiding it costs the compute
    double optimizerS = 0;
    double dpAll = 0;  // gradient reduction and ZeRO gathers, hidden or not
    double beforeStragglers = 0;
    double stragglerFactor = 1;
    double stepS = 0;
    KernelTier dpTier = KernelTier::Measured;  // where the NVLink part's bandwidth came from
};

// docs/model.md §5 "Data parallelism, optimizer, stragglers", and the step
// time they close: the pipeline, what of the gradient reduction one slot
// cannot hide, the optimizer step, all stretched by the slowest rank.
StepTotals modelDataParallel(const Machine& mc, const HardwareProfile& hw, const Hierarchy& hier,
                             const WorkloadShape& w, const Slot& slot, double stragglerCv, std::vector<OpPoint>& ops)
{
    const double m = w.microBatches;
    const double paramsPerGpu = w.paramsPerGpu;
    const std::int64_t dpRanks = w.dp * w.cp;
    double dpS = 0, zero3Gather = 0;
    StepTotals tot;
    if (dpRanks > 1) {
        // Hierarchical: ranks of the group sharing a node reduce over NVLink,
        // then each carries its 1/q share across nodes on its own NIC.
        const std::int64_t perDomain =
            std::max<std::int64_t>(1, hw.scaleupDomainGpus / std::max<std::int64_t>(1, w.tp * w.cp));
        const std::int64_t q = std::gcd(dpRanks, perDomain);  // ranks of the group inside one NVLink domain
        const std::int64_t acrossNodes = dpRanks / q;
        const Tier& nv = hier.nvlink();
        const Tier& across = hier.tierForSpan(w.tp * w.cp * w.dp);
        const double grads = paramsPerGpu * kGradBytes, weights = paramsPerGpu * kBytes;
        // Megatron reduces in buckets of max(40M, 1M x dp) parameters, so a
        // collective's message is a bucket, not the whole buffer.
        const double bucketParams = std::max(40e6, 1e6 * double(dpRanks));
        // An all-reduce is a reduce-scatter and an all-gather.
        auto hierarchical = [&](double bytes, Collective op) {
            const bool allReduce = op == Collective::AllReduce;
            const double factor = allReduce ? 2 : 1;
            const double message = std::min(bytes, bucketParams * bytes / std::max(1.0, paramsPerGpu));
            double sec = 0;
            if (q > 1) {
                for (Collective part : {Collective::ReduceScatter, Collective::AllGather})
                    if (allReduce || op == part) {
                        const KernelValue c = collectiveSeconds(nv, part, bytes, q, message);
                        sec += c.value;
                        tot.dpTier = worseTier(tot.dpTier, c.tier);
                    }
            }
            if (acrossNodes > 1) {
                sec += factor *
                    ringGatherSeconds(bytes / double(q), acrossNodes, across.collectiveBytesPerS, across.alphaS);
                tot.dpTier = KernelTier::CatalogFactor;  // the scale-out tier has no measured table
            }
            return sec;
        };
        if (w.zero == 0)
            dpS = hierarchical(grads, Collective::AllReduce);
        else if (w.zero <= 2)
            dpS = hierarchical(grads, Collective::ReduceScatter) + hierarchical(weights, Collective::AllGather);
        else {
            // FSDP gathers the weights for every micro-batch, forward and
            // backward, so no gather follows the optimizer step: only the
            // gradients' reduce-scatter is left for the step's end.
            dpS = hierarchical(grads, Collective::ReduceScatter);
            zero3Gather = 2 * hierarchical(weights, Collective::AllGather);
        }
    }
    tot.dpAll = dpS + m * zero3Gather;
    // One micro-batch's compute (its slot less the PP sends) is the window
    // that hides communication. Every micro-batch's window hides that
    // micro-batch's ZeRO-3 gathers (prefetched a layer ahead); the last one's
    // also hides the gradient reduction, and what both need beyond it is
    // exposed. ZeRO-3's first-layer gather, which nothing precedes, is
    // exposed in every micro-batch.
    const double window = slot.total - slot.ppSends;
    const double lastNeeds = zero3Gather + dpS;
    const double others = std::max(0.0, m - 1);
    tot.dpExposed = others * std::max(0.0, zero3Gather - window) + std::max(0.0, lastNeeds - window);
    if (zero3Gather > 0)
        tot.dpExposed += m * zero3Gather / (2 * std::max(1.0, w.layersPerStage));
    // Hidden is not free: the kernels it runs beside slow down while it runs.
    tot.hidden = others * std::min(zero3Gather, window) + std::min(lastNeeds, window) + m * slot.hidden;
    tot.contention = kOverlapSlowdown * tot.hidden;

    const double optimizerParams = paramsPerGpu / (w.zero >= 1 ? double(dpRanks) : 1);
    tot.optimizerS = mc.memS(optimizerParams * kOptimizerBytes);
    ops.push_back({"optimizer step (Adam)", "optimizer", optimizerParams * kOptimizerFlops,
                   optimizerParams * kOptimizerBytes, tot.optimizerS});

    tot.beforeStragglers = m * slot.total + slot.bubble + tot.dpExposed + tot.contention + tot.optimizerS;
    tot.stragglerFactor = stragglerFactorOf(stragglerCv, w.gpusUsed);
    tot.stepS = tot.beforeStragglers * tot.stragglerFactor;
    return tot;
}

// docs/model.md §5 "Breakdown": every micro-batch's share of each slot part,
// then the once-per-step terms; stragglers take the rest so the parts sum to
// the step time. `compute` marks what §11 counts as running kernels.
std::vector<StepPart> breakdownOf(const Slot& slot, double m, const StepTotals& tot, const WorkloadShape& w)
{
    const bool tpOverlap = w.tpCommOverlap;
    // Communication's tier where the axis communicates at all.
    const auto tierIf = [](bool active, KernelTier t) { return active ? std::optional(t) : std::nullopt; };
    // Whether TP communication hides behind the GEMMs is a workload choice
    // the user should see next to its cost.
    const std::string_view tpSource = tpOverlap
        ? "what the GEMMs do not hide: /workload/parallelism/tp_comm_overlap is on (docs/model.md)"
        : "none hidden: /workload/parallelism/tp_comm_overlap is off (docs/model.md)";
    const KernelTier all = worseTier(worseTier(slot.gemmTier, slot.attnTier), worseTier(slot.memTier, slot.outTier));
    constexpr std::string_view model = "step-time model (docs/model.md)";
    using P = StepPartId;
    return {{P::Gemm, m * slot.gemm, "each GEMM at its shape, forward and both backward GEMMs (docs/model.md)",
             slot.gemmTier},
            {P::Attention, m * slot.attn, model, slot.attnTier},
            {P::MemoryBound, m * slot.mem, model, slot.memTier},
            {P::OutputLayer, m * slot.out, model, slot.outTier},
            {P::Recompute, m * slot.re, model, all},
            {P::TpComm, m * slot.tp, tpSource, tierIf(w.tp > 1, slot.tpTier)},
            {P::CpComm, m * slot.cp},
            {P::EpComm, m * slot.ep, model, tierIf(w.moe() && w.ep > 1, slot.epTier)},
            {P::PpComm, m * slot.ppSends},
            {P::PipelineBubble, slot.bubble},
            {P::DpComm, tot.dpExposed, model, tierIf(w.dp * w.cp > 1, tot.dpTier)},
            {P::OverlapContention, tot.contention,
             "compute 18.9% slower while hidden communication runs beside it (Lee et al. 2025, docs/model.md)"},
            {P::Optimizer, tot.optimizerS},
            {P::Stragglers, tot.stepS - tot.beforeStragglers}};
}

// docs/model.md §5 "FLOPs, MFU and throughput": model FLOPs are forward +
// backward (3x forward) of the model as defined, attention's causal half;
// hardware FLOPs add what recompute runs again. Needs st.stepS.
void countFlops(StepTime& st, const Machine& mc, const WorkloadShape& w, const MicroBatch& mb)
{
    const double s = mb.s, h = mb.h;
    const bool full = w.fullRecompute, selective = w.selectiveRecompute;
    const double seqs = double(w.globalBatch);
    const double perSeqLayerFwd = forwardFlopsPerSequenceLayer(w, FlopConvention::CausalHalf);
    st.modelFlopsPerStep = 3 * seqs * forwardFlopsPerSequence(w, FlopConvention::CausalHalf);
    double recomputePerSeq = 0;
    if (full)
        recomputePerSeq = double(w.layers) * perSeqLayerFwd;
    else if (selective && !w.flash)
        recomputePerSeq = double(w.layers) * 2 * s * s * h;  // the attention core, causal half
    st.hardwareFlopsPerStep = st.modelFlopsPerStep + seqs * recomputePerSeq;
    const double gpus = double(w.gpusUsed);
    st.tflopsPerGpuModel = st.modelFlopsPerStep / st.stepS / gpus / 1e12;
    st.tflopsPerGpuHardware = st.hardwareFlopsPerStep / st.stepS / gpus / 1e12;
    st.mfu = st.tflopsPerGpuModel * 1e12 / mc.peak;
    st.hfu = st.tflopsPerGpuHardware * 1e12 / mc.peak;
    st.computeAtPeakS = st.modelFlopsPerStep / (gpus * mc.peak);
    st.tokensPerS = w.tokensPerStep / st.stepS;
    st.daysToTrain = w.tokens / st.tokensPerS / 86400;
}

}  // namespace

std::string kernelTierSource(const AcceleratorProfile& g, const StepPart& part)
{
    if (!part.tier)
        return "";
    if (*part.tier != KernelTier::CatalogFactor && g.kernels) {
        std::string source = std::string(kernelTierName(*part.tier)) + ": " + g.kernels->citation();
        if (part.id == StepPartId::Attention && g.kernels->attentionForward && !g.kernels->attentionBackward)
            source += "; the profile measured the forward only: the backward at its published share of the "
                      "forward's throughput, " +
                formatValue(kAttentionBackwardShare[0].second) + " at " +
                formatCount(std::int64_t(kAttentionBackwardShare[0].first)) + " tokens to " +
                formatValue(std::end(kAttentionBackwardShare)[-1].second) + " from " +
                formatCount(std::int64_t(std::end(kAttentionBackwardShare)[-1].first)) +
                " (FlashAttention-3, FlashAttention-2, cuDNN on H100; docs/model.md section 5)";
        return source;
    }
    // The catalog factor each kind of kernel runs at without a table.
    const Sourced* factor = &g.gemmEfficiency;
    std::string figure = g.trainingPrecision == "fp8" ? "fp8_gemm_efficiency" : "gemm_efficiency";
    std::string scaled = " scaled by kernel size";
    if (part.id == StepPartId::Attention) {
        factor = &g.attentionEfficiency;
        figure = "attention_efficiency";
    } else if (stepPartInfo(part.id).communication) {
        // Across nodes the NIC's efficiency applies too (the hierarchy's tiers say which).
        factor = &g.scaleupEfficiency;
        figure = "scaleup_efficiency";
        scaled = " by message size on NVLink, the NIC's efficiency across nodes";
    } else if (part.id == StepPartId::MemoryBound) {
        factor = &g.hbmEfficiency;
        figure = "hbm_efficiency";
    }
    return "catalog factor: " + figure + " " + formatValue(factor->value) + scaled + " (" + factor->source + ")" +
        (g.kernels ? "; the kernel profile has no table for it" : "; no kernel profile for " + inQuotes(g.part));
}

namespace {

void explainStepTime(StepTime& st, const AcceleratorProfile& g, const WorkloadShape& w, const Slot& slot,
                     const StepTotals& tot, double stragglerCv)
{
    const double m = w.microBatches, v = double(w.interleave), gpus = double(w.gpusUsed);
    st.explainStep = {
        "step = ((micro-batches + (pp - 1) / interleave) x slot + exposed DP + slowdown x hidden communication + "
        "optimizer) x (1 + cv sqrt(2 ln N))",
        {{"micro-batches per pipeline", m, "", "global_batch / (micro_batch x dp)"},
         {"pipeline stages", double(w.pp), "", "/workload/parallelism/pp"},
         {"interleave", v, "", "/workload/parallelism/interleave"},
         {"slot: one micro-batch through the slowest stage", slot.total, "s", "sum of its operations (docs/model.md)"},
         {"exposed DP communication", tot.dpExposed, "s", "gradient reduction beyond the last backward"},
         {"communication hidden behind compute", tot.hidden, "s",
          "DP, ZeRO-3 gathers, overlapped TP and ring CP that compute covers"},
         {"slowdown of compute beside overlapped communication", kOverlapSlowdown, "",
          "Lee et al. 2025, arXiv 2507.03114 (mean)"},
         {"optimizer step", tot.optimizerS, "s", "18 bytes per parameter at HBM speed"},
         {"straggler cv", stragglerCv, "", "/operations/straggler_cv"},
         {"GPUs", gpus, "", "tp x pp x cp x dp"}}};
    // Where each kind of kernel's speed came from.
    for (const StepPart& part : st.breakdown)
        if (part.compute())
            st.explainStep.inputs.push_back(
                {std::string(part.name()) + " per step", part.seconds, "s", kernelTierSource(g, part)});
    st.explainMfu = {"MFU = model FLOPs per step / (step time x GPUs x peak)",
                     {{"model FLOPs per step", st.modelFlopsPerStep, "FLOP",
                       "3 x forward FLOPs; attention's causal half (Megatron's num_floating_point_operations)"},
                      {"step time", st.stepS, "s", "this model"},
                      {"GPUs", gpus, "", "tp x pp x cp x dp"},
                      g.trainingPeakTflops.as("peak (" + g.trainingPrecision + ", dense)", "TFLOP/s")}};
    st.explainTokens = {"tokens/s = global batch x sequence length / step time",
                        {{"global batch", double(w.globalBatch), "sequences", "/workload/training/global_batch"},
                         {"sequence length", double(w.seq), "tokens", "/workload/model/seq_len"},
                         {"step time", st.stepS, "s", "this model"}}};
}

}  // namespace

StepTime modelStepTime(const HardwareProfile& hw, const Hierarchy& hier, const WorkloadShape& w, double stragglerCv,
                       bool explain)
{
    StepTime st;
    const auto& g = hw.gpu;
    if (!canModel(hw))
        return st;

    const Machine mc = machineOf(g);
    const MicroBatch mb = microBatchOf(w);
    std::vector<OpPoint> ops;
    ops.reserve(24);
    const LayerCost layer = modelBlock(mc, w, mb, ops);
    const LayerComm comm = modelLayerComm(hier, w, mb, layer);
    const Slot slot = modelPipeline(mc, hier, w, mb, layer, comm, ops);
    const StepTotals tot = modelDataParallel(mc, hw, hier, w, slot, stragglerCv, ops);

    const double m = w.microBatches;
    st.stragglerFactor = tot.stragglerFactor;
    st.stepS = tot.stepS;
    st.slotS = slot.total;
    st.microBatches = m;
    st.bubbleFraction = slot.bubble / (m * slot.total + slot.bubble);
    st.breakdown = breakdownOf(slot, m, tot, w);
    st.commS = {m * slot.tpAll, m * slot.cpAll, m * slot.ep, m * slot.ppSends, tot.dpAll};
    st.computeS = m * (slot.gemm + slot.attn + slot.mem + slot.out + slot.re);
    countFlops(st, mc, w, mb);
    st.ops = std::move(ops);
    st.valid = true;
    if (explain)
        explainStepTime(st, g, w, slot, tot, stragglerCv);
    return st;
}

double stepTimeFloor(const HardwareProfile& hw, const WorkloadShape& w, double stragglerCv)
{
    if (!canModel(hw))
        return 0;
    const Machine mc = machineOf(hw.gpu);
    const MicroBatch mb = microBatchOf(w);
    std::vector<OpPoint> ops;
    ops.reserve(24);
    const LayerCost L = modelBlock(mc, w, mb, ops);
    // The slot's GEMMs, attention and output layer: recompute, memory-bound
    // kernels and communication only add to it.
    const double slotCompute =
        w.layersPerStage * (L.gemmF + L.gemmB + L.attnF + L.attnB) + modelOutputLayer(mc, mb).seconds;
    const double slots = w.microBatches + double(w.pp - 1) / double(w.interleave);
    return slots * slotCompute * stragglerFactorOf(stragglerCv, w.gpusUsed);
}

}  // namespace studio
