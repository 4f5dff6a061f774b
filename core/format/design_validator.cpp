#include "core/format/design_validator.h"

#include <algorithm>
#include <cmath>

#include "core/catalog/part_schema.h"
#include "core/design/id_table.h"
#include "core/format/design_fields.h"
#include "core/json/json_pointer.h"
#include "core/json/json_reader.h"
#include "core/text.h"

namespace studio {

bool isValidId(const std::string& id)
{
    if (id.empty() || id.size() > 128)
        return false;
    for (char c : id) {
        const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' ||
            c == '_' || c == '-' || c == ':';
        if (!ok)
            return false;
    }
    return true;
}

namespace {

std::string componentPtr(std::size_t i, std::string_view key)
{
    return pointerAppend(pointerAppend("/components", i), key);
}

void checkProps(JsonReader& r, const Component& c, const Part& part, const std::string& base, const Catalog& catalog)
{
    for (const auto& [key, value] : c.props) {
        const std::string ptr = pointerAppend(base, key);
        if (const FieldSpec* f = findFieldSpec(part.kind, key)) {
            if (f->integer)
                r.integerValue(value, ptr, static_cast<std::int64_t>(f->min), static_cast<std::int64_t>(f->max));
            else if (const auto v = r.numberValue(value, ptr, f->floor(), f->max, f->minExclusive);
                     v && f->belowFloor(*v))
                r.error(ptr, figureFloorMessage(*f, *v), "out_of_range");
            continue;
        }
        const SettingSpec* s = findSettingSpec(part.kind, key);
        if (!s) {
            r.warning(ptr,
                      "unknown property " + inQuotes(key) + " for " + std::string(partKindLabel(part.kind)) +
                          " (kept, not used)",
                      "unknown_property");
            continue;
        }
        switch (s->type) {
        case SettingType::Integer:
            r.integerValue(value, ptr, static_cast<std::int64_t>(s->min), static_cast<std::int64_t>(s->max));
            break;
        case SettingType::Boolean:
            if (!value.is_boolean())
                r.error(ptr, std::string("must be true or false, got ") + value.type_name(), "wrong_type");
            break;
        case SettingType::String:
        case SettingType::PartRef: {
            if (!value.is_string()) {
                r.error(ptr, std::string("must be a string, got ") + value.type_name(), "wrong_type");
                break;
            }
            const std::string v = value.get<std::string>();
            if (s->type == SettingType::String && !s->allowed.empty() &&
                std::find(s->allowed.begin(), s->allowed.end(), v) == s->allowed.end()) {
                std::string list;
                for (auto a : s->allowed)
                    list += (list.empty() ? "" : ", ") + inQuotes(a);
                r.error(ptr, "must be one of " + list + ", got " + inQuotes(v), "not_allowed");
            }
            if (s->type == SettingType::PartRef) {
                const Part* target = catalog.find(v);
                if (!target)
                    r.error(ptr, "no part " + inQuotes(v) + " in the catalog", "unknown_part");
                else if (target->kind != *s->partRef)
                    r.error(ptr,
                            inQuotes(v) + " is " + std::string(partKindLabel(target->kind)) + ", not " +
                                std::string(partKindLabel(*s->partRef)),
                            "wrong_part_kind");
            }
            break;
        }
        }
    }
    for (const auto& s : settingSpecs(part.kind))
        if (s.required && !c.props.count(std::string(s.key)))
            r.error(pointerAppend(base, s.key),
                    "missing (required for " + std::string(partKindLabel(part.kind)) + ": " +
                        std::string(s.description) + ")",
                    "missing");
}

// Runs `check(reader, pointer)` against a scratch list with an empty
// pointer, and again against `r` with `pointer()` only when it reported
// anything: the rules stay where they are, and the pointers (strings, one
// per field) are made only for an item that breaks one. Making them for
// every field of every item was most of validating a design drawn in full,
// which the studio does after every edit.
template <typename Check, typename Pointer>
void checkItem(JsonReader& r, const Check& check, const Pointer& pointer)
{
    std::vector<Problem> scratch;
    JsonReader probe(scratch);
    check(probe, std::string());
    if (!scratch.empty())
        check(r, pointer());
}

void checkWorkload(JsonReader& r, const Workload& w, const Catalog& catalog)
{
    const auto& m = w.model;
    // Designs built in memory (the studio's edits, --set) meet the reader's
    // field rules here; the divisions below need them to hold.
    const std::size_t before = r.errorCount();
    fields::check(r, w, "/workload", fields::workloadInfo());
    if (w.software && !w.software->empty() && !catalog.software(*w.software)) {
        std::string known;
        for (const SoftwareProfile& p : catalog.softwareProfiles())
            known += (known.empty() ? "" : ", ") + inQuotes(p.id);
        r.error("/workload/software",
                "no software profile " + inQuotes(*w.software) + " in the catalog; one of " + known,
                "unknown_software");
    }
    fields::check(r, w.model, "/workload/model", fields::model());
    // A serving design has no training run unless it keeps one to switch to.
    const bool training = !(w.isServing() && w.training == TrainingSpec{});
    if (training)
        fields::check(r, w.training, "/workload/training", fields::training());
    if (w.serving) {
        fields::check(r, *w.serving, "/workload/serving", fields::serving());
        if (const auto& d = w.serving->disaggregated) {
            fields::check(r, d->prefill, "/workload/serving/disaggregated/prefill", fields::servingWorkers());
            fields::check(r, d->decode, "/workload/serving/disaggregated/decode", fields::servingWorkers());
        }
    } else if (w.isServing())
        r.error("/workload/serving", "missing (required for a serving workload)", "missing");
    fields::check(r, w.parallelism, "/workload/parallelism", fields::parallelism());
    fields::check(r, w.data, "/workload/data", fields::data());
    if (r.errorCount() > before)
        return;
    if (m.hidden % m.heads != 0)
        r.error("/workload/model/heads",
                formatCount(m.heads) + " heads do not divide hidden size " + formatCount(m.hidden), "indivisible");
    const std::int64_t kv = m.kv_heads.value_or(m.heads);
    if (kv > m.heads)
        r.error("/workload/model/kv_heads",
                formatCount(kv) + " KV heads is more than the " + formatCount(m.heads) + " query heads", "too_many");
    else if (m.heads % kv != 0)
        r.error("/workload/model/kv_heads",
                formatCount(kv) + " KV heads do not divide " + formatCount(m.heads) +
                    " query heads (grouped-query attention needs whole groups)",
                "indivisible");
    const std::int64_t experts = m.experts.value_or(0);
    const std::int64_t active = m.experts_per_token.value_or(0);
    if (experts == 0 && active > 0)
        r.error("/workload/model/experts_per_token",
                "is " + formatCount(active) + " but the model is dense (experts is 0)", "dense_model");
    if (experts > 0 && active == 0)
        r.error("/workload/model/experts_per_token", "must be at least 1 for a mixture-of-experts model",
                "out_of_range");
    if (active > experts)
        r.error("/workload/model/experts_per_token",
                formatCount(active) + " experts per token is more than the " + formatCount(experts) + " experts",
                "too_many");
    const auto checkEp = [&](std::int64_t ep, const std::string& ptr) {
        if (ep > 1 && experts == 0)
            r.error(ptr, "expert parallelism of " + formatCount(ep) + " needs a mixture-of-experts model (experts > 0)",
                    "dense_model");
        else if (ep > 1 && experts % ep != 0)
            r.error(ptr, formatCount(ep) + " does not divide the " + formatCount(experts) + " experts", "indivisible");
    };
    checkEp(w.parallelism.ep.value_or(1), "/workload/parallelism/ep");
    // A disaggregated layout's workers: the same rules for their experts,
    // and no more GPUs than a design can hold.
    if (w.serving && w.serving->disaggregated) {
        double gpus = 0;
        for (const auto& [kind, k] : {std::pair{"prefill", &w.serving->disaggregated->prefill},
                                      std::pair{"decode", &w.serving->disaggregated->decode}}) {
            const std::string ptr = std::string("/workload/serving/disaggregated/") + kind;
            checkEp(k->ep.value_or(1), ptr + "/ep");
            gpus += double(k->workers) * double(k->tp.value_or(1)) * double(k->pp.value_or(1));
        }
        if (gpus > double(kMaxInstances))
            r.error("/workload/serving/disaggregated",
                    "the prefill and decode workers take " + formatValue(gpus, 3) + " GPUs, more than the " +
                        formatCount(kMaxInstances) + " a design can hold",
                    "too_many");
    }
    // A layout spans tp x pp x cp x dp GPUs: more than a design can hold is
    // no layout, and overflowed the products the analyses take (fuzz_serving:
    // tp 6,052,957 x pp 6,057,328 x dp 1,048,576).
    const ParallelismSpec& layout = w.parallelism;
    double span = 1;
    for (const std::int64_t degree : {layout.tp.value_or(1), layout.pp.value_or(1), layout.cp.value_or(1),
                                      std::max<std::int64_t>(1, layout.dp.value_or(1))})
        span *= double(degree);
    if (span > double(kMaxInstances))
        r.error("/workload/parallelism",
                "tp x pp x cp x dp = " + formatValue(span, 3) + " GPUs, more than the " + formatCount(kMaxInstances) +
                    " a design can hold",
                "too_many");
    const std::int64_t micro = w.training.micro_batch.value_or(1);
    if (training && micro > w.training.global_batch)
        r.error("/workload/training/micro_batch",
                "micro-batch of " + formatCount(micro) + " is larger than the global batch of " +
                    formatCount(w.training.global_batch),
                "too_many");
}

}  // namespace

namespace {

// A component's own fields: what it says of itself (name, count, position,
// size), not of other items.
void checkComponentFields(JsonReader& r, const Component& c, std::size_t i)
{
    checkItem(
        r,
        [&c](JsonReader& rr, const std::string& ptr) {
            // The probe's pointer is empty, and so are those under it.
            auto under = [&ptr](std::string_view key) { return ptr.empty() ? ptr : pointerAppend(ptr, key); };
            fields::check(rr, c, ptr, fields::component());
            fields::check(rr, c.position, under("position"), fields::position());
            if (c.size)
                fields::check(rr, *c.size, under("size"), fields::size());
        },
        [i] { return pointerAppend("/components", i); });
}

// A component's part and its properties; nullptr when the part is unknown
// or not a component's.
const Part* checkComponentPart(JsonReader& r, const Component& c, std::size_t i, const Catalog& catalog)
{
    const Part* part = catalog.find(c.part);
    if (!part) {
        if (!c.part.empty())
            r.error(componentPtr(i, "part"), "unknown catalog part " + inQuotes(c.part), "unknown_part");
        return nullptr;
    }
    if (part->kind == PartKind::Link) {
        r.error(componentPtr(i, "part"), inQuotes(c.part) + " is a link type; use it in /links, not as a component",
                "wrong_part_kind");
        return nullptr;
    }
    if (!c.props.empty() || !settingSpecs(part->kind).empty())
        checkItem(
            r, [&](JsonReader& rr, const std::string& ptr) { checkProps(rr, c, *part, ptr, catalog); },
            [i] { return componentPtr(i, "props"); });
    return part;
}

void checkLinkFields(JsonReader& r, const Link& l, std::size_t i)
{
    checkItem(
        r, [&l](JsonReader& rr, const std::string& ptr) { fields::check(rr, l, ptr, fields::link()); },
        [i] { return pointerAppend("/links", i); });
}

void checkLinkPart(JsonReader& r, const Link& l, std::size_t i, const Catalog& catalog)
{
    const Part* part = catalog.find(l.part);
    if (!part && !l.part.empty())
        r.error(pointerAppend(pointerAppend("/links", i), "part"), "unknown catalog part " + inQuotes(l.part),
                "unknown_part");
    else if (part && part->kind != PartKind::Link)
        r.error(pointerAppend(pointerAppend("/links", i), "part"),
                inQuotes(l.part) + " is " + std::string(partKindLabel(part->kind)) + ", not a link type",
                "wrong_part_kind");
}

// The workload, facility and operations sections.
void checkSections(JsonReader& r, const Design& d, const Catalog& catalog)
{
    checkWorkload(r, d.workload, catalog);
    fields::check(r, d.facility, "/facility", fields::facility());
    if (d.facility.capex_usd_per_mw && d.facility.colocation_usd_per_kw_month)
        r.error("/facility/colocation_usd_per_kw_month",
                "a facility is either built (capex_usd_per_mw) or rented by colocation (colocation_usd_per_kw_month), "
                "not both: remove one",
                "capex_and_colocation");
    fields::check(r, d.operations.failure_mttf_h, "/operations/failure_mttf_h", fields::failureMttf());
    fields::check(r, d.operations.checkpoint, "/operations/checkpoint", fields::checkpoint());
    fields::check(r, d.operations, "/operations", fields::operations());
}

}  // namespace

std::vector<Problem> validateFields(const Design& d, const Catalog& catalog, const std::vector<std::size_t>& components,
                                    const std::vector<std::size_t>& links, bool settings)
{
    std::vector<Problem> problems;
    JsonReader r(problems);
    if (settings)
        fields::check(r, d, "", fields::designInfo());
    for (std::size_t i : components) {
        checkComponentFields(r, d.components[i], i);
        checkComponentPart(r, d.components[i], i, catalog);
    }
    for (std::size_t i : links) {
        checkLinkFields(r, d.links[i], i);
        checkLinkPart(r, d.links[i], i, catalog);
    }
    if (settings)
        checkSections(r, d, catalog);
    return problems;
}

bool addedLinksHold(const Design& d, const Catalog& catalog, const std::vector<std::size_t>& links)
{
    std::vector<Problem> problems;
    JsonReader r(problems);
    for (std::size_t i : links) {
        const Link& l = d.links[i];
        checkLinkFields(r, l, i);
        checkLinkPart(r, l, i, catalog);
        if (!problems.empty() || !isValidId(l.id) || l.from == l.to)
            return false;
        for (std::size_t j = 0; j < d.links.size(); ++j)
            if (j != i && d.links[j].id == l.id)
                return false;
        for (const std::string* end : {&l.from, &l.to})
            if (std::none_of(d.components.begin(), d.components.end(),
                             [end](const Component& c) { return c.id == *end; }))
                return false;
    }
    return true;
}

std::vector<Problem> validateWorkload(const Workload& workload, const Catalog& catalog)
{
    std::vector<Problem> problems;
    JsonReader r(problems);
    checkWorkload(r, workload, catalog);
    return problems;
}

std::vector<Problem> validateDesign(const Design& d, const Catalog& catalog)
{
    std::vector<Problem> problems;
    JsonReader r(problems);
    // The file's field rules first (the reader has already applied them to a
    // design read from a file; edits and --set come here without them).
    fields::check(r, d, "", fields::designInfo());

    // Keyed by views of the design's own ids (no copies): allocating and
    // freeing a node per item was a third of validating a design drawn in
    // full.
    IdTable byId(d.components.size());
    std::vector<const Part*> parts(d.components.size(), nullptr);
    for (std::size_t i = 0; i < d.components.size(); ++i) {
        const Component& c = d.components[i];
        checkComponentFields(r, c, i);
        if (c.id.empty()) {
            // "must not be empty", above
        } else if (!isValidId(c.id)) {
            r.error(componentPtr(i, "id"),
                    "id " + inQuotes(c.id) + " may only use letters, digits and . _ - :", "invalid_id");
        } else if (const auto first = byId.insert(c.id, i)) {
            r.error(componentPtr(i, "id"),
                    "duplicate id " + inQuotes(c.id) + " (also /components/" + std::to_string(*first) + ")",
                    "duplicate_id");
        }
        parts[i] = checkComponentPart(r, c, i, catalog);
    }

    // Containment: parents exist, the nesting rules hold, no cycles, and the
    // replication of a component times its ancestors stays within limits.
    // Each parent is looked up once; the walks below reuse it.
    constexpr std::size_t kNone = ~std::size_t{0};
    std::vector<std::size_t> parentOf(d.components.size(), kNone);
    for (std::size_t i = 0; i < d.components.size(); ++i)
        if (const auto p = byId.find(d.components[i].parent))
            parentOf[i] = *p;
    for (std::size_t i = 0; i < d.components.size(); ++i) {
        const Component& c = d.components[i];
        if (!parts[i])
            continue;
        if (c.parent.empty()) {
            if (!canBeTopLevel(parts[i]->kind))
                r.error(componentPtr(i, "parent"), topLevelRefusal(parts[i]->kind), "nesting");
            continue;
        }
        if (parentOf[i] == kNone) {
            r.error(componentPtr(i, "parent"), "no component with id " + inQuotes(c.parent), "missing_parent");
            continue;
        }
        if (parentOf[i] == i) {
            r.error(componentPtr(i, "parent"), "a component cannot contain itself", "containment_cycle");
            continue;
        }
        const Part* parentPart = parts[parentOf[i]];
        if (parentPart &&
            !canContain(parentPart->kind, parentPart->attribute("role"), parts[i]->kind, parts[i]->attribute("role")))
            r.error(componentPtr(i, "parent"),
                    nestingRefusal(parentPart->kind, parentPart->attribute("role"), parts[i]->kind,
                                   parts[i]->attribute("role")) +
                        " (" + inQuotes(c.id) + " in " + inQuotes(c.parent) + ")",
                    "nesting");
    }
    // Parent pointers form a forest unless there is a cycle: walk each chain
    // once (states: 0 new, 1 on the current path, 2 done), report each cycle
    // once at its first member in file order, and multiply counts down the
    // tree for the replication limit.
    const std::size_t n = d.components.size();
    std::vector<int> state(n, 0);
    std::vector<double> instances(n, 0);  // 0: unknown (in or under a cycle)
    std::vector<std::size_t> path;
    for (std::size_t i = 0; i < n; ++i) {
        path.clear();
        std::size_t at = i;
        while (state[at] == 0) {
            state[at] = 1;
            path.push_back(at);
            if (parentOf[at] == kNone || parentOf[at] == at)
                break;
            at = parentOf[at];
        }
        if (state[at] == 1 && !path.empty() && path.back() != at) {
            const auto first = std::find(path.begin(), path.end(), at);
            const std::size_t reportAt = *std::min_element(first, path.end());
            std::string chain;
            for (auto k = first; k != path.end(); ++k)
                chain += d.components[*k].id + " -> ";
            r.error(componentPtr(reportAt, "parent"), "containment cycle: " + chain + d.components[at].id,
                    "containment_cycle");
        } else if (state[at] == 1 && !path.empty() && path.back() == at) {
            path.pop_back();  // a root or a self/dangling parent, reported above
            instances[at] = static_cast<double>(d.components[at].count);
            state[at] = 2;
        }
        // Unwind: each component's instances are its count times its parent's.
        for (auto k = path.rbegin(); k != path.rend(); ++k) {
            const double above = parentOf[*k] == kNone ? 1 : instances[parentOf[*k]];
            instances[*k] = above > 0 ? above * static_cast<double>(d.components[*k].count) : 0;
            state[*k] = 2;
        }
    }
    // Depth: analyses walk the containment tree recursively, so bound it
    // (a hall of pods of scalable units of racks of nodes of GPUs is 6 deep).
    std::vector<std::size_t> depth(n, 0);
    std::vector<std::size_t> chain;
    for (std::size_t i = 0; i < n; ++i) {
        chain.clear();
        std::size_t at = i;
        while (instances[at] > 0 && depth[at] == 0) {
            chain.push_back(at);
            if (parentOf[at] == kNone || parentOf[at] == at)
                break;
            at = parentOf[at];
        }
        std::size_t above = chain.empty() || depth[at] == 0 ? 0 : depth[at];
        for (auto k = chain.rbegin(); k != chain.rend(); ++k)
            depth[*k] = ++above;
    }
    for (std::size_t i = 0; i < n; ++i) {
        if (depth[i] > kMaxNesting && (parentOf[i] == kNone || depth[parentOf[i]] <= kMaxNesting))
            r.error(componentPtr(i, "parent"),
                    "nested " + std::to_string(depth[i]) + " levels deep, more than the " +
                        std::to_string(kMaxNesting) + " a design may use",
                    "too_deep");
    }
    // Report where the limit is first crossed, not again for everything inside.
    for (std::size_t i = 0; i < n; ++i)
        if (instances[i] > static_cast<double>(kMaxInstances) &&
            !(parentOf[i] != kNone && instances[parentOf[i]] > static_cast<double>(kMaxInstances)))
            r.error(componentPtr(i, "count"),
                    "replicated " + formatValue(instances[i], 3) + " times with its containers, above the limit of " +
                        formatCount(kMaxInstances),
                    "too_many_instances");

    IdTable linkIds(d.links.size());
    for (std::size_t i = 0; i < d.links.size(); ++i) {
        const Link& l = d.links[i];
        const auto base = [i] { return pointerAppend("/links", i); };
        checkLinkFields(r, l, i);
        if (l.id.empty()) {
            // "must not be empty", above
        } else if (!isValidId(l.id)) {
            r.error(pointerAppend(base(), "id"),
                    "id " + inQuotes(l.id) + " may only use letters, digits and . _ - :", "invalid_id");
        } else if (const auto first = linkIds.insert(l.id, i)) {
            r.error(pointerAppend(base(), "id"),
                    "duplicate link id " + inQuotes(l.id) + " (also /links/" + std::to_string(*first) + ")",
                    "duplicate_id");
        }
        for (const auto* end : {&l.from, &l.to})
            if (!end->empty() && !byId.find(*end))
                r.error(pointerAppend(base(), end == &l.from ? "from" : "to"),
                        "no component with id " + inQuotes(*end) + " (dangling link)", "dangling_link");
        if (l.from == l.to && !l.from.empty())
            r.error(pointerAppend(base(), "to"), "a link cannot connect " + inQuotes(l.from) + " to itself",
                    "self_link");
        checkLinkPart(r, l, i, catalog);
    }

    checkSections(r, d, catalog);
    return problems;
}

}  // namespace studio
