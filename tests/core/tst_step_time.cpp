// The performance models on hand-built inputs, every expected number worked
// out from docs/model.md: step time (section 5), the hardware profile and
// the hierarchy (section 4), the waterfall from peak to delivered (section
// 11) and the roofline (section 12).
//
// Most step-time tests use one toy, chosen so the arithmetic stays short:
//   GPU: peak 1,000 TFLOP/s (bf16), eta_gemm = eta_attn = eta_hbm = 0.5,
//        HBM 10 TB/s; so gemmS = F / 5e14 and memS = B / 5e12 whenever the
//        size factors are 1.
//   model: L 2, h 8,192, a 64 (d 128), MHA (kv = h), f = 4h = 32,768 GeLU,
//        V 32,768, s 8,192, flash attention, no dropout; micro-batch 1.
//   T = b s / c = 8,192 tokens per micro-batch.
// Every GEMM has F >= 128e9 FLOP (gf = 1) and every kernel moves >= 1e8 B
// (mf = 1), and every GEMM is compute-bound, weight-gradient GEMMs with
// their fp32 traffic included (blockOperationsOfADenseModel checks it).
#include <QtTest>

#include <cmath>

#include "core/analysis/hardware_profile.h"
#include "core/analysis/hierarchy.h"
#include "core/analysis/roofline.h"
#include "core/analysis/step_time.h"
#include "core/analysis/utilization.h"
#include "core/analysis/workload_shape.h"
#include "core/design/model_presets.h"
#include "core/model/analysis.h"
#include "tests/core/hand_built.h"

using namespace studio;
using test::cable;
using test::kExact;
using test::onlyProblem;
using test::part;
using test::shapeOf;
using test::toyWorkload;

namespace {

constexpr double kGemmRate = 1e15 * 0.5;  // peak x eta_gemm, FLOP/s
constexpr double kMemRate = 10e12 * 0.5;  // HBM x eta_hbm, B/s
constexpr double T = 8192, h = 8192, f = 32768, V = 32768, s = 8192;

HardwareProfile toyGpu(std::int64_t gpus)
{
    HardwareProfile hw;
    hw.gpus = gpus;
    hw.nodes = std::max<std::int64_t>(1, gpus / 8);
    hw.gpusPerNode = 8;
    hw.scaleupDomainGpus = 8;
    AcceleratorProfile& g = hw.gpu;
    g.part = "test.gpu";
    g.name = "Test GPU";
    g.component = 0;
    g.peaksTflops["bf16"] = {1000, "test"};
    g.peaksTflops["fp8"] = {2000, "test"};
    g.trainingPeakTflops = {1000, "test"};
    g.bf16PeakTflops = 1000;
    g.trainingPrecision = "bf16";
    g.hbmGb = {80, "test"};
    g.hbmTbPerS = {10, "test"};
    g.scaleupGbPerS = {400, "test"};
    g.gemmEfficiency = {0.5, "test"};
    g.attentionEfficiency = {0.5, "test"};
    g.hbmEfficiency = {0.5, "test"};
    g.scaleupEfficiency = {0.5, "test"};
    return hw;
}

Tier commTier(const char* key, std::int64_t scope, double bytesPerS, double alphaS)
{
    Tier t;
    t.key = key;
    t.name = key;
    t.scopeGpus = scope;
    t.collectiveBytesPerS = bytesPerS;
    t.alphaS = alphaS;
    t.carriesCollectives = true;
    return t;
}

// HBM, NVLink (one direction x efficiency, alpha 1 us), a leaf reaching
// everything (alpha 5 us) and storage, built by hand so the step-time tests
// do not depend on buildHierarchy.
Hierarchy toyHierarchy(std::int64_t nvlinkScope = 8, double nvlinkBw = 100e9, double leafBw = 10e9)
{
    Hierarchy hi;
    Tier hbm;
    hbm.key = "hbm";
    hbm.scopeGpus = 1;
    Tier storage;
    storage.key = "storage";
    storage.scopeGpus = 1 << 20;
    hi.tiers = {hbm, commTier("nvlink", nvlinkScope, nvlinkBw, 1e-6), commTier("leaf", 1 << 20, leafBw, 5e-6), storage};
    return hi;
}

// A kernel profile for the toy GPU, built in code (the reader is
// tst_kernels'): a bf16 GEMM table and, optionally, fused attention.
std::shared_ptr<const KernelProfile> toyKernels(KernelGrid gemm, std::optional<KernelGrid> attention = {})
{
    auto k = std::make_shared<KernelProfile>();
    k->gpu = "Test GPU";
    k->origin = "test";
    k->dataVersion = "test";
    k->date = "2026-11-27";
    k->parts = {"test.gpu"};
    k->peaksTflops["bf16"] = 1000;
    k->hbmTbPerS = 10;  // measured on the toy GPU itself
    k->gemm.emplace("bf16", std::move(gemm));
    k->attentionForward = std::move(attention);
    return k;
}

const StepPart& partOf(const StepTime& st, StepPartId id)
{
    for (const auto& p : st.breakdown)
        if (p.id == id)
            return p;
    qFatal("no breakdown part %s", std::string(stepPartInfo(id).key).c_str());
    return st.breakdown.front();
}

double timeOf(const StepTime& st, StepPartId id)
{
    return partOf(st, id).seconds;
}

const OpPoint* op(const StepTime& st, std::string_view name)
{
    for (const auto& o : st.ops)
        if (o.name == name)
            return &o;
    return nullptr;
}

std::vector<std::string> opNames(const StepTime& st)
{
    std::vector<std::string> names;
    for (const auto& o : st.ops)
        names.emplace_back(o.name);
    return names;
}

// The toy slot (section 5, "The pipeline"), worked out once:
//   GEMMs per layer, forward: QKV 2T h 3h + output 2T h h + up 2T h f + down
//     2T f h = 24 T h^2 = 1.3194e13 FLOP -> / 5e14 = 0.026388279066624 s;
//     backward = 2 x forward (both GEMMs compute-bound).
//   fused attention: F = 4 (b a) s s d = 2.199e12, executed F/2 = 1.0995e12
//     -> / (peak16 x eta_attn) = 2.199023255552e-3 s; backward 2.5 x.
//   memory-bound: 4 kernels over T h = 67,108,864 elements, 5 passes each
//     (norm 2+3, residual 3+2), GeLU over T f = 268,435,456 with 2+3:
//     (20 x 67,108,864 + 5 x 268,435,456) x 2 B = 5,368,709,120 B
//     -> / 5e12 = 1.073741824e-3 s per layer.
//   output layer: 2T h V = 4.398e12 -> 8.796093022208e-3 s, forward +
//     2 backward GEMMs; the fp32 loss over T V = 268,435,456 logits moves
//     38 + 14 B each -> 2.7917287424e-3 s: 0.029180007809024 s.
//   slot = 2 x (3 x 0.026388279066624 + 3.5 x 2.199023255552e-3
//          + 1.073741824e-3) + 0.029180007809024 = 0.205050328645632 s
constexpr double kGemmFwdPerLayer = 24 * T * h * h / kGemmRate;
constexpr double kAttnFwdPerLayer = 4 * 64 * s * s * 128 * 0.5 / kGemmRate;
constexpr double kMemPerLayer = (20 * T * h + 5 * T * f) * 2 / kMemRate;
constexpr double kOutput = 3 * (2 * T * h * V) / kGemmRate + (38 + 14) * T * V / kMemRate;
constexpr double kToySlot = 0.205050328645632;
// Parameters on the GPU (section 3): 2 x (4h^2 + 2 h f) + 2 V h = 2^31.
constexpr double kToyParams = 2147483648.0;

}  // namespace

class TestStepTime : public QObject {
    Q_OBJECT
private slots:
    // ---- step time (docs/model.md section 5) ------------------------------

    // ---- measured kernels (docs/kernel-profiles.md) -----------------------

    void measuredGemmsAndAttentionReplaceTheFactors()
    {
        // A profile measured every GEMM at 0.25 of the peak and fused
        // attention at 0.4: the toy's GEMMs take twice their catalog time
        // (eta_gemm 0.5), attention 0.5 / 0.4 of it; the memory-bound
        // kernels keep the catalog's 0.5 (the profile has no memory table).
        HardwareProfile hw = toyGpu(1);
        hw.gpu.kernels = toyKernels(KernelGrid({{1024}, {1024}, {1024}}, {0.25}), KernelGrid({{128}, {8192}}, {0.4}));
        const StepTime st = modelStepTime(hw, toyHierarchy(), shapeOf(toyWorkload(), 1), 0);
        const double gemmRate = 1e15 * 0.25, attnRate = 1e15 * 0.4;
        const double executed = 4 * 64 * s * s * 128 * 0.5;
        // m x layers x (forward + data gradient + weight gradient) x 24 T h^2 FLOPs.
        COMPARE_REL(timeOf(st, StepPartId::Gemm), 4 * 2 * 3 * 24 * T * h * h / gemmRate, kExact);  // 1.266637395197952
        // The measured forward's backward: 2.5 x its FLOPs at 0.86 of its
        // throughput, the published backward share at 8,192 tokens, and
        // the explanation says so.
        const double attnPasses = 1 + 2.5 / 0.86;
        COMPARE_REL(timeOf(st, StepPartId::Attention), 4 * 2 * attnPasses * executed / attnRate, kExact);
        QVERIFY(kernelTierSource(hw.gpu, partOf(st, StepPartId::Attention))
                    .find("the backward at its published share of the forward's throughput, 0.66 at 512 tokens to "
                          "0.87 from 16,384") != std::string::npos);
        COMPARE_REL(timeOf(st, StepPartId::MemoryBound), 4 * 2 * kMemPerLayer, kExact);
        const double output = 3 * 2 * T * h * V / gemmRate + (38 + 14) * T * V / kMemRate;
        COMPARE_REL(timeOf(st, StepPartId::OutputLayer), 4 * output, kExact);
        const double slot =
            2 * (3 * 24 * T * h * h / gemmRate + attnPasses * executed / attnRate + kMemPerLayer) + output;
        COMPARE_REL(st.slotS, slot, kExact);
        COMPARE_REL(st.stepS, 4 * slot + 7.7309411328e-3, kExact);  // 1.6160...
        // Every GEMM of the toy lies beyond the one-point grid: the edge
        // value held. Attention's head size and sequence are the table's
        // point. Memory-bound kernels had no table.
        QCOMPARE(partOf(st, StepPartId::Gemm).tier, std::optional(KernelTier::Edge));
        QCOMPARE(partOf(st, StepPartId::Attention).tier, std::optional(KernelTier::Measured));
        QCOMPARE(partOf(st, StepPartId::MemoryBound).tier, std::optional(KernelTier::CatalogFactor));
        QVERIFY(!partOf(st, StepPartId::PipelineBubble).tier);
        QCOMPARE(op(st, "QKV projection")->tier, KernelTier::Edge);
        // The step's explanation names where each kind of kernel came from.
        bool named = false;
        for (const auto& in : st.explainStep.inputs)
            if (in.name == "GEMMs per step") {
                named = true;
                QCOMPARE(QString::fromStdString(in.source),
                         QString("held at the edge of the measured range: Test GPU kernel profile (test; test; "
                                 "2026-11-27)"));
            }
        QVERIFY(named);
    }

    void eachGemmIsLookedUpAtItsOwnShape()
    {
        // Efficiency 0.2 at 1,024 rows and 0.8 at 32,768, log-linear
        // between: 8,192 rows (3/5 of the way in log2) run at
        // 0.2^0.4 x 0.8^0.6 = 0.4595. The
        // forward and data-gradient GEMMs have T = 8,192 rows; the weight
        // gradient has K rows: h = 8,192 for QKV, attention output and MLP
        // up, f = 32,768 (0.8) for MLP down.
        HardwareProfile hw = toyGpu(1);
        hw.gpu.kernels = toyKernels(KernelGrid({{1024, 32768}, {1024}, {1024}}, {0.2, 0.8}));
        const StepTime st = modelStepTime(hw, toyHierarchy(), shapeOf(toyWorkload(), 1), 0);
        const double at8k = 1e15 * std::pow(0.2, 0.4) * std::pow(0.8, 0.6), at32k = 1e15 * 0.8;
        const double perLayer = 24 * T * h * h / at8k         // forward: QKV 6, output 2, up 8, down 8 T h^2
            + 24 * T * h * h / at8k                           // data gradients
            + 16 * T * h * h / at8k + 8 * T * h * h / at32k;  // weight gradients
        COMPARE_REL(timeOf(st, StepPartId::Gemm), 4 * 2 * perLayer, 1e-12);
        COMPARE_REL(op(st, "MLP down projection")->seconds, 8 * T * h * h / at8k, 1e-12);
        // Attention had no table: the catalog's factor, and it says so.
        COMPARE_REL(timeOf(st, StepPartId::Attention), 4 * 2 * 3.5 * kAttnFwdPerLayer, kExact);
        QCOMPARE(partOf(st, StepPartId::Attention).tier, std::optional(KernelTier::CatalogFactor));
        QVERIFY(kernelTierSource(hw.gpu, partOf(st, StepPartId::Attention))
                    .rfind("catalog factor: attention_efficiency 0.5", 0) == 0);
    }

