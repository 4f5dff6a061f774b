#include "core/format/design_writer.h"

#include <cmath>

#include "core/format/design_reader.h"
#include "core/format/format_version.h"
#include "core/version.h"

namespace studio {
namespace {

// Whole numbers are written without ".0" so hand-written files and saved
// ones read the same.
Json number(double v)
{
    if (std::isfinite(v) && v == std::floor(v) && std::fabs(v) < 9e15)
        return static_cast<std::int64_t>(v);
    return v;
}

template <typename T>
void putOpt(Json& obj, const char* key, const std::optional<T>& v)
{
    if (!v)
        return;
    if constexpr (std::is_same_v<T, double>)
        obj[key] = number(*v);
    else
        obj[key] = *v;
}

void putExtra(Json& obj, const Json& extra)
{
    if (!extra.is_object())
        return;
    for (auto it = extra.begin(); it != extra.end(); ++it)
        obj[it.key()] = it.value();
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
    j["id"] = c.id;
    j["part"] = c.part;
    if (!c.name.empty())
        j["name"] = c.name;
    if (!c.parent.empty())
        j["parent"] = c.parent;
    j["count"] = c.count;
    j["position"] = Json{{"x", number(c.position.x)}, {"y", number(c.position.y)}};
    if (c.size)
        j["size"] = Json{{"w", number(c.size->w)}, {"h", number(c.size->h)}};
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

Json linkJson(const Link& l)
{
    Json j = Json::object();
    j["id"] = l.id;
    j["from"] = l.from;
    j["to"] = l.to;
    j["part"] = l.part;
    j["count"] = l.count;
    putExtra(j, l.extra);
    return j;
}

Json workloadJson(const Workload& w)
{
    Json model = Json::object();
    const auto& m = w.model;
    model["name"] = m.name;
    model["layers"] = m.layers;
    model["hidden"] = m.hidden;
    model["heads"] = m.heads;
    putOpt(model, "kv_heads", m.kv_heads);
    putOpt(model, "ffn_hidden", m.ffn_hidden);
    putOpt(model, "ffn_type", m.ffn_type);
    model["vocab"] = m.vocab;
    model["seq_len"] = m.seq_len;
    putOpt(model, "experts", m.experts);
    putOpt(model, "experts_per_token", m.experts_per_token);
    putOpt(model, "dropout", m.dropout);
    putExtra(model, m.extra);

    Json training = Json::object();
    const auto& t = w.training;
    training["global_batch"] = t.global_batch;
    putOpt(training, "micro_batch", t.micro_batch);
    training["tokens"] = number(t.tokens);
    putOpt(training, "precision", t.precision);
    putOpt(training, "attention_kernel", t.attention_kernel);
    putExtra(training, t.extra);

    Json par = Json::object();
    const auto& p = w.parallelism;
    putOpt(par, "tp", p.tp);
    putOpt(par, "pp", p.pp);
    putOpt(par, "dp", p.dp);
    putOpt(par, "cp", p.cp);
    putOpt(par, "ep", p.ep);
    putOpt(par, "interleave", p.interleave);
    putOpt(par, "zero", p.zero);
    putOpt(par, "sequence_parallel", p.sequence_parallel);
    putOpt(par, "recompute", p.recompute);
    putOpt(par, "cp_comm", p.cp_comm);
    putOpt(par, "tp_comm_overlap", p.tp_comm_overlap);
    putExtra(par, p.extra);

    Json data = Json::object();
    putOpt(data, "bytes_per_token", w.data.bytes_per_token);
    putOpt(data, "file_mb", w.data.file_mb);
    putExtra(data, w.data.extra);

    Json j = Json::object();
    putOpt(j, "kind", w.kind);
    putOpt(j, "software", w.software);
    j["model"] = std::move(model);
    // A serving design read without a training section saves without one.
    if (!(w.isServing() && t == TrainingSpec{}))
        j["training"] = std::move(training);
    if (w.serving) {
        const ServingSpec& s = *w.serving;
        Json serving = Json::object();
        serving["prompt_tokens"] = s.prompt_tokens;
        serving["output_tokens"] = s.output_tokens;
        putOpt(serving, "batch", s.batch);
        putOpt(serving, "arrival_rate_per_s", s.arrival_rate_per_s);
        putOpt(serving, "ttft_target_s", s.ttft_target_s);
        putOpt(serving, "tpot_target_s", s.tpot_target_s);
        putOpt(serving, "e2e_target_s", s.e2e_target_s);
        putOpt(serving, "weight_precision", s.weight_precision);
        putOpt(serving, "kv_precision", s.kv_precision);
        putOpt(serving, "engine", s.engine);
        putOpt(serving, "step_tokens", s.step_tokens);
        putOpt(serving, "max_requests", s.max_requests);
        if (s.disaggregated) {
            const auto workers = [](const ServingWorkers& k) {
                Json one = Json::object();
                one["workers"] = k.workers;
                putOpt(one, "tp", k.tp);
                putOpt(one, "pp", k.pp);
                putOpt(one, "ep", k.ep);
                putExtra(one, k.extra);
                return one;
            };
            Json d = {{"prefill", workers(s.disaggregated->prefill)}, {"decode", workers(s.disaggregated->decode)}};
            putExtra(d, s.disaggregated->extra);
            serving["disaggregated"] = std::move(d);
        }
        putExtra(serving, s.extra);
        j["serving"] = std::move(serving);
    }
    putSection(j, "parallelism", std::move(par));
    putSection(j, "data", std::move(data));
    putExtra(j, w.extra);
    return j;
}

Json facilityJson(const Facility& f)
{
    Json j = Json::object();
    putOpt(j, "pue", f.pue);
    putOpt(j, "cooling", f.cooling);
    putOpt(j, "electricity_usd_per_kwh", f.electricity_usd_per_kwh);
    putOpt(j, "carbon_g_per_kwh", f.carbon_g_per_kwh);
    putOpt(j, "site_mw", f.site_mw);
    putExtra(j, f.extra);
    return j;
}

Json operationsJson(const Operations& o)
{
    Json mttf = Json::object();
    const auto& m = o.failure_mttf_h;
    putOpt(mttf, "gpu", m.gpu);
    putOpt(mttf, "hbm", m.hbm);
    putOpt(mttf, "host", m.host);
    putOpt(mttf, "nic", m.nic);
    putOpt(mttf, "network", m.network);
    putOpt(mttf, "psu", m.psu);
    putOpt(mttf, "software", m.software);
    putExtra(mttf, m.extra);

    Json ckpt = Json::object();
    putOpt(ckpt, "interval_min", o.checkpoint.interval_min);
    putOpt(ckpt, "async", o.checkpoint.async);
    putOpt(ckpt, "restart_min", o.checkpoint.restart_min);
    putExtra(ckpt, o.checkpoint.extra);

    Json j = Json::object();
    putSection(j, "failure_mttf_h", std::move(mttf));
    putSection(j, "checkpoint", std::move(ckpt));
    putOpt(j, "maintenance_fraction", o.maintenance_fraction);
    putOpt(j, "straggler_cv", o.straggler_cv);
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
        links.push_back(linkJson(l));
    j["links"] = std::move(links);
    j["workload"] = workloadJson(d.workload);
    putSection(j, "facility", facilityJson(d.facility));
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
        links.push_back(linkJson(l));
    j["components"] = std::move(components);
    j["links"] = std::move(links);
    return j;
}

std::string writeDesignText(const Design& design)
{
    return designToJson(design).dump(2, ' ', false, Json::error_handler_t::replace) + "\n";
}

}  // namespace studio
