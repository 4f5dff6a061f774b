#include "core/format/design_reader.h"

#include "core/format/design_fields.h"
#include "core/format/design_validator.h"
#include "core/format/migrations.h"
#include "core/json/format_version.h"
#include "core/json/json_pointer.h"
#include "core/json/json_reader.h"
#include "core/json/json_text.h"
#include "core/text.h"

namespace studio {
namespace {

class DesignJsonReader {
public:
    explicit DesignJsonReader(std::vector<Problem>& problems) : r_(problems) {}

    void readComponent(const Json& j, const std::string& ptr, Component& c)
    {
        fields::read(r_, j, ptr, c, fields::component());
        if (auto p = j.find("position"); p != j.end()) {
            const std::string pptr = pointerAppend(ptr, "position");
            if (r_.isObject(*p, pptr)) {
                fields::read(r_, *p, pptr, c.position, fields::position());
                Json ignored;
                r_.keepUnknown(*p, pptr, fields::keys(fields::position()), ignored);
            }
        }
        if (auto s = j.find("size"); s != j.end()) {
            const std::string sptr = pointerAppend(ptr, "size");
            if (r_.isObject(*s, sptr)) {
                Extent e{1, 1};
                fields::read(r_, *s, sptr, e, fields::size());
                c.size = e;
            }
        }
        c.collapsed = r_.boolean(j, ptr, "collapsed", false).value_or(false);
        if (auto p = j.find("props"); p != j.end() && r_.isObject(*p, pointerAppend(ptr, "props")))
            for (auto it = p->begin(); it != p->end(); ++it)
                c.props[it.key()] = it.value();
        r_.keepUnknown(j, ptr, fields::keys(fields::component(), {"position", "size", "collapsed", "props"}), c.extra);
    }

    void readLink(const Json& j, const std::string& ptr, Link& l)
    {
        fields::read(r_, j, ptr, l, fields::link());
        r_.keepUnknown(j, ptr, fields::keys(fields::link()), l.extra);
    }

    void readWorkload(const Json& j, const std::string& ptr, Workload& w)
    {
        if (!r_.isObject(j, ptr))
            return;
        fields::read(r_, j, ptr, w, fields::workloadInfo());
        // A serving workload needs its serving section and no training one.
        const bool serving = w.isServing();
        readSection(j, ptr, "model", true, w.model, fields::model());
        readSection(j, ptr, "training", !serving, w.training, fields::training());
        if (serving || j.contains("serving")) {
            ServingSpec spec;
            readSection(j, ptr, "serving", serving, spec, fields::serving(), {"disaggregated"});
            if (const auto s = j.find("serving"); s != j.end() && s->is_object() && s->contains("disaggregated"))
                readDisaggregated((*s)["disaggregated"], pointerAppend(pointerAppend(ptr, "serving"), "disaggregated"),
                                  spec);
            if (j.contains("serving"))
                w.serving = std::move(spec);
        }
        readSection(j, ptr, "parallelism", false, w.parallelism, fields::parallelism());
        readSection(j, ptr, "data", false, w.data, fields::data());
        r_.keepUnknown(j, ptr,
                       fields::keys(fields::workloadInfo(), {"model", "training", "serving", "parallelism", "data"}),
                       w.extra);
    }

    void readDisaggregated(const Json& j, const std::string& ptr, ServingSpec& spec)
    {
        if (!r_.isObject(j, ptr))
            return;
        DisaggregatedSpec d;
        readSection(j, ptr, "prefill", true, d.prefill, fields::servingWorkers());
        readSection(j, ptr, "decode", true, d.decode, fields::servingWorkers());
        r_.keepUnknown(j, ptr, {"prefill", "decode"}, d.extra);
        spec.disaggregated = std::move(d);
    }

    void readFacility(const Json& j, const std::string& ptr, Facility& f)
    {
        if (!r_.isObject(j, ptr))
            return;
        fields::read(r_, j, ptr, f, fields::facility());
        r_.keepUnknown(j, ptr, fields::keys(fields::facility()), f.extra);
    }

