#pragma once
// NetBox device types (netbox-community/devicetype-library's YAML:
// manufacturer, model, slug, u_height, interfaces, power-ports, module-bays)
// as catalog parts (docs/export.md, "Importing"), so a user's own switch or
// server enters the palette: a switch's ports are its fastest interfaces,
// a server is a node of the accelerator the user names, with a NIC of the
// catalog matching its fast interfaces. A file the studio cannot read is
// refused whole, every problem named by file and JSON pointer (or YAML
// line); what was left out or assumed is said in the notes.
#include <optional>
#include <string>
#include <vector>

#include "core/catalog/catalog.h"
#include "core/design/design.h"

namespace studio {

struct DeviceTypeSource {
    std::string path;  // for messages
    std::string text;  // the YAML (or JSON: YAML's block subset is read, JSON as JSON)
};

struct DeviceTypeOptions {
    // The accelerator a server carries (an accelerator part of `base`):
    // given, every device type is a node; not, every one is a switch.
    std::string accelerator;
    // "infiniband" or "ethernet" over what the interface types say: the
    // library types some InfiniBand switches' ports as Ethernet (QM9700).
    std::string protocol;
};

struct DeviceTypeImport {
    std::optional<Json> catalog;      // a catalog document of the parts; none when anything was refused
    std::vector<std::string> errors;  // "FILE: /pointer: what is wrong"
    std::vector<std::string> notes;   // "FILE: what was left out or assumed"
    bool ok() const { return catalog.has_value(); }
};

DeviceTypeImport importNetBoxDeviceTypes(const std::vector<DeviceTypeSource>& files, const Catalog& base,
                                         const DeviceTypeOptions& options);
// The same, reading each path.
DeviceTypeImport importNetBoxDeviceTypeFiles(const std::vector<std::string>& paths, const Catalog& base,
                                             const DeviceTypeOptions& options);

// A NetBox interface type's speed in Gb/s and protocol ("400gbase-x-osfp":
// 400, ethernet; "infiniband-ndr": 400, infiniband; "1000base-t": 1), or
// 0 and "" for a type with no speed (virtual, lag, wireless).
struct InterfaceSpeed {
    double gbps = 0;
    std::string protocol;
};
InterfaceSpeed netBoxInterfaceSpeed(const std::string& type);

}  // namespace studio
