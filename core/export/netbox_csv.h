#pragma once
// The design as NetBox's import takes it (docs/export.md): a CSV per model
// in import order, with NetBox 4.x's import columns, and the device types
// as YAML with their interface templates (NetBox imports device types no
// other way), one row per item of the design as built, so the DCIM holds
// what the studio drew.
#include <array>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/design/design_index.h"
#include "core/export/physical_design.h"

namespace studio {

struct NetBoxFile {
    std::string name;  // "01-manufacturers.csv": the number is the import order
    std::string csv;   // or YAML, for 05-device-types.yaml
};

// NetBox's InfiniBand interface types by generation and their signalling
// rate in Gb/s (4x links), fastest last; the export names a port by the
// first at its speed, the device-type import reads a port's speed here.
inline constexpr std::array<std::pair<std::string_view, int>, 9> kNetBoxInfiniBandTypes{{{"infiniband-sdr", 10},
                                                                                         {"infiniband-ddr", 20},
                                                                                         {"infiniband-qdr", 40},
                                                                                         {"infiniband-fdr10", 40},
                                                                                         {"infiniband-fdr", 56},
                                                                                         {"infiniband-edr", 100},
                                                                                         {"infiniband-hdr", 200},
                                                                                         {"infiniband-ndr", 400},
                                                                                         {"infiniband-xdr", 800}}};

// NetBox's interface type for a port: InfiniBand by its speed
// ("infiniband-ndr" at 400 Gb/s), Ethernet by speed and cage
// ("400gbase-x-osfp"), else "other".
std::string netBoxInterfaceType(const std::string& protocol, double gbps);
// NetBox's slug for a name: lower case, runs of other characters as "-".
std::string netBoxSlug(const std::string& name);

std::vector<NetBoxFile> netBoxCsvs(const PhysicalDesign& p, const DesignIndex& index);

}  // namespace studio
