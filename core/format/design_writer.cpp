#include "core/format/design_writer.h"

#include <cmath>

#include "core/format/design_fields.h"
#include "core/format/design_reader.h"
#include "core/json/format_version.h"
#include "core/version.h"

namespace studio {
namespace {

void putExtra(Json& obj, const Json& extra)
{
    if (!extra.is_object())
        return;
    for (auto it = extra.begin(); it != extra.end(); ++it)
        obj[it.key()] = it.value();
}

// A section's fields (design_fields' table, in its order) and the keys the
// reader kept that it does not know.
template <typename S>
Json sectionJson(const S& value, const fields::Table<S>& table)
{
    Json j = Json::object();
    fields::write(j, value, table);
    if constexpr (requires { value.extra; })
        putExtra(j, value.extra);
    return j;
}

// A section that is all defaults is left out rather than written as {}.
void putSection(Json& parent, const char* key, Json section)
{
    if (!section.empty())
        parent[key] = std::move(section);
}

Json componentJson(const Component& c)
{
    Json j = Json::object();
    fields::write(j, c, fields::component());
    j["position"] = sectionJson(c.position, fields::position());
    if (c.size)
        j["size"] = sectionJson(*c.size, fields::size());
    if (c.collapsed)
        j["collapsed"] = true;
    if (!c.props.empty()) {
        Json props = Json::object();
        for (const auto& [k, v] : c.props)
            props[k] = v;
        j["props"] = std::move(props);
    }
    putExtra(j, c.extra);
    return j;
}

Json workloadJson(const Workload& w)
{
    Json j = Json::object();
    fields::write(j, w, fields::workloadInfo());
    j["model"] = sectionJson(w.model, fields::model());
    // A serving design read without a training section saves without one.
    if (!(w.isServing() && w.training == TrainingSpec{}))
        j["training"] = sectionJson(w.training, fields::training());
    if (w.serving) {
        const ServingSpec& s = *w.serving;
        Json serving = Json::object();
        fields::write(serving, s, fields::serving());
        if (s.disaggregated) {
            Json d = {{"prefill", sectionJson(s.disaggregated->prefill, fields::servingWorkers())},
                      {"decode", sectionJson(s.disaggregated->decode, fields::servingWorkers())}};
            putExtra(d, s.disaggregated->extra);
            serving["disaggregated"] = std::move(d);
        }
        putExtra(serving, s.extra);
        j["serving"] = std::move(serving);
    }
    putSection(j, "parallelism", sectionJson(w.parallelism, fields::parallelism()));
    putSection(j, "data", sectionJson(w.data, fields::data()));
    putExtra(j, w.extra);
    return j;
}

Json operationsJson(const Operations& o)
{
    Json j = Json::object();
    putSection(j, "failure_mttf_h", sectionJson(o.failure_mttf_h, fields::failureMttf()));
    putSection(j, "checkpoint", sectionJson(o.checkpoint, fields::checkpoint()));
    fields::write(j, o, fields::operations());
    putExtra(j, o.extra);
    return j;
}

}  // namespace

Json designToJson(const Design& d)
{
    Json j = Json::object();
    j["format"] = kDesignFormat;
    // A file from a newer minor version keeps its number: its unknown keys
    // were kept, so it is still a file of that version.
    FormatVersion version = kDesignFormatVersion;
    if (auto read = parseFormatVersion(d.format_version); read && *read > version)
        version = *read;
    j["format_version"] = toString(version);
    j["app_version"] = kAppVersion;
    j["name"] = d.name;
    if (!d.description.empty())
        j["description"] = d.description;
    Json components = Json::array();
    for (const auto& c : d.components)
        components.push_back(componentJson(c));
    j["components"] = std::move(components);
    Json links = Json::array();
    for (const auto& l : d.links)
        links.push_back(sectionJson(l, fields::link()));
    j["links"] = std::move(links);
    j["workload"] = workloadJson(d.workload);
    putSection(j, "facility", sectionJson(d.facility, fields::facility()));
    putSection(j, "operations", operationsJson(d.operations));
    if (!d.catalog.is_null())
        j["catalog"] = d.catalog;
    putExtra(j, d.extra);
    return j;
}

Json fragmentToJson(const Fragment& f)
{
    Json j = Json::object();
    j["format"] = kFragmentFormat;
    Json components = Json::array(), links = Json::array();
    for (const auto& c : f.components)
        components.push_back(componentJson(c));
    for (const auto& l : f.links)
        links.push_back(sectionJson(l, fields::link()));
    j["components"] = std::move(components);
    j["links"] = std::move(links);
    return j;
}

std::string writeDesignText(const Design& design)
{
    return designToJson(design).dump(2, ' ', false, Json::error_handler_t::replace) + "\n";
}

}  // namespace studio
