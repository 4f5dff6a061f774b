#pragma once
// Defaults for every optional input of a design, each with where it comes
// from, so the studio can show a default's origin beside it and
// docs/file-format.md can list them. Hardware figures live in the catalog;
// these are workload, facility and operations inputs.
#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace studio {

// An optional choice's value, or its default.
inline std::string orDefault(const std::optional<std::string>& value, std::string_view fallback)
{
    return value ? *value : std::string(fallback);
}

struct SourcedDefault {
    std::string_view pointer;  // where the input lives in a design file
    double value;
    std::string_view unit;
    std::string_view source;
};

namespace defaults {

// Llama 3 405B pre-training: 16,384 H100 (2,048 nodes, 16,384 NICs) for 54
// days, 419 unexpected interruptions ("The Llama 3 Herd of Models", Table 5).
// Each class's MTTF is its device-hours over its failures, so a design like
// that run expects the same 419.
inline constexpr double kLlamaGpuHours = 16384.0 * 54 * 24;  // 21,233,664
inline constexpr double kLlamaNodeHours = 2048.0 * 54 * 24;  // 2,654,208

inline constexpr SourcedDefault kGpuMttf{
    "/operations/failure_mttf_h/gpu", kLlamaGpuHours / 196, "h per GPU",
    "Llama 3 Table 5: faulty GPU 148 + SRAM 19 + system processor 17 + silent data corruption 6 + thermal "
    "interface/sensor 6 = 196 failures over 16,384 GPUs x 54 days"};
inline constexpr SourcedDefault kHbmMttf{"/operations/failure_mttf_h/hbm", kLlamaGpuHours / 72, "h per GPU",
                                         "Llama 3 Table 5: GPU HBM3 memory, 72 failures over 16,384 GPUs x 54 days"};
inline constexpr SourcedDefault kHostMttf{
    "/operations/failure_mttf_h/host", kLlamaNodeHours / 45, "h per node",
    "Llama 3 Table 5: host maintenance 32 + SSD 3 + chassis, IO board, dependency, CPU, system memory 2 each = 45 "
    "failures over 2,048 nodes x 54 days"};
inline constexpr SourcedDefault kNicMttf{"/operations/failure_mttf_h/nic", kLlamaGpuHours / 7, "h per NIC",
                                         "Llama 3 Table 5: NIC, 7 failures over 16,384 NICs x 54 days"};
inline constexpr SourcedDefault kNetworkMttf{
    "/operations/failure_mttf_h/network", kLlamaGpuHours / 35, "h per GPU",
    "Llama 3 Table 5: network switch and cable, 35 failures over 16,384 GPUs x 54 days (counted per GPU served)"};
inline constexpr SourcedDefault kPsuMttf{"/operations/failure_mttf_h/psu", kLlamaNodeHours / 3, "h per node",
                                         "Llama 3 Table 5: power supply, 3 failures over 2,048 nodes x 54 days"};
inline constexpr SourcedDefault kSoftwareMttf{
    "/operations/failure_mttf_h/software", kLlamaGpuHours / 61, "h per GPU",
    "Llama 3 Table 5: software bug 54 + NCCL watchdog timeouts 7 = 61 failures over 16,384 GPUs x 54 days"};

inline constexpr SourcedDefault kCheckpointInterval{
    "/operations/checkpoint/interval_min", 0, "min",
    "0 chooses the optimum interval (Daly 2006) for the design's MTBF and checkpoint write time"};
inline constexpr SourcedDefault kRestart{
    "/operations/checkpoint/restart_min", 10, "min",
    "assumption: detection, rescheduling and reload; with it Llama 3's 419 interruptions cost under 10% of 54 "
    "days, matching the paper's >90% effective training time"};
inline constexpr SourcedDefault kMaintenance{"/operations/maintenance_fraction", 0.05, "fraction of time",
                                             "Fleet Foundations (seed 002), table 8: maintenance windows ~5%"};
inline constexpr SourcedDefault kStragglerCv{
    "/operations/straggler_cv", 0.01, "coefficient of variation",
    "assumption for a tuned fleet (per-rank step-time spread); seed 001's 5% illustrates an untuned one"};

inline constexpr SourcedDefault kPue{"/facility/pue", 1.4, "",
                                     "Fleet Foundations (seed 002), table 13: industry average PUE ~1.40"};
inline constexpr SourcedDefault kElectricityPrice{
    "/facility/electricity_usd_per_kwh", 0.08, "USD/kWh",
    "US industrial average retail electricity price, ~8 cents/kWh (EIA Electric Power Monthly, 2024)"};
inline constexpr SourcedDefault kCarbon{"/facility/carbon_g_per_kwh", 370, "gCO2/kWh",
                                        "US grid average, ~370 gCO2/kWh (2025 estimate; reliability-power.md)"};

// The choices a design may leave out, and what the model takes then (each
// one's field in design_fields carries it too, for the workload dock and
// docs/file-format.md). Read an optional choice with orDefault.
inline constexpr std::string_view kFfnType = "gelu";           // /workload/model/ffn_type
inline constexpr std::string_view kPrecision = "bf16";         // /workload/training/precision
inline constexpr std::string_view kAttentionKernel = "flash";  // /workload/training/attention_kernel
inline constexpr std::string_view kRecompute = "selective";    // /workload/parallelism/recompute
inline constexpr std::string_view kCpComm = "p2p";             // /workload/parallelism/cp_comm
inline constexpr std::string_view kServingPrecision = "bf16";  // /workload/serving/weight_precision, kv_precision
inline constexpr std::string_view kServingEngine = "trtllm";   // /workload/serving/engine (core/serving/engine.h)

inline constexpr SourcedDefault kBytesPerToken{
    "/workload/data/bytes_per_token", 4, "bytes",
    "token ids stored as 32-bit integers (vocabularies above 65,536 do not fit 16 bits)"};
inline constexpr SourcedDefault kFileMb{
    "/workload/data/file_mb", 256, "MB",
    "assumption: datasets packed into large sequential shards (WebDataset/TFRecord), as seed 000 advises"};

// What owning a cluster costs besides its parts (docs/model.md section 20;
// docs/evidence/prices.md has every price and its source).
inline constexpr SourcedDefault kFacilityCapexPerMw{
    "/facility/capex_usd_per_mw", 11.7e6, "USD per MW of IT load",
    "Cushman & Wakefield, Data Center Development Cost Guide 2025: US average $11.7M per MW of critical IT load "
    "(range $9.3M-15M); AI halls cost 7-10% more (Turner & Townsend)"};
inline constexpr SourcedDefault kAmortizationYearsIt{
    "/facility/amortization_years_it", 5, "years",
    "hyperscalers' server and network lives of 5-6 years in their 2024-25 10-K filings; Epoch AI's cost model "
    "amortises AI servers over 5 years from 2023"};
inline constexpr SourcedDefault kAmortizationYearsFacility{
    "/facility/amortization_years_facility", 14, "years",
    "Epoch AI, 'Servers account for 60% of the total cost of ownership of a one-gigawatt AI data center' (2026): "
    "14 years for the facility"};
inline constexpr SourcedDefault kCostOfCapital{
    "/facility/cost_of_capital", 0.11, "per year",
    "CoreWeave Form 10-Q (30 June 2025), debt note: its GPU-backed loans bear 7-15% a year"};
inline constexpr SourcedDefault kUtilization{
    "/facility/utilization", 0.8, "of hours",
    "assumption: the cluster does paid work 80% of the hours in a year; set the design's own"};
inline constexpr SourcedDefault kOperationsShare{
    "/facility/operations_share", 0.0079, "of capex per year",
    "Epoch AI's one-gigawatt AI data centre: $0.3B a year of operating costs other than energy on $38B of capex"};

inline constexpr SourcedDefault kAll[] = {kGpuMttf,
                                          kHbmMttf,
                                          kHostMttf,
                                          kNicMttf,
                                          kNetworkMttf,
                                          kPsuMttf,
                                          kSoftwareMttf,
                                          kCheckpointInterval,
                                          kRestart,
                                          kMaintenance,
                                          kStragglerCv,
                                          kPue,
                                          kElectricityPrice,
                                          kCarbon,
                                          kBytesPerToken,
                                          kFileMb,
                                          kFacilityCapexPerMw,
                                          kAmortizationYearsIt,
                                          kAmortizationYearsFacility,
                                          kCostOfCapital,
                                          kUtilization,
                                          kOperationsShare};

}  // namespace defaults
}  // namespace studio
