#include "core/format/design_reader.h"

#include "core/format/design_validator.h"
#include "core/format/format_version.h"
#include "core/format/json_pointer.h"
#include "core/format/json_reader.h"
#include "core/format/json_text.h"
#include "core/format/migrations.h"
#include "core/format/workload_limits.h"
#include "core/text.h"

namespace studio {
namespace {

constexpr double kMaxCoordinate = 1e7;  // canvas units; far beyond any drawing

class DesignJsonReader {
public:
    explicit DesignJsonReader(std::vector<Problem>& problems) : r_(problems) {}

    void readComponent(const Json& j, const std::string& ptr, Component& c)
    {
        c.id = r_.string(j, ptr, "id", true).value_or("");
        c.part = r_.string(j, ptr, "part", true).value_or("");
        c.name = r_.string(j, ptr, "name", false, true).value_or("");
        c.parent = r_.string(j, ptr, "parent", false, true).value_or("");
        c.count = r_.integer(j, ptr, "count", false, 1, kMaxCount).value_or(1);
        if (auto p = j.find("position"); p != j.end()) {
            const std::string pptr = pointerAppend(ptr, "position");
            if (r_.isObject(*p, pptr)) {
                c.position.x = r_.number(*p, pptr, "x", true, -kMaxCoordinate, kMaxCoordinate).value_or(0);
                c.position.y = r_.number(*p, pptr, "y", true, -kMaxCoordinate, kMaxCoordinate).value_or(0);
                Json ignored;
                r_.keepUnknown(*p, pptr, {"x", "y"}, ignored);
            }
        }
        if (auto s = j.find("size"); s != j.end()) {
            const std::string sptr = pointerAppend(ptr, "size");
            if (r_.isObject(*s, sptr)) {
                Extent e;
                e.w = r_.number(*s, sptr, "w", true, 0, kMaxCoordinate, true).value_or(1);
                e.h = r_.number(*s, sptr, "h", true, 0, kMaxCoordinate, true).value_or(1);
                c.size = e;
            }
        }
        c.collapsed = r_.boolean(j, ptr, "collapsed", false).value_or(false);
        if (auto p = j.find("props"); p != j.end() && r_.isObject(*p, pointerAppend(ptr, "props")))
            for (auto it = p->begin(); it != p->end(); ++it)
                c.props[it.key()] = it.value();
        r_.keepUnknown(j, ptr, {"id", "part", "name", "parent", "count", "position", "size", "collapsed", "props"},
                       c.extra);
    }

    void readLink(const Json& j, const std::string& ptr, Link& l)
    {
        l.id = r_.string(j, ptr, "id", true).value_or("");
        l.from = r_.string(j, ptr, "from", true).value_or("");
        l.to = r_.string(j, ptr, "to", true).value_or("");
        l.part = r_.string(j, ptr, "part", true).value_or("");
        l.count = r_.integer(j, ptr, "count", false, 1, kMaxCount).value_or(1);
        r_.keepUnknown(j, ptr, {"id", "from", "to", "part", "count"}, l.extra);
    }

