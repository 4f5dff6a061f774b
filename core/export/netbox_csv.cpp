#include "core/export/netbox_csv.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

#include "core/text.h"

namespace studio {
namespace {

// One CSV: a header row, then rows of as many fields, each quoted where
// it must be (csvField).
class Csv {
public:
    explicit Csv(std::vector<std::string> header) : width_(header.size()) { row(header); }
    void row(const std::vector<std::string>& fields)
    {
        for (std::size_t i = 0; i < width_; ++i)
            text_ += (i == 0 ? "" : ",") + (i < fields.size() ? csvField(fields[i]) : std::string());
        text_ += "\n";
    }
    std::string text() const { return text_; }

private:
    std::size_t width_;
    std::string text_;
};

std::string protocolOf(const Part* part)
{
    const std::string p = part ? part->attribute("protocol") : "";
    return p == "infiniband" || p == "ethernet" ? p : "";
}

std::string number(double v)
{
    return formatValue(v, 4);
}

}  // namespace

std::string netBoxSlug(const std::string& name)
{
    std::string out;
    for (char ch : name) {
        const bool keep = (ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9');
        if (ch >= 'A' && ch <= 'Z')
            out += char(ch - 'A' + 'a');
        else if (keep)
            out += ch;
        else if (!out.empty() && out.back() != '-')
            out += '-';
    }
    while (!out.empty() && out.back() == '-')
        out.pop_back();
    return out.empty() ? "unnamed" : out;
}

std::string netBoxInterfaceType(const std::string& protocol, double gbps)
{
    const long g = std::lround(gbps);
    if (protocol == "infiniband") {
        for (const auto& [type, rate] : kNetBoxInfiniBandTypes)
            if (rate == g)
                return std::string(type);
        return "other";
    }
    if (protocol == "ethernet")
        return g == 100 ? "100gbase-x-qsfp28"
            : g == 200  ? "200gbase-x-qsfp56"
            : g == 400  ? "400gbase-x-osfp"
            : g == 800  ? "800gbase-x-osfp"
            : g == 1600 ? "1.6tbase-x-osfp1600"
                        : "other";
    return "other";
}

std::vector<NetBoxFile> netBoxCsvs(const PhysicalDesign& p, const DesignIndex& index)
{
    const Catalog& catalog = index.catalog();
    const std::string site = index.design().name.empty() ? "Untitled design" : index.design().name;
    auto partName = [&](const std::string& id) {
        const Part* part = catalog.find(id);
        return part ? part->name : id;
    };
    auto vendorOf = [&](const std::string& id) {
        const Part* part = catalog.find(id);
        return part && !part->vendor.empty() ? part->vendor : std::string("generic");
    };
    auto roleOf = [](const PhysicalDevice& d) {
        switch (d.role) {
        case DeviceRole::Node: return std::string("GPU node");
        case DeviceRole::Storage: return std::string("Storage");
        case DeviceRole::Switch:
            return d.tier == "leaf" ? std::string("Leaf switch")
                : d.tier == "spine" ? std::string("Spine switch")
                : d.tier == "core"  ? std::string("Core switch")
                                    : std::string("Switch");
        }
        return std::string("GPU node");
    };
    // Device types: every part a device is, in first-seen order.
    std::vector<std::string> types;
    std::set<std::string> vendors, roles;
    std::vector<std::string> vendorOrder, roleOrder;
    for (const PhysicalDevice& d : p.devices) {
        if (std::find(types.begin(), types.end(), d.part) == types.end())
            types.push_back(d.part);
        if (vendors.insert(vendorOf(d.part)).second)
            vendorOrder.push_back(vendorOf(d.part));
        if (roles.insert(roleOf(d)).second)
            roleOrder.push_back(roleOf(d));
    }
    Csv manufacturers({"name", "slug"});
    for (const std::string& v : vendorOrder)
        manufacturers.row({v, netBoxSlug(v)});
    // Grey, green, blue, purple, orange: NetBox wants a colour per role.
    const std::map<std::string, std::string> colours = {{"GPU node", "4caf50"},    {"Storage", "ff9800"},
                                                        {"Leaf switch", "2196f3"}, {"Spine switch", "3f51b5"},
                                                        {"Core switch", "9c27b0"}, {"Switch", "607d8b"}};
    Csv deviceRoles({"name", "slug", "color"});
    for (const std::string& r : roleOrder)
        deviceRoles.row({r, netBoxSlug(r), colours.at(r)});
    Csv sites({"name", "slug", "status"});
    sites.row({site, netBoxSlug(site), "planned"});
    Csv racks({"site", "name", "status", "width", "u_height", "description"});
    for (const PhysicalRack& r : p.racks)
        racks.row({site, r.name, "planned", "19", number(double(r.units)), partName(r.part)});
    Csv devices(
        {"name", "role", "manufacturer", "device_type", "status", "site", "rack", "position", "face", "description"});
    for (const PhysicalDevice& d : p.devices)
        devices.row({d.name, roleOf(d), vendorOf(d.part), partName(d.part), "planned", site,
                     d.rack ? p.racks[*d.rack].name : std::string(),
                     d.position ? std::to_string(*d.position) : std::string(), d.position ? "front" : "",
                     index.component(d.component).name});
    // A port's protocol: its own part's, else its cable's.
    std::vector<std::string> cableOf(p.ports.size());
    for (const PhysicalCable& c : p.cables)
        cableOf[c.a] = cableOf[c.b] = c.part;
    // Device types as NetBox imports them (YAML: device types have no CSV
    // import), each with an interface template for every port the design
    // uses on a device of that type: NetBox then makes a device's
    // interfaces when it makes the device, ready for the cables.
    std::map<std::string, std::vector<std::pair<std::string, std::string>>> templates;
    std::map<std::string, std::set<std::string>> named;
    for (std::size_t i = 0; i < p.ports.size(); ++i) {
        const PhysicalPort& port = p.ports[i];
        const std::string& type = p.devices[port.device].part;
        if (!named[type].insert(port.name).second)
            continue;
        std::string protocol = protocolOf(catalog.find(port.part));
        if (protocol.empty())
            protocol = protocolOf(catalog.find(cableOf[i]));
        templates[type].push_back({port.name, netBoxInterfaceType(protocol, port.gbps)});
    }
    std::string deviceTypes;
    auto quoted = [](const std::string& s) { return Json(s).dump(); };  // a JSON string is a YAML scalar
    for (const std::string& t : types) {
        const Part* part = catalog.find(t);
        const double units = part && part->figure("rack_units") ? part->figure("rack_units")->value : 1;
        deviceTypes += "---\nmanufacturer: " + quoted(vendorOf(t)) + "\nmodel: " + quoted(partName(t)) +
            "\nslug: " + quoted(netBoxSlug(t)) + "\npart_number: " + quoted(t) + "\nu_height: " + number(units) +
            "\nis_full_depth: true\n";
        if (!templates[t].empty())
            deviceTypes += "interfaces:\n";
        for (const auto& [name, type] : templates[t])
            deviceTypes += "  - name: " + quoted(name) + "\n    type: " + quoted(type) + "\n";
    }
    Csv cables({"side_a_device", "side_a_type", "side_a_name", "side_b_device", "side_b_type", "side_b_name", "type",
                "status", "label"});
    for (const PhysicalCable& c : p.cables) {
        const Part* part = catalog.find(c.part);
        const std::string medium = part ? part->attribute("medium") : "";
        const std::string type = medium == "copper"   ? "dac-passive"
            : c.part.find("aoc") != std::string::npos ? "aoc"
                                                      : "";
        cables.row({p.devices[p.ports[c.a].device].name, "dcim.interface", p.ports[c.a].name,
                    p.devices[p.ports[c.b].device].name, "dcim.interface", p.ports[c.b].name, type, "planned",
                    part ? part->name : c.part});
    }
    return {{"01-manufacturers.csv", manufacturers.text()},
            {"02-device-roles.csv", deviceRoles.text()},
            {"03-sites.csv", sites.text()},
            {"04-racks.csv", racks.text()},
            {"05-device-types.yaml", deviceTypes},
            {"06-devices.csv", devices.text()},
            {"07-cables.csv", cables.text()}};
}

}  // namespace studio
