#include "core/catalog/part_schema.h"

#include <algorithm>

#include "core/text.h"

namespace studio {
namespace {

using F = FieldSpec;
using A = AttributeSpec;
using S = SettingSpec;

// Limits reject typing errors (a TDP of 7e9 W) rather than encode physics;
// they sit orders of magnitude above any shipping part.
//
// A figure that must be positive is at least kLeast of its unit (1 GFLOP/s,
// 1 MB, 1 W, 0.1%), three orders and more below any shipping part: "greater
// than 0" let 5e-324 through, and quotients by it overflowed to infinity in
// the step time, storage and serving models (fuzz_set). A figure whose 0
// means "none" (an FP8 peak the part lacks, no scale-up link) is 0 or at
// least kLeast, for the same reason (fuzz_serving).
constexpr double kLeast = 0.001;

const F kAccelerator[] = {
    {"fp64_tflops", "TFLOP/s", "FP64 vector peak (0: none)", false, false, kLeast, false, 1e6, true},
    {"fp64_tensor_tflops", "TFLOP/s", "FP64 tensor-core peak (0: none)", false, false, kLeast, false, 1e6, true},
    {"fp32_tflops", "TFLOP/s", "FP32 vector peak (0: none)", false, false, kLeast, false, 1e6, true},
    {"tf32_tflops", "TFLOP/s", "TF32 tensor peak, dense (0: none)", false, false, kLeast, false, 1e6, true},
    {"bf16_tflops", "TFLOP/s", "BF16 tensor peak, dense", true, false, kLeast, false, 1e6},
    {"fp16_tflops", "TFLOP/s", "FP16 tensor peak, dense (0: none)", false, false, kLeast, false, 1e6, true},
    {"fp8_tflops", "TFLOP/s", "FP8 tensor peak, dense (0: none)", false, false, kLeast, false, 1e6, true},
    {"fp4_tflops", "TFLOP/s", "FP4 tensor peak, dense (0: none)", false, false, kLeast, false, 1e6, true},
    {"int8_tops", "TOP/s", "INT8 tensor peak, dense (0: none)", false, false, kLeast, false, 1e6, true},
    {"hbm_gb", "GB", "HBM capacity", true, false, kLeast, false, 1e5},
    {"hbm_tb_per_s", "TB/s", "HBM bandwidth", true, false, kLeast, false, 1e3},
    {"scaleup_gb_per_s", "GB/s", "scale-up link bandwidth per GPU, both directions (0: none)", true, false, kLeast,
     false, 1e6, true},
    {"scaleup_domain_gpus", "GPUs", "GPUs in one scale-up (NVLink) domain", true, true, 1, false, 1e6},
    {"tdp_w", "W", "thermal design power", false, false, 0, false, 1e5},
    {"gemm_efficiency", "fraction", "share of the dense peak a large GEMM sustains", false, false, kLeast, false, 1},
    {"fp8_gemm_efficiency", "fraction", "share of the dense FP8 peak a large FP8 GEMM sustains", false, false, kLeast,
     false, 1},
    {"attention_efficiency", "fraction", "share of the dense peak a fused attention kernel sustains", false, false,
     kLeast, false, 1},
    {"hbm_efficiency", "fraction", "share of HBM bandwidth element-wise kernels sustain", false, false, kLeast, false,
     1},
    {"scaleup_efficiency", "fraction", "share of one scale-up direction a collective sustains", false, false, kLeast,
     false, 1},
};
const A kAcceleratorAttrs[] = {
    {"scaleup_link", "scale-up interconnect", false, {}, std::nullopt},
    {"memory", "memory technology", false, {}, std::nullopt},
    // The next generation the what-if upgrade moves to (core/scale/upgrades):
    // a part id, but no dependency (embedding a design's parts does not
    // carry the successors along), so free text; an id the catalog lacks
    // means no upgrade.
    {"successor", "the id of the accelerator of its next generation", false, {}, std::nullopt},
};

const F kNic[] = {
    {"port_gbps", "Gb/s", "speed of each port", true, false, kLeast, false, 1e5},
    {"ports", "ports", "network ports", true, true, 1, false, 64},
    {"latency_us", "us", "one-way latency across the fabric", true, false, 0, false, 1e6},
    {"power_w", "W", "power draw", false, false, 0, false, 1e4},
    {"efficiency", "fraction", "share of line rate a collective sustains", false, false, kLeast, false, 1},
};
const A kNicAttrs[] = {
    {"protocol", "link protocol", true, {"infiniband", "ethernet"}, std::nullopt},
    {"pcie", "host interface", false, {}, std::nullopt},
};

const F kSwitch[] = {
    {"ports", "ports", "ports at port_gbps (the radix)", true, true, 1, false, 1e5},
    {"port_gbps", "Gb/s", "speed of each port", true, false, kLeast, false, 1e5},
    {"switching_tbps", "Tb/s", "switching capacity", false, false, 0, false, 1e6},
    {"power_w", "W", "power draw", false, false, 0, false, 1e6},
};
const A kSwitchAttrs[] = {
    {"protocol", "link protocol", true, {"infiniband", "ethernet"}, std::nullopt},
    {"in_network_reduction", "in-network reduction (SHARP)", false, {}, std::nullopt},
};

const F kNode[] = {
    {"gpus", "GPUs", "accelerators in the platform", true, true, 1, false, 1e4},
    {"compute_nics", "NICs", "compute (scale-out) NICs", true, true, 0, false, 1e4},
    {"max_power_kw", "kW", "maximum power of the whole platform", true, false, kLeast, false, 1e4},
    {"rack_units", "U", "height in the rack", false, true, 0, false, 100},
    {"dpus", "NICs", "DPUs or storage NICs the platform carries besides its compute NICs", false, true, 0, false, 1e4},
};
const A kNodeAttrs[] = {
    {"accelerator", "the platform's accelerator", true, {}, PartKind::Accelerator},
    {"nic", "the platform's compute NIC", true, {}, PartKind::Nic},
    {"dpu", "the platform's DPU or storage NIC", false, {}, PartKind::Nic},
    {"cooling", "cooling the platform needs", false, {"air", "liquid"}, std::nullopt},
};

const F kRack[] = {
    {"max_kw", "kW", "power the rack's cooling can remove", true, false, kLeast, false, 1e4},
    {"rack_units", "U", "usable height", true, true, 1, false, 100},
};
const A kRackAttrs[] = {
    {"cooling", "cooling type", true, {"air", "liquid"}, std::nullopt},
};

const F kStorage[] = {
    {"read_gb_per_s", "GB/s", "sequential read bandwidth", true, false, kLeast, false, 1e6},
    {"write_gb_per_s", "GB/s", "sequential write bandwidth", true, false, kLeast, false, 1e6},
    {"metadata_kiops", "kIOPS", "metadata operations per second, thousands", true, false, kLeast, false, 1e9},
    {"capacity_pb", "PB", "usable capacity", false, false, 0, false, 1e6},
    {"power_kw", "kW", "power draw", false, false, 0, false, 1e4},
    {"rack_units", "U", "height in the rack", false, true, 0, false, 100},
    {"latency_us", "us", "first-byte read latency", false, false, 0, false, 1e8},
};
const A kStorageAttrs[] = {
    {"protocol", "access protocol", false, {}, std::nullopt},
};

const F kLink[] = {
    {"gbps", "Gb/s", "signalling rate", true, false, kLeast, false, 1e5},
    {"max_length_m", "m", "maximum reach", false, false, 0, false, 1e6},
    {"power_w", "W", "power per cable, both ends", false, false, 0, false, 1e4},
};
const A kLinkAttrs[] = {
    {"medium", "copper or optical", false, {"copper", "optical"}, std::nullopt},
    {"protocol", "link protocol", false, {"infiniband", "ethernet", "nvlink", "pcie"}, std::nullopt},
};

const F kGroup[] = {
    {"max_gpus", "GPUs", "largest domain the hardware supports", false, true, 1, false, 1e7},
};
const A kGroupAttrs[] = {
    {"role", "what the group stands for", true, {"pod", "scalable_unit", "nvlink_domain", "hall"}, std::nullopt},
};

const F kFabric[] = {
    {"oversubscription", "x", "leaf down-link to up-link bandwidth ratio", true, false, 1, false, 64},
};
const A kFabricAttrs[] = {
    {"rail_optimized", "one leaf per rail per scalable unit", false, {"true", "false"}, std::nullopt},
};

const S kSwitchSettings[] = {
    {"tier",
     "where the switch sits in the fabric",
     SettingType::String,
     false,
     {"leaf", "spine", "core", "other"},
     std::nullopt,
     0,
     0},
};
const S kFabricSettings[] = {
    {"switch", "the switch part every tier is built from", SettingType::PartRef, true, {}, PartKind::Switch, 0, 0},
    {"cable", "cable type between switch tiers", SettingType::PartRef, false, {}, PartKind::Link, 0, 0},
    {"radix",
     "ports per switch (default: the switch part's ports)",
     SettingType::Integer,
     false,
     {},
     std::nullopt,
     2,
     1e5},
    {"tiers", "switch tiers: 0 chooses the fewest that fit", SettingType::Integer, false, {}, std::nullopt, 0, 3},
    {"rail_optimized", "one leaf per rail per scalable unit", SettingType::Boolean, false, {}, std::nullopt, 0, 0},
    {"role",
     "what the fabric carries (default compute)",
     SettingType::String,
     false,
     {"compute", "storage", "frontend"},
     std::nullopt,
     0,
     0},
};

template <typename T, std::size_t N>
std::span<const T> span(const T (&a)[N])
{
    return {a, N};
}

}  // namespace

std::span<const FieldSpec> fieldSpecs(PartKind kind)
{
    switch (kind) {
    case PartKind::Accelerator: return span(kAccelerator);
    case PartKind::Nic: return span(kNic);
    case PartKind::Switch: return span(kSwitch);
    case PartKind::Node: return span(kNode);
    case PartKind::Rack: return span(kRack);
    case PartKind::Storage: return span(kStorage);
    case PartKind::Link: return span(kLink);
    case PartKind::Group: return span(kGroup);
    case PartKind::Fabric: return span(kFabric);
    }
    return {};
}

std::span<const AttributeSpec> attributeSpecs(PartKind kind)
{
    switch (kind) {
    case PartKind::Accelerator: return span(kAcceleratorAttrs);
    case PartKind::Nic: return span(kNicAttrs);
    case PartKind::Switch: return span(kSwitchAttrs);
    case PartKind::Node: return span(kNodeAttrs);
    case PartKind::Rack: return span(kRackAttrs);
    case PartKind::Storage: return span(kStorageAttrs);
    case PartKind::Link: return span(kLinkAttrs);
    case PartKind::Group: return span(kGroupAttrs);
    case PartKind::Fabric: return span(kFabricAttrs);
    }
    return {};
}

std::span<const SettingSpec> settingSpecs(PartKind kind)
{
    switch (kind) {
    case PartKind::Switch: return span(kSwitchSettings);
    case PartKind::Fabric: return span(kFabricSettings);
    default: return {};
    }
}

std::string figureFloorMessage(const FieldSpec& spec, double value)
{
    return "must be 0 (none) or at least " + formatValue(spec.min) + ", got " + formatValue(value);
}

const FieldSpec* findFieldSpec(PartKind kind, std::string_view key)
{
    for (const auto& f : fieldSpecs(kind))
        if (f.key == key)
            return &f;
    return nullptr;
}

const AttributeSpec* findAttributeSpec(PartKind kind, std::string_view key)
{
    for (const auto& a : attributeSpecs(kind))
        if (a.key == key)
            return &a;
    return nullptr;
}

const SettingSpec* findSettingSpec(PartKind kind, std::string_view key)
{
    for (const auto& s : settingSpecs(kind))
        if (s.key == key)
            return &s;
    return nullptr;
}

namespace {
// Static lists: asked for every component of a design on every check.
std::span<const PartKind> allowedChildren(PartKind parent, std::string_view parentRole)
{
    using K = PartKind;
    static constexpr PartKind nvlinkDomain[] = {K::Node, K::Accelerator, K::Switch};
    static constexpr PartKind group[] = {K::Group, K::Rack, K::Node, K::Switch, K::Storage, K::Fabric};
    static constexpr PartKind rack[] = {K::Node, K::Switch, K::Storage, K::Group};  // group: NVLink domains only
    static constexpr PartKind node[] = {K::Accelerator, K::Nic, K::Storage};
    switch (parent) {
    case K::Group: return parentRole == "nvlink_domain" ? std::span<const PartKind>(nvlinkDomain) : group;
    case K::Rack: return rack;
    case K::Node: return node;
    default: return {};
    }
}
}  // namespace

bool canContain(PartKind parent, std::string_view parentRole, PartKind child, std::string_view childRole)
{
    // A rack may hold an NVLink domain (a rack-scale system), never a pod.
    if (parent == PartKind::Rack && child == PartKind::Group && childRole != "nvlink_domain")
        return false;
    const auto kids = allowedChildren(parent, parentRole);
    return std::find(kids.begin(), kids.end(), child) != kids.end();
}

bool canBeTopLevel(PartKind kind)
{
    return kind != PartKind::Accelerator && kind != PartKind::Nic && kind != PartKind::Link;
}

std::string topLevelRefusal(PartKind kind)
{
    if (canBeTopLevel(kind))
        return {};
    if (kind == PartKind::Link)
        return "a link type is not placed on its own: it is the cable of a link between two items";
    return std::string(partKindLabel(kind)) + " must be placed inside " +
        (kind == PartKind::Nic ? "a node" : "a node or an NVLink domain");
}

std::string nestingRefusal(PartKind parent, std::string_view parentRole, PartKind child, std::string_view childRole)
{
    if (parent == PartKind::Rack && child == PartKind::Group && childRole != "nvlink_domain")
        return "a group cannot be placed inside a rack unless it is an NVLink domain; put racks inside pods instead";
    std::string msg = std::string(partKindLabel(child)) + " cannot be placed inside " +
        std::string(parent == PartKind::Group && parentRole == "nvlink_domain" ? "an NVLink domain"
                                                                               : partKindLabel(parent));
    const auto kids = allowedChildren(parent, parentRole);
    if (kids.empty())
        return msg + ": " + std::string(partKindLabel(parent)) + " holds nothing";
    msg += ", which holds ";
    for (std::size_t i = 0; i < kids.size(); ++i) {
        if (i > 0)
            msg += i + 1 == kids.size() ? " or " : ", ";
        msg += std::string(partKindName(kids[i])) + "s";
    }
    return msg;
}

}  // namespace studio
