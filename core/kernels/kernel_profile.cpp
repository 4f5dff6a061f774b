#include "core/kernels/kernel_profile.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "core/json/json_pointer.h"
#include "core/json/json_reader.h"
#include "core/text.h"

namespace studio {

const KernelGrid* KernelProfile::gemmTable(std::string_view precision) const
{
    const auto it = gemm.find(precision);
    return it == gemm.end() ? nullptr : &it->second;
}

GemmRoofline KernelProfile::measuredOn(std::string_view precision) const
{
    const auto it = peaksTflops.find(precision);
    return {it == peaksTflops.end() ? 0 : it->second * 1e12, hbmTbPerS * 1e12};
}

const KernelGrid* KernelProfile::collective(std::string_view op) const
{
    const auto it = collectives.find(op);
    return it == collectives.end() ? nullptr : &it->second;
}

KernelProfile KernelProfile::scaledEfficiencies(double factor, double cap) const
{
    KernelProfile p = *this;
    auto scale = [&](auto& tables) {
        for (auto& [key, g] : tables)
            g = g.scaled(factor, cap);
    };
    scale(p.gemm);
    scale(p.activationScale);
    scale(p.decodeAttention);
    scale(p.ops);
    scale(p.opsCompiled);
    for (std::optional<KernelGrid>* g : {&p.attentionForward, &p.attentionBackward, &p.memory})
        if (*g)
            **g = (*g)->scaled(factor, cap);
    return p;
}

KernelValue measuredGemm(const KernelGrid& table, const GemmRoofline& measuredOn, const GemmRoofline& runsOn,
                         double rows, double n, double k, double bytes)
{
    const KernelValue e = table.at(rows, n, k);
    const double flops = 2 * rows * n * k;
    const double measured = flops / (measuredOn.flopsPerS * e.value);
    return {measured * runsOn.seconds(flops, bytes) / measuredOn.seconds(flops, bytes), e.tier};
}

KernelValue withStaticActivationScale(const KernelValue& dynamic, const KernelGrid& scale, const GemmRoofline& runsOn,
                                      double rows, double n, double k, double bytes)
{
    const KernelValue e = scale.at(rows, k);
    const double scaleS = 2 * rows * k / (runsOn.bytesPerS * e.value);
    return {std::max(dynamic.value - scaleS, runsOn.seconds(2 * rows * n * k, bytes)), worseTier(dynamic.tier, e.tier)};
}

std::string KernelProfile::citation() const
{
    return gpu + " kernel profile (" + origin + "; " + dataVersion + "; " + date + ")";
}

namespace {

// An efficiency above 1.5 of the peak is a unit mistake, not a fast kernel.
constexpr double kMaxEfficiency = 1.5;

template <std::size_t N>
bool isOneOf(std::string_view key, const std::string_view (&allowed)[N])
{
    return std::find(std::begin(allowed), std::end(allowed), key) != std::end(allowed);
}

template <std::size_t N>
std::string listOf(const std::string_view (&allowed)[N])
{
    std::string out;
    for (std::string_view a : allowed)
        out += (out.empty() ? "" : ", ") + std::string(a);
    return out;
}

class ProfileReader {
public:
    explicit ProfileReader(std::vector<Problem>& problems) : r_(problems) {}
    JsonReader& json() { return r_; }

    // An ascending axis of positive numbers.
    std::optional<std::vector<double>> axis(const Json& obj, const std::string& ptr, std::string_view key)
    {
        const std::string at = pointerAppend(ptr, std::string(key));
        const auto it = obj.find(std::string(key));
        if (it == obj.end()) {
            r_.error(at, "missing", "missing");
            return std::nullopt;
        }
        if (!r_.isArray(*it, at))
            return std::nullopt;
        if (it->empty()) {
            r_.error(at, "must list at least one point", "out_of_range");
            return std::nullopt;
        }
        std::vector<double> out;
        for (std::size_t i = 0; i < it->size(); ++i) {
            const std::string p = pointerAppend(at, i);
            const auto v = r_.numberValue((*it)[i], p, 0, 1e300, true);
            if (!v)
                return std::nullopt;
            if (!out.empty() && *v <= out.back()) {
                r_.error(p, "must be larger than the point before it (" + formatValue(out.back()) + "): a grid ascends",
                         "out_of_range");
                return std::nullopt;
            }
            out.push_back(*v);
        }
        return out;
    }