    void withoutAProfileTheCatalogFactorsAndTheirTier()
    {
        const StepTime st = modelStepTime(toyGpu(1), toyHierarchy(), shapeOf(toyWorkload(), 1), 0);
        COMPARE_REL(st.slotS, kToySlot, kExact);
        QCOMPARE(partOf(st, StepPartId::Gemm).tier, std::optional(KernelTier::CatalogFactor));
        QCOMPARE(QString::fromStdString(kernelTierSource(toyGpu(1).gpu, partOf(st, StepPartId::Gemm))),
                 QString("catalog factor: gemm_efficiency 0.5 scaled by kernel size (test); no kernel profile for "
                         "'test.gpu'"));
    }

    void sizeFactorsInterpolateInLogSize()
    {
        // gf: 0.1/0.95 at 1e7, 0.6/0.95 at 1e9, 0.9/0.95 at 16e9, 1 from 128e9.
        COMPARE_REL(gemmSizeFactor(1e7), 0.1 / 0.95, kExact);
        COMPARE_REL(gemmSizeFactor(1e9), 0.6 / 0.95, kExact);
        COMPARE_REL(gemmSizeFactor(16e9), 0.9 / 0.95, kExact);
        QCOMPARE(gemmSizeFactor(128e9), 1.0);
        QCOMPARE(gemmSizeFactor(1e15), 1.0);                   // clamped above
        COMPARE_REL(gemmSizeFactor(1e3), 0.1 / 0.95, kExact);  // clamped below
        // Linear in log(size): 1e8 is halfway from 1e7 to 1e9, 4e9 halfway
        // from 1e9 to 16e9 (sqrt(1e9 x 16e9) = 4e9).
        COMPARE_REL(gemmSizeFactor(1e8), (0.1 + 0.6) / 2 / 0.95, kExact);
        COMPARE_REL(gemmSizeFactor(4e9), (0.6 + 0.9) / 2 / 0.95, kExact);
        // mf: 0.3/0.9 at 1e4 B, 0.6/0.9 at 1e6, 0.75/0.9 at 1e7, 1 from 1e8.
        COMPARE_REL(memorySizeFactor(1e4), 0.3 / 0.9, kExact);
        COMPARE_REL(memorySizeFactor(1e5), (0.3 + 0.6) / 2 / 0.9, kExact);  // = 0.5
        COMPARE_REL(memorySizeFactor(std::sqrt(1e6 * 1e7)), (0.6 + 0.75) / 2 / 0.9, kExact);
        COMPARE_REL(memorySizeFactor(1e10), 1.0, kExact);
        COMPARE_REL(memorySizeFactor(10), 0.3 / 0.9, kExact);
    }

    void blockOperationsOfADenseModel()
    {
        const StepTime st = modelStepTime(toyGpu(1), toyHierarchy(), shapeOf(toyWorkload(), 1), 0);
        QVERIFY(st.valid);
        QCOMPARE(opNames(st),
                 (std::vector<std::string>{"attention norm", "QKV projection", "attention (fused)",
                                           "attention output projection", "residual add", "MLP norm",
                                           "MLP up projection", "GeLU", "MLP down projection", "residual add",
                                           "output layer (logits)", "optimizer step (Adam)"}));
        // Each op: FLOPs, bytes and forward seconds (section 5 "GEMMs",
        // "Memory-bound kernels"; section 12 for the roofline fields).
        struct Expected {
            const char* name;
            const char* kind;
            double flops, bytes, seconds;
        };
        const Expected rows[] = {
            // n = r h = 67,108,864; 4 FLOPs per element; 2 passes x 2 B.
            {"attention norm", "memory", 4 * T * h, 2 * 2 * T * h, 2 * 2 * T * h / kMemRate},
            // T x h x 3h: F = 3,298,534,883,328, B = (Th + 3h^2 + 3Th) x 2 = 939,524,096.
            {"QKV projection", "gemm", 2 * T * h * 3 * h, (T * h + h * 3 * h + T * 3 * h) * 2,
             2 * T * h * 3 * h / kGemmRate},
            // Executed F/2 = 1,099,511,627,776; reads Q, K, V, writes O: 2T(h + kv) x 2 B.
            {"attention (fused)", "attention", 2 * 64 * s * s * 128, 2 * T * (h + h) * 2, kAttnFwdPerLayer},
            {"attention output projection", "gemm", 2 * T * h * h, 3 * T * h * 2, 2 * T * h * h / kGemmRate},
            {"residual add", "memory", 4 * T * h, 3 * 2 * T * h, 3 * 2 * T * h / kMemRate},
            {"MLP norm", "memory", 4 * T * h, 2 * 2 * T * h, 2 * 2 * T * h / kMemRate},
            // T x h x f: F = 4,398,046,511,104, B = (Th + hf + Tf) x 2 = 1,207,959,552.
            {"MLP up projection", "gemm", 2 * T * h * f, (T * h + h * f + T * f) * 2, 2 * T * h * f / kGemmRate},
            // n = T f = 268,435,456, 2 passes forward.
            {"GeLU", "memory", 4 * T * f, 2 * 2 * T * f, 2 * 2 * T * f / kMemRate},
            {"MLP down projection", "gemm", 2 * T * f * h, (T * f + f * h + T * h) * 2, 2 * T * f * h / kGemmRate},
            // T x h x V/t, once on the last stage.
            {"output layer (logits)", "gemm", 2 * T * h * V, (T * h + h * V + T * V) * 2, 2 * T * h * V / kGemmRate},
            // 10 FLOPs and 18 B per parameter (section 5 constants), 2^31 parameters.
            {"optimizer step (Adam)", "optimizer", 10 * kToyParams, 18 * kToyParams, 18 * kToyParams / kMemRate},
        };
        for (const Expected& e : rows) {
            const OpPoint* o = op(st, e.name);
            QVERIFY2(o, e.name);
            QCOMPARE(std::string(o->kind), std::string(e.kind));
            COMPARE_REL(o->flops, e.flops, kExact);
            COMPARE_REL(o->bytes, e.bytes, kExact);
            COMPARE_REL(o->seconds, e.seconds, kExact);
        }
        // Literal spot checks of the arithmetic above.
        COMPARE_REL(op(st, "QKV projection")->flops, 3298534883328.0, kExact);
        COMPARE_REL(op(st, "QKV projection")->seconds, 6.597069766656e-3, kExact);
        COMPARE_REL(op(st, "attention (fused)")->seconds, 2.199023255552e-3, kExact);
        COMPARE_REL(op(st, "optimizer step (Adam)")->seconds, 7.7309411328e-3, kExact);
        // The premise of the toy: the up projection's weight-gradient GEMM,
        // the one with the most fp32 traffic per FLOP, stays compute-bound:
        // (1,207,959,552 + h f x 2 x 4 B) / 5e12 = 6.7e-4 s < 8.8e-3 s.
        QVERIFY((T * h + h * f + T * f) * 2 + h * f * 8 < 2 * T * h * f / kGemmRate * kMemRate);
    }

    void unfusedAttentionDropoutSwigluAndMoeOperations()
    {
        Workload w = toyWorkload();
        w.training.attention_kernel = "unfused";
        w.model.dropout = 0.1;
        w.model.ffn_type = "swiglu";
        StepTime st = modelStepTime(toyGpu(1), toyHierarchy(), shapeOf(w, 1), 0);
        // Section 5 tables, forward order: the unfused core, a dropout after
        // attention and after the MLP, SwiGLU's gate and up in one GEMM.
        QCOMPARE(opNames(st),
                 (std::vector<std::string>{"attention norm", "QKV projection", "attention scores QK^T", "softmax",
                                           "attention dropout", "attention over values", "attention output projection",
                                           "dropout", "residual add", "MLP norm", "MLP gate and up projection",
                                           "SwiGLU", "MLP down projection", "dropout", "residual add",
                                           "output layer (logits)", "optimizer step (Adam)"}));
        // Attention dropout over (b a/t)(s/c) s = 64 x 8,192^2 elements at
        // 2.5 passes (1-byte mask); dropout after attention over r h.
        COMPARE_REL(op(st, "attention dropout")->bytes, 64 * s * s * 2.5 * 2, kExact);
        COMPARE_REL(op(st, "dropout")->bytes, T * h * 2.5 * 2, kExact);
        // SwiGLU: T k f/t elements, 3 passes forward; the gate-and-up GEMM is
        // T x h x 2f.
        COMPARE_REL(op(st, "SwiGLU")->bytes, T * f * 3 * 2, kExact);
        COMPARE_REL(op(st, "MLP gate and up projection")->flops, 2 * T * h * 2 * f, kExact);

        // Mixture of experts: a router after the MLP norm.
        w = toyWorkload();
        w.model.experts = 8;
        w.model.experts_per_token = 2;
        st = modelStepTime(toyGpu(1), toyHierarchy(), shapeOf(w, 1), 0);
        QCOMPARE(opNames(st)[6], std::string("router"));
        QCOMPARE(opNames(st)[7], std::string("router softmax"));
        // The token dispatcher copies each token once per expert it visits
        // (read + write), and sums the k copies back after the experts.
        QCOMPARE(opNames(st)[8], std::string("token permutation"));
        COMPARE_REL(op(st, "token permutation")->bytes, T * 2 * h * 2 * 2, kExact);
        QCOMPARE(opNames(st)[12], std::string("token unpermutation"));
        COMPARE_REL(op(st, "token unpermutation")->bytes, T * 2 * h * 1.5 * 2, kExact);
    }

    void stepTimeOfTheToyByHand()
    {
        const StepTime st = modelStepTime(toyGpu(1), toyHierarchy(), shapeOf(toyWorkload(), 1), 0.01);
        QVERIFY(st.valid);
        // m = B / (b dp) = 4 / 1 (section 3).
        QCOMPARE(st.microBatches, 4.0);
        COMPARE_REL(st.slotS, 2 * (3 * kGemmFwdPerLayer + 3.5 * kAttnFwdPerLayer + kMemPerLayer) + kOutput, kExact);
        COMPARE_REL(st.slotS, kToySlot, kExact);
        // Breakdown (section 5): m x ceil(L/p) x each layer part.
        COMPARE_REL(timeOf(st, StepPartId::Gemm), 4 * 2 * 3 * kGemmFwdPerLayer, kExact);         // 0.633318697598976
        COMPARE_REL(timeOf(st, StepPartId::Attention), 4 * 2 * 3.5 * kAttnFwdPerLayer, kExact);  // 0.061572651155456
        COMPARE_REL(timeOf(st, StepPartId::MemoryBound), 4 * 2 * kMemPerLayer, kExact);          // 0.008589934592
        COMPARE_REL(timeOf(st, StepPartId::OutputLayer), 4 * kOutput, kExact);                   // 0.116720031236096
        // Selective recompute with flash attention re-runs nothing.
        QCOMPARE(timeOf(st, StepPartId::Recompute), 0.0);
        // One GPU: no communication, no bubble; the optimizer streams 18 B
        // per parameter: 18 x 2^31 / 5e12 = 7.7309411328e-3 s.
        for (StepPartId p : {StepPartId::TpComm, StepPartId::CpComm, StepPartId::EpComm, StepPartId::PpComm,
                             StepPartId::PipelineBubble, StepPartId::DpComm})
            QVERIFY2(timeOf(st, p) == 0, std::string(stepPartInfo(p).key).c_str());
        COMPARE_REL(timeOf(st, StepPartId::Optimizer), 7.7309411328e-3, kExact);
        // Stragglers: 1 + cv sqrt(2 ln 1) = 1 on one GPU, whatever cv.
        QCOMPARE(st.stragglerFactor, 1.0);
        QCOMPARE(timeOf(st, StepPartId::Stragglers), 0.0);
        QCOMPARE(st.bubbleFraction, 0.0);
        // step = m x slot + optimizer = 4 x 0.205050328645632 + 0.0077309411328.
        COMPARE_REL(st.stepS, 0.827932255715328, kExact);

        // FLOPs (section 5), Megatron's causal count: layer forward per
        // sequence 2sh(h + 2kv) + 2sh^2 + 2s^2 h (the causal half of QK^T
        // and AV) + 4shf = 26 h^3 with s = h, f = 4h; per sequence
        // L x 26h^3 + 2shV = 60 h^3; model = 3 B 60 h^3 = 720 x 2^39.
        QCOMPARE(st.modelFlopsPerStep, 395824185999360.0);
        QCOMPARE(st.modelFlopsPerStep, 720 * h * h * h);
        QCOMPARE(st.hardwareFlopsPerStep, st.modelFlopsPerStep);  // nothing re-run
        // 100% MFU: model FLOPs / (N x peak) = 0.39582418599936 s.
        COMPARE_REL(st.computeAtPeakS, 0.39582418599936, kExact);
        COMPARE_REL(st.mfu, 0.39582418599936 / 0.827932255715328, kExact);  // 0.4781
        COMPARE_REL(st.tflopsPerGpuModel, 395824185999360.0 / 0.827932255715328 / 1e12, kExact);
        COMPARE_REL(st.hfu, st.mfu, kExact);
        // tokens/s = B s / step; days = tokens / (tokens/s) / 86,400.
        COMPARE_REL(st.tokensPerS, 4 * 8192 / 0.827932255715328, kExact);  // 39,578
        COMPARE_REL(st.daysToTrain, 1e12 / (4 * 8192 / 0.827932255715328) / 86400, kExact);
    }

