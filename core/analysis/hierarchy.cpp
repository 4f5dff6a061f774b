#include "core/analysis/hierarchy.h"

#include <algorithm>
#include <optional>
#include <utility>

#include "core/analysis/collectives.h"
#include "core/analysis/log_interpolate.h"
#include "core/text.h"

namespace studio {
namespace {

// Seed 002 gives no NVLink latency; Calculon's A100 profile uses 1 us.
constexpr double kNvlinkLatencyUs = 1.0;
constexpr const char* kNvlinkLatencySource = "Calculon (SC23) A100 system profile: NVLink latency 1 us";
// DRAM access from a GPU core: hundreds of nanoseconds.
constexpr double kHbmLatencyUs = 0.5;
constexpr const char* kHbmLatencySource =
    "GPU memory microbenchmarks (e.g. Jia et al. 2018, 'Dissecting the NVIDIA Volta GPU'): ~400-600 ns; estimate";

// Where the scale-up bandwidth the layout needs comes from: the GPU's
// override, else the component (its part's catalog figure).
std::string scaleupPointer(const HardwareProfile& hw)
{
    if (!hw.gpu.component)
        return "/components";
    const std::string at = "/components/" + std::to_string(*hw.gpu.component);
    return hw.gpu.scaleupGbPerS.isOverride() ? at + "/props/scaleup_gb_per_s" : at;
}

}  // namespace

double scaleupMessageFactor(double bytes)
{
    static const std::pair<double, double> pts[] = {{1e6, 0.08},   {4e6, 0.25},    {16e6, 0.45}, {64e6, 0.72},
                                                    {256e6, 0.85}, {1.07e9, 0.97}, {4.3e9, 1.0}};
    return logInterpolate(pts, bytes);
}

double Tier::collectiveBytesPerSAt(double messageBytes) const
{
    return key == "nvlink" ? collectiveBytesPerS * scaleupMessageFactor(messageBytes) : collectiveBytesPerS;
}

namespace {

// The collective the tier's kernel profile measured as `table`, or nothing
// where it has none: the bus bandwidth at that group and message size, as a
// share of the link it was measured on, times this design's link.
std::optional<KernelValue> measuredCollective(const Tier& tier, std::string_view table, Collective op,
                                              double bufferBytes, std::int64_t n, double message)
{
    const KernelGrid* g = tier.kernels ? tier.kernels->collective(table) : nullptr;
    if (!g || tier.kernels->scaleupGbPerS <= 0 || tier.gbPerSPerGpu <= 0)
        return std::nullopt;
    const KernelValue bus = g->at(double(n), message);
    const double share = bus.value / (tier.kernels->scaleupGbPerS / 2);
    const double bytesPerS = tier.gbPerSPerGpu / 2 * 1e9 * share;
    const double moved = (op == Collective::AllReduce ? 2 : 1) * double(n - 1) / double(n) * bufferBytes;
    return KernelValue{moved / bytesPerS, bus.tier};
}

}  // namespace

KernelValue engineAllReduceSeconds(const Tier& tier, double bufferBytes, std::int64_t n)
{
    if (n <= 1)
        return {0, KernelTier::Measured};
    if (const auto m = measuredCollective(tier, "engine_all_reduce", Collective::AllReduce, bufferBytes, n, bufferBytes))
        return *m;
    return collectiveSeconds(tier, Collective::AllReduce, bufferBytes, n);
}

KernelValue collectiveSeconds(const Tier& tier, Collective op, double bufferBytes, std::int64_t n, double messageBytes)
{
    if (n <= 1)
        return {0, KernelTier::Measured};
    const double message = messageBytes > 0 ? messageBytes : bufferBytes;
    static constexpr std::string_view kNames[] = {"all_reduce", "all_gather", "reduce_scatter", "all_to_all"};
    if (const auto m = measuredCollective(tier, kNames[int(op)], op, bufferBytes, n, message))
        return *m;
    const double bw = tier.collectiveBytesPerSAt(message);
    const double s = op == Collective::AllReduce ? ringAllReduceSeconds(bufferBytes, n, bw, tier.alphaS)
        : op == Collective::AllToAll             ? allToAllSeconds(bufferBytes, n, bw, tier.alphaS)
                                                 : ringGatherSeconds(bufferBytes, n, bw, tier.alphaS);
    return {s, KernelTier::CatalogFactor};
}

const Tier* Hierarchy::tier(const std::string& key) const
{
    for (const auto& t : tiers)
        if (t.key == key)
            return &t;
    return nullptr;
}

const Tier& Hierarchy::tierForSpan(std::int64_t span) const
{
    // Tiers after HBM are ordered fast to slow with growing scope; storage
    // is not a communication tier.
    const Tier* last = &tiers.front();
    for (const auto& t : tiers) {
        if (!t.carriesCollectives)
            continue;
        last = &t;
        if (t.scopeGpus >= span)
            return t;
    }
    return *last;
}

std::size_t Hierarchy::rank(std::string_view key) const
{
    for (std::size_t i = 0; i < tiers.size(); ++i)
        if (tiers[i].key == key)
            return i;
    return tiers.size();
}

std::vector<AxisPlacement> placeAxes(const Hierarchy& h, const HardwareProfile& hw, const WorkloadShape& w)
{
    // Axes in Megatron's rank order: each group covers consecutive ranks.
    struct AxisNeed {
        const char* axis;
        std::int64_t degree, span;
        const char* needs;
        std::int64_t stride;  // ranks between neighbours of one group
    };
    const std::int64_t tc = w.tp * w.cp;
    const AxisNeed needs[] = {
        {"tp", w.tp, w.tp, "nvlink", 1},
        {"cp", w.cp, tc, "leaf", w.tp},
        {"ep", w.ep, tc * w.ep, "leaf", tc},
        {"dp", w.dp, tc * w.dp, "", tc},
        {"pp", w.pp, std::min<std::int64_t>(w.gpusUsed, 2 * tc * w.dp), "", tc * w.dp},
    };
    std::vector<AxisPlacement> out;
    for (const auto& n : needs) {
        if (n.degree <= 1)
            continue;
        const Tier& t = h.tierForSpan(n.span);
        AxisPlacement a{n.axis, n.degree, n.span, t.key};
        a.tooSlow = (*n.needs && h.rank(t.key) > h.rank(n.needs)) || (t.scopeGpus < n.span && !hw.scaleOut.present);
        // A group whose consecutive ranks share a domain moves data over
        // NVLink (dp reduces hierarchically inside it first); with no
        // scale-up bandwidth that traffic has no path at all.
        a.noPath = n.stride < hw.scaleupDomainGpus && h.nvlink().collectiveBytesPerS <= 0;
        out.push_back(std::move(a));
    }
    return out;
}

Problem noScaleupPath(const std::string& what, const HardwareProfile& hw)
{
    const auto& g = hw.gpu;
    return {Severity::Error, scaleupPointer(hw),
            what + " moves data between GPUs of one " + formatCount(hw.scaleupDomainGpus) +
                "-GPU scale-up domain, but " + g.name + " has a scale-up bandwidth of " +
                formatValue(g.scaleupGbPerS.value, 4) + " GB/s x efficiency " +
                formatValue(g.scaleupEfficiency.value, 3) + " (" + g.scaleupGbPerS.source +
                "): the layout has no path for it",
            "zero_bandwidth"};
}

Hierarchy buildHierarchy(const HardwareProfile& hw, const WorkloadShape& w, std::vector<Problem>& warnings)
{
    Hierarchy h;
    h.tiers.reserve(6);  // HBM, NVLink, leaf, spine, core, storage
    const auto& g = hw.gpu;
    {
        Tier t{"hbm", "HBM", g.hbmTbPerS.value * 1000, kHbmLatencyUs, 1};
        t.explain = {"HBM bandwidth of one GPU", {g.hbmTbPerS.as("HBM bandwidth", "TB/s")}};
        t.explain.inputs.push_back({"latency", kHbmLatencyUs, "us", kHbmLatencySource});
        h.tiers.push_back(std::move(t));
    }
    {
        Tier t{"nvlink", "NVLink domain", g.scaleupGbPerS.value, kNvlinkLatencyUs, hw.scaleupDomainGpus};
        t.collectiveBytesPerS = g.scaleupGbPerS.value / 2 * 1e9 * g.scaleupEfficiency.value;
        if (g.kernels && !g.kernels->collectives.empty())
            t.kernels = g.kernels;
        t.alphaS = kNvlinkLatencyUs / 1e6;
        t.carriesCollectives = true;
        t.explain = {"scale-up bandwidth per GPU, both directions; collectives get one direction x efficiency",
                     {g.scaleupGbPerS.as("scale-up bandwidth", "GB/s"),
                      g.scaleupEfficiency.as("collective efficiency", ""),
                      {"GPUs in the domain", double(hw.scaleupDomainGpus), "GPUs", "the design"},
                      {"latency", kNvlinkLatencyUs, "us", kNvlinkLatencySource}}};
        if (t.kernels) {
            t.explain.formula = "scale-up bandwidth per GPU, both directions; collectives run at the bus bandwidth "
                                "the GPU's kernel profile measured for each collective, group and message size, as a "
                                "share of the link it was measured on";
            t.explain.inputs.push_back(
                {"link the collectives were measured on", t.kernels->scaleupGbPerS, "GB/s", t.kernels->citation()});
        }
        h.tiers.push_back(std::move(t));
    }
    const auto& so = hw.scaleOut;
    if (so.present) {
        const double bidir = so.nicGbPerSPerGpu.value * 2;
        auto addTier = [&](const char* key, const char* name, double divide, std::int64_t scope) {
            Tier t{key, name, bidir / divide, so.latencyUs.value, std::max(scope, hw.scaleupDomainGpus)};
            t.collectiveBytesPerS = so.nicGbPerSPerGpu.value * 1e9 * so.efficiency.value / divide;
            t.alphaS = so.latencyUs.value / 1e6;
            t.carriesCollectives = true;
            t.explain = {divide > 1 ? "NIC bandwidth per GPU, both directions, / leaf oversubscription"
                                    : "NIC bandwidth per GPU, both directions",
                         {so.nicGbPerSPerGpu.as("NIC bandwidth per GPU, one direction", "GB/s"),
                          so.efficiency.as("collective efficiency", ""), so.latencyUs.as("latency", "us")}};
            if (divide > 1)
                t.explain.inputs.push_back({"oversubscription", divide, "x", "fabric " + so.fabric});
            h.tiers.push_back(std::move(t));
        };
        // A fabric that fits one switch has no leaf to be inside of; nodes
        // wired to placed switches have no fabric tree at all.
        const char* first = so.fabric.empty() ? "Scale-out"
            : so.tiers <= 1                   ? "Scale-out on one switch"
                                              : "Scale-out inside a leaf";
        addTier("leaf", first, 1, so.leafScopeGpus);
        if (so.tiers >= 2 && hw.gpus > so.leafScopeGpus)
            addTier("spine", "Across the spine", so.oversubscription, so.spineScopeGpus);
        if (so.tiers >= 3 && hw.gpus > so.spineScopeGpus)
            addTier("core", "Across the core", so.oversubscription, hw.gpus);
    }
    {
        const auto& st = hw.storage;
        double aggregate = st.readGbPerS.value;
        std::string limit = "storage read bandwidth";
        if (st.connected && st.nodePathGbPerS < aggregate) {
            aggregate = st.nodePathGbPerS;
            limit = "the nodes' storage NICs";
        }
        Tier t{"storage", "Storage (read)", hw.gpus > 0 ? aggregate / double(hw.gpus) : 0, st.latencyUs.value, hw.gpus};
        t.explain = {"min(storage read bandwidth, nodes' storage-path NIC bandwidth) / GPUs; limited by " + limit,
                     {st.readGbPerS.as("storage read bandwidth", "GB/s"),
                      {"nodes' storage-path bandwidth", st.nodePathGbPerS, "GB/s", "the design's links"},
                      {"GPUs", double(hw.gpus), "", "the design"},
                      st.latencyUs.as("latency", "us")}};
        h.tiers.push_back(std::move(t));
    }
    for (std::size_t i = 1; i < h.tiers.size(); ++i)
        h.tiers[i].ratioToAbove =
            h.tiers[i].gbPerSPerGpu > 0 ? h.tiers[i - 1].gbPerSPerGpu / h.tiers[i].gbPerSPerGpu : 0;

    h.axes = placeAxes(h, hw, w);
    for (const auto& a : h.axes) {
        for (auto& tier : h.tiers)
            if (tier.key == a.tier)
                tier.axes.push_back(a.axis);
        const Tier& t = *h.tier(a.tier);
        if (a.noPath)
            warnings.push_back(noScaleupPath(a.axis + " = " + formatCount(a.degree), hw));
        if (a.tooSlow) {
            std::string msg = a.axis == "tp"
                ? "tensor parallelism of " + formatCount(a.degree) + " spans more than one NVLink domain (" +
                    formatCount(hw.scaleupDomainGpus) +
                    " GPUs): its collectives, on the critical path of "
                    "every layer, run on " +
                    t.name + " at " + formatValue(t.gbPerSPerGpu, 4) + " GB/s per GPU instead of NVLink's " +
                    formatValue(g.scaleupGbPerS.value, 4)
                : a.axis + " group of " + formatCount(a.degree) + " (" + formatCount(a.spanGpus) +
                    " consecutive GPUs) crosses " + t.name + " at " + formatValue(t.gbPerSPerGpu, 4) + " GB/s per GPU";
            warnings.push_back({Severity::Warning, "/workload/parallelism/" + a.axis, msg, a.axis + "_on_slow_tier"});
        }
    }
    return h;
}

}  // namespace studio