    // Nested arrays, one level per axis, each of its axis's length.
    bool values(const Json& v, const std::string& ptr, const std::vector<std::vector<double>>& axes, std::size_t depth,
                double max, std::vector<double>& out)
    {
        if (!r_.isArray(v, ptr))
            return false;
        if (v.size() != axes[depth].size()) {
            r_.error(ptr,
                     "must hold " + formatCount(std::int64_t(axes[depth].size())) +
                         " values, one per grid point, got " + formatCount(std::int64_t(v.size())),
                     "out_of_range");
            return false;
        }
        for (std::size_t i = 0; i < v.size(); ++i) {
            const std::string p = pointerAppend(ptr, i);
            if (depth + 1 < axes.size()) {
                if (!values(v[i], p, axes, depth + 1, max, out))
                    return false;
                continue;
            }
            const auto x = r_.numberValue(v[i], p, 0, max, true);
            if (!x)
                return false;
            out.push_back(*x);
        }
        return true;
    }

    // A table: its axes by name, then its values under `valuesKey`.
    std::optional<KernelGrid> grid(const Json& obj, const std::string& ptr,
                                   std::initializer_list<std::string_view> axes, std::string_view valuesKey, double max)
    {
        if (!r_.isObject(obj, ptr))
            return std::nullopt;
        std::vector<std::vector<double>> a;
        for (std::string_view name : axes) {
            auto ax = axis(obj, ptr, name);
            if (!ax)
                return std::nullopt;
            a.push_back(std::move(*ax));
        }
        const std::string vptr = pointerAppend(ptr, std::string(valuesKey));
        const auto it = obj.find(std::string(valuesKey));
        if (it == obj.end()) {
            r_.error(vptr, "missing", "missing");
            return std::nullopt;
        }
        std::vector<double> v;
        if (!values(*it, vptr, a, 0, max, v))
            return std::nullopt;
        std::vector<std::string_view> known(axes);
        known.push_back(valuesKey);
        Json ignored;
        r_.keepUnknown(obj, ptr, known, ignored);
        return KernelGrid(std::move(a), std::move(v));
    }