    void fullRecomputeRerunsTheWholeForward()
    {
        Workload w = toyWorkload();
        w.parallelism.recompute = "full";
        const StepTime st = modelStepTime(toyGpu(1), toyHierarchy(), shapeOf(w, 1), 0);
        // Every op's forward again: GEMMs 0.026388279066624 + attention
        // 2.199023255552e-3 + kernels' forward passes (10 x T h + 2 x T f
        // elements x 2 B = 2,415,919,104 B / 5e12 = 4.831838208e-4 s).
        const double perLayer = kGemmFwdPerLayer + kAttnFwdPerLayer + (10 * T * h + 2 * T * f) * 2 / kMemRate;
        COMPARE_REL(timeOf(st, StepPartId::Recompute), 4 * 2 * perLayer, kExact);  // 0.232563889143808
        COMPARE_REL(st.slotS, kToySlot + 2 * perLayer, kExact);
        // Hardware FLOPs add B x L x layer forward = 4 x 2 x 26 h^3:
        // (720 + 208) h^3 against 720 h^3 of model FLOPs.
        QCOMPARE(st.modelFlopsPerStep, 720 * h * h * h);
        QCOMPARE(st.hardwareFlopsPerStep, 928 * h * h * h);
        COMPARE_REL(st.hfu / st.mfu, 928.0 / 720.0, kExact);
    }

    void selectiveRecomputeRerunsOnlyTheUnfusedCore()
    {
        Workload w = toyWorkload();
        w.training.attention_kernel = "unfused";
        const StepTime st = modelStepTime(toyGpu(1), toyHierarchy(), shapeOf(w, 1), 0);
        // QK^T: (s/c) x d x s, batch b a/t = 64: F = 2 s^2 h = 1.0995e12;
        // B = (s d + d s + s^2) x 64 x 2 = 8,858,370,048 -> 1.77e-3 s of
        // memory against 2.2e-3 s of compute: compute-bound. Over values is
        // s x s x d, the same F and B. No weight gradient: backward 2 x.
        const double scores = 2 * s * s * h / kGemmRate;
        COMPARE_REL(op(st, "attention scores QK^T")->bytes, 8858370048.0, kExact);
        COMPARE_REL(op(st, "attention scores QK^T")->seconds, scores, kExact);
        COMPARE_REL(op(st, "attention over values")->seconds, scores, kExact);
        COMPARE_REL(timeOf(st, StepPartId::Attention), 4 * 2 * 6 * scores, kExact);
        // Softmax over 64 s^2 = 4,294,967,296 elements: 2 passes forward.
        const double softmaxF = 64 * s * s * 2 * 2 / kMemRate;  // 3.4359738368e-3 s
        COMPARE_REL(op(st, "softmax")->seconds, softmaxF, kExact);
        COMPARE_REL(timeOf(st, StepPartId::MemoryBound), 4 * 2 * (kMemPerLayer + 64 * s * s * 5 * 2 / kMemRate),
                    kExact);
        // Selective: both attention GEMMs and the softmax run again.
        COMPARE_REL(timeOf(st, StepPartId::Recompute), 4 * 2 * (2 * scores + softmaxF), kExact);
        // Model FLOPs count the causal half of attention either way, and
        // hardware FLOPs add the re-run core's causal half, B L 2 s^2 h =
        // 16 h^3 (s = h), by the same convention.
        QCOMPARE(st.modelFlopsPerStep, 720 * h * h * h);
        QCOMPARE(st.hardwareFlopsPerStep, 736 * h * h * h);
    }

    void noRecomputeRerunsNothing()
    {
        Workload w = toyWorkload();
        w.training.attention_kernel = "unfused";
        w.parallelism.recompute = "none";
        const StepTime st = modelStepTime(toyGpu(1), toyHierarchy(), shapeOf(w, 1), 0);
        QCOMPARE(timeOf(st, StepPartId::Recompute), 0.0);
        QCOMPARE(st.hardwareFlopsPerStep, st.modelFlopsPerStep);
    }

    void tensorParallelCommunicationWithAndWithoutSequenceParallelism()
    {
        // tp 2 on NVLink (100 GB/s collective, alpha 1 us); buffer T h 2 B =
        // 134,217,728 B, at which a scale-up collective reaches
        // scaleupMessageFactor(M) of its bus bandwidth; m = 4, ceil(L/p) = 2.
        const double buffer = T * h * 2;
        const double bw = 100e9 * scaleupMessageFactor(buffer);
        const double rs = 0.5 * buffer / bw + 1e-6;      // (n-1)/n M/bw + (n-1) alpha
        const double ar = 2 * 0.5 * buffer / bw + 2e-6;  // 2(n-1)/n M/bw + 2(n-1) alpha
        Workload w = toyWorkload();
        w.parallelism.tp = 2;
        StepTime st = modelStepTime(toyGpu(2), toyHierarchy(), shapeOf(w, 2), 0);
        // Sequence parallel: the same volume as the all-reduces it replaces
        // (Korthikanti et al.): 4 gathers/scatters forward, 4 backward (the
        // weight gradient's re-gather overlaps the data-gradient GEMM).
        COMPARE_REL(timeOf(st, StepPartId::TpComm), 4 * 2 * 8 * rs, kExact);
        // Its norms and residuals see r = T/t tokens; QKV is T x h x 3h/t.
        COMPARE_REL(op(st, "attention norm")->bytes, T / 2 * h * 2 * 2, kExact);
        COMPARE_REL(op(st, "QKV projection")->flops, 2 * T * h * 3 * h / 2, kExact);
        w.parallelism.recompute = "full";
        st = modelStepTime(toyGpu(2), toyHierarchy(), shapeOf(w, 2), 0);
        COMPARE_REL(timeOf(st, StepPartId::TpComm), 4 * 2 * 12 * rs, kExact);  // + 4 under full recompute

        // Without sequence parallelism: 2 + 2 all-reduces, + 2 under full.
        w.parallelism.sequence_parallel = false;
        w.parallelism.recompute = "selective";
        st = modelStepTime(toyGpu(2), toyHierarchy(), shapeOf(w, 2), 0);
        COMPARE_REL(timeOf(st, StepPartId::TpComm), 4 * 2 * 4 * ar, kExact);  // 0.04301367296
        COMPARE_REL(op(st, "attention norm")->bytes, T * h * 2 * 2, kExact);  // r = T
        w.parallelism.recompute = "full";
        st = modelStepTime(toyGpu(2), toyHierarchy(), shapeOf(w, 2), 0);
        COMPARE_REL(timeOf(st, StepPartId::TpComm), 4 * 2 * 6 * ar, kExact);  // 0.06452050944
    }

    void tensorParallelOverlapLeavesWhatTheGemmsCannotCover()
    {
        // tp 8 on NVLink: each direction's 4 gathers/scatters pipelined with
        // the block's GEMMs leave max(comm - GEMMs, comm / tp) exposed.
        const double buffer = T * h * 2;
        const double rs = 7.0 / 8 * buffer / (100e9 * scaleupMessageFactor(buffer)) + 7e-6;
        const double gemmF = 24 * T * h * h / 8 / kGemmRate;  // the block's GEMMs split 8 ways
        Workload w = toyWorkload();
        w.model.heads = 64;
        w.parallelism.tp = 8;
        const StepTime plain = modelStepTime(toyGpu(8), toyHierarchy(), shapeOf(w, 8), 0);
        COMPARE_REL(timeOf(plain, StepPartId::TpComm), 4 * 2 * 8 * rs, kExact);
        w.parallelism.tp_comm_overlap = true;
        StepTime st = modelStepTime(toyGpu(8), toyHierarchy(), shapeOf(w, 8), 0);
        // Forward: 4 rs = 6.0e-3 s against 3.3e-3 s of GEMMs, so the excess
        // shows; backward's GEMMs (twice as long) cover all but one chunk.
        QVERIFY(4 * rs > gemmF && 4 * rs - 2 * gemmF < 4 * rs / 8);
        COMPARE_REL(timeOf(st, StepPartId::TpComm), 4 * 2 * ((4 * rs - gemmF) + 4 * rs / 8), 1e-9);
        // What the GEMMs hide (gemmF forward, 4 rs - rs/2 backward) slows them
        // by 18.9% (dp 1: nothing else overlaps).
        QCOMPARE(timeOf(plain, StepPartId::OverlapContention), 0.0);
        COMPARE_REL(timeOf(st, StepPartId::OverlapContention), 0.189 * 4 * 2 * (gemmF + 4 * rs - 4 * rs / 8), 1e-9);
        QVERIFY(st.stepS < plain.stepS);
        // Everything else is untouched.
        COMPARE_REL(timeOf(st, StepPartId::Gemm), timeOf(plain, StepPartId::Gemm), kExact);

        // Megatron refuses the overlap without sequence parallelism; with
        // tp 1 it does nothing and says so.
        std::vector<Problem> warnings;
        w.parallelism.sequence_parallel = false;
        shapeWorkload(w, 8, warnings);
        const Problem* p = test::findProblem(warnings, "tp_comm_overlap_without_sequence_parallel");
        QVERIFY(p);
        QCOMPARE(p->severity, Severity::Error);
        QCOMPARE(p->pointer, std::string("/workload/parallelism/tp_comm_overlap"));
        warnings.clear();
        w.parallelism.tp = 1;
        w.parallelism.sequence_parallel = true;
        QVERIFY(!shapeWorkload(w, 8, warnings).tpCommOverlap);
        QCOMPARE(test::findProblem(warnings, "tp_comm_overlap_without_tp")->severity, Severity::Warning);
    }