    void readWorkload(const Json& j, const std::string& ptr, Workload& w)
    {
        if (!r_.isObject(j, ptr))
            return;
        if (const Json* m = section(j, ptr, "model", true)) {
            const std::string p = pointerAppend(ptr, "model");
            auto& s = w.model;
            s.name = r_.string(*m, p, "name", true).value_or("");
            s.layers = r_.integer(*m, p, "layers", true, limits::kLayers.min, limits::kLayers.max).value_or(1);
            s.hidden = r_.integer(*m, p, "hidden", true, limits::kHidden.min, limits::kHidden.max).value_or(1);
            s.heads = r_.integer(*m, p, "heads", true, limits::kHeads.min, limits::kHeads.max).value_or(1);
            s.kv_heads = r_.integer(*m, p, "kv_heads", false, limits::kHeads.min, limits::kHeads.max);
            s.ffn_hidden = r_.integer(*m, p, "ffn_hidden", false, limits::kFfnHidden.min, limits::kFfnHidden.max);
            s.ffn_type = r_.choice(*m, p, "ffn_type", {"gelu", "swiglu"}, false);
            s.vocab = r_.integer(*m, p, "vocab", true, limits::kVocab.min, limits::kVocab.max).value_or(1);
            s.seq_len = r_.integer(*m, p, "seq_len", true, limits::kSeqLen.min, limits::kSeqLen.max).value_or(1);
            s.experts = r_.integer(*m, p, "experts", false, limits::kExperts.min, limits::kExperts.max);
            s.experts_per_token = r_.integer(*m, p, "experts_per_token", false, limits::kExperts.min, limits::kExperts.max);
            s.dropout = r_.number(*m, p, "dropout", false, 0, limits::kDropoutMax);
            r_.keepUnknown(*m, p,
                           {"name", "layers", "hidden", "heads", "kv_heads", "ffn_hidden", "ffn_type", "vocab",
                            "seq_len", "experts", "experts_per_token", "dropout"},
                           s.extra);
        }
        if (const Json* t = section(j, ptr, "training", true)) {
            const std::string p = pointerAppend(ptr, "training");
            auto& s = w.training;
            s.global_batch = r_.integer(*t, p, "global_batch", true, limits::kGlobalBatch.min, limits::kGlobalBatch.max).value_or(1);
            s.micro_batch = r_.integer(*t, p, "micro_batch", false, limits::kGlobalBatch.min, limits::kGlobalBatch.max);
            s.tokens = r_.number(*t, p, "tokens", true, 0, limits::kTokensMax, true).value_or(1);
            s.precision = r_.choice(*t, p, "precision", {"bf16", "fp16", "fp8"}, false);
            s.attention_kernel = r_.choice(*t, p, "attention_kernel", {"flash", "unfused"}, false);
            r_.keepUnknown(*t, p, {"global_batch", "micro_batch", "tokens", "precision", "attention_kernel"},
                           s.extra);
        }
        if (const Json* q = section(j, ptr, "parallelism", false)) {
            const std::string p = pointerAppend(ptr, "parallelism");
            auto& s = w.parallelism;
            s.tp = r_.integer(*q, p, "tp", false, limits::kParallel.min, limits::kParallel.max);
            s.pp = r_.integer(*q, p, "pp", false, limits::kParallel.min, limits::kParallel.max);
            s.dp = r_.integer(*q, p, "dp", false, limits::kDp.min, limits::kDp.max);
            s.cp = r_.integer(*q, p, "cp", false, limits::kParallel.min, limits::kParallel.max);
            s.ep = r_.integer(*q, p, "ep", false, limits::kParallel.min, limits::kParallel.max);
            s.interleave = r_.integer(*q, p, "interleave", false, limits::kInterleave.min, limits::kInterleave.max);
            s.zero = r_.integer(*q, p, "zero", false, limits::kZero.min, limits::kZero.max);
            s.sequence_parallel = r_.boolean(*q, p, "sequence_parallel", false);
            s.recompute = r_.choice(*q, p, "recompute", {"none", "selective", "full"}, false);
            r_.keepUnknown(*q, p,
                           {"tp", "pp", "dp", "cp", "ep", "interleave", "zero", "sequence_parallel", "recompute"},
                           s.extra);
        }
        if (const Json* d = section(j, ptr, "data", false)) {
            const std::string p = pointerAppend(ptr, "data");
            w.data.bytes_per_token = r_.number(*d, p, "bytes_per_token", false, 0, limits::kBytesPerTokenMax, true);
            w.data.file_mb = r_.number(*d, p, "file_mb", false, 0, limits::kFileMbMax, true);
            r_.keepUnknown(*d, p, {"bytes_per_token", "file_mb"}, w.data.extra);
        }
        r_.keepUnknown(j, ptr, {"model", "training", "parallelism", "data"}, w.extra);
    }

