#include "core/catalog/catalog.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <set>

#include "core/catalog/builtin_catalog.h"
#include "core/catalog/part_schema.h"
#include "core/json/format_version.h"
#include "core/json/json_pointer.h"
#include "core/json/json_reader.h"
#include "core/json/json_text.h"
#include "core/text.h"

namespace studio {

namespace {

bool validPartId(const std::string& id)
{
    for (char c : id) {
        const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' ||
            c == '-' || c == '_' || c == '+';
        if (!ok)
            return false;
    }
    return !id.empty();
}

struct SourceLookup {
    const std::map<std::string, std::string, std::less<>>& local;
    const std::map<std::string, std::string, std::less<>>& existing;
    const std::string* find(std::string_view key) const
    {
        if (auto it = local.find(key); it != local.end())
            return &it->second;
        if (auto it = existing.find(key); it != existing.end())
            return &it->second;
        return nullptr;
    }
};

void readFigures(JsonReader& r, const Json& figs, const std::string& ptr, Part& part, const SourceLookup& sources)
{
    if (!r.isObject(figs, ptr))
        return;
    for (auto it = figs.begin(); it != figs.end(); ++it) {
        const std::string fptr = pointerAppend(ptr, it.key());
        const FieldSpec* spec = findFieldSpec(part.kind, it.key());
        if (!spec)
            r.warning(fptr,
                      "unknown figure " + inQuotes(it.key()) + " for " + std::string(partKindLabel(part.kind)) +
                          " (kept, not used by the model)");
        if (!r.isObject(it.value(), fptr))
            continue;
        const Json& f = it.value();
        Figure figure;
        const std::optional<double> value = spec
            ? r.number(f, fptr, "value", true, spec->floor(), spec->max, spec->minExclusive)
            : r.number(f, fptr, "value", true, -1e300, 1e300);
        bool usable = value.has_value();
        if (usable && spec && spec->belowFloor(*value)) {
            r.error(pointerAppend(fptr, "value"), figureFloorMessage(*spec, *value), "out_of_range");
            usable = false;
        }
        if (usable && spec && spec->integer && *value != static_cast<double>(static_cast<std::int64_t>(*value))) {
            r.error(pointerAppend(fptr, "value"),
                    "must be a whole number of " + std::string(spec->unit) + ", got " + formatValue(*value));
            usable = false;
        }
        const auto sourceKey = r.string(f, fptr, "source", true);
        const auto uncertain = r.boolean(f, fptr, "uncertain", false);
        const auto note = r.string(f, fptr, "note", false, true);
        Json ignored;
        r.keepUnknown(f, fptr, {"value", "source", "uncertain", "note"}, ignored);
        if (sourceKey) {
            if (const std::string* text = sources.find(*sourceKey)) {
                figure.source = *text;
            } else {
                r.error(pointerAppend(fptr, "source"),
                        "source " + inQuotes(*sourceKey) + " is not in the catalog's sources table");
            }
            figure.source_key = *sourceKey;
        }
        if (!usable)
            continue;
        figure.value = *value;
        figure.uncertain = uncertain.value_or(false);
        figure.note = note.value_or("");
        part.figures[it.key()] = std::move(figure);
    }
    for (const auto& spec : fieldSpecs(part.kind))
        if (spec.required && !figs.contains(spec.key))
            r.error(pointerAppend(ptr, spec.key),
                    "missing figure required for " + std::string(partKindLabel(part.kind)) + " (" +
                        std::string(spec.description) + ", " + std::string(spec.unit) + ")");
}

// A price: {"typical", "low", "high", "currency": "USD", "source", "date",
// "note", "uncertain"}; low <= typical <= high, none negative.
std::optional<Price> readPrice(JsonReader& r, const Json& pj, const std::string& ptr, const SourceLookup& sources)
{
    if (!r.isObject(pj, ptr))
        return std::nullopt;
    const std::size_t errors = r.errorCount();
    constexpr double kMaxUsd = 1e12;
    Price price;
    const auto typical = r.number(pj, ptr, "typical", true, 0, kMaxUsd);
    const auto low = r.number(pj, ptr, "low", false, 0, kMaxUsd);
    const auto high = r.number(pj, ptr, "high", false, 0, kMaxUsd);
    const auto currency = r.string(pj, ptr, "currency", true);
    if (currency && *currency != kPriceCurrency)
        r.error(pointerAppend(ptr, "currency"),
                "prices are in " + std::string(kPriceCurrency) + ", got " + inQuotes(*currency), "unknown_currency");
    const auto sourceKey = r.string(pj, ptr, "source", true);
    if (sourceKey) {
        if (const std::string* text = sources.find(*sourceKey))
            price.source = *text;
        else
            r.error(pointerAppend(ptr, "source"),
                    "source " + inQuotes(*sourceKey) + " is not in the catalog's sources table");
        price.source_key = *sourceKey;
    }
    price.date = r.string(pj, ptr, "date", true).value_or("");
    price.note = r.string(pj, ptr, "note", false, true).value_or("");
    price.uncertain = r.boolean(pj, ptr, "uncertain", false).value_or(false);
    Json ignored;
    r.keepUnknown(pj, ptr, {"typical", "low", "high", "currency", "source", "date", "note", "uncertain"}, ignored);
    if (!typical)
        return std::nullopt;
    price.typical = *typical;
    price.low = low.value_or(*typical);
    price.high = high.value_or(*typical);
    if (price.low > price.typical)
        r.error(pointerAppend(ptr, "low"),
                "the band's low (" + formatValue(price.low) + ") is above its typical (" + formatValue(price.typical) +
                    ")",
                "band_order");
    if (price.high < price.typical)
        r.error(pointerAppend(ptr, "high"),
                "the band's high (" + formatValue(price.high) + ") is below its typical (" +
                    formatValue(price.typical) + ")",
                "band_order");
    if (r.errorCount() != errors)
        return std::nullopt;
    return price;
}

void readAttributes(JsonReader& r, const Json& attrs, const std::string& ptr, Part& part)
{
    if (!r.isObject(attrs, ptr))
        return;
    for (auto it = attrs.begin(); it != attrs.end(); ++it) {
        const std::string aptr = pointerAppend(ptr, it.key());
        if (!it->is_string()) {
            r.error(aptr, std::string("must be a string, got ") + it->type_name());
            continue;
        }
        const std::string value = it->get<std::string>();
        const AttributeSpec* spec = findAttributeSpec(part.kind, it.key());
        if (!spec) {
            r.warning(aptr,
                      "unknown attribute " + inQuotes(it.key()) + " for " + std::string(partKindLabel(part.kind)) +
                          " (kept)");
        } else if (!spec->allowed.empty() &&
                   std::find(spec->allowed.begin(), spec->allowed.end(), value) == spec->allowed.end()) {
            std::string list;
            for (auto a : spec->allowed)
                list += (list.empty() ? "" : ", ") + inQuotes(a);
            r.error(aptr, "must be one of " + list + ", got " + inQuotes(value));
            continue;
        }
        part.attributes[it.key()] = value;
    }
}

}  // namespace

std::vector<Problem> Catalog::merge(const Json& doc, const std::string& origin, bool requireHeader)
{
    std::vector<Problem> problems;
    JsonReader r(problems);
    if (!r.isObject(doc, ""))
        return problems;
    if (requireHeader || doc.contains("format")) {
        if (auto format = r.string(doc, "", "format", true); format && *format != kCatalogFormat)
            r.error("/format", "must be " + inQuotes(kCatalogFormat) + ", got " + inQuotes(*format));
        checkFormatVersion(r, doc, "", kCatalogFormatVersion, requireHeader);
    }
    std::map<std::string, std::string, std::less<>> localSources;
    if (auto it = doc.find("sources"); it != doc.end() && r.isObject(*it, "/sources")) {
        for (auto s = it->begin(); s != it->end(); ++s) {
            if (!s->is_string() || s->get<std::string>().empty())
                r.error(pointerAppend("/sources", s.key()),
                        "must be a non-empty string citing where figures come from");
            else
                localSources[s.key()] = s->get<std::string>();
        }
    }
    Json ignored;
    r.keepUnknown(doc, "", {"format", "format_version", "sources", "parts", "software"}, ignored);

    Catalog trial = *this;
    const SourceLookup sources{localSources, sources_};
    std::set<std::string, std::less<>> seen;
    std::vector<std::string> mergedIds;
    const auto partsIt = doc.find("parts");
    if (partsIt == doc.end()) {
        r.error("/parts", "missing (required)");
    } else if (r.isArray(*partsIt, "/parts")) {
        for (std::size_t i = 0; i < partsIt->size(); ++i) {
            const std::string ptr = pointerAppend("/parts", i);
            const Json& pj = (*partsIt)[i];
            if (!r.isObject(pj, ptr))
                continue;
            Part part;
            const auto id = r.string(pj, ptr, "id", true);
            const auto kindName = r.string(pj, ptr, "kind", true);
            const auto name = r.string(pj, ptr, "name", true);
            if (id && !validPartId(*id)) {
                r.error(pointerAppend(ptr, "id"),
                        "part id " + inQuotes(*id) + " may only use letters, digits and . - _ +");
                continue;
            }
            if (id && !seen.insert(*id).second) {
                r.error(pointerAppend(ptr, "id"), "duplicate part id " + inQuotes(*id));
                continue;
            }
            std::optional<PartKind> kind;
            if (kindName) {
                kind = partKindFromName(*kindName);
                if (!kind) {
                    std::string list;
                    for (PartKind k : kAllPartKinds)
                        list += (list.empty() ? "" : ", ") + inQuotes(partKindName(k));
                    r.error(pointerAppend(ptr, "kind"), "unknown kind " + inQuotes(*kindName) + "; one of " + list);
                }
            }
            if (!id || !kind || !name)
                continue;
            part.id = *id;
            part.kind = *kind;
            part.name = *name;
            part.vendor = r.string(pj, ptr, "vendor", false, true).value_or("");
            part.description = r.string(pj, ptr, "description", false, true).value_or("");
            part.origin = origin;
            part.json = pj;
            if (auto a = pj.find("attributes"); a != pj.end())
                readAttributes(r, *a, pointerAppend(ptr, "attributes"), part);
            const bool hasAttributes = pj.contains("attributes") && pj["attributes"].is_object();
            for (const auto& spec : attributeSpecs(part.kind))
                if (spec.required && !(hasAttributes && pj["attributes"].contains(spec.key)))
                    r.error(pointerAppend(pointerAppend(ptr, "attributes"), spec.key),
                            "missing attribute required for " + std::string(partKindLabel(part.kind)) + " (" +
                                std::string(spec.description) + ")");
            if (auto f = pj.find("figures"); f != pj.end())
                readFigures(r, *f, pointerAppend(ptr, "figures"), part, sources);
            else
                r.error(pointerAppend(ptr, "figures"), "missing (required; may be {})");
            if (auto pr = pj.find("price"); pr != pj.end())
                part.price = readPrice(r, *pr, pointerAppend(ptr, "price"), sources);
            if (auto pr = pj.find("cloud_price"); pr != pj.end()) {
                if (part.kind != PartKind::Accelerator)
                    r.error(pointerAppend(ptr, "cloud_price"),
                            "a cloud price per GPU-hour is an accelerator's; this part is " +
                                std::string(partKindLabel(part.kind)));
                else
                    part.cloudPrice = readPrice(r, *pr, pointerAppend(ptr, "cloud_price"), sources);
            }
            Json extra;
            r.keepUnknown(
                pj, ptr,
                {"id", "kind", "name", "vendor", "description", "attributes", "figures", "price", "cloud_price"},
                extra);
            mergedIds.push_back(part.id);
            if (auto existing = trial.index_.find(part.id); existing != trial.index_.end()) {
                trial.parts_[existing->second] = std::move(part);
            } else {
                trial.index_[part.id] = trial.parts_.size();
                trial.parts_.push_back(std::move(part));
            }
        }
    }
    if (const auto softwareIt = doc.find("software"); softwareIt != doc.end()) {
        std::vector<SoftwareProfile> read;
        readSoftwareProfiles(r, *softwareIt, "/software", read,
                             [&](std::string_view key) { return sources.find(key); });
        for (SoftwareProfile& p : read) {
            const auto same = std::find_if(trial.software_.begin(), trial.software_.end(),
                                           [&](const SoftwareProfile& q) { return q.id == p.id; });
            if (same != trial.software_.end())
                *same = std::move(p);
            else
                trial.software_.push_back(std::move(p));
        }
    }
    // References between parts are checked once everything is in, so a user
    // catalog may define a node and its new accelerator in any order. A part
    // the file replaces may also be one a part it leaves alone refers to (a
    // built-in node's DPU): the replacement must stay of the kind that
    // reference needs, or designs with that node would read here and not
    // from their own file with the parts embedded (fuzz_catalog).
    std::map<std::string, std::size_t> inFile;  // each id's last entry, the one merged
    for (std::size_t i = 0; partsIt != doc.end() && partsIt->is_array() && i < partsIt->size(); ++i)
        if (const Json& pj = (*partsIt)[i]; pj.is_object() && pj.contains("id") && pj["id"].is_string())
            inFile.insert_or_assign(pj["id"].get<std::string>(), i);
    for (const Part& part : trial.parts_) {
        const auto own = inFile.find(part.id);
        for (const auto& spec : attributeSpecs(part.kind)) {
            if (!spec.partRef)
                continue;
            const std::string ref = part.attribute(spec.key);
            if (ref.empty())
                continue;
            const Part* target = trial.find(ref);
            const bool rightKind = target && target->kind == *spec.partRef;
            if (own != inFile.end()) {
                const std::string aptr =
                    pointerAppend(pointerAppend(pointerAppend("/parts", own->second), "attributes"), spec.key);
                if (!target)
                    r.error(aptr, "no part " + inQuotes(ref) + " in the catalog");
                else if (!rightKind)
                    r.error(aptr,
                            inQuotes(ref) + " is " + std::string(partKindLabel(target->kind)) + ", not " +
                                std::string(partKindLabel(*spec.partRef)));
            } else if (const auto replaced = inFile.find(ref); replaced != inFile.end() && target && !rightKind) {
                r.error(pointerAppend(pointerAppend("/parts", replaced->second), "kind"),
                        inQuotes(ref) + " is " + std::string(partKindLabel(target->kind)) + " here, but " +
                            inQuotes(part.id) + " refers to it as its " + std::string(spec.key) + ", which must be " +
                            std::string(partKindLabel(*spec.partRef)));
            }
        }
    }
    if (hasErrors(problems))
        return problems;
    for (auto& [key, text] : localSources)
        trial.sources_[key] = text;
    *this = std::move(trial);
    return problems;
}

namespace {

// A JSON file's document handed to `merge`, or the reason it cannot be read.
template <typename Merge>
std::vector<Problem> mergeJsonFile(const std::string& path, Merge merge)
{
    const FileText file = readTextFile(path);
    if (file.error)
        return {Problem{Severity::Error, "", *file.error}};
    ParsedJson parsed = parseJsonText(file.text);
    if (parsed.error)
        return {*parsed.error};
    return merge(parsed.doc);
}

}  // namespace

std::vector<Problem> Catalog::mergeFile(const std::string& path)
{
    return mergeJsonFile(path, [&](const Json& doc) { return merge(doc, path, true); });
}

std::vector<Problem> Catalog::mergeKernels(const Json& doc, const std::string& origin)
{
    std::vector<Problem> problems;
    const auto profile = readKernelProfile(
        doc, origin,
        [this](std::string_view id) {
            const Part* part = find(id);
            return part && part->kind == PartKind::Accelerator;
        },
        problems);
    if (!profile)
        return problems;
    const auto shared = std::make_shared<const KernelProfile>(*profile);
    for (const std::string& id : shared->parts)
        kernels_[id] = shared;
    return problems;
}

std::vector<Problem> Catalog::mergeKernelsFile(const std::string& path)
{
    return mergeJsonFile(path, [&](const Json& doc) { return mergeKernels(doc, path); });
}

const KernelProfile* Catalog::kernels(std::string_view partId) const
{
    const auto it = kernels_.find(partId);
    return it == kernels_.end() ? nullptr : it->second.get();
}

void Catalog::scalePrices(double factor)
{
    for (Part& p : parts_)
        if (p.price) {
            p.price->low *= factor;
            p.price->typical *= factor;
            p.price->high *= factor;
        }
}

void Catalog::scaleKernelEfficiencies(double factor, double cap)
{
    // One scaled copy per profile, however many parts share it.
    std::map<const KernelProfile*, std::shared_ptr<const KernelProfile>> scaled;
    for (auto& [id, profile] : kernels_) {
        auto& copy = scaled[profile.get()];
        if (!copy)
            copy = std::make_shared<const KernelProfile>(profile->scaledEfficiencies(factor, cap));
        profile = copy;
    }
}

std::shared_ptr<const KernelProfile> Catalog::sharedKernels(std::string_view partId) const
{
    const auto it = kernels_.find(partId);
    return it == kernels_.end() ? nullptr : it->second;
}

const Part* Catalog::find(std::string_view id) const
{
    const auto it = index_.find(id);
    return it == index_.end() ? nullptr : &parts_[it->second];
}

std::string Catalog::sourceText(std::string_view key) const
{
    const auto it = sources_.find(key);
    return it == sources_.end() ? std::string() : it->second;
}

const SoftwareProfile* Catalog::software(std::string_view id) const
{
    const auto it =
        std::find_if(software_.begin(), software_.end(), [&](const SoftwareProfile& p) { return p.id == id; });
    return it == software_.end() ? nullptr : &*it;
}

Json Catalog::subset(const std::vector<std::string>& ids, const std::vector<std::string>& softwareIds) const
{
    const std::set<std::string, std::less<>> wanted(ids.begin(), ids.end());
    Json parts = Json::array();
    std::map<std::string, std::string> cited;
    for (const Part& p : parts_) {
        if (!wanted.count(p.id))
            continue;
        parts.push_back(p.json);
        for (const auto& [key, f] : p.figures)
            cited.emplace(f.source_key, f.source);
        for (const std::optional<Price>* price : {&p.price, &p.cloudPrice})
            if (*price)
                cited.emplace((*price)->source_key, (*price)->source);
    }
    Json doc = Json::object();
    doc["sources"] = Json::object();
    for (const auto& [key, text] : cited)
        doc["sources"][key] = text;
    doc["parts"] = std::move(parts);
    Json software = Json::array();
    for (const SoftwareProfile& p : software_)
        if (std::find(softwareIds.begin(), softwareIds.end(), p.id) != softwareIds.end()) {
            software.push_back(p.json);
            doc["sources"][p.sourceKey] = p.source;
        }
    if (!software.empty())
        doc["software"] = std::move(software);
    return doc;
}

const Catalog& Catalog::builtin()
{
    static const Catalog catalog = [] {
        Catalog c;
        ParsedJson parsed = parseJsonText(builtinCatalogJson());
        std::vector<Problem> problems;
        if (parsed.error)
            problems.push_back(*parsed.error);
        else
            problems = c.merge(parsed.doc, "built-in catalog");
        if (hasErrors(problems)) {
            for (const auto& p : problems)
                std::fprintf(stderr, "%s\n", formatProblem("resources/catalog.json", p).c_str());
            std::abort();
        }
        const auto names = builtinKernelProfileNames();
        const auto texts = builtinKernelProfileJsons();
        for (std::size_t i = 0; i < texts.size(); ++i) {
            const std::string file = "resources/kernels/" + std::string(names[i]);
            ParsedJson kernels = parseJsonText(texts[i]);
            std::vector<Problem> kp =
                kernels.error ? std::vector<Problem>{*kernels.error} : c.mergeKernels(kernels.doc, "built-in " + file);
            if (hasErrors(kp)) {
                for (const auto& p : kp)
                    std::fprintf(stderr, "%s\n", formatProblem(file, p).c_str());
                std::abort();
            }
        }
        return c;
    }();
    return catalog;
}

}  // namespace studio