    void pipelineSendsAndInterleavedBubble()
    {
        // L 4 over pp 2 with interleave 2: the stage holds ceil(4/2) = 2
        // layers, the toy's; m = 4. PP span min(N 2, 2 t c dp = 2) fits
        // NVLink: send = T h 2 B / 100e9 + 1 us = 1.34317728e-3 s, 2 v of
        // them per slot.
        Workload w = toyWorkload();
        w.model.layers = 4;
        w.parallelism.pp = 2;
        w.parallelism.interleave = 2;
        StepTime st = modelStepTime(toyGpu(2), toyHierarchy(), shapeOf(w, 2), 0);
        const double send = T * h * 2 / 100e9 + 1e-6;
        const double slot = kToySlot + 2 * 2 * send;  // 0.210423037765632
        COMPARE_REL(st.slotS, slot, kExact);
        COMPARE_REL(timeOf(st, StepPartId::PpComm), 4 * 2 * 2 * send, kExact);  // 0.02149083648
        // Bubble (p - 1)/v x slot; fraction 0.5 / (4 + 0.5) = 1/9.
        COMPARE_REL(timeOf(st, StepPartId::PipelineBubble), 0.5 * slot, kExact);
        COMPARE_REL(st.bubbleFraction, 1.0 / 9.0, kExact);
        // Stage parameters: 2 layers + one embedding, 2 x 12 h^2 + V h =
        // 1,879,048,192; optimizer 18 B each / 5e12 = 6.7645734912e-3 s.
        COMPARE_REL(timeOf(st, StepPartId::Optimizer), 18 * 1879048192.0 / kMemRate, kExact);
        // step = (m + (p-1)/v) slot + optimizer.
        COMPARE_REL(st.stepS, 0.953668243436544, kExact);

        // 1F1B without interleaving: 2 sends, a whole slot of bubble, 1/5.
        w.parallelism.interleave = 1;
        st = modelStepTime(toyGpu(2), toyHierarchy(), shapeOf(w, 2), 0);
        COMPARE_REL(st.slotS, kToySlot + 2 * send, kExact);
        COMPARE_REL(st.bubbleFraction, 1.0 / 5.0, kExact);
        COMPARE_REL(st.stepS, 5 * (kToySlot + 2 * send) + 18 * 1879048192.0 / kMemRate, kExact);
    }

    void slowestStageHoldsTheCeilingOfLayers()
    {
        // 3 layers over 2 stages: the slowest holds ceil(3/2) = 2.
        Workload w = toyWorkload();
        w.model.layers = 3;
        w.parallelism.pp = 2;
        const StepTime st = modelStepTime(toyGpu(2), toyHierarchy(), shapeOf(w, 2), 0);
        COMPARE_REL(timeOf(st, StepPartId::Gemm), 4 * 2 * 3 * kGemmFwdPerLayer, kExact);
        COMPARE_REL(timeOf(st, StepPartId::Attention), 4 * 2 * 3.5 * kAttnFwdPerLayer, kExact);
    }

    void dataParallelReductionIsHierarchicalByZeroStage_data()
    {
        // dp 16, tp 1 on 8-GPU NVLink domains: q = gcd(16, 8/1) = 8 ranks
        // reduce over NVLink (100 GB/s, 1 us), then 16/8 = 2 groups carry
        // 1/8 each over the leaf (1 GB/s, 5 us): span t c dp = 16 > 8.
        //   H(M) = 7/8 M/(1e11 x g(bucket)) + 7 us + 1/2 (M/8)/1e9 + 5 us
        // where Megatron's bucket of max(40M, 1M x dp) = 40M parameters is
        // NVLink's message (4 B each for gradients, 2 for weights) and g the
        // share of bus bandwidth a message that size reaches (P = 2^31).
        // Exposed = dpS - slot (one slot hides, no PP sends); ZeRO-3 has
        // dpS = H(4P) and, per micro-batch, weight gathers G = 2 H(2P) that
        // share the slot with it in the last micro-batch, plus the first
        // layer's gather, which nothing precedes: G/(2 L). Optimizer memS(P/D x 18 B) for ZeRO >= 1,
        // memS(P x 18 B) for 0. What the slot hides (all of it here: the
        // slot, and for ZeRO-3 a slot's worth of gathers per micro-batch)
        // slows the compute beside it by 18.9%.
        QTest::addColumn<int>("zero");
        QTest::addColumn<double>("exposed");
        QTest::addColumn<double>("optimizer");
        QTest::addColumn<double>("hidden");
        auto hier = [](double bytes, double bucket) {
            return 7.0 / 8 * bytes / (100e9 * scaleupMessageFactor(bucket)) + 7e-6 + 0.5 * bytes / 8 / 1e9 + 5e-6;
        };
        const double h4 = hier(4 * kToyParams, 4 * 40e6), h2 = hier(2 * kToyParams, 2 * 40e6);
        const double gather = 2 * h2;
        QTest::newRow("ZeRO 0: all-reduce 2 H(4P)") << 0 << 2 * h4 - kToySlot << 18 * kToyParams / kMemRate << kToySlot;
        QTest::newRow("ZeRO 1: H(4P) + H(2P)")
            << 1 << h4 + h2 - kToySlot << 18 * kToyParams / 16 / kMemRate << kToySlot;
        QTest::newRow("ZeRO 2: as 1") << 2 << h4 + h2 - kToySlot << 18 * kToyParams / 16 / kMemRate << kToySlot;
        // ZeRO-3: no gather after the optimizer (the next forward gathers);
        // the last micro-batch's window holds its gathers and H(4P).
        QTest::newRow("ZeRO 3: gathers per micro-batch, H(4P) in the last")
            << 3 << 3 * std::max(0.0, gather - kToySlot) + std::max(0.0, gather + h4 - kToySlot) + 4 * gather / (2 * 2)
            << 18 * kToyParams / 16 / kMemRate << 3 * std::min(gather, kToySlot) + kToySlot;
    }
    void dataParallelReductionIsHierarchicalByZeroStage()
    {
        QFETCH(int, zero);
        QFETCH(double, exposed);
        QFETCH(double, optimizer);
        QFETCH(double, hidden);
        Workload w = toyWorkload();
        w.parallelism.dp = 16;
        w.parallelism.zero = zero;
        w.training.global_batch = 64;  // m = 64 / 16 = 4
        const StepTime st = modelStepTime(toyGpu(16), toyHierarchy(8, 100e9, 1e9), shapeOf(w, 16), 0);
        COMPARE_REL(st.slotS, kToySlot, kExact);
        COMPARE_REL(timeOf(st, StepPartId::DpComm), exposed, kExact);
        COMPARE_REL(timeOf(st, StepPartId::Optimizer), optimizer, kExact);
        COMPARE_REL(timeOf(st, StepPartId::OverlapContention), 0.189 * hidden, kExact);
        COMPARE_REL(st.stepS, 4 * kToySlot + exposed + optimizer + 0.189 * hidden, kExact);
    }

    void dataParallelGroupsSplitByGcd()
    {
        // dp 12 on 8-GPU domains: q = gcd(12, 8) = 4 over NVLink, 12/4 = 3
        // groups across, each with 1/4 of the buffer (NVLink at g(bucket),
        // as above):
        //   H(4P) = 3/4 x 8.59e9/(1e11 g) + 3 us + 2/3 x 2.147e9/1e9 + 2 x 5 us
        Workload w = toyWorkload();
        w.parallelism.dp = 12;
        w.training.global_batch = 48;  // m = 4
        const StepTime st = modelStepTime(toyGpu(12), toyHierarchy(8, 100e9, 1e9), shapeOf(w, 12), 0);
        const double h4 = 0.75 * 4 * kToyParams / (100e9 * scaleupMessageFactor(4 * 40e6)) + 3e-6 +
            2.0 / 3.0 * kToyParams / 1e9 + 10e-6;
        const double h2 = 0.75 * 2 * kToyParams / (100e9 * scaleupMessageFactor(2 * 40e6)) + 3e-6 +
            2.0 / 3.0 * kToyParams / 2 / 1e9 + 10e-6;
        COMPARE_REL(timeOf(st, StepPartId::DpComm), h4 + h2 - kToySlot, kExact);
    }

    void dataParallelHidesBehindOneSlotAndStragglersStretchTheStep()
    {
        // dp 16 with a 20 GB/s leaf: H(4P) + H(2P) = 0.120 + 0.064 =
        // 0.184 s < slot 0.2028 s, so nothing is exposed, but the compute
        // hiding it runs 18.9% slower while it does.
        Workload w = toyWorkload();
        w.parallelism.dp = 16;
        w.training.global_batch = 64;
        const StepTime st = modelStepTime(toyGpu(16), toyHierarchy(8, 100e9, 20e9), shapeOf(w, 16), 0.05);
        QCOMPARE(timeOf(st, StepPartId::DpComm), 0.0);
        auto hier = [](double bytes, double bucket) {
            return 7.0 / 8 * bytes / (100e9 * scaleupMessageFactor(bucket)) + 7e-6 + 0.5 * bytes / 8 / 20e9 + 5e-6;
        };
        const double hidden = hier(4 * kToyParams, 4 * 40e6) + hier(2 * kToyParams, 2 * 40e6);
        COMPARE_REL(timeOf(st, StepPartId::OverlapContention), 0.189 * hidden, kExact);
        // Stragglers: 1 + cv sqrt(2 ln N) = 1 + 0.05 sqrt(2 ln 16) = 1.11774100225.
        COMPARE_REL(st.stragglerFactor, 1 + 0.05 * std::sqrt(2 * std::log(16.0)), kExact);
        const double before = 4 * kToySlot + 18 * kToyParams / 16 / kMemRate + 0.189 * hidden;
        COMPARE_REL(st.stepS, before * 1.1177410022515475, 1e-9);
        COMPARE_REL(timeOf(st, StepPartId::Stragglers), before * 0.1177410022515475, 1e-9);
    }

    void contextParallelRingHidesBehindAttention()
    {
        // cp 2, NVLink domain of 1 GPU, so the span t c = 2 lands on a 1 GB/s
        // leaf (5 us). T = b s / c = 4,096.
        //   fused attention forward: 4 x 64 x 4,096 x 8,192 x 128 / 2 / 5e14
        //     = 1.099511627776e-3 s, backward 2.5 x
        //   ring = (c - 1) send(2 b (s/c) kv/t 2 B = 134,217,728 B)
        //        = 0.134217728 + 5e-6 = 0.134222728 s
        //   CP forward = ring - attnF, backward = 2 ring - attnB
        Workload w = toyWorkload();
        w.parallelism.cp = 2;
        const double attnF = 4 * 64 * 4096 * s * 128 * 0.5 / kGemmRate;
        const double ring = 134217728 / 1e9 + 5e-6;
        StepTime st = modelStepTime(toyGpu(2), toyHierarchy(1, 100e9, 1e9), shapeOf(w, 2), 0);
        COMPARE_REL(timeOf(st, StepPartId::CpComm), 4 * 2 * ((ring - attnF) + (2 * ring - 2.5 * attnF)),
                    kExact);  // 3.190559146422272
        // Full recompute repeats the forward exchange.
        w.parallelism.recompute = "full";
        st = modelStepTime(toyGpu(2), toyHierarchy(1, 100e9, 1e9), shapeOf(w, 2), 0);
        COMPARE_REL(timeOf(st, StepPartId::CpComm), 4 * 2 * (2 * (ring - attnF) + (2 * ring - 2.5 * attnF)),
                    kExact);  // 4.255544877400064
        // On 1 TB/s NVLink the ring (1.35e-4 s) hides behind attention.
        w.parallelism.recompute = "selective";
        st = modelStepTime(toyGpu(2), toyHierarchy(8, 1e12, 1e9), shapeOf(w, 2), 0);
        QCOMPARE(timeOf(st, StepPartId::CpComm), 0.0);
    }

    void expertParallelAllToAllAndMoeFlops()
    {
        // 8 experts, top-2, ep 2 (dp 2, so ep divides dp c); m = 8 / 2 = 4.
        Workload w = toyWorkload();
        w.model.experts = 8;
        w.model.experts_per_token = 2;
        w.parallelism.ep = 2;
        w.training.global_batch = 8;
        StepTime st = modelStepTime(toyGpu(2), toyHierarchy(), shapeOf(w, 2), 0);
        // EP span t c e = 2: NVLink. One all-to-all of T k h 2 / t =
        // 268,435,456 B over 2 ranks: 1/2 x M / (1e11 g(M)) + 1 us; 2 forward
        // + 2 backward per layer.
        const double buffer = T * 2 * h * 2;
        const double one = 0.5 * buffer / (100e9 * scaleupMessageFactor(buffer)) + 1e-6;
        COMPARE_REL(timeOf(st, StepPartId::EpComm), 4 * 2 * 4 * one, kExact);
        // Router T x h x E; softmax over T E; experts here E/e = 4, each a
        // GEMM of T k / 4 = 4,096 tokens: up = 2 x 4,096 x h x f x 4 = 2 T k h f.
        COMPARE_REL(op(st, "router")->flops, 2 * T * h * 8, kExact);
        COMPARE_REL(op(st, "router")->bytes, (T * h + h * 8 + T * 8) * 2, kExact);
        COMPARE_REL(op(st, "router softmax")->bytes, T * 8 * 2 * 2, kExact);
        COMPARE_REL(op(st, "MLP up projection")->flops, 2 * T * 2 * h * f, kExact);
        COMPARE_REL(op(st, "MLP up projection")->bytes, (4096 * h + h * f + 4096 * f) * 4 * 2, kExact);
        COMPARE_REL(op(st, "GeLU")->bytes, T * 2 * f * 2 * 2, kExact);
        // Model FLOPs: layer forward per sequence 10 h^3 (attention, its
        // core's causal half) + k 4 s h f = 32 h^3 + 2 s h E = 16 h^2; per
        // sequence 2 (42 h^3 + 16 h^2) + 2 s h V = 92 h^3 + 32 h^2; x 3 B = 24.
        QCOMPARE(st.modelFlopsPerStep, 24 * (92 * h * h * h + 32 * h * h));
        // Full recompute adds 2 all-to-alls backward.
        w.parallelism.recompute = "full";
        st = modelStepTime(toyGpu(2), toyHierarchy(), shapeOf(w, 2), 0);
        COMPARE_REL(timeOf(st, StepPartId::EpComm), 4 * 2 * 6 * one, kExact);
    }