    // An object of tables keyed by the names in `allowed`.
    template <std::size_t N>
    void tables(const Json& doc, std::string_view key, const std::string_view (&allowed)[N], std::string_view what,
                std::initializer_list<std::string_view> axes, std::string_view valuesKey, double max,
                std::map<std::string, KernelGrid, std::less<>>& out)
    {
        const auto it = doc.find(std::string(key));
        if (it == doc.end())
            return;
        const std::string ptr = "/" + std::string(key);
        if (!r_.isObject(*it, ptr))
            return;
        for (auto t = it->begin(); t != it->end(); ++t) {
            const std::string tptr = pointerAppend(ptr, t.key());
            if (!isOneOf(t.key(), allowed)) {
                r_.error(tptr, "unknown " + std::string(what) + " " + inQuotes(t.key()) + ": one of " + listOf(allowed),
                         "unknown");
                continue;
            }
            if (auto g = grid(t.value(), tptr, axes, valuesKey, max))
                out.emplace(t.key(), std::move(*g));
        }
    }

private:
    JsonReader r_;
};

// A kernel's time grows with a coordinate of its table over the value
// there (a GEMM's m, n and k over its efficiency; decode attention's batch
// and context; a collective's bytes over its bus bandwidth), and a smaller
// problem never needs longer than a larger one: it can run the larger one's
// kernel, padded. So along each axis from `first` on, a cell whose time is
// longer than one further along is sped up to it (the suffix minimum),
// until none is; the tables' noise would otherwise let a serving step
// shorten as its batch grows. Raising the larger cells instead would carry
// one slow measurement to every larger shape: H200's FP8 table times
// 16 x 32 x 1024 at 41.8 us, against 18 us for 16 x 1536 x 8192.
// Returns how many cells it sped up.
std::size_t speedToNonDecreasingTime(KernelGrid& g, std::size_t first = 0)
{
    std::vector<double> v = g.values();
    const std::size_t dims = g.dimensions();
    std::vector<std::size_t> stride(dims, 1);
    for (std::size_t d = dims - 1; d-- > 0;)
        stride[d] = stride[d + 1] * g.axis(d + 1).size();
    std::vector<bool> sped(v.size(), false);
    for (bool changed = true; changed;) {
        changed = false;
        for (std::size_t d = first; d < dims; ++d) {
            const auto& x = g.axis(d);
            // Every line along axis d: the cells whose coordinate d is 0.
            for (std::size_t start = 0; start < v.size(); ++start) {
                if ((start / stride[d]) % x.size() != 0)
                    continue;
                double shortest = std::numeric_limits<double>::infinity();
                for (std::size_t i = x.size(); i-- > 0;) {
                    double& e = v[start + i * stride[d]];
                    if (x[i] / e > shortest * (1 + 1e-12)) {
                        e = x[i] / shortest;
                        sped[start + i * stride[d]] = changed = true;
                    }
                    shortest = std::min(shortest, x[i] / e);
                }
            }
        }
    }
    const auto count = std::size_t(std::count(sped.begin(), sped.end(), true));
    if (count > 0) {
        std::vector<std::vector<double>> axes;
        for (std::size_t d = 0; d < dims; ++d)
            axes.push_back(g.axis(d));
        g = KernelGrid(std::move(axes), std::move(v));
    }
    return count;
}

constexpr std::string_view kKvPrecisions[] = {"bf16", "fp16", "fp8"};

}  // namespace

std::optional<KernelProfile> readKernelProfile(const Json& doc, const std::string& origin,
                                               const std::function<bool(std::string_view)>& knownPart,
                                               std::vector<Problem>& problems)
{
    const std::size_t before = problems.size();
    ProfileReader pr(problems);
    JsonReader& r = pr.json();
    if (!r.isObject(doc, ""))
        return std::nullopt;
    KernelProfile p;
    p.origin = origin;
    // Another kind of file (a design, a catalog, kernel shapes): that is all
    // there is to say about it.
    if (!r.fileHeader(doc, kKernelProfileFormat, "format_version", kKernelProfileFormatVersion))
        return std::nullopt;
    p.gpu = r.string(doc, "", "gpu", true).value_or("");
    p.source = r.string(doc, "", "source", true).value_or("");
    p.dataVersion = r.string(doc, "", "data_version", true).value_or("");
    p.license = r.string(doc, "", "license", true).value_or("");
    p.date = r.string(doc, "", "date", true).value_or("");
    if (const Json* parts = doc.contains("parts") ? &doc["parts"] : nullptr; !parts) {
        r.error("/parts", "missing: the catalog parts the profile applies to", "missing");
    } else if (r.isArray(*parts, "/parts")) {
        if (parts->empty())
            r.error("/parts", "must name at least one catalog part", "out_of_range");
        for (std::size_t i = 0; i < parts->size(); ++i) {
            const std::string ptr = pointerAppend("/parts", i);
            if (!(*parts)[i].is_string()) {
                r.error(ptr, "must be a catalog part id (a string)");
                continue;
            }
            const std::string id = (*parts)[i].get<std::string>();
            if (!knownPart(id))
                r.error(ptr, "unknown GPU " + inQuotes(id) + ": no accelerator of the catalog has this id", "unknown");
            else
                p.parts.push_back(id);
        }
    }
    if (const auto it = doc.find("peaks_tflops"); it == doc.end()) {
        r.error("/peaks_tflops", "missing: the dense peaks the efficiencies are shares of", "missing");
    } else if (r.isObject(*it, "/peaks_tflops")) {
        for (auto e = it->begin(); e != it->end(); ++e) {
            const std::string ptr = pointerAppend("/peaks_tflops", e.key());
            if (!isOneOf(e.key(), kKernelGemmPrecisions)) {
                r.error(ptr, "unknown precision " + inQuotes(e.key()) + ": one of " + listOf(kKernelGemmPrecisions),
                        "unknown");
                continue;
            }
            if (const auto v = r.numberValue(e.value(), ptr, 0, 1e9, true))
                p.peaksTflops[e.key()] = *v;
        }
    }
    p.hbmTbPerS = r.number(doc, "", "hbm_tb_per_s", true, 0, 1e6, true).value_or(0);

    pr.tables(doc, "gemm", kKernelGemmPrecisions, "GEMM precision", {"m", "n", "k"}, "efficiency", kMaxEfficiency,
              p.gemm);
    for (auto& [precision, table] : p.gemm)
        p.cellsSped += speedToNonDecreasingTime(table);
    pr.tables(doc, "activation_scale", kKernelGemmPrecisions, "GEMM precision", {"m", "k"}, "hbm_efficiency",
              kMaxEfficiency, p.activationScale);
    for (const auto& [precision, table] : p.activationScale)
        if (!p.gemm.count(precision))
            r.error("/activation_scale/" + precision,
                    "the GEMM table " + inQuotes(precision) + " it is part of is missing from /gemm", "missing");
    for (const auto& [precision, table] : p.gemm)
        if (!p.peaksTflops.count(precision))
            r.error("/peaks_tflops/" + precision,
                    "missing: the gemm table " + inQuotes(precision) + " needs the peak it is a share of", "missing");
    if (const auto it = doc.find("attention"); it != doc.end() && r.isObject(*it, "/attention")) {
        if (const auto f = it->find("forward"); f != it->end())
            p.attentionForward = pr.grid(*f, "/attention/forward", {"head_dim", "seq"}, "efficiency", kMaxEfficiency);
        if (const auto b = it->find("backward"); b != it->end())
            p.attentionBackward = pr.grid(*b, "/attention/backward", {"head_dim", "seq"}, "efficiency", kMaxEfficiency);
        Json ignored;
        r.keepUnknown(*it, "/attention", {"forward", "backward"}, ignored);
    }
    pr.tables(doc, "decode_attention", kKvPrecisions, "KV-cache precision", {"batch", "context"}, "hbm_efficiency",
              kMaxEfficiency, p.decodeAttention);
    for (auto& [precision, table] : p.decodeAttention)
        p.cellsSped += speedToNonDecreasingTime(table);
    pr.tables(doc, "collectives", kKernelCollectives, "collective", {"gpus", "bytes"}, "bus_gb_per_s", 1e6,
              p.collectives);
    for (auto& [op, table] : p.collectives)
        p.cellsSped += speedToNonDecreasingTime(table, 1);
    // Collectives are read as a share of the link they were measured on, so
    // a design with another link (or the sensitivity analysis's) scales them.
    if (doc.contains("collectives") && !doc.contains("scaleup_gb_per_s"))
        r.error("/scaleup_gb_per_s",
                "missing: the scale-up link the collectives were measured on (GB/s, both directions)", "missing");
    p.scaleupGbPerS = r.number(doc, "", "scaleup_gb_per_s", false, 0, 1e6, true).value_or(0);
    if (const auto it = doc.find("memory"); it != doc.end())
        p.memory = pr.grid(*it, "/memory", {"bytes"}, "hbm_efficiency", kMaxEfficiency);
    pr.tables(doc, "ops", kKernelOps, "memory-bound op", {"bytes"}, "hbm_efficiency", kMaxEfficiency, p.ops);
    pr.tables(doc, "ops_compiled", kKernelOps, "memory-bound op", {"bytes"}, "hbm_efficiency", kMaxEfficiency,
              p.opsCompiled);
    if (p.gemm.empty() && !p.attentionForward && p.decodeAttention.empty() && p.collectives.empty() && !p.memory &&
        p.ops.empty())
        r.error("",
                "holds no table: a profile needs at least one of gemm, attention, decode_attention, collectives, "
                "memory, ops",
                "missing");
    Json ignored;
    r.keepUnknown(doc, "",
                  {"format", "format_version", "gpu", "parts", "source", "data_version", "license", "date",
                   "peaks_tflops", "hbm_tb_per_s", "scaleup_gb_per_s", "gemm", "activation_scale", "attention",
                   "decode_attention",
                   "collectives", "memory", "ops", "ops_compiled"},
                  ignored);
    if (hasErrors(std::vector<Problem>(problems.begin() + std::ptrdiff_t(before), problems.end())))
        return std::nullopt;
    return p;
}

}  // namespace studio
