#include "core/analysis/hardware_profile.h"

#include <algorithm>

#include "core/json/json_pointer.h"
#include "core/text.h"

namespace studio {
namespace {

constexpr const char* kModelDefault = "model default (docs/model.md): the part's catalog entry has no value";

// The speed a link's port gets at the end away from the node: a fabric's
// switch port, or the port of what it plugs into. Found once per component:
// thousands of links end at one fabric.
class EndSpeeds {
public:
    explicit EndSpeeds(const DesignIndex& index) : index_(index), known_(index.size(), false), gbps_(index.size()) {}
    std::optional<double> of(std::size_t end)
    {
        if (!known_[end]) {
            known_[end] = true;
            if (index_.kind(end) != PartKind::Fabric) {
                gbps_[end] = index_.figure(end, "port_gbps");
            } else if (const Json* sw = index_.setting(end, "switch"); sw && sw->is_string()) {
                if (const Part* s = index_.catalog().find(sw->get<std::string>()))
                    if (const Figure* f = s->figure("port_gbps"))
                        gbps_[end] = f->value;
            }
        }
        return gbps_[end];
    }

private:
    const DesignIndex& index_;
    std::vector<bool> known_;
    std::vector<std::optional<double>> gbps_;
};

// Speed of one link's ports: the slowest of the NIC port, the cable and the
// switch port it plugs into.
double linkGbps(const DesignIndex& index, EndSpeeds& ends, std::size_t link, std::size_t nicSide, std::size_t otherSide)
{
    double gbps = 1e12;
    if (auto v = index.figure(nicSide, "port_gbps"))
        gbps = std::min(gbps, *v);
    if (const Part* cable = index.linkPart(link))
        if (const Figure* f = cable->figure("gbps"))
            gbps = std::min(gbps, f->value);
    if (auto v = ends.of(otherSide))
        gbps = std::min(gbps, *v);
    return gbps >= 1e12 ? 0 : gbps;
}

struct NodeLinks {
    double gbPerSPerNode = 0;        // one direction
    std::optional<std::size_t> nic;  // a NIC component on that path
    std::int64_t nodes = 0;
};

// What the nodes move into fabrics (or switches) accepted by `want`.
template <typename Want>
NodeLinks nodeBandwidthInto(const DesignIndex& index, Want want)
{
    NodeLinks out;
    EndSpeeds ends(index);
    std::vector<std::size_t> nodesSeen;
    std::vector<bool> seen(index.size(), false);
    double total = 0;
    for (std::size_t j = 0; j < index.design().links.size(); ++j) {
        const Link& l = index.design().links[j];
        const auto from = index.linkFrom(j), to = index.linkTo(j);
        if (!from || !to)
            continue;
        for (auto [inside, other] : {std::pair{*from, *to}, std::pair{*to, *from}}) {
            const auto node = index.enclosing(inside, PartKind::Node);
            if (!node || index.enclosing(other, PartKind::Node) || !want(other))
                continue;
            const double ports = double(l.count) * double(index.instances(inside));
            total += ports * linkGbps(index, ends, j, inside, other) / 8.0;
            if (index.kind(inside) == PartKind::Nic && !out.nic)
                out.nic = inside;
            if (!seen[*node]) {
                seen[*node] = true;
                nodesSeen.push_back(*node);
            }
        }
    }
    for (std::size_t n : nodesSeen)
        out.nodes += index.instances(n);
    out.gbPerSPerNode = out.nodes > 0 ? total / double(out.nodes) : 0;
    return out;
}

// The part's kernel profile less the tables of each kind of kernel whose
// efficiency the design sets on the component: a figure the user typed in
// is the one the model uses.
std::shared_ptr<const KernelProfile> withoutOverridden(std::shared_ptr<const KernelProfile> k,
                                                       const AcceleratorProfile& g)
{
    const bool gemm = g.gemmEfficiency.isOverride(), attention = g.attentionEfficiency.isOverride(),
               hbm = g.hbmEfficiency.isOverride(), scaleup = g.scaleupEfficiency.isOverride();
    if (!k || !(gemm || attention || hbm || scaleup))
        return k;
    auto trimmed = std::make_shared<KernelProfile>(*k);
    if (gemm) {
        trimmed->gemm.clear();
        trimmed->activationScale.clear();
    }
    if (attention) {
        trimmed->attentionForward.reset();
        trimmed->attentionBackward.reset();
    }
    if (hbm) {
        trimmed->decodeAttention.clear();
        trimmed->memory.reset();
        trimmed->ops.clear();
        trimmed->opsCompiled.clear();
    }
    if (scaleup)
        trimmed->collectives.clear();
    return trimmed;
}

}  // namespace

HardwareProfile profileHardware(const DesignIndex& index, const Inventory& inv, const std::string& precision,
                                std::vector<Problem>& warnings)
{
    HardwareProfile hw;
    hw.gpus = inv.gpus;
    hw.nodes = inv.nodes;
    AcceleratorProfile& g = hw.gpu;
    g.part = inv.gpuPart;

    // The accelerator component holding most of the dominant part's GPUs.
    std::int64_t most = 0;
    for (std::size_t i = 0; i < index.size(); ++i)
        if (index.kind(i) == PartKind::Accelerator && index.component(i).part == inv.gpuPart &&
            index.instances(i) > most) {
            most = index.instances(i);
            g.component = i;
        }
    if (!g.component)
        return hw;
    const std::size_t a = *g.component;
    g.name = index.part(a).name;
    // A peak of 0 (the catalog's "none", part_schema.h; -0 too) is no peak:
    // taken as one, a precision the GPU lacks ran at 0 FLOP/s, every time
    // infinite and their quotients NaN (fuzz finding 16).
    for (const char* p : {"fp64", "fp64_tensor", "fp32", "tf32", "bf16", "fp16", "fp8", "fp4"}) {
        const Sourced s = figureOf(index, a, std::string(p) + "_tflops");
        if (s.known && s.value > 0)
            g.peaksTflops[p] = s;
    }
    if (const Sourced s = figureOf(index, a, "int8_tops"); s.known && s.value > 0)
        g.peaksTflops["int8"] = s;
    g.trainingPrecision = precision;
    if (!g.peaksTflops.count(precision)) {
        warnings.push_back(
            {Severity::Warning, "/workload/training/precision",
             inQuotes(g.name) + " has no " + precision + " peak in the catalog; the model uses its bf16 peak",
             "precision_unsupported"});
        g.trainingPrecision = "bf16";
    }
    g.trainingPeakTflops = g.peaksTflops.count(g.trainingPrecision) ? g.peaksTflops[g.trainingPrecision]
                                                                    : figureOf(index, a, "bf16_tflops");
    g.bf16PeakTflops = g.peaksTflops.count("bf16") ? g.peaksTflops["bf16"].value : g.trainingPeakTflops.value;
    g.hbmGb = figureOf(index, a, "hbm_gb");
    g.hbmTbPerS = figureOf(index, a, "hbm_tb_per_s");
    g.scaleupGbPerS = figureOf(index, a, "scaleup_gb_per_s");
    g.scaleupDomainGpus = figureOf(index, a, "scaleup_domain_gpus");
    g.tdpW = figureOf(index, a, "tdp_w");
    g.gemmEfficiency = figureOf(index, a, "gemm_efficiency", kDefaultGemmEfficiency, kModelDefault);
    // FP8 GEMMs keep less of their (doubled) peak than BF16 ones: the
    // best-shape matmul on H100 reaches 71% of the FP8 peak against 80% of
    // the BF16 one (docs/evidence/factor-measurements.md section 1a).
    if (g.trainingPrecision == "fp8") {
        if (const Sourced fp8 = figureOf(index, a, "fp8_gemm_efficiency"); fp8.known)
            g.gemmEfficiency = fp8;
        else
            warnings.push_back({Severity::Warning, "/workload/training/precision",
                                inQuotes(g.name) +
                                    " has no fp8_gemm_efficiency in the catalog; the model runs its FP8 GEMMs at "
                                    "the BF16 share of peak (gemm_efficiency)",
                                "fp8_efficiency_missing"});
    }
    g.attentionEfficiency = figureOf(index, a, "attention_efficiency", kDefaultAttentionEfficiency, kModelDefault);
    g.hbmEfficiency = figureOf(index, a, "hbm_efficiency", kDefaultHbmEfficiency, kModelDefault);
    g.scaleupEfficiency = figureOf(index, a, "scaleup_efficiency", kDefaultScaleupEfficiency, kModelDefault);
    g.kernels = withoutOverridden(index.catalog().sharedKernels(g.part), g);

    // GPUs per node, and per NVLink domain: an NVLink-domain group joins its
    // nodes; otherwise the node is the domain, as far as the part allows.
    const auto node = index.enclosing(a, PartKind::Node);
    hw.gpusPerNode = node ? index.instances(a) / std::max<std::int64_t>(1, index.instances(*node)) : 1;
    hw.scaleupDomainGpus = std::min<std::int64_t>(hw.gpusPerNode, std::int64_t(g.scaleupDomainGpus.value));
    for (std::optional<std::size_t> at = a; at; at = index.parent(*at)) {
        if (index.kind(*at) == PartKind::Group && index.part(*at).attribute("role") == "nvlink_domain") {
            std::int64_t inDomain = 0;
            for (std::size_t i = 0; i < index.size(); ++i)
                if (index.kind(i) == PartKind::Accelerator && index.isInside(i, *at))
                    inDomain += index.instances(i);
            inDomain /= std::max<std::int64_t>(1, index.instances(*at));
            hw.scaleupDomainGpus = inDomain;
            const auto limit = index.figure(*at, "max_gpus");
            const std::int64_t partLimit = std::int64_t(g.scaleupDomainGpus.value);
            // The tighter of the GPU's and the group's limits is the one to name.
            const std::int64_t supported = limit ? std::min(partLimit, std::int64_t(*limit)) : partLimit;
            if (inDomain > supported)
                warnings.push_back({Severity::Warning, pointerAppend("/components", *at),
                                    "NVLink domain " + inQuotes(index.component(*at).id) + " joins " +
                                        formatCount(inDomain) + " GPUs, more than the " + formatCount(supported) +
                                        " the hardware supports",
                                    "nvlink_domain_too_large"});
            break;
        }
    }

    // Scale-out: the compute fabric the nodes are wired to.
    const FabricSizing* best = computeFabric(index, inv);
    ScaleOutProfile& so = hw.scaleOut;
    NodeLinks compute;
    if (best) {
        const std::string id = best->component;
        const auto fabric = index.find(id);
        compute = nodeBandwidthInto(index, [&](std::size_t i) { return fabric == i; });
        so.fabric = id;
        so.tiers = best->tree.tiers;
        so.oversubscription = 1;
        if (const auto fi = index.find(id))
            so.oversubscription = index.figure(*fi, "oversubscription").value_or(1);
        const std::int64_t rails = std::max<std::int64_t>(1, best->rails);
        const std::int64_t radix = best->tree.leafDown + best->tree.leafUp;
        const std::int64_t nodesPerLeaf =
            best->railOptimized ? best->tree.nodesPerUnit : std::max<std::int64_t>(1, best->tree.leafDown / rails);
        // One switch reaches everything.
        so.leafScopeGpus = so.tiers <= 1 ? hw.gpus : std::min(hw.gpus, nodesPerLeaf * hw.gpusPerNode);
        if (so.tiers <= 2) {
            so.spineScopeGpus = hw.gpus;
        } else {
            // A pod: radix/2 leaves under one set of spines.
            const std::int64_t podLeaves = radix / 2;
            const std::int64_t podNodes =
                best->railOptimized ? podLeaves / rails * nodesPerLeaf : podLeaves * nodesPerLeaf;
            so.spineScopeGpus = std::min(hw.gpus, std::max<std::int64_t>(1, podNodes) * hw.gpusPerNode);
        }
    } else {
        // No fabric component: links from node NICs to placed switches.
        compute = nodeBandwidthInto(index, [&](std::size_t i) { return index.kind(i) == PartKind::Switch; });
        so.leafScopeGpus = so.spineScopeGpus = hw.gpus;
    }
    so.present = compute.nodes > 0 && compute.gbPerSPerNode > 0;
    if (so.present) {
        so.nicGbPerSPerGpu = {compute.gbPerSPerNode / double(hw.gpusPerNode),
                              "the design: links from each node into " +
                                  (so.fabric.empty() ? std::string("its switches") : inQuotes(so.fabric)) +
                                  " at the slowest of NIC, cable and switch port speed"};
        if (compute.nic) {
            so.nicPart = index.component(*compute.nic).part;
            so.latencyUs = figureOf(index, *compute.nic, "latency_us");
            so.efficiency = figureOf(index, *compute.nic, "efficiency", kDefaultNicEfficiency, kModelDefault);
        } else {
            so.latencyUs = {5, "seed 002 table 4: IB NDR one-way latency (no NIC component on the path)", true};
            so.efficiency = {kDefaultNicEfficiency, kModelDefault, true};
        }
        if (compute.nodes < hw.nodes) {
            // Mark each node component none of whose NICs reach the fabric:
            // one pass over the links marks every container of a link's end.
            std::vector<bool> wired(index.size(), false);
            for (std::size_t j = 0; j < index.design().links.size(); ++j)
                for (std::optional<std::size_t> end : {index.linkFrom(j), index.linkTo(j)})
                    for (std::optional<std::size_t> at = end; at && !wired[*at]; at = index.parent(*at))
                        wired[*at] = true;
            for (std::size_t n = 0; n < index.size(); ++n) {
                if (index.kind(n) != PartKind::Node)
                    continue;
                if (!wired[n])
                    warnings.push_back({Severity::Warning, pointerAppend("/components", n),
                                        formatCount(index.instances(n)) + " x " + inQuotes(index.component(n).name) +
                                            " have no link to a fabric: their GPUs cannot reach other nodes",
                                        "nodes_unconnected"});
            }
        }
    } else if (hw.nodes > 1) {
        warnings.push_back({Severity::Warning, "/links",
                            "no node is wired to a compute fabric: nodes cannot communicate, so only parallelism "
                            "inside one node is modelled",
                            "no_scale_out"});
    }

    // Storage: shared systems outside nodes, and the nodes' path to them.
    StorageProfile& st = hw.storage;
    double read = 0, write = 0, kiops = 0, latency = 0;
    std::vector<bool> storageSystem(index.size(), false);
    std::string source;
    for (std::size_t i = 0; i < index.size(); ++i) {
        if (index.kind(i) != PartKind::Storage)
            continue;
        const double n = double(index.instances(i));
        if (index.enclosing(i, PartKind::Node)) {
            st.localReadGbPerSPerNode +=
                figureOf(index, i, "read_gb_per_s").value * n / double(std::max<std::int64_t>(1, hw.nodes));
            continue;
        }
        st.systems += index.instances(i);
        const Sourced r = figureOf(index, i, "read_gb_per_s");
        read += n * r.value;
        write += n * figureOf(index, i, "write_gb_per_s").value;
        kiops += n * figureOf(index, i, "metadata_kiops").value;
        latency = std::max(latency, figureOf(index, i, "latency_us", 1000, kModelDefault).value);
        storageSystem[i] = true;
        if (source.empty())
            source = r.source;
    }
    const std::string sum = "sum over the design's storage systems (" + source + ")";
    st.readGbPerS = {read, sum};
    st.writeGbPerS = {write, sum};
    st.metadataKiops = {kiops, sum};
    st.latencyUs = {latency, "slowest storage system's first-byte latency"};
    if (st.systems > 0) {
        // The fabric(s) carrying storage: those with a storage system on them.
        std::vector<bool> storageFabric(index.size(), false);
        for (std::size_t j = 0; j < index.design().links.size(); ++j) {
            const auto from = index.linkFrom(j), to = index.linkTo(j);
            if (!from || !to)
                continue;
            for (auto [s, f] : {std::pair{*from, *to}, std::pair{*to, *from}})
                if (storageSystem[s] && index.kind(f) == PartKind::Fabric)
                    storageFabric[f] = true;
        }
        const NodeLinks path = nodeBandwidthInto(index, [&](std::size_t i) { return bool(storageFabric[i]); });
        st.connected = path.nodes > 0;
        st.nodePathGbPerS = path.gbPerSPerNode * double(path.nodes);
        if (!st.connected)
            warnings.push_back({Severity::Warning, "/links",
                                "storage is not wired to the nodes through any fabric: data loading and checkpoints "
                                "are modelled at the storage's own bandwidth",
                                "storage_unconnected"});
    }
    return hw;
}

}  // namespace studio