    // The causal convention counts what Megatron-LM's
    // num_floating_point_operations counts (megatron/training/training.py,
    // docs/evidence/factor-measurements.md 4a) for the same model: per
    // sequence, 3 x 2 x [L s (h (q + 2 kv) + q h + 3 h f) + s h V] with
    // SwiGLU's three h x f GEMMs, plus the core, 3 x 2 x q / 2 (causal) x 2
    // (QK^T and AV) x s^2 x L. Llama 3 8B (the studio's preset), GQA 8 of 32.
    void causalCountEqualsMegatronsFormula()
    {
        Workload w = toyWorkload();
        w.model = findModelPreset("llama3-8b")->model;
        const WorkloadShape shape = shapeOf(w, 1);
        const double L = 32, hh = 4096, q = 4096, kv = 8 * 128, ff = 14336, VV = 128256, ss = 8192;
        const double megatron =
            6 * ss * (L * (hh * (q + 2 * kv) + q * hh + 3 * hh * ff) + hh * VV) + 3 * 2 * q / 2 * 2 * ss * ss * L;
        COMPARE_REL(3 * forwardFlopsPerSequence(shape, FlopConvention::CausalHalf), megatron, kExact);
        // Per token that is the 51.47 GFLOP the Megatron-Bridge tables divide by.
        QCOMPARE(std::round(megatron / ss / 1e7) / 100, 51.47);
        // The full square (PaLM, NeMo <= 25.07, TorchTitan) adds the other
        // half of the core: 57.91 GFLOP per token.
        const double full = 3 * forwardFlopsPerSequence(shape, FlopConvention::FullSquare);
        COMPARE_REL(full - megatron, 6 * L * ss * ss * q, kExact);
        QCOMPARE(std::round(full / ss / 1e7) / 100, 57.91);
    }

    void fp8TrainingRunsAttentionAt16Bits()
    {
        HardwareProfile hw = toyGpu(1);
        hw.gpu.trainingPeakTflops = {2000, "test"};
        hw.gpu.trainingPrecision = "fp8";
        const StepTime st = modelStepTime(hw, toyHierarchy(), shapeOf(toyWorkload(), 1), 0);
        // GEMMs at the fp8 peak: QKV 3.2985e12 / (2e15 x 0.5) = 3.298534883328e-3 s.
        COMPARE_REL(op(st, "QKV projection")->seconds, 2 * T * h * 3 * h / (2e15 * 0.5), kExact);
        // Fused attention at the bf16 peak: unchanged, 2.199023255552e-3 s.
        COMPARE_REL(op(st, "attention (fused)")->seconds, kAttnFwdPerLayer, kExact);
        // MFU divides by the training-precision peak.
        COMPARE_REL(st.mfu, st.modelFlopsPerStep / (st.stepS * 2e15), kExact);
        COMPARE_REL(st.computeAtPeakS, 0.39582418599936 / 2, kExact);
    }

    // Transformer Engine casts each GEMM input to FP8 with its transpose
    // (read 2 B, write 1 + 1), only the transpose after a norm that writes
    // FP8 itself, and every output gradient in backward. Per toy layer:
    //   forward  T h (QKV input) + 4 T h (attention output) + T h (MLP
    //            input) + 4 T f (GeLU output)           = 6 T h + 4 T f B
    //   backward 4 T (3h + h + f + h) (QKV with kv = h, output, up, down)
    //                                                   = 20 T h + 4 T f B
    void fp8CastsAndTransposesTheGemmOperands()
    {
        HardwareProfile hw = toyGpu(1);
        hw.gpu.trainingPeakTflops = {2000, "test"};
        hw.gpu.trainingPrecision = "fp8";
        const StepTime bf16 = modelStepTime(toyGpu(1), toyHierarchy(), shapeOf(toyWorkload(), 1), 0);
        const StepTime fp8 = modelStepTime(hw, toyHierarchy(), shapeOf(toyWorkload(), 1), 0);
        COMPARE_REL(op(fp8, "FP8 transpose of the normed QKV input")->bytes, T * h, kExact);
        COMPARE_REL(op(fp8, "FP8 cast of the attention output")->bytes, 4 * T * h, kExact);
        COMPARE_REL(op(fp8, "FP8 transpose of the normed MLP input")->bytes, T * h, kExact);
        COMPARE_REL(op(fp8, "FP8 cast of the MLP activation")->bytes, 4 * T * f, kExact);
        // A cast only backward runs is drawn as that backward kernel.
        const OpPoint* grads = op(fp8, "FP8 cast of the output gradients");
        COMPARE_REL(grads->bytes, 4 * T * (5 * h + f), kExact);
        COMPARE_REL(grads->seconds, 4 * T * (5 * h + f) / kMemRate, kExact);
        QVERIFY(!op(bf16, "FP8 cast of the output gradients"));
        // The two transposes move T h = 67 MB each, under the 100 MB where
        // the memory size factor reaches 1.
        const double perLayer = 2 * T * h / (kMemRate * memorySizeFactor(T * h)) + (24 * T * h + 8 * T * f) / kMemRate;
        COMPARE_REL(timeOf(fp8, StepPartId::MemoryBound) - timeOf(bf16, StepPartId::MemoryBound),
                    fp8.microBatches * 2 * perLayer, 1e-12);
    }

    void outputLayerDataGradientMovesNoFp32Gradients()
    {
        // Section 5: a GEMM's backward is gemmS(F, B) (data gradient) +
        // gemmS(F, B + K N 2 x 4) (weight gradient with the fp32 main
        // gradients); the output layer is in that table. With s = 256 and
        // V = 131,072 the weight gradient is memory-bound and the data
        // gradient is not:
        //   F = 2 x 256 x h x V = 5.4976e11 -> 1.099511627776e-3 s
        //   B = (256 h + h V + 256 V) x 2 = 2,218,786,816 -> 4.4e-4 s: compute
        //   B + h V x 8 = 10,808,721,408 -> 2.1617442816e-3 s: memory
        //   fp32 loss: 256 V x (38 + 14) B -> 3.489660928e-4 s
        // output layer and loss = m (F-time x 2 + 2.1617442816e-3 + 3.489660928e-4)
        //                       = 4 x 4.709733629952e-3 = 0.018838934519808 s.
        Workload w = toyWorkload();
        w.model.seq_len = 256;
        w.model.vocab = 131072;
        const StepTime st = modelStepTime(toyGpu(1), toyHierarchy(), shapeOf(w, 1), 0);
        COMPARE_REL(op(st, "output layer (logits)")->seconds, 1.099511627776e-3, kExact);
        COMPARE_REL(timeOf(st, StepPartId::OutputLayer), 0.018838934519808, kExact);
    }

    void noStepWithoutGpusOrFigures()
    {
        const WorkloadShape w = shapeOf(toyWorkload(), 1);
        HardwareProfile hw = toyGpu(1);
        hw.gpus = 0;
        QVERIFY(!modelStepTime(hw, toyHierarchy(), w, 0).valid);
        hw = toyGpu(1);
        hw.gpu.component.reset();  // no accelerator component
        QVERIFY(!modelStepTime(hw, toyHierarchy(), w, 0).valid);
        hw = toyGpu(1);
        hw.gpu.trainingPeakTflops = {0, "test"};
        QVERIFY(!modelStepTime(hw, toyHierarchy(), w, 0).valid);
        hw = toyGpu(1);
        hw.gpu.hbmTbPerS = {0, "test"};
        const StepTime st = modelStepTime(hw, toyHierarchy(), w, 0);
        QVERIFY(!st.valid);
        QCOMPARE(st.stepS, 0.0);
        QVERIFY(st.breakdown.empty() && st.ops.empty());
    }

    // ---- hardware profile (docs/model.md section 4) -------------------------

    void profileOfARailOptimizedPod()
    {
        // 2 racks x 2 DGX H100 (8 H100, 8 ConnectX-7 each) on a rail-optimized
        // QM9700 fabric with NDR cables; 3 PFS appliances with 2 ports each.
        Design d = test::emptyDesign();
        d.components = {part("rack", "rack.air-42u", "", 2),
                        part("dgx", "node.dgx-h100", "rack", 2),
                        part("gpu", "gpu.h100-sxm", "dgx", 8),
                        part("nic", "nic.connectx-7", "dgx", 8),
                        part("storage", "storage.pfs-appliance", "", 3),
                        part("fabric", "fabric.rail-optimized")};
        d.component("fabric")->props["switch"] = "switch.qm9700";
        d.component("fabric")->props["cable"] = "link.ib-ndr-optical";
        d.links = {cable("nic-fabric", "nic", "fabric", "link.ib-ndr-optical"),
                   cable("storage-fabric", "storage", "fabric", "link.ib-ndr-optical", 2)};
        REQUIRE_VALID(d);
        const DesignIndex index(d, Catalog::builtin());
        std::vector<Problem> warnings;
        const HardwareProfile hw = profileHardware(index, takeInventory(index), "bf16", warnings);
        QVERIFY(warnings.empty());
        QCOMPARE(hw.gpus, std::int64_t(32));
        QCOMPARE(hw.nodes, std::int64_t(4));
        QCOMPARE(hw.gpusPerNode, std::int64_t(8));        // 32 accelerators / 4 nodes
        QCOMPARE(hw.scaleupDomainGpus, std::int64_t(8));  // min(8 per node, H100's 8)
        QCOMPARE(hw.gpu.part, std::string("gpu.h100-sxm"));
        QCOMPARE(hw.gpu.trainingPrecision, std::string("bf16"));
        QCOMPARE(hw.gpu.trainingPeakTflops.value, 989.4);
        QCOMPARE(hw.gpu.bf16PeakTflops, 989.4);
        QCOMPARE(hw.gpu.gemmEfficiency.value, 0.65);  // calibrated on Llama 3's 8,192-GPU run
        QCOMPARE(hw.gpu.peaksTflops.count("fp8"), std::size_t(1));
        const ScaleOutProfile& so = hw.scaleOut;
        QVERIFY(so.present);
        QCOMPARE(so.fabric, std::string("fabric"));
        QCOMPARE(so.nicPart, std::string("nic.connectx-7"));
        // 1 cable x 32 NICs x min(400, 400, 400) Gb/s / 8 = 1,600 GB/s over 4
        // nodes = 400 GB/s per node, / 8 GPUs = 50 GB/s per GPU, one direction.
        QCOMPARE(so.nicGbPerSPerGpu.value, 50.0);
        QCOMPARE(so.latencyUs.value, 5.0);
        QCOMPARE(so.efficiency.value, 0.9);
        // 4 nodes x 8 rails + 6 storage ports = 38 fit one 64-port switch:
        // one tier, and its scopes are all 32 GPUs.
        QCOMPARE(so.tiers, 1);
        QCOMPARE(so.leafScopeGpus, std::int64_t(32));
        QCOMPARE(so.spineScopeGpus, std::int64_t(32));
        QCOMPARE(so.oversubscription, 1.0);
        // Storage: sums over 3 appliances (90 / 65 GB/s, 500 kIOPS, 200 us);
        // the nodes' path to them is their 1,600 GB/s into the shared fabric.
        QCOMPARE(hw.storage.systems, std::int64_t(3));
        QCOMPARE(hw.storage.readGbPerS.value, 270.0);
        QCOMPARE(hw.storage.writeGbPerS.value, 195.0);
        QCOMPARE(hw.storage.metadataKiops.value, 1500.0);
        QCOMPARE(hw.storage.latencyUs.value, 200.0);
        QVERIFY(hw.storage.connected);
        QCOMPARE(hw.storage.nodePathGbPerS, 1600.0);
    }

