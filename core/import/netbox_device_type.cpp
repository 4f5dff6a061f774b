#include "core/import/netbox_device_type.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <filesystem>
#include <map>
#include <regex>
#include <set>

#include "core/export/netbox_csv.h"
#include "core/import/yaml_subset.h"
#include "core/json/json_pointer.h"
#include "core/json/json_reader.h"
#include "core/json/json_text.h"
#include "core/text.h"

namespace studio {
namespace {

// The library's schema (schema/devicetype.json, components.json): every
// key a device type and the components read here may have; any other is a
// typo the library's own checks would refuse.
const std::vector<std::string_view> kDeviceTypeKeys = {"manufacturer", "model",           "slug",
                                                       "part_number",  "u_height",        "is_full_depth",
                                                       "airflow",      "weight",          "weight_unit",
                                                       "front_image",  "rear_image",      "subdevice_role",
                                                       "is_powered",   "console-ports",   "console-server-ports",
                                                       "power-ports",  "power-outlets",   "interfaces",
                                                       "front-ports",  "rear-ports",      "module-bays",
                                                       "device-bays",  "inventory-items", "description",
                                                       "comments"};
const std::vector<std::string_view> kInterfaceKeys = {"name",        "type",   "label",    "enabled",  "mgmt_only",
                                                      "description", "bridge", "poe_mode", "poe_type", "rf_role"};
const std::vector<std::string_view> kPowerPortKeys = {"name",         "type",           "label",
                                                      "maximum_draw", "allocated_draw", "description"};
const std::vector<std::string_view> kModuleBayKeys = {"name", "position", "label", "description"};
// Ports at least this fast are the fabric's; slower ones are management,
// BMC and front-end.
constexpr double kFabricGbps = 100;

// Each object of the component list `key` (its unknown keys refused), in
// order, with its pointer.
template <class Fn>
void eachComponent(const Json& doc, const std::string& ptr, const char* key, bool required,
                   const std::vector<std::string_view>& known, const char* what, JsonReader& r, Fn fn)
{
    const Json* list = r.member(doc, ptr, key, required);
    const std::string listPtr = pointerAppend(ptr, key);
    if (!list || !r.isArray(*list, listPtr))
        return;
    for (std::size_t i = 0; i < list->size(); ++i) {
        const std::string at = pointerAppend(listPtr, i);
        if (!r.isObject((*list)[i], at))
            continue;
        r.refuseUnknown((*list)[i], at, known, std::string("not in the device-type library's ") + what + " schema");
        fn((*list)[i], at);
    }
}

struct Interface {
    std::string name;
    InterfaceSpeed speed;
    bool management = false;
};

}  // namespace

InterfaceSpeed netBoxInterfaceSpeed(const std::string& type)
{
    for (const auto& [name, rate] : kNetBoxInfiniBandTypes)
        if (type == name)
            return {double(rate), "infiniband"};
    // Ethernet: "<rate>base-..." in Mb/s, "<rate>gbase-" in Gb/s, "<rate>tbase-" in Tb/s.
    static const std::regex ethernet("([0-9]+(\\.[0-9]+)?)([gt]?)base-.*");
    std::smatch m;
    if (std::regex_match(type, m, ethernet)) {
        const double v = std::stod(m[1]);
        return {m[3] == "t" ? v * 1000 : m[3] == "g" ? v : v / 1000, "ethernet"};
    }
    return {};
}

DeviceTypeImport importNetBoxDeviceTypes(const std::vector<DeviceTypeSource>& files, const Catalog& base,
                                         const DeviceTypeOptions& options)
{
    DeviceTypeImport out;
    const Part* accelerator = nullptr;
    if (!options.accelerator.empty()) {
        accelerator = base.find(options.accelerator);
        if (!accelerator || accelerator->kind != PartKind::Accelerator)
            out.errors.push_back("--accelerator " + options.accelerator + ": no accelerator part of that id");
    }
    if (!options.protocol.empty() && options.protocol != "infiniband" && options.protocol != "ethernet")
        out.errors.push_back("--protocol " + options.protocol + ": expected infiniband or ethernet");
    if (!out.errors.empty())
        return out;

    Json parts = Json::array();
    Json sources = Json::object();
    for (const DeviceTypeSource& f : files) {
        // The library writes YAML; NetBox also takes JSON, which is read as
        // JSON (it is not the block subset).
        std::vector<Json> docs;
        const std::size_t first = f.text.find_first_not_of(" \t\r\n");
        if (first != std::string::npos && (f.text[first] == '{' || f.text[first] == '[')) {
            ParsedJson parsed = parseJsonText(f.text);
            if (parsed.error) {
                out.errors.push_back(formatProblem(f.path, *parsed.error));
                continue;
            }
            if (parsed.doc.is_array())
                for (Json& d : parsed.doc)
                    docs.push_back(std::move(d));
            else
                docs.push_back(std::move(parsed.doc));
        } else {
            YamlDocuments yaml = readYamlSubset(f.text);
            if (!yaml.error.empty()) {
                out.errors.push_back(f.path + ": " + yaml.error);
                continue;
            }
            docs = std::move(yaml.documents);
        }
        if (docs.empty())
            out.errors.push_back(f.path + ": /: no device type in the file");
        for (std::size_t d = 0; d < docs.size(); ++d) {
            const Json& doc = docs[d];
            // A file of several documents names each by its place.
            const std::string ptr = docs.size() > 1 ? "/" + std::to_string(d) : "";
            std::vector<Problem> problems;
            JsonReader r(problems);
            auto flush = [&] {
                for (const Problem& p : problems)
                    if (p.severity == Severity::Error)
                        out.errors.push_back(formatProblem(f.path, p));
            };
            if (!r.isObject(doc, ptr)) {
                flush();
                continue;
            }
            r.refuseUnknown(doc, ptr, kDeviceTypeKeys, "not in the device-type library's device type schema");
            const std::string manufacturer = r.string(doc, ptr, "manufacturer", true).value_or("");
            const std::string model = r.string(doc, ptr, "model", true).value_or("");
            const std::string slug = r.string(doc, ptr, "slug", true).value_or("");
            static const std::regex slugChars("[-a-z0-9_]+");
            if (!slug.empty() && !std::regex_match(slug, slugChars))
                r.error(pointerAppend(ptr, "slug"),
                        "must be lower-case letters, digits, '-' and '_', got '" + slug + "'");
            const double uHeight = r.number(doc, ptr, "u_height", true, 0, 100).value_or(0);
            if (std::fmod(uHeight * 2, 1) != 0)
                r.error(pointerAppend(ptr, "u_height"), "must be a multiple of 0.5, got " + formatValue(uHeight));

            std::vector<Interface> interfaces;
            eachComponent(doc, ptr, "interfaces", true, kInterfaceKeys, "interface", r,
                          [&](const Json& j, const std::string& at) {
                              Interface x;
                              x.name = r.string(j, at, "name", true).value_or("");
                              x.speed = netBoxInterfaceSpeed(r.string(j, at, "type", true).value_or(""));
                              // Management by flag, or by what the file says of
                              // it (the library leaves an in-band management
                              // port unflagged: Q3400's fnm1).
                              std::string description = r.string(j, at, "description", false, true).value_or("");
                              std::transform(description.begin(), description.end(), description.begin(),
                                             [](unsigned char c) { return char(std::tolower(c)); });
                              x.management = r.boolean(j, at, "mgmt_only", false).value_or(false) ||
                                  description.find("management") != std::string::npos;
                              interfaces.push_back(std::move(x));
                          });
            double powerW = 0;
            int supplies = 0;
            eachComponent(doc, ptr, "power-ports", false, kPowerPortKeys, "power port", r,
                          [&](const Json& j, const std::string& at) {
                              r.string(j, at, "name", true);
                              if (const auto draw = r.integer(j, at, "maximum_draw", false, 1, 1'000'000)) {
                                  powerW += double(*draw);
                                  ++supplies;
                              }
                          });
            std::int64_t gpuBays = 0;
            eachComponent(doc, ptr, "module-bays", false, kModuleBayKeys, "module bay", r,
                          [&](const Json& j, const std::string& at) {
                              const std::string name = r.string(j, at, "name", true).value_or("");
                              if (name.size() >= 3 &&
                                  std::equal(name.begin(), name.begin() + 3, "GPU",
                                             [](char a, char b) { return std::toupper(a) == b; }))
                                  ++gpuBays;
                          });
            for (const char* list : {"console-ports", "console-server-ports", "power-outlets", "front-ports",
                                     "rear-ports", "device-bays", "inventory-items"})
                if (const Json* j = r.member(doc, ptr, list, false))
                    r.isArray(*j, pointerAppend(ptr, list));
            if (r.failed()) {
                flush();
                continue;
            }

            // The fabric ports: the speed most fast interfaces share (the
            // faster on a tie), management ports aside.
            std::map<double, std::int64_t> bySpeed;
            std::string protocol;
            for (const Interface& x : interfaces)
                if (!x.management && x.speed.gbps >= kFabricGbps)
                    ++bySpeed[x.speed.gbps];
            double gbps = 0;
            std::int64_t ports = 0;
            for (const auto& [speed, count] : bySpeed)
                if (count >= ports)
                    gbps = speed, ports = count;
            for (const Interface& x : interfaces)
                if (!x.management && x.speed.gbps == gbps)
                    protocol = x.speed.protocol;
            const std::string where = f.path + ": " + manufacturer + " " + model + ": ";
            if (ports == 0) {
                out.errors.push_back(formatProblem(
                    f.path,
                    {Severity::Error, pointerAppend(ptr, "interfaces"),
                     "no interface of " + formatValue(kFabricGbps) + " Gb/s or more: nothing to wire into a fabric"}));
                continue;
            }
            if (!options.protocol.empty() && options.protocol != protocol) {
                out.notes.push_back(where + "its " + formatValue(gbps) + " Gb/s ports are typed " + protocol +
                                    " in the file; --protocol makes them " + options.protocol);
                protocol = options.protocol;
            }
            if (bySpeed.size() > 1 ||
                ports < std::int64_t(std::count_if(
                            interfaces.begin(), interfaces.end(), [](const Interface& x) { return !x.management; })))
                out.notes.push_back(where + "its " + formatCount(ports) + " ports at " + formatValue(gbps) +
                                    " Gb/s are the fabric's; management and slower interfaces are left out");

            const std::string source = "netbox-" + slug;
            sources[source] = "NetBox device type " + manufacturer + " " + model + " (" + slug + "), " +
                (std::filesystem::path(f.path).filename().string()) + ", imported by Cluster Studio";
            auto figure = [&](double v) { return Json{{"value", v}, {"source", source}}; };
            Json part = {{"id", "netbox." + slug}, {"name", manufacturer + " " + model}, {"vendor", manufacturer}};
            if (accelerator) {
                // A server: a node of the named accelerator, a NIC per fabric
                // port from the catalog at that speed and protocol.
                // A platform's DPU is no compute NIC: a part some node names
                // as its "dpu" is passed over.
                std::set<std::string> dpus;
                for (const Part& p : base.parts())
                    if (p.kind == PartKind::Node && !p.attribute("dpu").empty())
                        dpus.insert(p.attribute("dpu"));
                const Part* nic = nullptr;
                for (const Part& p : base.parts())
                    if (p.kind == PartKind::Nic && p.attribute("protocol") == protocol && !dpus.count(p.id)) {
                        const Figure* speed = p.figure("port_gbps");
                        const Figure* count = p.figure("ports");
                        if (speed && speed->value == gbps && (!count || count->value == 1)) {
                            nic = &p;
                            break;
                        }
                    }
                if (!nic) {
                    out.errors.push_back(formatProblem(f.path,
                                                       {Severity::Error, pointerAppend(ptr, "interfaces"),
                                                        "the catalog has no single-port " + protocol + " NIC at " +
                                                            formatValue(gbps) + " Gb/s for its fabric ports"}));
                    continue;
                }
                if (gpuBays == 0) {
                    out.errors.push_back(
                        formatProblem(f.path,
                                      {Severity::Error, pointerAppend(ptr, "module-bays"),
                                       "no module bay named GPU...: the device type does not say how many " +
                                           accelerator->name + " it holds"}));
                    continue;
                }
                if (supplies == 0) {
                    out.errors.push_back(
                        formatProblem(f.path,
                                      {Severity::Error, pointerAppend(ptr, "power-ports"),
                                       "no power port with maximum_draw: a node needs its maximum power"}));
                    continue;
                }
                part["kind"] = "node";
                part["attributes"] = {{"accelerator", accelerator->id}, {"nic", nic->id}};
                // Redundant supplies (N+N) draw at most half their sum.
                part["figures"] = {
                    {"gpus", figure(double(gpuBays))},
                    {"compute_nics", figure(double(ports))},
                    {"max_power_kw",
                     Json{{"value", powerW / 2 / 1000},
                          {"source", source},
                          {"uncertain", true},
                          {"note",
                           "half the " + std::to_string(supplies) + " power ports' maximum draw (N+N supplies)"}}},
                    {"rack_units", figure(std::ceil(uHeight))}};
                out.notes.push_back(where + "a node of " + formatCount(gpuBays) + " " + accelerator->name + " (its " +
                                    "GPU module bays) and " + formatCount(ports) + " " + nic->name +
                                    "; maximum power " + formatValue(powerW / 2 / 1000, 3) + " kW, half its " +
                                    std::to_string(supplies) +
                                    " supplies' maximum draw (N+N assumed: set it if "
                                    "yours differ)");
            } else {
                part["kind"] = "switch";
                part["attributes"] = {{"protocol", protocol}};
                part["figures"] = {{"ports", figure(double(ports))}, {"port_gbps", figure(gbps)}};
                if (supplies > 0)
                    out.notes.push_back(where + "power is left unset: its " + std::to_string(supplies) +
                                        " supplies' maximum draw (" + formatValue(powerW, 4) +
                                        " W in all) counts redundant supplies, no measure of what it draws");
            }
            parts.push_back(std::move(part));
        }
    }
    if (!out.errors.empty())
        return out;
    Json catalog = {
        {"format", "cluster-studio.catalog"}, {"format_version", "1.0"}, {"sources", sources}, {"parts", parts}};
    // Through the catalog's own checks, as a catalog file would be.
    Catalog check = base;
    for (const Problem& p : check.merge(catalog, "the imported device types"))
        if (p.severity == Severity::Error)
            out.errors.push_back(formatProblem("the imported device types", p));
    if (out.errors.empty())
        out.catalog = std::move(catalog);
    return out;
}

DeviceTypeImport importNetBoxDeviceTypeFiles(const std::vector<std::string>& paths, const Catalog& base,
                                             const DeviceTypeOptions& options)
{
    std::vector<DeviceTypeSource> files;
    DeviceTypeImport failed;
    for (const std::string& path : paths) {
        const FileText text = readTextFile(path);
        if (text.error)
            failed.errors.push_back(path + ": " + *text.error);
        else
            files.push_back({path, text.text});
    }
    if (!failed.errors.empty())
        return failed;
    return importNetBoxDeviceTypes(files, base, options);
}

}  // namespace studio
