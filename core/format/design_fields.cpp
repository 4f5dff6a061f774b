#include "core/format/design_fields.h"

#include <algorithm>
#include <cmath>

#include "core/contract.h"
#include "core/design/defaults.h"

#include "core/format/workload_limits.h"
#include "core/json/json_pointer.h"
#include "core/json/json_reader.h"

namespace studio::fields {
namespace {

using Json = nlohmann::ordered_json;

template <typename S, typename T>
Field<S> integer(std::string_view key, T S::*member, limits::IntRange range, bool required = false)
{
    return {key, member, required, double(range.min), double(range.max)};
}

template <typename S, typename T>
Field<S> number(std::string_view key, T S::*member, double min, double max, bool minExclusive = false,
                bool required = false)
{
    return {key, member, required, min, max, minExclusive};
}

template <typename S, typename T>
Field<S> text(std::string_view key, T S::*member, bool required, bool allowEmpty = false)
{
    return {key, member, required, 0, 0, false, {}, allowEmpty};
}

template <typename S>
Field<S> choice(std::string_view key, std::optional<std::string> S::*member, std::vector<std::string_view> choices,
                std::string_view fallback = {})
{
    return {key, member, false, 0, 0, false, std::move(choices), false, fallback};
}

template <typename S, typename T>
Field<S> flag(std::string_view key, T S::*member)
{
    return {key, member};
}

constexpr limits::IntRange kCount{1, kMaxCount};
constexpr double kMaxMttfH = 1e12;
constexpr double kMaxMinutes = 1e6;

}  // namespace

const Table<Design>& designInfo()
{
    static const Table<Design> t{text("app_version", &Design::app_version, false, true),
                                 text("name", &Design::name, true),
                                 text("description", &Design::description, false, true)};
    return t;
}

const Table<Component>& component()
{
    static const Table<Component> t{text("id", &Component::id, true), text("part", &Component::part, true),
                                    text("name", &Component::name, false, true),
                                    text("parent", &Component::parent, false, true),
                                    integer("count", &Component::count, kCount)};
    return t;
}

const Table<Point>& position()
{
    static const Table<Point> t{number("x", &Point::x, -kMaxCoordinate, kMaxCoordinate, false, true),
                                number("y", &Point::y, -kMaxCoordinate, kMaxCoordinate, false, true)};
    return t;
}

const Table<Extent>& size()
{
    static const Table<Extent> t{number("w", &Extent::w, 0, kMaxCoordinate, true, true),
                                 number("h", &Extent::h, 0, kMaxCoordinate, true, true)};
    return t;
}

const Table<Link>& link()
{
    static const Table<Link> t{text("id", &Link::id, true), text("from", &Link::from, true),
                               text("to", &Link::to, true), text("part", &Link::part, true),
                               integer("count", &Link::count, kCount)};
    return t;
}

const Table<ModelSpec>& model()
{
    using M = ModelSpec;
    static const Table<M> t{text("name", &M::name, true),
                            integer("layers", &M::layers, limits::kLayers, true),
                            integer("hidden", &M::hidden, limits::kHidden, true),
                            integer("heads", &M::heads, limits::kHeads, true),
                            integer("kv_heads", &M::kv_heads, limits::kHeads),
                            integer("ffn_hidden", &M::ffn_hidden, limits::kFfnHidden),
                            choice("ffn_type", &M::ffn_type, {"gelu", "swiglu"}, defaults::kFfnType),
                            integer("vocab", &M::vocab, limits::kVocab, true),
                            integer("seq_len", &M::seq_len, limits::kSeqLen, true),
                            integer("experts", &M::experts, limits::kExperts),
                            integer("experts_per_token", &M::experts_per_token, limits::kExperts),
                            number("dropout", &M::dropout, 0, limits::kDropoutMax)};
    return t;
}

const Table<TrainingSpec>& training()
{
    using T = TrainingSpec;
    static const Table<T> t{
        integer("global_batch", &T::global_batch, limits::kGlobalBatch, true),
        integer("micro_batch", &T::micro_batch, limits::kGlobalBatch),
        number("tokens", &T::tokens, 0, limits::kTokensMax, true, true),
        choice("precision", &T::precision, {"bf16", "fp16", "fp8"}, defaults::kPrecision),
        choice("attention_kernel", &T::attention_kernel, {"flash", "unfused"}, defaults::kAttentionKernel)};
    return t;
}

const Table<ParallelismSpec>& parallelism()
{
    using P = ParallelismSpec;
    static const Table<P> t{integer("tp", &P::tp, limits::kParallel),
                            integer("pp", &P::pp, limits::kParallel),
                            integer("dp", &P::dp, limits::kDp),
                            integer("cp", &P::cp, limits::kParallel),
                            integer("ep", &P::ep, limits::kParallel),
                            integer("interleave", &P::interleave, limits::kInterleave),
                            integer("zero", &P::zero, limits::kZero),
                            flag("sequence_parallel", &P::sequence_parallel),
                            choice("recompute", &P::recompute, {"none", "selective", "full"}, defaults::kRecompute),
                            choice("cp_comm", &P::cp_comm, {"p2p", "all_gather", "a2a"}, defaults::kCpComm),
                            flag("tp_comm_overlap", &P::tp_comm_overlap)};
    return t;
}

const Table<DataSpec>& data()
{
    static const Table<DataSpec> t{
        number("bytes_per_token", &DataSpec::bytes_per_token, 0, limits::kBytesPerTokenMax, true),
        number("file_mb", &DataSpec::file_mb, 0, limits::kFileMbMax, true)};
    return t;
}

const Table<Workload>& workloadInfo()
{
    static const Table<Workload> t{choice("kind", &Workload::kind, {"training", "serving"}),
                                   text("software", &Workload::software, false)};
    return t;
}

const Table<ServingSpec>& serving()
{
    using S = ServingSpec;
    static const Table<S> t{
        integer("prompt_tokens", &S::prompt_tokens, limits::kServingTokens, true),
        integer("output_tokens", &S::output_tokens, limits::kServingTokens, true),
        integer("batch", &S::batch, limits::kServingBatch),
        number("arrival_rate_per_s", &S::arrival_rate_per_s, 0, limits::kArrivalRateMax),
        number("ttft_target_s", &S::ttft_target_s, 0, limits::kLatencyTargetMax, true),
        number("tpot_target_s", &S::tpot_target_s, 0, limits::kLatencyTargetMax, true),
        number("e2e_target_s", &S::e2e_target_s, 0, limits::kLatencyTargetMax, true),
        choice("weight_precision", &S::weight_precision, {"bf16", "fp8", "fp4"}, defaults::kServingPrecision),
        choice("kv_precision", &S::kv_precision, {"bf16", "fp8"}, defaults::kServingPrecision),
        choice("engine", &S::engine, {std::begin(kServingEngines), std::end(kServingEngines)},
               defaults::kServingEngine),
        integer("step_tokens", &S::step_tokens, limits::kEngineStepTokens),
        integer("max_requests", &S::max_requests, limits::kEngineMaxRequests),
        number("memory_fraction", &S::memory_fraction, 0, 1, true)};
    return t;
}

const Table<ServingWorkers>& servingWorkers()
{
    using W = ServingWorkers;
    static const Table<W> t{integer("workers", &W::workers, limits::kServingWorkers, true),
                            integer("tp", &W::tp, limits::kParallel), integer("pp", &W::pp, limits::kParallel),
                            integer("ep", &W::ep, limits::kParallel)};
    return t;
}

// Amortising over less than a month, or working under 1% of the hours, is no
// design; the floors keep the yearly cost and a GPU-hour's finite.
const Table<Facility>& facility()
{
    using F = Facility;
    static const Table<F> t{number("pue", &F::pue, 1, 5),
                            choice("cooling", &F::cooling, {"air", "liquid", "hybrid"}),
                            number("electricity_usd_per_kwh", &F::electricity_usd_per_kwh, 0, 100),
                            number("carbon_g_per_kwh", &F::carbon_g_per_kwh, 0, 10'000),
                            number("site_mw", &F::site_mw, 0.001, 100'000),
                            number("capex_usd_per_mw", &F::capex_usd_per_mw, 0, 1e10),
                            number("colocation_usd_per_kw_month", &F::colocation_usd_per_kw_month, 0, 1e6),
                            number("amortization_years_it", &F::amortization_years_it, 0.1, 100),
                            number("amortization_years_facility", &F::amortization_years_facility, 0.1, 100),
                            number("cost_of_capital", &F::cost_of_capital, 0, 1),
                            number("utilization", &F::utilization, 0.01, 1),
                            number("operations_share", &F::operations_share, 0, 1),
                            number("cloud_usd_per_gpu_hour", &F::cloud_usd_per_gpu_hour, 0, 10'000)};
    return t;
}

const Table<FailureMttf>& failureMttf()
{
    using F = FailureMttf;
    static const Table<F> t{
        number("gpu", &F::gpu, 0, kMaxMttfH, true),          number("hbm", &F::hbm, 0, kMaxMttfH, true),
        number("host", &F::host, 0, kMaxMttfH, true),        number("nic", &F::nic, 0, kMaxMttfH, true),
        number("network", &F::network, 0, kMaxMttfH, true),  number("psu", &F::psu, 0, kMaxMttfH, true),
        number("software", &F::software, 0, kMaxMttfH, true)};
    return t;
}

const Table<CheckpointSpec>& checkpoint()
{
    using C = CheckpointSpec;
    static const Table<C> t{number("interval_min", &C::interval_min, 0, kMaxMinutes), flag("async", &C::async),
                            number("restart_min", &C::restart_min, 0, kMaxMinutes)};
    return t;
}

const Table<Operations>& operations()
{
    using O = Operations;
    static const Table<O> t{number("maintenance_fraction", &O::maintenance_fraction, 0, 0.9),
                            number("straggler_cv", &O::straggler_cv, 0, 1)};
    return t;
}

namespace {

// One field read from JSON: the reader's typed read, stored if it succeeded.
template <typename S>
void readOne(JsonReader& r, const Json& obj, const std::string& ptr, S& out, const Field<S>& f)
{
    std::visit(
        [&](auto member) {
            using T = std::remove_reference_t<decltype(out.*member)>;
            auto& slot = out.*member;
            if constexpr (std::is_same_v<T, std::string>) {
                if (auto v = r.string(obj, ptr, f.key, f.required, f.allowEmpty))
                    slot = std::move(*v);
            } else if constexpr (std::is_same_v<T, std::optional<std::string>>) {
                slot = f.choices.empty() ? r.string(obj, ptr, f.key, f.required, f.allowEmpty)
                                         : r.choice(obj, ptr, f.key, f.choices, f.required);
            } else if constexpr (std::is_same_v<T, std::int64_t> || std::is_same_v<T, std::optional<std::int64_t>>) {
                const auto v = r.integer(obj, ptr, f.key, f.required, std::int64_t(f.min), std::int64_t(f.max));
                if constexpr (std::is_same_v<T, std::int64_t>) {
                    if (v)
                        slot = *v;
                } else {
                    slot = v;
                }
            } else if constexpr (std::is_same_v<T, double> || std::is_same_v<T, std::optional<double>>) {
                const auto v = r.number(obj, ptr, f.key, f.required, f.min, f.max, f.minExclusive);
                if constexpr (std::is_same_v<T, double>) {
                    if (v)
                        slot = *v;
                } else {
                    slot = v;
                }
            } else {
                const auto v = r.boolean(obj, ptr, f.key, f.required);
                if constexpr (std::is_same_v<T, bool>) {
                    if (v)
                        slot = *v;
                } else {
                    slot = v;
                }
            }
        },
        f.member);
}

// One in-memory field, through the same checks as a file's value.
// Whether `value` meets the rule of `f`: the conditions the reader's
// checks below (JsonReader::integerValue, numberValue, choiceValue) report
// a problem for, as a quick test before asking them why.
template <typename S>
bool holds(const S& value, const Field<S>& f)
{
    auto integerHolds = [&f](std::int64_t n) { return n >= std::int64_t(f.min) && n <= std::int64_t(f.max); };
    auto numberHolds = [&f](double d) {
        return std::isfinite(d) && (f.minExclusive ? d > f.min : d >= f.min) && d <= f.max;
    };
    return std::visit(
        [&](auto member) {
            using T = std::remove_cvref_t<decltype(value.*member)>;
            const auto& slot = value.*member;
            if constexpr (std::is_same_v<T, std::string>)
                return !(slot.empty() && !f.allowEmpty && f.required);
            else if constexpr (std::is_same_v<T, std::optional<std::string>>)
                return !slot || f.choices.empty() ||
                    std::find(f.choices.begin(), f.choices.end(), *slot) != f.choices.end();
            else if constexpr (std::is_same_v<T, std::int64_t>)
                return integerHolds(slot);
            else if constexpr (std::is_same_v<T, std::optional<std::int64_t>>)
                return !slot || integerHolds(*slot);
            else if constexpr (std::is_same_v<T, double>)
                return numberHolds(slot);
            else if constexpr (std::is_same_v<T, std::optional<double>>)
                return !slot || numberHolds(*slot);
            else
                return true;  // booleans have no rule beyond their type
        },
        f.member);
}

template <typename S>
void checkOne(JsonReader& r, const S& value, const std::string& ptr, const Field<S>& f)
{
    auto checkAt = [&](JsonReader& reader, const std::string& at) {
        std::visit(
            [&](auto member) {
                using T = std::remove_cvref_t<decltype(value.*member)>;
                const auto& slot = value.*member;
                if constexpr (std::is_same_v<T, std::string>) {
                    if (slot.empty() && !f.allowEmpty && f.required)
                        reader.error(at, "must not be empty", "empty");
                } else if constexpr (std::is_same_v<T, std::optional<std::string>>) {
                    if (slot && !f.choices.empty())
                        reader.choiceValue(*slot, at, f.choices);
                } else if constexpr (std::is_same_v<T, std::int64_t>) {
                    reader.integerValue(Json(slot), at, std::int64_t(f.min), std::int64_t(f.max));
                } else if constexpr (std::is_same_v<T, std::optional<std::int64_t>>) {
                    if (slot)
                        reader.integerValue(Json(*slot), at, std::int64_t(f.min), std::int64_t(f.max));
                } else if constexpr (std::is_same_v<T, double>) {
                    reader.numberValue(Json(slot), at, f.min, f.max, f.minExclusive);
                } else if constexpr (std::is_same_v<T, std::optional<double>>) {
                    if (slot)
                        reader.numberValue(Json(*slot), at, f.min, f.max, f.minExclusive);
                }
                // Booleans have no rule beyond their type.
            },
            f.member);
    };
    // The reader is asked, with the field's pointer, only about a value that
    // breaks its rule: the studio checks every field of every item after
    // each edit, and nearly all pass.
    if (!holds(value, f))
        checkAt(r, pointerAppend(ptr, f.key));
}

}  // namespace

template <typename S>
void read(JsonReader& r, const Json& obj, const std::string& ptr, S& out, const Table<S>& table)
{
    for (const auto& f : table)
        readOne(r, obj, ptr, out, f);
}

template <typename S>
void check(JsonReader& r, const S& value, const std::string& ptr, const Table<S>& table)
{
    for (const auto& f : table)
        checkOne(r, value, ptr, f);
}

template <typename S>
std::vector<std::string_view> keys(const Table<S>& table, std::initializer_list<std::string_view> more)
{
    std::vector<std::string_view> out;
    for (const auto& f : table)
        out.push_back(f.key);
    out.insert(out.end(), more.begin(), more.end());
    return out;
}

template <typename S>
void write(Json& obj, const S& value, const Table<S>& table)
{
    for (const Field<S>& f : table)
        std::visit(
            [&](auto member) {
                using T = std::remove_cvref_t<decltype(value.*member)>;
                const auto& slot = value.*member;
                const std::string key(f.key);
                if constexpr (std::is_same_v<T, std::string>) {
                    if (f.required || !slot.empty())
                        obj[key] = slot;
                } else if constexpr (std::is_same_v<T, double>) {
                    obj[key] = jsonNumber(slot);
                } else if constexpr (std::is_same_v<T, std::optional<double>>) {
                    if (slot)
                        obj[key] = jsonNumber(*slot);
                } else if constexpr (std::is_same_v<T, bool>) {
                    if (slot)
                        obj[key] = true;
                } else if constexpr (std::is_same_v<T, std::int64_t>) {
                    obj[key] = slot;
                } else {
                    if (slot)
                        obj[key] = *slot;
                }
            },
            f.member);
}

Json jsonNumber(double v)
{
    if (std::isfinite(v) && v == std::floor(v) && std::fabs(v) < 9e15)
        return static_cast<std::int64_t>(v);
    return v;
}

template <typename S>
const Field<S>& find(const Table<S>& table, std::string_view key)
{
    const auto it = std::find_if(table.begin(), table.end(), [&](const Field<S>& f) { return f.key == key; });
    STUDIO_EXPECTS(it != table.end());
    return *it;
}

#define STUDIO_FIELD_TABLE(S)                                                                                          \
    template void read<S>(JsonReader&, const Json&, const std::string&, S&, const Table<S>&);                          \
    template void check<S>(JsonReader&, const S&, const std::string&, const Table<S>&);                                \
    template void write<S>(Json&, const S&, const Table<S>&);                                                          \
    template std::vector<std::string_view> keys<S>(const Table<S>&, std::initializer_list<std::string_view>);          \
    template const Field<S>& find<S>(const Table<S>&, std::string_view);
STUDIO_FIELD_TABLE(Design)
STUDIO_FIELD_TABLE(Component)
STUDIO_FIELD_TABLE(Point)
STUDIO_FIELD_TABLE(Extent)
STUDIO_FIELD_TABLE(Link)
STUDIO_FIELD_TABLE(ModelSpec)
STUDIO_FIELD_TABLE(TrainingSpec)
STUDIO_FIELD_TABLE(ParallelismSpec)
STUDIO_FIELD_TABLE(DataSpec)
STUDIO_FIELD_TABLE(Workload)
STUDIO_FIELD_TABLE(ServingSpec)
STUDIO_FIELD_TABLE(ServingWorkers)
STUDIO_FIELD_TABLE(Facility)
STUDIO_FIELD_TABLE(FailureMttf)
STUDIO_FIELD_TABLE(CheckpointSpec)
STUDIO_FIELD_TABLE(Operations)
#undef STUDIO_FIELD_TABLE

}  // namespace studio::fields