    void nicBandwidthIsTheSlowestOfNicCableAndSwitchPort_data()
    {
        QTest::addColumn<QString>("nic");
        QTest::addColumn<int>("nicsPerNode");
        QTest::addColumn<QString>("cablePart");
        QTest::addColumn<double>("perGpu");
        // min(NIC, cable, QM9700 400 Gb/s) / 8 x NICs per node / 8 GPUs.
        QTest::newRow("NDR throughout: 400 / 8") << "nic.connectx-7" << 8 << "link.ib-ndr-optical" << 50.0;
        QTest::newRow("100G cable: 100 / 8") << "nic.connectx-7" << 8 << "link.eth-100g-dac" << 12.5;
        QTest::newRow("XDR NIC and cable, NDR switch: 400 / 8")
            << "nic.connectx-8" << 8 << "link.ib-xdr-optical" << 50.0;
        QTest::newRow("HDR NIC: 200 / 8") << "nic.connectx-6" << 8 << "link.ib-ndr-optical" << 25.0;
        QTest::newRow("4 NICs for 8 GPUs: 4 x 50 / 8") << "nic.connectx-7" << 4 << "link.ib-ndr-optical" << 25.0;
    }
    void nicBandwidthIsTheSlowestOfNicCableAndSwitchPort()
    {
        QFETCH(QString, nic);
        QFETCH(int, nicsPerNode);
        QFETCH(QString, cablePart);
        QFETCH(double, perGpu);
        Design d = test::emptyDesign();
        d.components = {part("node", "node.hgx-h100", "", 4), part("gpu", "gpu.h100-sxm", "node", 8),
                        part("nic", nic.toStdString(), "node", nicsPerNode), part("fabric", "fabric.fat-tree")};
        d.component("fabric")->props["switch"] = "switch.qm9700";
        d.links = {cable("nic-fabric", "nic", "fabric", cablePart.toStdString())};
        REQUIRE_VALID(d);
        const DesignIndex index(d, Catalog::builtin());
        std::vector<Problem> warnings;
        const HardwareProfile hw = profileHardware(index, takeInventory(index), "bf16", warnings);
        QCOMPARE(hw.scaleOut.nicGbPerSPerGpu.value, perGpu);
        QCOMPARE(hw.scaleOut.nicPart, nic.toStdString());
    }

    void placedSwitchesWithoutAFabricAndNoNicOnThePath()
    {
        // No fabric component: node NICs cabled to a placed 100G switch. The
        // leaf covers every GPU; the NIC's figures still apply.
        Design d = test::emptyDesign();
        d.components = {part("node", "node.hgx-h100", "", 2), part("gpu", "gpu.h100-sxm", "node", 8),
                        part("nic", "nic.eth-400g", "node", 8), part("tor", "switch.sn2700")};
        d.links = {cable("nic-tor", "nic", "tor", "link.eth-400g-optical")};
        REQUIRE_VALID(d);
        DesignIndex index(d, Catalog::builtin());
        std::vector<Problem> warnings;
        HardwareProfile hw = profileHardware(index, takeInventory(index), "bf16", warnings);
        QVERIFY(hw.scaleOut.present);
        QVERIFY(hw.scaleOut.fabric.empty());
        // 8 x min(400 NIC, 400 cable, 100 switch port) / 8 = 100 GB/s per node / 8 GPUs.
        QCOMPARE(hw.scaleOut.nicGbPerSPerGpu.value, 12.5);
        QCOMPARE(hw.scaleOut.leafScopeGpus, std::int64_t(16));
        QCOMPARE(hw.scaleOut.spineScopeGpus, std::int64_t(16));
        QCOMPARE(hw.scaleOut.latencyUs.value, 10.0);  // the 400 GbE NIC's RoCE latency

        // Cabled from the GPUs themselves (no NIC component on the path):
        // 5 us (IB NDR, seed 002) and the default efficiency 0.9.
        d.components = {part("node", "node.hgx-h100", "", 2), part("gpu", "gpu.h100-sxm", "node", 8),
                        part("fabric", "fabric.fat-tree")};
        d.component("fabric")->props["switch"] = "switch.qm9700";
        d.links = {cable("gpu-fabric", "gpu", "fabric", "link.ib-ndr-optical")};
        REQUIRE_VALID(d);
        const DesignIndex index2(d, Catalog::builtin());
        warnings.clear();
        hw = profileHardware(index2, takeInventory(index2), "bf16", warnings);
        QVERIFY(hw.scaleOut.present);
        QVERIFY(hw.scaleOut.nicPart.empty());
        QCOMPARE(hw.scaleOut.nicGbPerSPerGpu.value, 50.0);  // 8 x 400 / 8 per node / 8 GPUs
        QCOMPARE(hw.scaleOut.latencyUs.value, 5.0);
        QCOMPARE(hw.scaleOut.efficiency.value, kDefaultNicEfficiency);
    }

    void unsupportedPrecisionFallsBackToBf16AndOverridesWin()
    {
        Design d = test::emptyDesign();
        d.components = {part("node", "node.hgx-a100"), part("gpu", "gpu.a100-sxm-80gb", "node", 8)};
        d.component("gpu")->props["gemm_efficiency"] = 0.6;
        REQUIRE_VALID(d);
        const DesignIndex index(d, Catalog::builtin());
        std::vector<Problem> warnings;
        const HardwareProfile hw = profileHardware(index, takeInventory(index), "fp8", warnings);
        // A100 has no fp8 peak: its bf16 312 TFLOP/s, and a warning.
        QCOMPARE(hw.gpu.trainingPrecision, std::string("bf16"));
        QCOMPARE(hw.gpu.trainingPeakTflops.value, 312.0);
        const Problem* p = test::findProblem(warnings, "precision_unsupported");
        QVERIFY(p);
        QCOMPARE(p->pointer, std::string("/workload/training/precision"));
        QCOMPARE(p->message,
                 std::string("'A100 SXM 80GB' has no fp8 peak in the catalog; the model uses its bf16 peak"));
        // The component's override, with its source.
        QCOMPARE(hw.gpu.gemmEfficiency.value, 0.6);
        QCOMPARE(hw.gpu.gemmEfficiency.source, std::string("override on component 'gpu'"));
        QCOMPARE(hw.gpu.attentionEfficiency.value, 0.55);  // the catalog's (FlashAttention-2 on A100)
        // One node, no links: nothing to scale out to, and no warning for it.
        QVERIFY(!hw.scaleOut.present);
        QVERIFY(!test::findProblem(warnings, "no_scale_out"));
    }

    void fp8GemmsKeepTheirOwnShareOfPeak()
    {
        // H100's FP8 GEMMs run at fp8_gemm_efficiency of the 1,979 TFLOP/s
        // FP8 peak, not at the BF16 share: the best-shape matmul keeps 71% of
        // the FP8 peak against 80% of the BF16 one.
        Design d = test::emptyDesign();
        d.components = {part("node", "node.dgx-h100"), part("gpu", "gpu.h100-sxm", "node", 8)};
        REQUIRE_VALID(d);
        const DesignIndex index(d, Catalog::builtin());
        std::vector<Problem> warnings;
        const HardwareProfile bf16 = profileHardware(index, takeInventory(index), "bf16", warnings);
        const HardwareProfile fp8 = profileHardware(index, takeInventory(index), "fp8", warnings);
        QCOMPARE(bf16.gpu.gemmEfficiency.value, 0.65);
        QCOMPARE(fp8.gpu.gemmEfficiency.value, 0.57);
        QCOMPARE(fp8.gpu.gemmEfficiency.source, Catalog::builtin().sourceText("carried"));
        QVERIFY(fp8.gpu.gemmEfficiency.uncertain);
        QVERIFY(warnings.empty());
        // A part without the figure runs FP8 at its BF16 share, and says so.
        Catalog catalog = Catalog::builtin();
        auto doc = catalog.subset({"gpu.h100-sxm"});
        doc["parts"][0]["figures"].erase("fp8_gemm_efficiency");
        QVERIFY(catalog.merge(doc, "test", false).empty());
        const DesignIndex without(d, catalog);
        const HardwareProfile carried = profileHardware(without, takeInventory(without), "fp8", warnings);
        QCOMPARE(carried.gpu.gemmEfficiency.value, 0.65);
        QCOMPARE(test::findProblem(warnings, "fp8_efficiency_missing")->message,
                 std::string("'H100 SXM 80GB' has no fp8_gemm_efficiency in the catalog; the model runs its FP8 GEMMs "
                             "at the BF16 share of peak (gemm_efficiency)"));
    }

    void nvlinkDomainGroupJoinsNodes()
    {
        // Two NVLink-domain groups of 4 HGX H100 each: 32 GPUs per domain.
        Design d = test::emptyDesign();
        d.components = {part("nvl", "group.nvlink-domain", "", 2), part("node", "node.hgx-h100", "nvl", 4),
                        part("gpu", "gpu.h100-sxm", "node", 8)};
        REQUIRE_VALID(d);
        const DesignIndex index(d, Catalog::builtin());
        std::vector<Problem> warnings;
        const HardwareProfile hw = profileHardware(index, takeInventory(index), "bf16", warnings);
        QCOMPARE(hw.scaleupDomainGpus, std::int64_t(32));  // 64 GPUs / 2 groups
        // 32 is above H100's scaleup_domain_gpus (8), though within the
        // group's max_gpus (256).
        const Problem* p = test::findProblem(warnings, "nvlink_domain_too_large");
        QVERIFY(p);
        QCOMPARE(p->pointer, std::string("/components/0"));
        QCOMPARE(p->message, std::string("NVLink domain 'nvl' joins 32 GPUs, more than the 8 the hardware supports"));

        // A GB200 NVL72 is one 72-GPU node: its own domain, within limits.
        d.components = {part("nvl", "group.nvlink-domain"), part("node", "node.gb200-nvl72", "nvl"),
                        part("gpu", "gpu.gb200", "node", 72)};
        REQUIRE_VALID(d);
        const DesignIndex index2(d, Catalog::builtin());
        warnings.clear();
        QCOMPARE(profileHardware(index2, takeInventory(index2), "bf16", warnings).scaleupDomainGpus, std::int64_t(72));
        QVERIFY(!test::findProblem(warnings, "nvlink_domain_too_large"));
    }

    void unwiredNodesAndNoScaleOut()
    {
        Design d = test::emptyDesign();
        d.components = {part("rack", "rack.air-42u", "", 2),
                        part("dgx", "node.dgx-h100", "rack", 2),
                        part("gpu", "gpu.h100-sxm", "dgx", 8),
                        part("nic", "nic.connectx-7", "dgx", 8),
                        part("spare", "node.dgx-h100", "rack", 1, "Spare"),
                        part("fabric", "fabric.rail-optimized")};
        d.component("fabric")->props["switch"] = "switch.qm9700";
        d.links = {cable("nic-fabric", "nic", "fabric", "link.ib-ndr-optical")};
        REQUIRE_VALID(d);
        DesignIndex index(d, Catalog::builtin());
        std::vector<Problem> warnings;
        HardwareProfile hw = profileHardware(index, takeInventory(index), "bf16", warnings);
        // The 2 spare nodes (1 per rack x 2 racks) have no link; the 4 wired
        // ones set the per-GPU bandwidth: 32 x 50 GB/s / 4 nodes / 8 GPUs.
        const Problem* p = test::findProblem(warnings, "nodes_unconnected");
        QVERIFY(p);
        QCOMPARE(p->pointer, std::string("/components/4"));
        QCOMPARE(p->message, std::string("2 x 'Spare' have no link to a fabric: their GPUs cannot reach other nodes"));
        QCOMPARE(hw.scaleOut.nicGbPerSPerGpu.value, 50.0);

        // No links at all between 4 nodes.
        d.links.clear();
        d.components.erase(d.components.begin() + 4);
        const DesignIndex index2(d, Catalog::builtin());
        warnings.clear();
        hw = profileHardware(index2, takeInventory(index2), "bf16", warnings);
        QVERIFY(!hw.scaleOut.present);
        p = test::findProblem(warnings, "no_scale_out");
        QVERIFY(p);
        QCOMPARE(p->pointer, std::string("/links"));
        QCOMPARE(p->message,
                 std::string("no node is wired to a compute fabric: nodes cannot communicate, so only "
                             "parallelism inside one node is modelled"));
        // No shared storage: nothing to sum, nothing connected.
        QCOMPARE(hw.storage.systems, std::int64_t(0));
        QCOMPARE(hw.storage.readGbPerS.value, 0.0);
        QVERIFY(!hw.storage.connected);
    }

