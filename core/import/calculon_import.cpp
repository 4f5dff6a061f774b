#include "core/import/calculon_import.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <map>

#include "core/design/fat_tree.h"
#include "core/export/calculon_files.h"
#include "core/format/design_reader.h"
#include "core/json/format_version.h"
#include "core/json/json_pointer.h"
#include "core/json/json_reader.h"
#include "core/json/json_text.h"
#include "core/text.h"
#include "core/version.h"

namespace studio {
namespace {

// Calculon has no vocabulary (its blocks only); its parameter calculator
// assumes GPT's 51,200 (llm.py Application.num_parameters).
constexpr std::int64_t kCalculonVocab = 51'200;
// Calculon has no power figures: a DGX H100's 10.2 kW for 8 GPUs (catalog
// source nv-dgx-h100) per GPU, marked uncertain.
constexpr double kAssumedKwPerGpu = 10.2 / 8;
// Chinchilla's compute-optimal 20 tokens per parameter (Hoffmann et al.
// 2022), for the run's length Calculon does not have.
constexpr double kTokensPerParam = 20;
// A leaf's radix when Calculon's one scale-out tier says nothing of the
// switches: a 64-port switch (QM9700's radix) built non-blocking gives every
// GPU the tier's bandwidth at any size.
constexpr std::int64_t kDefaultRadix = 64;
constexpr const char* kSource = "calculon-import";
constexpr const char* kAssumed = "calculon-import-assumed";

enum class Role { System, Model, Execution };

// Keys a file must have exactly: Calculon asserts the execution's and a
// network's, and reads the rest by name; an unknown key is a typo or a
// newer Calculon, either way not something to guess at.
template <std::size_t N>
bool exactKeys(const Json& obj, const std::string& ptr, const std::array<const char*, N>& keys, const char* what,
               JsonReader& r)
{
    if (!r.isObject(obj, ptr))
        return false;
    const std::size_t before = r.errorCount();
    std::string list;
    for (const char* k : keys)
        list += (list.empty() ? "" : ", ") + std::string(k);
    r.refuseUnknown(obj, ptr, std::vector<std::string_view>(keys.begin(), keys.end()),
                    "Calculon's " + std::string(what) + " has " + list);
    for (const char* k : keys)
        if (!obj.contains(k))
            r.error(pointerAppend(ptr, k), std::string("missing: Calculon's ") + what + " needs it", "missing");
    return r.errorCount() == before;
}

// An efficiency table as Calculon asserts it: [threshold, share] rows,
// thresholds descending to a last 0, shares in (0, 1]. Its first row, the
// largest operations', is what the studio keeps.
std::optional<double> readTable(const Json& t, const std::string& ptr, JsonReader& r, bool* severalRows)
{
    if (!r.isArray(t, ptr))
        return std::nullopt;
    if (t.empty()) {
        r.error(ptr, "an efficiency table needs at least the row [0, share]", "empty");
        return std::nullopt;
    }
    const std::size_t before = r.errorCount();
    double last = INFINITY;
    for (std::size_t i = 0; i < t.size(); ++i) {
        const std::string at = pointerAppend(ptr, i);
        if (!r.isArray(t[i], at))
            continue;
        if (t[i].size() != 2) {
            r.error(at, "a row is [threshold, share], got " + std::to_string(t[i].size()) + " values");
            continue;
        }
        const auto threshold = r.numberValue(t[i][0], pointerAppend(at, 0), 0, 1e12);
        r.numberValue(t[i][1], pointerAppend(at, 1), 0, 1, true);
        if (threshold && *threshold >= last)
            r.error(pointerAppend(at, 0),
                    "thresholds must fall row by row (Calculon takes the first row at or "
                    "below an operation's size)");
        if (threshold)
            last = *threshold;
    }
    if (r.errorCount() != before)
        return std::nullopt;
    if (last != 0)
        r.error(pointerAppend(ptr, t.size() - 1), "the last row's threshold must be 0, so every size has a share");
    *severalRows = *severalRows || t.size() > 1;
    return r.errorCount() == before ? std::optional<double>(t[0][1].get<double>()) : std::nullopt;
}

struct Network {
    double gbPerS = 0, efficiency = 0, latencyS = 0;
    std::int64_t size = 0;
    bool filled = false;
    double usage = 0;
    bool ring = true;  // its ops are the studio's rings
};

std::optional<Network> readNetwork(const Json& n, const std::string& ptr, JsonReader& r)
{
    if (!exactKeys(n, ptr, kCalculonNetworkKeys, "network", r))
        return std::nullopt;
    const std::size_t before = r.errorCount();
    Network net;
    net.gbPerS = r.number(n, ptr, "bandwidth", true, 0, 1e6, true).value_or(0);
    net.efficiency = r.number(n, ptr, "efficiency", true, 0, 1, true).value_or(0);
    net.size = r.integer(n, ptr, "size", true, 1, kMaxInstances).value_or(0);
    net.latencyS = r.number(n, ptr, "latency", true, 0, 1).value_or(0);
    net.filled = r.boolean(n, ptr, "must_be_filled", true).value_or(false);
    net.usage = r.number(n, ptr, "processor_usage", true, 0, 0.999).value_or(0);
    const std::string ops = pointerAppend(ptr, "ops");
    static const std::array<const char*, 4> kOps{"p2p", "reduce_scatter", "all_gather", "all_reduce"};
    if (exactKeys(n["ops"], ops, kOps, "network's ops", r)) {
        const Json ring = {{"p2p", {1.0, nullptr}},
                           {"reduce_scatter", {1.0, -1}},
                           {"all_gather", {1.0, -1}},
                           {"all_reduce", {2.0, -1}}};
        for (const char* op : kOps) {
            const Json& v = n["ops"][op];
            const std::string at = pointerAppend(ops, op);
            if (!r.isArray(v, at))
                continue;
            if (v.size() != 2) {
                r.error(at, "an op is [scalar, offset]");
                continue;
            }
            r.numberValue(v[0], pointerAppend(at, 0), 0, 1e6, true);
            if (std::string(op) == "p2p" ? !v[1].is_null() : !v[1].is_number())
                r.error(pointerAppend(at, 1),
                        std::string(op) == "p2p" ? "p2p's offset must be null"
                                                 : "a collective's offset must be a number");
            else if (v[0].is_number() &&
                     (v[0].get<double>() != ring[op][0].get<double>() ||
                      (v[1].is_number() && v[1].get<double>() != ring[op][1].get<double>())))
                net.ring = false;
        }
    }
    if (r.errorCount() != before)
        return std::nullopt;
    return net;
}

struct Processor {
    std::map<std::string, double> tflops;      // by studio precision
    std::map<std::string, double> efficiency;  // the largest operations' share, by studio precision
    double hbmGiB = 0, hbmGbPerS = 0, hbmEfficiency = 0;
};

std::string stem(const std::string& path)
{
    std::string s = std::filesystem::path(path).filename().string();
    for (const char* ext : {".json.gz", ".json"})
        if (s.size() > std::strlen(ext) && s.ends_with(ext))
            return s.substr(0, s.size() - std::strlen(ext));
    return s;
}

Json figure(double value, const char* source = kSource)
{
    Json f = {{"value", value}, {"source", source}};
    if (std::string(source) == kAssumed)
        f["uncertain"] = true;
    return f;
}

}  // namespace

CalculonImport importCalculon(const std::vector<CalculonSource>& files, std::int64_t gpus)
{
    CalculonImport out;
    auto note = [&out](std::string s) { out.notes.push_back(std::move(s)); };
    const CalculonSource *system = nullptr, *model = nullptr, *execution = nullptr;
    for (const CalculonSource& f : files) {
        const CalculonSource** slot = nullptr;
        if (f.doc.is_object() && f.doc.contains("networks"))
            slot = &system;
        else if (f.doc.is_object() && f.doc.contains("num_blocks"))
            slot = &model;
        else if (f.doc.is_object() && f.doc.contains("num_procs"))
            slot = &execution;
        if (!slot) {
            out.errors.push_back(f.path +
                                 ": /: not a Calculon system (\"networks\"), model (\"num_blocks\") or "
                                 "execution (\"num_procs\")");
            continue;
        }
        if (*slot) {
            out.errors.push_back(f.path + ": /: a second Calculon " +
                                 std::string(slot == &system      ? "system"
                                                 : slot == &model ? "model"
                                                                  : "execution") +
                                 " (the first is " + (*slot)->path + ")");
            continue;
        }
        *slot = &f;
    }
    if (!system)
        out.errors.push_back("calculon: a system file (matrix, vector, mem1, mem2, processing_mode, networks) is "
                             "needed");
    if (!model)
        out.errors.push_back("calculon: a model file (hidden, feedforward, seq_size, attn_heads, attn_size, "
                             "num_blocks) is needed");
    if (!execution && gpus <= 0)
        out.errors.push_back("calculon: the GPU count comes from an execution file (num_procs) or --gpus: a "
                             "system's tier sizes are what each tier can hold, not how many GPUs there are");
    if (!out.errors.empty())
        return out;

    // Each file's problems, named by the file.
    std::vector<Problem> problems;
    auto flush = [&](const CalculonSource& f) {
        for (const Problem& p : problems)
            if (p.severity == Severity::Error)
                out.errors.push_back(formatProblem(f.path, p));
        problems.clear();
    };
    JsonReader r(problems);

    // The model.
    struct {
        std::int64_t hidden = 0, ffn = 0, seq = 0, heads = 0, headSize = 0, layers = 0;
    } m;
    if (exactKeys(model->doc, "", kCalculonModelKeys, "model", r)) {
        m.hidden = r.integer(model->doc, "", "hidden", true, 1, 1'000'000).value_or(0);
        m.ffn = r.integer(model->doc, "", "feedforward", true, 1, 10'000'000).value_or(0);
        m.seq = r.integer(model->doc, "", "seq_size", true, 1, 100'000'000).value_or(0);
        m.heads = r.integer(model->doc, "", "attn_heads", true, 1, 100'000).value_or(0);
        m.headSize = r.integer(model->doc, "", "attn_size", true, 1, 100'000).value_or(0);
        m.layers = r.integer(model->doc, "", "num_blocks", true, 1, 100'000).value_or(0);
        if (m.hidden > 0 && m.heads > 0 && m.hidden % m.heads != 0)
            r.error("/attn_heads",
                    "the studio needs hidden (" + formatCount(m.hidden) +
                        ") to be a multiple of "
                        "attn_heads (" +
                        formatCount(m.heads) + ")");
    }
    flush(*model);

    // The system: one processor and its tiers.
    Processor proc;
    std::vector<Network> nets;
    bool severalRows = false;
    std::string mode;
    if (exactKeys(system->doc, "", kCalculonSystemKeys, "system", r)) {
        const Json& matrix = system->doc["matrix"];
        if (r.isObject(matrix, "/matrix")) {
            if (matrix.empty())
                r.error("/matrix", "no datatype: the processor needs a peak for bfloat16, float16 or float8");
            for (const auto& [type, unit] : matrix.items()) {
                const std::string at = pointerAppend("/matrix", type);
                const std::string precision = precisionOfCalculonDatatype(type);
                if (precision.empty() && type != "float32") {
                    r.error(at, "unknown datatype: Calculon's are float8, float16, bfloat16 and float32");
                    continue;
                }
                if (!r.isObject(unit, at))
                    continue;
                const auto tflops = r.number(unit, at, "tflops", true, 0, 1e6, true);
                const std::string table = pointerAppend(at, "gflops_efficiency");
                const auto eff = unit.contains("gflops_efficiency")
                    ? readTable(unit["gflops_efficiency"], table, r, &severalRows)
                    : (r.error(table, "missing: Calculon needs its efficiency table", "missing"), std::nullopt);
                if (precision.empty()) {
                    note("float32's matrix peak is left out: the studio trains in bf16, fp16 or fp8");
                    continue;
                }
                if (tflops && eff) {
                    proc.tflops[precision] = *tflops;
                    proc.efficiency[precision] = *eff;
                }
            }
        }
        if (r.isObject(system->doc["vector"], "/vector"))
            note("the vector unit is left out: the studio times element-wise work and the optimizer by the bytes "
                 "they move");
        for (const char* mem : {"mem1", "mem2"}) {
            const Json& j = system->doc[mem];
            const std::string at = std::string("/") + mem;
            static const std::array<const char*, 3> kMem{"GiB", "GBps", "MB_efficiency"};
            if (!exactKeys(j, at, kMem, "memory", r))
                continue;
            const auto gib = r.number(j, at, "GiB", true, 0, 1e12);
            const auto gbps = r.number(j, at, "GBps", true, 0, 1e9, true);
            const auto eff = readTable(j["MB_efficiency"], pointerAppend(at, "MB_efficiency"), r, &severalRows);
            if (std::string(mem) == "mem1" && gib && gbps && eff) {
                if (*gib <= 0)
                    r.error(pointerAppend(at, "GiB"), "must be greater than 0, got 0");
                proc.hbmGiB = *gib, proc.hbmGbPerS = *gbps, proc.hbmEfficiency = *eff;
            } else if (std::string(mem) == "mem2" && gib && *gib > 0) {
                note("mem2 (" + formatValue(*gib, 4) + " GiB at " + formatValue(gbps.value_or(0), 4) +
                     " GB/s), Calculon's offload tier, is left out: the studio does not offload");
            }
        }
        mode = r.choice(system->doc, "", "processing_mode", {"roofline", "no_overlap"}, true).value_or("roofline");
        if (mode == "no_overlap")
            note("processing_mode no_overlap is left out: a kernel in the studio takes the slower of its FLOPs and "
                 "its bytes (roofline), not their sum");
        if (r.isArray(system->doc["networks"], "/networks")) {
            if (system->doc["networks"].empty())
                r.error("/networks", "no network: the processors need at least one tier");
            for (std::size_t i = 0; i < system->doc["networks"].size(); ++i)
                if (auto n = readNetwork(system->doc["networks"][i], pointerAppend("/networks", i), r))
                    nets.push_back(*n);
        }
    }
    flush(*system);

    // The execution: the layout and the run.
    struct {
        std::int64_t procs = 0, tp = 1, pp = 1, dp = 1, batch = 0, micro = 1, interleave = 1;
        std::string datatype, attention = "multihead", recompute = "none", comm = "ar", overlap = "none";
        bool sharding = false, fused = false, offload = false, training = true, seqRedo = false, dpOverlap = true;
    } e;
    if (execution) {
        const Json& x = execution->doc;
        if (exactKeys(x, "", kCalculonExecutionKeys, "execution", r)) {
            e.procs = r.integer(x, "", "num_procs", true, 1, kMaxInstances).value_or(1);
            e.tp = r.integer(x, "", "tensor_par", true, 1, 1'000'000).value_or(1);
            e.pp = r.integer(x, "", "pipeline_par", true, 1, 1'000'000).value_or(1);
            e.dp = r.integer(x, "", "data_par", true, 1, kMaxInstances).value_or(1);
            for (const char* net : {"tensor_par_net", "pipeline_par_net", "data_par_net"})
                r.integer(x, "", net, true, 0, std::max<std::int64_t>(0, std::int64_t(nets.size()) - 1));
            e.batch = r.integer(x, "", "batch_size", true, 1, 1'000'000'000).value_or(1);
            e.micro = r.integer(x, "", "microbatch_size", true, 1, 1'000'000'000).value_or(1);
            e.datatype = r.choice(x, "", "datatype", {"float8", "float16", "bfloat16", "float32"}, true).value_or("");
            e.fused = r.boolean(x, "", "fused_activation", true).value_or(false);
            e.attention = r.choice(x, "", "attention_type", {"multihead", "multiquery"}, true).value_or("multihead");
            e.recompute = r.choice(x, "", "activation_recompute", {"full", "attn_only", "none"}, true).value_or("none");
            e.interleave = r.integer(x, "", "pipeline_interleaving", true, 1, 1'000).value_or(1);
            e.sharding = r.boolean(x, "", "optimizer_sharding", true).value_or(false);
            e.comm = r.choice(x, "", "tensor_par_comm_type", {"ar", "p2p_rs_ag", "rs_ag"}, true).value_or("ar");
            e.overlap = r.choice(x, "", "tensor_par_overlap", {"none", "ring", "pipe"}, true).value_or("none");
            e.seqRedo = r.boolean(x, "", "seq_par_ag_redo", true).value_or(false);
            e.dpOverlap = r.boolean(x, "", "data_par_overlap", true).value_or(true);
            for (const char* k : {"weight_offload", "activations_offload", "optimizer_offload"})
                e.offload = r.boolean(x, "", k, true).value_or(false) || e.offload;
            e.training = r.boolean(x, "", "training", true).value_or(true);
            if (r.errorCount() == 0) {
                if (e.procs != e.tp * e.pp * e.dp)
                    r.error("/num_procs",
                            "is " + formatCount(e.procs) +
                                ", not tensor_par x pipeline_par x data_par = " + formatCount(e.tp * e.pp * e.dp));
                if (e.batch % e.dp != 0 || (e.batch / e.dp) % e.micro != 0)
                    r.error("/batch_size",
                            "is " + formatCount(e.batch) + ": Calculon needs whole micro-batches of " +
                                formatCount(e.micro) + " on each of " + formatCount(e.dp) + " data-parallel ranks");
                if (e.datatype == "float32")
                    r.error("/datatype", "float32: the studio trains in bfloat16, float16 or float8");
                else if (!proc.tflops.empty() && !proc.tflops.count(precisionOfCalculonDatatype(e.datatype)))
                    r.error("/datatype", e.datatype + " has no matrix peak in " + system->path);
                if (!e.training)
                    r.error("/training",
                            "false: the studio imports training runs (serve a model with a serving "
                            "workload instead)");
            }
        }
        flush(*execution);
    }
    if (!out.errors.empty())
        return out;

    // The tiers: the first network, when it must be filled, is the NVLink
    // domain; the rest are scale-out, the first of them the leaf.
    const bool scaleup = nets.front().filled;
    const std::int64_t domain = scaleup ? nets.front().size : 1;
    std::vector<Network> scaleOut(nets.begin() + (scaleup ? 1 : 0), nets.end());
    const std::int64_t totalGpus = execution ? e.procs : gpus;
    if (scaleOut.empty() && totalGpus > domain) {
        out.errors.push_back(system->path + ": /networks: one tier of " + formatCount(domain) +
                             " processors cannot join " + formatCount(totalGpus) +
                             ": add a scale-out network after it");
        return out;
    }
    const std::int64_t gpusPerNode = std::min(domain, totalGpus);
    const std::int64_t nodes = (totalGpus + gpusPerNode - 1) / gpusPerNode;
    if (nodes * gpusPerNode != totalGpus)
        note("the " + formatCount(totalGpus) + " processors fill " + formatCount(nodes) + " nodes of " +
             formatCount(gpusPerNode) + " (one NVLink domain each): the design has " +
             formatCount(nodes * gpusPerNode) + " GPUs");
    for (std::size_t i = 1; i < scaleOut.size(); ++i)
        if (scaleOut[i].efficiency != scaleOut[0].efficiency || scaleOut[i].latencyS != scaleOut[0].latencyS)
            note("network " + std::to_string(i + (scaleup ? 1 : 0)) +
                 "'s efficiency and latency are left out: every scale-out tier of the studio has the NIC's");
    if (scaleOut.size() > 3)
        note("networks beyond the third scale-out tier are left out: a fat tree has at most three switch tiers");
    for (const Network& n : nets) {
        if (!n.ring) {
            note("ops other than rings are left out: the studio's collectives are rings");
            break;
        }
    }
    for (const Network& n : nets)
        if (n.usage > 0) {
            note("processor_usage is left out: the studio takes no compute from overlapped communication");
            break;
        }
    if (severalRows)
        note("each efficiency table keeps its first row (the largest operations'): the studio's own size curves "
             "cover smaller ones");
    if (execution) {
        if (e.fused)
            note("fused_activation is left out: the studio times the activation as its own kernel");
        if (e.offload)
            note("offloading is left out: the studio keeps weights, activations and optimizer state in HBM");
        if (e.seqRedo)
            note("seq_par_ag_redo is left out");
        if (!e.dpOverlap && e.dp > 1)
            note("data_par_overlap false is left out: the studio hides the data-parallel reduction behind the "
                 "backward");
        if (e.comm == "p2p_rs_ag")
            note("tensor_par_comm_type p2p_rs_ag is read as rs_ag (sequence parallelism)");
    }

    // The parts, embedded in the design.
    const std::string precision = execution ? precisionOfCalculonDatatype(e.datatype)
                                            : (proc.tflops.count("bf16") ? "bf16" : proc.tflops.begin()->first);
    const std::string sixteen = proc.tflops.count("bf16") ? "bf16" : (proc.tflops.count("fp16") ? "fp16" : "");
    Json gpuFigures = Json::object();
    if (sixteen.empty()) {
        out.errors.push_back(system->path +
                             ": /matrix: the studio needs a bfloat16 or float16 peak (its attention "
                             "and 16-bit work run there)");
        return out;
    }
    if (sixteen == "fp16")
        note("bfloat16's peak is float16's: the system gives no bfloat16");
    gpuFigures["bf16_tflops"] = figure(proc.tflops[sixteen]);
    for (const char* p : {"fp16", "fp8"})
        if (proc.tflops.count(p))
            gpuFigures[std::string(p) + "_tflops"] = figure(proc.tflops[p]);
    gpuFigures["hbm_gb"] = figure(proc.hbmGiB);
    gpuFigures["hbm_tb_per_s"] = figure(proc.hbmGbPerS / 1000);
    gpuFigures["scaleup_gb_per_s"] = figure(scaleup ? 2 * nets.front().gbPerS : 0);
    gpuFigures["scaleup_domain_gpus"] = figure(double(domain));
    gpuFigures["gemm_efficiency"] = figure(proc.efficiency[sixteen]);
    if (proc.efficiency.count("fp8"))
        gpuFigures["fp8_gemm_efficiency"] = figure(proc.efficiency["fp8"]);
    gpuFigures["attention_efficiency"] = figure(proc.efficiency[sixteen]);
    gpuFigures["hbm_efficiency"] = figure(proc.hbmEfficiency);
    if (scaleup)
        gpuFigures["scaleup_efficiency"] = figure(nets.front().efficiency);
    note("attention runs at the GEMM efficiency, as in Calculon (its matrix table)");
    note("the design has no storage or racks, as Calculon has neither: without storage the run cannot "
         "checkpoint, so the studio says it never completes until storage is added on the canvas");

    const std::string name = stem(system->path);
    Json parts = Json::array();
    parts.push_back({{"id", "calculon.gpu"},
                     {"kind", "accelerator"},
                     {"name", name + " processor"},
                     {"vendor", "Calculon"},
                     {"figures", gpuFigures}});
    const bool fabric = !scaleOut.empty();
    const double nicGbps = fabric ? scaleOut.front().gbPerS * 8 : 0;
    if (fabric) {
        parts.push_back({{"id", "calculon.nic"},
                         {"kind", "nic"},
                         {"name", formatValue(nicGbps, 4) + " Gb/s NIC"},
                         {"vendor", "Calculon"},
                         {"attributes", {{"protocol", "infiniband"}}},
                         {"figures",
                          {{"port_gbps", figure(nicGbps)},
                           {"ports", figure(1)},
                           {"latency_us", figure(scaleOut.front().latencyS * 1e6)},
                           {"efficiency", figure(scaleOut.front().efficiency)}}}});
        note("the scale-out NICs, links and switches are InfiniBand: Calculon's networks have no protocol");
    }
    Json nodeAttributes = {{"accelerator", "calculon.gpu"}};
    if (fabric)
        nodeAttributes["nic"] = "calculon.nic";
    else
        nodeAttributes["nic"] = "nic.connectx-7";  // the part needs one; no NIC is placed
    parts.push_back({{"id", "calculon.node"},
                     {"kind", "node"},
                     {"name", formatCount(gpusPerNode) + "-processor node"},
                     {"vendor", "Calculon"},
                     {"attributes", nodeAttributes},
                     {"figures",
                      {{"gpus", figure(double(gpusPerNode))},
                       {"compute_nics", figure(fabric ? double(gpusPerNode) : 0)},
                       {"max_power_kw", figure(kAssumedKwPerGpu * double(gpusPerNode), kAssumed)}}}});
    note("each node's power is assumed at " + formatValue(kAssumedKwPerGpu, 4) +
         " kW per GPU (a DGX H100's): Calculon has no power figures");

    // The fabric: its leaves reach the first scale-out tier's GPUs, and the
    // tier above, slower, is its oversubscription. A rail-optimized leaf
    // reaches its down-ports' worth of nodes (each node's GPUs, a rail each),
    // a plain one its down-ports' worth of GPUs: the first of the two whose
    // tree has as many tiers as Calculon's file is the fabric.
    std::int64_t radix = kDefaultRadix;
    double oversubscription = 1;
    bool railOptimized = gpusPerNode > 1;
    if (scaleOut.size() >= 2) {
        oversubscription = std::clamp(scaleOut[0].gbPerS / scaleOut[1].gbPerS, 1.0, 64.0);
        if (scaleOut[1].gbPerS > scaleOut[0].gbPerS)
            note("network " + std::to_string(scaleup ? 2 : 1) +
                 " is faster than the leaf below it: the fabric is "
                 "non-blocking at the leaf's bandwidth");
        const int tiers = int(std::min<std::size_t>(3, scaleOut.size()));
        bool found = false;
        for (const bool rail : {true, false}) {
            if (rail && gpusPerNode < 2)
                continue;
            const std::int64_t leafDown = rail ? (scaleOut[0].size + gpusPerNode - 1) / gpusPerNode : scaleOut[0].size;
            const auto k = std::int64_t(std::ceil(double(leafDown) * (1 + oversubscription) / oversubscription));
            const FatTree t = sizeFatTree({nodes, gpusPerNode, 0, k + k % 2, oversubscription, rail, 0});
            if (t.error.empty() && t.tiers == tiers && k + k % 2 <= 100'000) {
                radix = k + k % 2, railOptimized = rail, found = true;
                break;
            }
        }
        if (!found)
            note("no fat tree reaches the first scale-out tier's " + formatCount(scaleOut[0].size) +
                 " GPUs per leaf in " + std::to_string(tiers) + " tiers: the fabric is " + formatCount(kDefaultRadix) +
                 "-port switches, as many tiers as it needs");
    }
    if (fabric) {
        parts.push_back({{"id", "calculon.switch"},
                         {"kind", "switch"},
                         {"name", formatCount(radix) + "-port " + formatValue(nicGbps, 4) + " Gb/s switch"},
                         {"vendor", "Calculon"},
                         {"attributes", {{"protocol", "infiniband"}}},
                         {"figures", {{"ports", figure(double(radix))}, {"port_gbps", figure(nicGbps)}}}});
        parts.push_back({{"id", "calculon.link"},
                         {"kind", "link"},
                         {"name", formatValue(nicGbps, 4) + " Gb/s link"},
                         {"vendor", "Calculon"},
                         {"attributes", {{"protocol", "infiniband"}}},
                         {"figures", {{"gbps", figure(nicGbps)}}}});
        parts.push_back({{"id", "calculon.fabric"},
                         {"kind", "fabric"},
                         {"name", "Calculon's scale-out tiers"},
                         {"vendor", "Calculon"},
                         {"attributes", {{"rail_optimized", railOptimized ? "true" : "false"}}},
                         {"figures", {{"oversubscription", figure(oversubscription)}}}});
    }

    // The design: a pod of nodes, each with its GPUs and NICs, and the fabric.
    Json components = Json::array();
    auto place = [&components](const char* id, const char* part, const char* name, const char* parent,
                               std::int64_t count, int x, int y) {
        Json c = {{"id", id}, {"part", part}, {"name", name}};
        if (*parent)
            c["parent"] = parent;
        c["count"] = count;
        c["position"] = {{"x", x}, {"y", y}};
        components.push_back(std::move(c));
    };
    place("pod", "group.pod", "Pod", "", 1, 0, 0);
    place("node", "calculon.node", "Node", "pod", nodes, 16, 40);
    place("node.gpu", "calculon.gpu", "GPU", "node", gpusPerNode, 12, 40);
    Json links = Json::array();
    if (fabric) {
        place("node.nic", "calculon.nic", "NIC", "node", gpusPerNode, 202, 40);
        Json props = {{"switch", "calculon.switch"}, {"cable", "calculon.link"}};
        if (scaleOut.size() >= 2)
            props["radix"] = radix;
        place("fabric", "calculon.fabric", "Compute fabric", "pod", 1, 720, 130);
        components.back()["props"] = props;
        links.push_back(
            {{"id", "node-fabric"}, {"from", "node.nic"}, {"to", "fabric"}, {"part", "calculon.link"}, {"count", 1}});
    }

    // The workload.
    Json modelJson = {{"name", stem(model->path)}, {"layers", m.layers}, {"hidden", m.hidden},      {"heads", m.heads},
                      {"ffn_hidden", m.ffn},       {"ffn_type", "gelu"}, {"vocab", kCalculonVocab}, {"seq_len", m.seq}};
    if (e.attention == "multiquery")
        modelJson["kv_heads"] = 1;
    if (m.headSize * m.heads != m.hidden)
        note("attn_size " + formatCount(m.headSize) +
             " is left out: the studio's heads are hidden / attn_heads = " + formatCount(m.hidden / m.heads) + " wide");
    note("the vocabulary is " + formatCount(kCalculonVocab) +
         ", as Calculon's parameter count assumes: its model has none, and the studio times the embedding and "
         "output layer");
    // Parameters as the studio counts a dense GPT block (4 h^2 attention,
    // 2 h ffn MLP) and the embeddings, for the run's length.
    const double h = double(m.hidden);
    const double params = double(m.layers) * (4 * h * h + 2 * h * double(m.ffn)) + 2 * double(kCalculonVocab) * h;
    const double tokens = std::round(kTokensPerParam * params / 1e9) * 1e9;
    note("the run trains " + formatValue(tokens / 1e9, 4) +
         "B tokens, 20 per parameter (Chinchilla): Calculon times one step, not a run");
    Json training = {{"global_batch", execution ? e.batch : nodes * gpusPerNode},
                     {"micro_batch", e.micro},
                     {"tokens", std::max(tokens, 1e9)},
                     {"precision", precision}};
    if (!execution)
        note("no execution file: the global batch is one sequence per GPU and the layout pure data parallelism");
    Json workload = {{"kind", "training"}, {"model", modelJson}, {"training", training}};
    if (execution)
        workload["parallelism"] = {{"tp", e.tp},
                                   {"pp", e.pp},
                                   {"dp", e.dp},
                                   {"interleave", e.interleave},
                                   {"zero", e.sharding ? 1 : 0},
                                   {"sequence_parallel", e.comm != "ar"},
                                   {"recompute",
                                    e.recompute == "full"            ? "full"
                                        : e.recompute == "attn_only" ? "selective"
                                                                     : "none"},
                                   {"tp_comm_overlap", e.overlap != "none" && e.tp > 1}};

    out.design =
        Json{{"format", "cluster-studio.design"},
             {"format_version", toString(kDesignFormatVersion)},
             {"app_version", std::string(kAppVersion)},
             {"name", name + " (from Calculon)"},
             {"description",
              "Imported from Calculon's " + std::filesystem::path(system->path).filename().string() + ", " +
                  std::filesystem::path(model->path).filename().string() +
                  (execution ? ", " + std::filesystem::path(execution->path).filename().string() : std::string()) +
                  " by Cluster Studio."},
             {"components", components},
             {"links", links},
             {"workload", workload},
             {"catalog",
              {{"format", "cluster-studio.catalog"},
               {"format_version", "1.0"},
               {"sources",
                {{kSource,
                  "Calculon input files (github.com/calculon-ai/calculon), imported by Cluster "
                  "Studio"},
                 {kAssumed, "assumed at import: Calculon has no such figure"}}},
               {"parts", parts}}}};
    // Through the reader, as a file would be: a figure past a part's limits
    // (a 10^6 GB/s tier) is refused here, by the design's own rules.
    const DesignLoad loaded = readDesignJson(*out.design, Catalog::builtin());
    for (const Problem& p : loaded.problems)
        if (p.severity == Severity::Error)
            out.errors.push_back(formatProblem("the imported design", p));
    if (!loaded.ok())
        out.design.reset();
    return out;
}

CalculonImport importCalculonFiles(const std::vector<std::string>& paths, std::int64_t gpus)
{
    std::vector<CalculonSource> files;
    CalculonImport failed;
    for (const std::string& path : paths) {
        const FileText text = readTextFile(path);
        if (text.error) {
            failed.errors.push_back(path + ": " + *text.error);
            continue;
        }
        ParsedJson parsed = parseJsonText(text.text);
        if (parsed.error) {
            failed.errors.push_back(formatProblem(path, *parsed.error));
            continue;
        }
        files.push_back({path, std::move(parsed.doc)});
    }
    if (!failed.errors.empty())
        return failed;
    return importCalculon(files, gpus);
}

}  // namespace studio