    void readOperations(const Json& j, const std::string& ptr, Operations& o)
    {
        if (!r_.isObject(j, ptr))
            return;
        readSection(j, ptr, "failure_mttf_h", false, o.failure_mttf_h, fields::failureMttf());
        readSection(j, ptr, "checkpoint", false, o.checkpoint, fields::checkpoint());
        fields::read(r_, j, ptr, o, fields::operations());
        r_.keepUnknown(j, ptr, fields::keys(fields::operations(), {"failure_mttf_h", "checkpoint"}), o.extra);
    }

    JsonReader& reader() { return r_; }

private:
    // A nested object of scalar fields, its unknown keys kept in its `extra`.
    template <typename S>
    void readSection(const Json& parent, const std::string& ptr, std::string_view key, bool required, S& out,
                     const fields::Table<S>& table, std::initializer_list<std::string_view> nested = {})
    {
        const auto it = parent.find(key);
        const std::string p = pointerAppend(ptr, key);
        if (it == parent.end()) {
            if (required)
                r_.error(p, "missing (required)", "missing");
            return;
        }
        if (!r_.isObject(*it, p))
            return;
        fields::read(r_, *it, p, out, table);
        r_.keepUnknown(*it, p, fields::keys(table, nested), out.extra);
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
    fields::read(r, doc, "", d, fields::designInfo());

    auto catalog = std::make_shared<Catalog>(base);
    if (auto c = doc.find("catalog"); c != doc.end() && !c->is_null()) {
        auto problems = catalog->merge(*c, "embedded in the design", false);
        prefixPointers(problems, "/catalog");
        out.problems.insert(out.problems.end(), problems.begin(), problems.end());
        d.catalog = *c;
    }

    if (auto cs = doc.find("components"); cs == doc.end()) {
        r.error("/components", "missing (required; may be [])", "missing");
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
        r.error("/workload", "missing (required)", "missing");
    else
        dr.readWorkload(*w, "/workload", d.workload);
    if (auto f = doc.find("facility"); f != doc.end())
        dr.readFacility(*f, "/facility", d.facility);
    if (auto o = doc.find("operations"); o != doc.end())
        dr.readOperations(*o, "/operations", d.operations);
    r.keepUnknown(doc, "",
                  fields::keys(fields::designInfo(),
                               {"format", "format_version", "components", "links", "workload", "facility", "operations",
                                "catalog"}),
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

FragmentLoad readFragmentText(std::string_view text)
{
    ParsedJson parsed = parseJsonText(text);
    if (parsed.error) {
        FragmentLoad out;
        out.problems.push_back(*parsed.error);
        return out;
    }
    return readFragmentJson(parsed.doc);
}

DesignLoad readDesignText(std::string_view text, const Catalog& base, const std::vector<PointerEdit>& edits)
{
    DesignLoad out;
    ParsedJson parsed = parseJsonText(text);
    if (parsed.error) {
        out.problems.push_back(*parsed.error);
        return out;
    }
    return readDesignJson(std::move(parsed.doc), base, edits);
}

DesignLoad readDesignJson(Json doc, const Catalog& base, const std::vector<PointerEdit>& edits)
{
    DesignLoad out;
    for (const auto& edit : edits) {
        if (auto problem = setAtPointer(doc, edit.pointer, edit.value)) {
            problem->message = "--set: " + problem->message;
            out.problems.push_back(*problem);
        }
    }
    if (!out.problems.empty())
        return out;
    return readDesignJson(std::move(doc), base);
}

DesignLoad loadDesignFile(const std::string& path, const Catalog& base, const std::vector<PointerEdit>& edits)
{
    const FileText file = readTextFile(path);
    if (file.error) {
        DesignLoad out;
        out.problems.push_back({Severity::Error, "", *file.error});
        return out;
    }
    return readDesignText(file.text, base, edits);
}

}  // namespace studio