    void leafAndSpineScopesOfAThreeTierFabric_data()
    {
        QTest::addColumn<QString>("fabricPart");
        QTest::addColumn<qint64>("leafScope");
        QTest::addColumn<qint64>("spineScope");
        // 512 nodes x 8 rails on 64-port switches, 1:1 (32 down).
        // Rail-optimized: a unit is 32 nodes, so a leaf reaches 32 x 8 = 256
        // GPUs; leaves = 16 x 8 = 128 > 64, 3 tiers; a pod of 64/2 = 32 leaves
        // is 32/8 = 4 units = 128 nodes = 1,024 GPUs.
        QTest::newRow("rail-optimized") << "fabric.rail-optimized" << qint64(256) << qint64(1024);
        // Not rail-optimized: a leaf holds floor(32/8) = 4 nodes = 32 GPUs;
        // a pod 32 leaves x 4 nodes = 128 nodes = 1,024 GPUs.
        QTest::newRow("fat tree") << "fabric.fat-tree" << qint64(32) << qint64(1024);
    }
    void leafAndSpineScopesOfAThreeTierFabric()
    {
        QFETCH(QString, fabricPart);
        QFETCH(qint64, leafScope);
        QFETCH(qint64, spineScope);
        Design d = test::emptyDesign();
        d.components = {part("rack", "rack.air-42u", "", 256), part("dgx", "node.dgx-h100", "rack", 2),
                        part("gpu", "gpu.h100-sxm", "dgx", 8), part("nic", "nic.connectx-7", "dgx", 8),
                        part("fabric", fabricPart.toStdString())};
        d.component("fabric")->props["switch"] = "switch.qm9700";
        d.links = {cable("nic-fabric", "nic", "fabric", "link.ib-ndr-optical")};
        REQUIRE_VALID(d);
        const DesignIndex index(d, Catalog::builtin());
        std::vector<Problem> warnings;
        const HardwareProfile hw = profileHardware(index, takeInventory(index), "bf16", warnings);
        QCOMPARE(hw.gpus, std::int64_t(4096));
        QCOMPARE(hw.scaleOut.tiers, 3);
        QCOMPARE(qint64(hw.scaleOut.leafScopeGpus), leafScope);
        QCOMPARE(qint64(hw.scaleOut.spineScopeGpus), spineScope);
    }

    // ---- hierarchy (docs/model.md section 4) ------------------------------

    void hierarchyTiersRatiosAndCollectiveBandwidth()
    {
        const HardwareProfile hw = threeTierProfile();
        std::vector<Problem> warnings;
        const Hierarchy hi = buildHierarchy(hw, layout(8, 2, 1, 32, 4), warnings);
        std::vector<std::string> keys;
        for (const auto& t : hi.tiers)
            keys.push_back(t.key);
        QCOMPARE(keys, (std::vector<std::string>{"hbm", "nvlink", "leaf", "spine", "core", "storage"}));
        // Bandwidth per GPU (section 4 "Tiers"): HBM 3.35 TB/s x 1000;
        // NVLink as quoted, both directions; leaf 2 x NIC; spine and core
        // 2 x NIC / o (o = 2); storage min(read 1,000, path 800) / 4,096.
        const Tier& hbm = hi.tiers[0];
        COMPARE_REL(hbm.gbPerSPerGpu, 3350.0, kExact);
        QCOMPARE(hbm.latencyUs, 0.5);
        QVERIFY(!hbm.carriesCollectives);
        const Tier& nv = hi.nvlink();
        QCOMPARE(nv.gbPerSPerGpu, 900.0);
        QCOMPARE(nv.scopeGpus, std::int64_t(8));
        QCOMPARE(nv.collectiveBytesPerS, 900.0 / 2 * 1e9 * 0.5);  // one direction x scale-up efficiency
        QCOMPARE(nv.alphaS, 1e-6);
        COMPARE_REL(nv.ratioToAbove, 3350.0 / 900.0, kExact);
        const Tier& leaf = *hi.tier("leaf");
        QCOMPARE(leaf.gbPerSPerGpu, 100.0);
        QCOMPARE(leaf.scopeGpus, std::int64_t(256));
        QCOMPARE(leaf.collectiveBytesPerS, 50e9 * 0.9);
        QCOMPARE(leaf.alphaS, 5e-6);
        QCOMPARE(leaf.ratioToAbove, 9.0);  // 900 / 100, seed row B1
        const Tier& spine = *hi.tier("spine");
        QCOMPARE(spine.gbPerSPerGpu, 50.0);
        QCOMPARE(spine.scopeGpus, std::int64_t(1024));
        QCOMPARE(spine.collectiveBytesPerS, 50e9 * 0.9 / 2);
        QCOMPARE(spine.ratioToAbove, 2.0);
        const Tier& core = *hi.tier("core");
        QCOMPARE(core.gbPerSPerGpu, 50.0);
        QCOMPARE(core.scopeGpus, std::int64_t(4096));
        QCOMPARE(core.ratioToAbove, 1.0);
        const Tier& storage = *hi.tier("storage");
        QCOMPARE(storage.gbPerSPerGpu, 800.0 / 4096);  // the nodes' path is the narrower
        QCOMPARE(storage.latencyUs, 200.0);
        QVERIFY(!storage.carriesCollectives);
        QCOMPARE(storage.ratioToAbove, 50.0 / (800.0 / 4096));  // 256
        // The fastest tier whose scope covers a span; the slowest beyond all.
        QCOMPARE(hi.tierForSpan(1).key, std::string("nvlink"));
        QCOMPARE(hi.tierForSpan(9).key, std::string("leaf"));
        QCOMPARE(hi.tierForSpan(1024).key, std::string("spine"));
        QCOMPARE(hi.tierForSpan(1025).key, std::string("core"));
        QCOMPARE(hi.tierForSpan(1 << 20).key, std::string("core"));
    }

    void axesLandOnTheTierTheirSpanNeeds()
    {
        std::vector<Problem> warnings;
        // tp 8, cp 2, ep 1, dp 32, pp 4 (Megatron order tp, cp, ep, dp, pp):
        // spans tp 8 (NVLink), cp 16 (leaf), dp 8 x 2 x 32 = 512 (spine),
        // pp min(2,048, 2 x 512) = 1,024 (spine); ep of degree 1 is omitted.
        const Hierarchy hi = buildHierarchy(threeTierProfile(), layout(8, 2, 1, 32, 4), warnings);
        QVERIFY(warnings.empty());
        struct Expected {
            const char* axis;
            std::int64_t degree, span;
            const char* tier;
        };
        const Expected rows[] = {
            {"tp", 8, 8, "nvlink"}, {"cp", 2, 16, "leaf"}, {"dp", 32, 512, "spine"}, {"pp", 4, 1024, "spine"}};
        QCOMPARE(hi.axes.size(), std::size_t(4));
        for (std::size_t i = 0; i < 4; ++i) {
            QCOMPARE(hi.axes[i].axis, std::string(rows[i].axis));
            QCOMPARE(hi.axes[i].degree, rows[i].degree);
            QCOMPARE(hi.axes[i].spanGpus, rows[i].span);
            QCOMPARE(hi.axes[i].tier, std::string(rows[i].tier));
            QVERIFY(!hi.axes[i].tooSlow);
        }
        QCOMPARE(hi.tier("spine")->axes, (std::vector<std::string>{"dp", "pp"}));
        // ep 4 (t c e = 32) still inside a leaf.
        const Hierarchy moe = buildHierarchy(threeTierProfile(), layout(8, 1, 4, 32, 1), warnings);
        QCOMPARE(moe.axes[1].axis, std::string("ep"));
        QCOMPARE(moe.axes[1].spanGpus, std::int64_t(32));
        QCOMPARE(moe.axes[1].tier, std::string("leaf"));
        // Adjacent stages sit t c dp = 256 ranks apart: pp spans 2 x 256 = 512.
        const Hierarchy two = buildHierarchy(threeTierProfile(), layout(8, 1, 1, 32, 2), warnings);
        QCOMPARE(two.axes.back().axis, std::string("pp"));
        QCOMPARE(two.axes.back().spanGpus, std::int64_t(512));
        QVERIFY(warnings.empty());
    }

    void axesOnTooSlowTiersWarn()
    {
        std::vector<Problem> warnings;
        // tp 16 spans two NVLink domains: on the leaf, flagged.
        Hierarchy hi = buildHierarchy(threeTierProfile(), layout(16, 1, 1, 1, 1), warnings);
        QVERIFY(hi.axes[0].tooSlow);
        QCOMPARE(hi.axes[0].tier, std::string("leaf"));
        QCOMPARE(onlyProblem(warnings),
                 QString("tp_on_slow_tier /workload/parallelism/tp: tensor parallelism of 16 spans more than one "
                         "NVLink domain (8 GPUs): its collectives, "
                         "on the critical path of every layer, run on Scale-out inside a leaf at 100 GB/s per GPU "
                         "instead of NVLink's 900"));
        // cp 64 x tp 8 = 512 consecutive GPUs: beyond the leaf it needs.
        warnings.clear();
        hi = buildHierarchy(threeTierProfile(), layout(8, 64, 1, 1, 1), warnings);
        QVERIFY(hi.axes[1].tooSlow);
        QCOMPARE(onlyProblem(warnings),
                 QString("cp_on_slow_tier /workload/parallelism/cp: cp group of 64 (512 consecutive GPUs) crosses "
                         "Across the spine at 50 GB/s per GPU"));
        // dp and pp need no particular tier: the core is fine for them.
        warnings.clear();
        hi = buildHierarchy(threeTierProfile(), layout(8, 1, 1, 512, 1), warnings);
        QCOMPARE(hi.axes[1].tier, std::string("core"));
        QVERIFY(!hi.axes[1].tooSlow);
        QVERIFY(warnings.empty());
    }

    void tiersExistOnlyWhereScopesGrow()
    {
        // Leaf (and so spine) scope covers every GPU: no spine, no core, even
        // with 3 tiers.
        HardwareProfile hw = threeTierProfile();
        hw.scaleOut.leafScopeGpus = 4096;
        hw.scaleOut.spineScopeGpus = 4096;
        std::vector<Problem> warnings;
        Hierarchy hi = buildHierarchy(hw, layout(8, 1, 1, 32, 1), warnings);
        QVERIFY(hi.tier("leaf") && !hi.tier("spine") && !hi.tier("core"));
        QCOMPARE(hi.tier("storage")->ratioToAbove, 100.0 / (800.0 / 4096));  // below the leaf now
        // Spine covers every GPU: no core.
        hw = threeTierProfile();
        hw.scaleOut.spineScopeGpus = 4096;
        hi = buildHierarchy(hw, layout(8, 1, 1, 32, 1), warnings);
        QVERIFY(hi.tier("spine") && !hi.tier("core"));
        // A scale-out scope never shrinks below the NVLink domain (72 here).
        hw = threeTierProfile();
        hw.scaleupDomainGpus = 72;
        hw.scaleOut.leafScopeGpus = 32;
        hi = buildHierarchy(hw, layout(8, 1, 1, 32, 1), warnings);
        QCOMPARE(hi.tier("leaf")->scopeGpus, std::int64_t(72));
        // Storage not connected: its own read bandwidth over the GPUs.
        hw = threeTierProfile();
        hw.storage.connected = false;
        hi = buildHierarchy(hw, layout(8, 1, 1, 32, 1), warnings);
        QCOMPARE(hi.tier("storage")->gbPerSPerGpu, 1000.0 / 4096);
    }

