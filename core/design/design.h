#pragma once
// The design document: what an architect draws (components, containment,
// links) and what they plan to run on it (workload, facility, operations).
// Plain values; the file format (format/) reads and writes them, analyses
// read them, and edits (widgets/document) change them through undo commands.
//
// Optional members are absent from the file when unset: their default is
// applied by the analyses (design/defaults.h), so a default that depends on
// another field (kv_heads = heads) follows that field.
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace studio {

using Json = nlohmann::ordered_json;

inline constexpr std::int64_t kMaxCount = 10'000'000;         // per component or link
inline constexpr std::int64_t kMaxInstances = 1'000'000'000;  // a component times its ancestors
inline constexpr std::size_t kMaxNesting = 32;                // containment depth
inline constexpr double kMaxCoordinate = 1e7;                 // canvas units, either sign; far beyond any drawing

struct Point {
    double x = 0, y = 0;
    bool operator==(const Point&) const = default;
};
struct Extent {
    double w = 0, h = 0;
    bool operator==(const Extent&) const = default;
};

// One placed part. `count` replicates it (and everything inside it) so a
// 16,384-GPU design stays a handful of components.
struct Component {
    std::string id;    // unique, stable across edits
    std::string part;  // catalog part id
    std::string name;
    std::string parent;  // "" at the top level
    std::int64_t count = 1;
    Point position;
    std::optional<Extent> size;  // containers drawn at a chosen size
    bool collapsed = false;
    // Per-component figure overrides (tdp_w: 650) and settings (tier: "leaf").
    std::map<std::string, Json> props;
    Json extra = Json::object();  // unknown keys, kept on save
    bool operator==(const Component&) const = default;
};

// A cable bundle: `count` cables per instance of `from`.
struct Link {
    std::string id;
    std::string from, to;  // component ids
    std::string part;      // catalog link type
    std::int64_t count = 1;
    Json extra = Json::object();
    bool operator==(const Link&) const = default;
};

struct ModelSpec {
    std::string name;
    std::int64_t layers = 0, hidden = 0, heads = 0;
    std::optional<std::int64_t> kv_heads;    // [heads]
    std::optional<std::int64_t> ffn_hidden;  // [4 * hidden]
    std::optional<std::string> ffn_type;     // "gelu" | "swiglu" [gelu]
    std::int64_t vocab = 0, seq_len = 0;
    std::optional<std::int64_t> experts;            // [0 = dense]
    std::optional<std::int64_t> experts_per_token;  // [0]
    std::optional<double> dropout;                  // [0] probability; GPT-3-era models used 0.1
    Json extra = Json::object();
    bool operator==(const ModelSpec&) const = default;
};

struct TrainingSpec {
    std::int64_t global_batch = 0;                // sequences per step
    std::optional<std::int64_t> micro_batch;      // [1]
    double tokens = 0;                            // total tokens to train
    std::optional<std::string> precision;         // "bf16" | "fp16" | "fp8" [bf16]
    std::optional<std::string> attention_kernel;  // "flash" | "unfused" [flash]
    Json extra = Json::object();
    bool operator==(const TrainingSpec&) const = default;
};

struct ParallelismSpec {
    std::optional<std::int64_t> tp, pp, dp, cp, ep, interleave, zero;  // [1,1,0=derive,1,1,1,1]
    std::optional<bool> sequence_parallel;                             // [true]
    std::optional<std::string> recompute;                              // "none" | "selective" | "full" [selective]
    std::optional<std::string> cp_comm;   // "p2p" | "all_gather" | "a2a" [p2p], Megatron's --cp-comm-type (1.1)
    std::optional<bool> tp_comm_overlap;  // [false] Megatron's --tp-comm-overlap (TE userbuffers) (1.2)
    Json extra = Json::object();
    bool operator==(const ParallelismSpec&) const = default;
};

struct DataSpec {
    std::optional<double> bytes_per_token;  // [4]
    std::optional<double> file_mb;          // [256]
    Json extra = Json::object();
    bool operator==(const DataSpec&) const = default;
};

// One kind of worker of a disaggregated serving layout: `workers` of them,
// each tp x pp GPUs (ep spreads a mixture-of-experts model's experts over
// them). (1.5)
struct ServingWorkers {
    std::int64_t workers = 1;
    std::optional<std::int64_t> tp, pp, ep;  // [1, 1, 1]
    Json extra = Json::object();
    bool operator==(const ServingWorkers&) const = default;
};

// Prefill and decode on separate workers (DistServe, Splitwise): prompts on
// the prefill workers, their KV cache moved to a decode worker, the output
// tokens there. The layout repeats as many times as the design's GPUs hold
// it, prefill workers first in the design's GPU order. (1.5)
struct DisaggregatedSpec {
    ServingWorkers prefill, decode;
    Json extra = Json::object();
    bool operator==(const DisaggregatedSpec&) const = default;
};

// The serving engines a design can name (workload.serving.engine); what
// each schedules, and its name to users, is core/serving/engine.h.
inline constexpr std::string_view kServingEngines[] = {"trtllm", "vllm", "sglang"};

// A serving workload (workload.kind "serving"): requests of prompt_tokens in
// and output_tokens out, served by replicas of the parallelism section's
// tp x pp GPUs (ep spreads a mixture-of-experts model's experts over them),
// or by the disaggregated section's workers when it has one.
struct ServingSpec {
    std::int64_t prompt_tokens = 0, output_tokens = 0;
    std::optional<std::int64_t> batch;                                 // sequences per replica [0 = as many as fit]
    std::optional<double> arrival_rate_per_s;                          // requests per second [0]
    std::optional<double> ttft_target_s, tpot_target_s, e2e_target_s;  // [no target]
    std::optional<std::string> weight_precision;                       // "bf16" | "fp8" | "fp4" [bf16]
    std::optional<std::string> kv_precision;                           // "bf16" | "fp8" [bf16]
    // The engine and its scheduler's limits (core/serving/engine.h).
    std::optional<std::string> engine;               // one of kServingEngines [trtllm]
    std::optional<std::int64_t> step_tokens;         // tokens per engine step [the engine's default]
    std::optional<std::int64_t> max_requests;        // requests in flight [the engine's default]
    std::optional<double> memory_fraction;           // the engine's memory share, (0, 1] [the engine's default] (1.8)
    std::optional<DisaggregatedSpec> disaggregated;  // [aggregated: every replica prefills and decodes] (1.5)
    Json extra = Json::object();
    bool operator==(const ServingSpec&) const = default;
};

// What a workload does; the file spells it workload.kind.
enum class WorkloadKind { Training, Serving };
// "training", "serving": as the file and the metrics JSON spell it.
constexpr std::string_view workloadKindName(WorkloadKind k)
{
    return k == WorkloadKind::Serving ? "serving" : "training";
}
// Whether `kind` is among `kinds` (the workloads an analysis applies to).
inline bool workloadIn(const std::vector<WorkloadKind>& kinds, WorkloadKind kind)
{
    for (WorkloadKind k : kinds)
        if (k == kind)
            return true;
    return false;
}

struct Workload {
    std::optional<std::string> kind;  // "training" | "serving" [training]: read it through kindOf()
    // What the training framework runs: a catalog software profile's id
    // ["anything"]; the layout search stays within it. (1.6)
    std::optional<std::string> software;
    ModelSpec model;
    TrainingSpec training;  // absent from a serving design's file: all zero
    std::optional<ServingSpec> serving;
    ParallelismSpec parallelism;
    DataSpec data;
    Json extra = Json::object();
    bool operator==(const Workload&) const = default;
    bool isServing() const { return kind && *kind == workloadKindName(WorkloadKind::Serving); }
    WorkloadKind kindOf() const { return isServing() ? WorkloadKind::Serving : WorkloadKind::Training; }
};

struct Facility {
    std::optional<double> pue;
    std::optional<std::string> cooling;  // "air" | "liquid" | "hybrid"
    std::optional<double> electricity_usd_per_kwh;
    std::optional<double> carbon_g_per_kwh;
    std::optional<double> site_mw;  // the facility power the site can supply [no limit]
    // What owning the cluster costs besides its parts (docs/model.md section
    // 20): a facility built (capex per MW of IT load) or colocation rented
    // (per kW of IT load a month), never both; their defaults in defaults.h.
    std::optional<double> capex_usd_per_mw;
    std::optional<double> colocation_usd_per_kw_month;
    std::optional<double> amortization_years_it, amortization_years_facility;
    std::optional<double> cost_of_capital;         // a year
    std::optional<double> utilization;             // share of hours the cluster does paid work
    std::optional<double> operations_share;        // staff and support a year, share of capex
    std::optional<double> cloud_usd_per_gpu_hour;  // [the accelerator's cloud price]
    Json extra = Json::object();
    bool operator==(const Facility&) const = default;
};

// Mean time to failure per device of each class, hours. The device a class
// is counted per is fixed (design/defaults.h): GPU for gpu, hbm, network and
// software; node for host and psu; NIC for nic.
struct FailureMttf {
    std::optional<double> gpu, hbm, host, nic, network, psu, software;
    Json extra = Json::object();
    bool operator==(const FailureMttf&) const = default;
};

struct CheckpointSpec {
    std::optional<double> interval_min;  // [0 = the optimum (Daly)]
    std::optional<bool> async;           // [false]
    std::optional<double> restart_min;
    Json extra = Json::object();
    bool operator==(const CheckpointSpec&) const = default;
};

struct Operations {
    FailureMttf failure_mttf_h;
    CheckpointSpec checkpoint;
    std::optional<double> maintenance_fraction;
    std::optional<double> straggler_cv;
    Json extra = Json::object();
    bool operator==(const Operations&) const = default;
};

struct Design {
    std::string format_version = "1.8";  // as read; saved as the newer of this and the app's
    std::string app_version;             // as read; saved as the writing app's
    std::string name;
    std::string description;
    std::vector<Component> components;
    std::vector<Link> links;
    Workload workload;
    Facility facility;
    Operations operations;
    Json catalog;  // embedded catalog document (parts the design carries), or null
    Json extra = Json::object();
    bool operator==(const Design&) const = default;

    const Component* component(const std::string& id) const;
    Component* component(const std::string& id);
};

}  // namespace studio