    void readFacility(const Json& j, const std::string& ptr, Facility& f)
    {
        if (!r_.isObject(j, ptr))
            return;
        f.pue = r_.number(j, ptr, "pue", false, 1, 5);
        f.cooling = r_.choice(j, ptr, "cooling", {"air", "liquid", "hybrid"}, false);
        f.electricity_usd_per_kwh = r_.number(j, ptr, "electricity_usd_per_kwh", false, 0, 100);
        f.carbon_g_per_kwh = r_.number(j, ptr, "carbon_g_per_kwh", false, 0, 10'000);
        r_.keepUnknown(j, ptr, {"pue", "cooling", "electricity_usd_per_kwh", "carbon_g_per_kwh"}, f.extra);
    }

    void readOperations(const Json& j, const std::string& ptr, Operations& o)
    {
        if (!r_.isObject(j, ptr))
            return;
        if (const Json* m = section(j, ptr, "failure_mttf_h", false)) {
            const std::string p = pointerAppend(ptr, "failure_mttf_h");
            auto& s = o.failure_mttf_h;
            constexpr double kMaxMttf = 1e12;
            s.gpu = r_.number(*m, p, "gpu", false, 0, kMaxMttf, true);
            s.hbm = r_.number(*m, p, "hbm", false, 0, kMaxMttf, true);
            s.host = r_.number(*m, p, "host", false, 0, kMaxMttf, true);
            s.nic = r_.number(*m, p, "nic", false, 0, kMaxMttf, true);
            s.network = r_.number(*m, p, "network", false, 0, kMaxMttf, true);
            s.psu = r_.number(*m, p, "psu", false, 0, kMaxMttf, true);
            s.software = r_.number(*m, p, "software", false, 0, kMaxMttf, true);
            r_.keepUnknown(*m, p, {"gpu", "hbm", "host", "nic", "network", "psu", "software"}, s.extra);
        }
        if (const Json* c = section(j, ptr, "checkpoint", false)) {
            const std::string p = pointerAppend(ptr, "checkpoint");
            o.checkpoint.interval_min = r_.number(*c, p, "interval_min", false, 0, 1e6);
            o.checkpoint.async = r_.boolean(*c, p, "async", false);
            o.checkpoint.restart_min = r_.number(*c, p, "restart_min", false, 0, 1e6);
            r_.keepUnknown(*c, p, {"interval_min", "async", "restart_min"}, o.checkpoint.extra);
        }
        o.maintenance_fraction = r_.number(j, ptr, "maintenance_fraction", false, 0, 0.9);
        o.straggler_cv = r_.number(j, ptr, "straggler_cv", false, 0, 1);
        r_.keepUnknown(j, ptr, {"failure_mttf_h", "checkpoint", "maintenance_fraction", "straggler_cv"}, o.extra);
    }

    JsonReader& reader() { return r_; }

private:
    const Json* section(const Json& parent, const std::string& ptr, std::string_view key, bool required)
    {
        const auto it = parent.find(key);
        const std::string p = pointerAppend(ptr, key);
        if (it == parent.end()) {
            if (required)
                r_.error(p, "missing (required)");
            return nullptr;
        }
        return r_.isObject(*it, p) ? &*it : nullptr;
    }

    JsonReader r_;
};

void prefixPointers(std::vector<Problem>& problems, const std::string& prefix)
{
    for (auto& p : problems)
        p.pointer = prefix + p.pointer;
}

}  // namespace

DesignLoad readDesignJson(Json doc, const Catalog& base)
{
    DesignLoad out;
    DesignJsonReader dr(out.problems);
    JsonReader& r = dr.reader();
    if (!r.isObject(doc, ""))
        return out;

    // Header first: a file that is not a design, or that this app cannot
    // read, gets one clear message instead of a cascade.
    const auto format = r.string(doc, "", "format", true);
    if (format && *format != kDesignFormat)
        r.error("/format", "must be " + inQuotes(kDesignFormat) + ", got " + inQuotes(*format));
    const auto version = checkFormatVersion(r, doc, "", kDesignFormatVersion, true);
    if (r.failed())
        return out;
    if (*version < kDesignFormatVersion) {
        if (auto problem = migrate(doc, *version, kDesignFormatVersion, designMigrations())) {
            out.problems.push_back(*problem);
            return out;
        }
    }

    Design d;
    d.format_version = doc["format_version"].get<std::string>();
    d.app_version = r.string(doc, "", "app_version", false, true).value_or("");
    d.name = r.string(doc, "", "name", true).value_or("");
    d.description = r.string(doc, "", "description", false, true).value_or("");

    auto catalog = std::make_shared<Catalog>(base);
    if (auto c = doc.find("catalog"); c != doc.end() && !c->is_null()) {
        auto problems = catalog->merge(*c, "embedded in the design", false);
        prefixPointers(problems, "/catalog");
        out.problems.insert(out.problems.end(), problems.begin(), problems.end());
        d.catalog = *c;
    }

    if (auto cs = doc.find("components"); cs == doc.end()) {
        r.error("/components", "missing (required; may be [])");
    } else if (r.isArray(*cs, "/components")) {
        d.components.resize(cs->size());
        for (std::size_t i = 0; i < cs->size(); ++i) {
            const std::string ptr = pointerAppend("/components", i);
            if (r.isObject((*cs)[i], ptr))
                dr.readComponent((*cs)[i], ptr, d.components[i]);
        }
    }
    if (auto ls = doc.find("links"); ls != doc.end() && r.isArray(*ls, "/links")) {
        d.links.resize(ls->size());
        for (std::size_t i = 0; i < ls->size(); ++i) {
            const std::string ptr = pointerAppend("/links", i);
            if (r.isObject((*ls)[i], ptr))
                dr.readLink((*ls)[i], ptr, d.links[i]);
        }
    }
    if (auto w = doc.find("workload"); w == doc.end())
        r.error("/workload", "missing (required)");
    else
        dr.readWorkload(*w, "/workload", d.workload);
    if (auto f = doc.find("facility"); f != doc.end())
        dr.readFacility(*f, "/facility", d.facility);
    if (auto o = doc.find("operations"); o != doc.end())
        dr.readOperations(*o, "/operations", d.operations);
    r.keepUnknown(doc, "",
                  {"format", "format_version", "app_version", "name", "description", "components", "links",
                   "workload", "facility", "operations", "catalog"},
                  d.extra);

    // Whole-design checks only once every field read cleanly, so one typo
    // does not cascade into "dangling link" noise.
    if (!r.failed()) {
        auto problems = validateDesign(d, *catalog);
        out.problems.insert(out.problems.end(), problems.begin(), problems.end());
    }
    out.catalog = std::move(catalog);
    if (!r.failed())
        out.design = std::move(d);
    return out;
}

FragmentLoad readFragmentJson(const Json& doc)
{
    FragmentLoad out;
    DesignJsonReader dr(out.problems);
    JsonReader& r = dr.reader();
    if (!r.isObject(doc, ""))
        return out;
    if (auto format = r.string(doc, "", "format", true); format && *format != kFragmentFormat)
        r.error("/format", "must be " + inQuotes(kFragmentFormat) + ", got " + inQuotes(*format));
    Fragment f;
    for (const char* key : {"components", "links"}) {
        const auto it = doc.find(key);
        const std::string ptr = pointerAppend("", key);
        if (it == doc.end() || !r.isArray(*it, ptr))
            continue;
        for (std::size_t i = 0; i < it->size(); ++i) {
            const std::string p = pointerAppend(ptr, i);
            if (!r.isObject((*it)[i], p))
                continue;
            if (std::string_view(key) == "components")
                dr.readComponent((*it)[i], p, f.components.emplace_back());
            else
                dr.readLink((*it)[i], p, f.links.emplace_back());
        }
    }
    if (!r.failed())
        out.fragment = std::move(f);
    return out;
}

DesignLoad readDesignText(std::string_view text, const Catalog& base)
{
    ParsedJson parsed = parseJsonText(text);
    if (parsed.error) {
        DesignLoad out;
        out.problems.push_back(*parsed.error);
        return out;
    }
    return readDesignJson(std::move(parsed.doc), base);
}

DesignLoad loadDesignFile(const std::string& path, const Catalog& base, const std::vector<PointerEdit>& edits)
{
    DesignLoad out;
    const FileText file = readTextFile(path);
    if (file.error) {
        out.problems.push_back({Severity::Error, "", *file.error});
        return out;
    }
    ParsedJson parsed = parseJsonText(file.text);
    if (parsed.error) {
        out.problems.push_back(*parsed.error);
        return out;
    }
    for (const auto& edit : edits) {
        if (auto problem = setAtPointer(parsed.doc, edit.pointer, edit.value)) {
            problem->message = "--set: " + problem->message;
            out.problems.push_back(*problem);
        }
    }
    if (!out.problems.empty())
        return out;
    return readDesignJson(std::move(parsed.doc), base);
}

}  // namespace studio