    void withoutScaleOutEverythingIsNvlinkAndFlagged()
    {
        HardwareProfile hw = threeTierProfile();
        hw.scaleOut = ScaleOutProfile{};
        std::vector<Problem> warnings;
        // tp 8 x dp 4: dp spans 32 GPUs, 4 NVLink domains with nothing between.
        const Hierarchy hi = buildHierarchy(hw, layout(8, 1, 1, 4, 1), warnings);
        std::vector<std::string> keys;
        for (const auto& t : hi.tiers)
            keys.push_back(t.key);
        QCOMPARE(keys, (std::vector<std::string>{"hbm", "nvlink", "storage"}));
        QCOMPARE(hi.axes[1].axis, std::string("dp"));
        QCOMPARE(hi.axes[1].tier, std::string("nvlink"));
        QVERIFY(hi.axes[1].tooSlow);
        QVERIFY(!hi.axes[0].tooSlow);  // tp 8 fits one domain
        QCOMPARE(onlyProblem(warnings),
                 QString("dp_on_slow_tier /workload/parallelism/dp: dp group of 4 (32 consecutive GPUs) crosses NVLink "
                         "domain at 900 GB/s per GPU"));
    }

    // ---- peak to delivered (docs/model.md section 11) -----------------------

    void waterfallFromPeakToDelivered()
    {
        // A 10 s step: 5 s of compute parts of which 4 s is the model FLOPs at
        // peak; recompute 1, TP 2, bubble 1, stragglers 1. MFU 0.4.
        StepTime st;
        st.valid = true;
        st.stepS = 10;
        st.computeAtPeakS = 4;
        st.mfu = 0.4;
        st.breakdown = {{StepPartId::Gemm, 3},           {StepPartId::Attention, 1}, {StepPartId::MemoryBound, 0.5},
                        {StepPartId::OutputLayer, 0.5},  {StepPartId::Recompute, 1}, {StepPartId::TpComm, 2},
                        {StepPartId::PipelineBubble, 1}, {StepPartId::Stragglers, 1}};
        Reliability rel;
        rel.goodput = 0.8;
        rel.checkpointFraction = 0.05;
        rel.failureFraction = 0.1;
        rel.maintenanceFraction = {0.05, "test"};
        const Utilization u = buildUtilization(st, rel, 100);
        // kernel efficiency = (5 - 4) / 10; each other loss its seconds / 10;
        // after MFU: MFU x 0.05, x 0.1, x 0.05; delivered MFU x goodput.
        struct Bar {
            const char *key, *name;
            double fraction, from, to;
            bool level;
        };
        const Bar expected[] = {
            {"peak", "peak", 1, 0, 1, true},
            {"kernel_efficiency", "kernel efficiency", 0.1, 0.9, 1, false},
            {"recompute", "recompute", 0.1, 0.8, 0.9, false},
            {"tp_comm", "TP communication", 0.2, 0.6, 0.8, false},
            {"pipeline_bubble", "pipeline bubble", 0.1, 0.5, 0.6, false},
            {"stragglers", "stragglers", 0.1, 0.4, 0.5, false},
            {"mfu", "MFU", 0.4, 0, 0.4, true},
            {"checkpointing", "checkpointing", 0.02, 0.38, 0.4, false},
            {"failures", "failures (lost work, restarts)", 0.04, 0.34, 0.38, false},
            {"maintenance", "maintenance", 0.02, 0.32, 0.34, false},
            {"delivered", "delivered", 0.32, 0, 0.32, true},
        };
        QCOMPARE(u.waterfall.size(), std::size_t(11));
        for (std::size_t i = 0; i < u.waterfall.size(); ++i) {
            const WaterfallBar& b = u.waterfall[i];
            QCOMPARE(std::string(b.key), std::string(expected[i].key));
            QCOMPARE(std::string(b.name), std::string(expected[i].name));
            QCOMPARE(b.level, expected[i].level);
            COMPARE_REL(b.fraction, expected[i].fraction, kExact);
            COMPARE_REL(b.from, expected[i].from, 1e-9);
            COMPARE_REL(b.to, expected[i].to, 1e-9);
        }
        COMPARE_REL(u.delivered, 0.32, kExact);
        COMPARE_REL(u.deliveredPflops, 32, kExact);  // 100 PFLOP/s x 0.32
        QCOMPARE(u.goodput, 0.8);
    }

    void noWaterfallWithoutAValidStep()
    {
        StepTime st;
        Reliability rel;
        rel.goodput = 0.9;
        QVERIFY(buildUtilization(st, rel, 100).waterfall.empty());
        st.valid = true;  // valid but 0 s: nothing to divide by
        const Utilization u = buildUtilization(st, rel, 100);
        QVERIFY(u.waterfall.empty());
        QCOMPARE(u.deliveredPflops, 0.0);
    }

    // ---- roofline (docs/model.md section 12) ------------------------------

    void rooflineCeilingsSlopesAndRidges()
    {
        HardwareProfile hw = toyGpu(8);
        hw.gpu.hbmTbPerS = {4, "test"};
        hw.gpu.peaksTflops["fp64"] = {50, "test"};
        Hierarchy hi = toyHierarchy();
        hi.tiers[2].gbPerSPerGpu = 100;  // leaf, both directions
        hi.tiers[3].gbPerSPerGpu = 0.5;  // storage share per GPU
        const Roofline rf = buildRoofline(hw, hi, StepTime{}, 8e9, 4);
        // Ceilings in the fixed precision order, ridge = peak / 4e12 B/s.
        QCOMPARE(rf.ceilings.size(), std::size_t(3));
        QCOMPARE(rf.ceilings[0].precision, std::string("fp64"));
        COMPARE_REL(rf.ceilings[0].ridgeFlopPerByte, 12.5, kExact);
        QCOMPARE(rf.ceilings[1].precision, std::string("bf16"));
        COMPARE_REL(rf.ceilings[1].ridgeFlopPerByte, 250, kExact);
        QCOMPARE(rf.ceilings[2].precision, std::string("fp8"));
        COMPARE_REL(rf.ceilings[2].ridgeFlopPerByte, 500, kExact);
        QCOMPARE(rf.peakTflops, 1000.0);
        COMPARE_REL(rf.ridgeFlopPerByte, 250, kExact);
        QCOMPARE(rf.hbm.gbPerS, 4000.0);
        // Fleet slopes, one direction, no efficiency: NVLink 400/2, NIC the
        // leaf 100/2, storage its share; ridge = 1e15 / (GB/s x 1e9).
        QCOMPARE(rf.fleet.size(), std::size_t(3));
        QCOMPARE(rf.fleet[0].key, std::string("nvlink"));
        QCOMPARE(rf.fleet[0].gbPerS, 200.0);
        COMPARE_REL(rf.fleet[0].ridgeFlopPerByte, 5000, kExact);
        QCOMPARE(rf.fleet[1].key, std::string("nic"));
        QCOMPARE(rf.fleet[1].gbPerS, 50.0);
        COMPARE_REL(rf.fleet[1].ridgeFlopPerByte, 20000, kExact);
        QCOMPARE(rf.fleet[2].key, std::string("storage"));
        COMPARE_REL(rf.fleet[2].ridgeFlopPerByte, 2e6, kExact);
        // Decode of 8e9 parameters on tp 4: 4 x 4e12 / (2 x 8e9) = 1,000 tokens/s.
        COMPARE_REL(rf.decodeTokensPerS, 1000, kExact);
        // Weights that overflow the group's HBM have no batch-1 decode:
        // 16 GB of weights on one GPU of 10 GiB (10.7 GB); on two, 21.5 GB.
        hw.gpu.hbmGb = {10, "test"};
        QVERIFY(buildRoofline(hw, hi, StepTime{}, 8e9, 2).decodeUnavailable.empty());
        QCOMPARE(buildRoofline(hw, hi, StepTime{}, 8e9, 1).decodeUnavailable,
                 std::string("does not fit: 8B parameters x 2 bytes = 16.0 GB of weights, more than the HBM of one "
                             "GPU, 10.7 GB"));

        // No leaf tier and no storage bandwidth: no NIC or storage slope.
        hi = toyHierarchy();
        hi.tiers.erase(hi.tiers.begin() + 2);
        QCOMPARE(buildRoofline(hw, hi, StepTime{}, 8e9, 1).fleet.size(), std::size_t(1));
    }

    void operationsPlacedByIntensity()
    {
        HardwareProfile hw = toyGpu(8);
        hw.gpu.hbmTbPerS = {4, "test"};
        StepTime st;
        st.ops = {{"big GEMM", "gemm", 1e12, 1e9, 2e-3},     // I = 1,000 >= 250
                  {"kernel", "memory", 4e6, 2e7, 1e-5},      // I = 0.2
                  {"at the ridge", "gemm", 250e9, 1e9, 1}};  // I = 250 exactly
        const Roofline rf = buildRoofline(hw, toyHierarchy(), st, 8e9, 1);
        QCOMPARE(rf.points.size(), std::size_t(5));
        // attainable = min(peak, I x HBM); achieved = FLOPs / seconds.
        QCOMPARE(rf.points[0].intensity, 1000.0);
        QCOMPARE(rf.points[0].attainableTflops, 1000.0);
        COMPARE_REL(rf.points[0].achievedTflops, 500, kExact);
        QCOMPARE(rf.points[0].bound, std::string("compute"));
        COMPARE_REL(rf.points[1].intensity, 0.2, kExact);
        COMPARE_REL(rf.points[1].attainableTflops, 0.8, kExact);  // 0.2 x 4e12
        COMPARE_REL(rf.points[1].achievedTflops, 0.4, kExact);    // 4e6 / 1e-5
        QCOMPARE(rf.points[1].bound, std::string("memory"));
        QCOMPARE(rf.points[2].bound, std::string("compute"));  // intensity >= ridge
        // Decode: batch 1 (I = 1: 4 TFLOP/s on the slope) and the ridge batch
        // ceil(250) = 250, which reaches the peak.
        QCOMPARE(std::string(rf.points[3].name), std::string("decode, batch 1"));
        COMPARE_REL(rf.points[3].attainableTflops, 4, kExact);
        QCOMPARE(rf.points[3].achievedTflops, rf.points[3].attainableTflops);
        QCOMPARE(rf.points[3].bound, std::string("memory"));
        QCOMPARE(rf.ridgeBatch, 250.0);
        QCOMPARE(rf.points[4].intensity, 250.0);
        QCOMPARE(rf.points[4].attainableTflops, 1000.0);
        QCOMPARE(rf.points[4].bound, std::string("compute"));
        // H100: 989.4 / 3.35 = 295.34, so the ridge batch is 296.
        hw.gpu.trainingPeakTflops = {989.4, "test"};
        hw.gpu.hbmTbPerS = {3.35, "test"};
        QCOMPARE(buildRoofline(hw, toyHierarchy(), StepTime{}, 8e9, 1).ridgeBatch, 296.0);
    }

private:
    // A 4,096-GPU profile on a 3-tier fabric, 2:1 oversubscribed: NIC 50 GB/s
    // per GPU one way (efficiency 0.9, 5 us), leaf 256 GPUs, spine 1,024;
    // storage read 1,000 GB/s behind an 800 GB/s node path.
    static HardwareProfile threeTierProfile()
    {
        HardwareProfile hw;
        hw.gpus = 4096;
        hw.nodes = 512;
        hw.gpusPerNode = 8;
        hw.scaleupDomainGpus = 8;
        hw.gpu.hbmTbPerS = {3.35, "test"};
        hw.gpu.scaleupGbPerS = {900, "test"};
        hw.gpu.scaleupEfficiency = {0.5, "test"};
        ScaleOutProfile& so = hw.scaleOut;
        so.present = true;
        so.fabric = "fabric";
        so.nicGbPerSPerGpu = {50, "test"};
        so.latencyUs = {5, "test"};
        so.efficiency = {0.9, "test"};
        so.leafScopeGpus = 256;
        so.spineScopeGpus = 1024;
        so.oversubscription = 2;
        so.tiers = 3;
        hw.storage.systems = 4;
        hw.storage.readGbPerS = {1000, "test"};
        hw.storage.latencyUs = {200, "test"};
        hw.storage.connected = true;
        hw.storage.nodePathGbPerS = 800;
        return hw;
    }

    static WorkloadShape layout(std::int64_t tp, std::int64_t cp, std::int64_t ep, std::int64_t dp, std::int64_t pp)
    {
        WorkloadShape w;
        w.tp = tp;
        w.cp = cp;
        w.ep = ep;
        w.dp = dp;
        w.pp = pp;
        w.gpusUsed = tp * cp * dp * pp;
        return w;
    }
};

QTEST_APPLESS_MAIN(TestStepTime)
#include "tst_step_time.moc"
