#pragma once
// The design as it is built: every rack, node, switch and storage system
// one by one with a stable name, every port a cable plugs into, and every
// cable, including the switches and inter-switch cables each fabric needs
// (docs/model.md section 2). What an inventory counts, this lists; the
// exports to NetBox and Slurm read it, so their names agree.
//
// Names follow the design's tree in file order, numbered from 1 with
// zero-padded widths fixed by the count: racks "rack-003", a node in a rack
// "rack-003-node-02", a node outside any rack "node-0012", storage
// "storage-02", a placed switch "switch-01", a fabric's switches
// "fabric-leaf-007" (the fabric component's id, then its tier). Ports: a
// node's "nic-4" (one per cable its NICs take, in NIC order; "nic-4-2" for
// a NIC's second), a switch's or storage system's "port-17".
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/analysis/inventory.h"
#include "core/design/design_index.h"

namespace studio {

struct PhysicalRack {
    std::string name;
    std::string part;
    std::size_t component = 0;
    std::int64_t units = 42;  // its part's rack_units
};

enum class DeviceRole { Node, Switch, Storage };
const char* deviceRoleName(DeviceRole role);  // "node", "switch", "storage"

struct PhysicalDevice {
    std::string name;
    std::string part;
    DeviceRole role = DeviceRole::Node;
    std::string tier;                 // a switch's: "leaf", "spine", "core" or a placed switch's own; else ""
    std::optional<std::size_t> rack;  // into racks
    std::size_t component = 0;        // the design component (a fabric's, for the switches it needs)
    // A node in an NVLink domain group that spans nodes: the domain's
    // number, from 1 in file order (its instances counted apart).
    std::int64_t nvlinkDomain = 0;
    // Its lowest unit in the rack, from 1: a rack's devices stack from the
    // bottom in design order, each its part's rack_units high (1 when it
    // has none); none outside a rack, or where the rack is already full.
    std::optional<std::int64_t> position;
};

struct PhysicalPort {
    std::size_t device = 0;
    std::string name;
    double gbps = 0;   // the port's speed: its NIC's or switch's, else the cable's
    std::string part;  // whose port it is: the NIC's part on a node, else the device's
};

struct PhysicalCable {
    std::size_t a = 0, b = 0;  // into ports; a is the end nearer the nodes
    std::string part;          // the cable's catalog part; "" when the design names none
};

struct PhysicalDesign {
    std::vector<PhysicalRack> racks;
    std::vector<PhysicalDevice> devices;
    std::vector<PhysicalPort> ports;
    std::vector<PhysicalCable> cables;
    std::string computeFabric;  // the component id of the fabric the nodes talk over, "" when none
    std::string error;          // too large to list, or a fabric that cannot be built
    bool ok() const { return error.empty(); }
};

// The most ports a listing holds: above it, the design is refused rather
// than written out as gigabytes of rows.
inline constexpr std::int64_t kMaxPhysicalPorts = 20'000'000;

// "rack-007" for the 7th of 120: as wide as the count, at least two
// digits, so names sort as they are numbered.
std::string numberedName(const std::string& prefix, std::int64_t n, std::int64_t total);

// `inventory` is takeInventory(index).
PhysicalDesign expandDesign(const DesignIndex& index, const Inventory& inventory);

}  // namespace studio
