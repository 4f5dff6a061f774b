#pragma once
// The figures, attributes and component settings each kind of part has. One
// table drives catalog validation, component-override validation, the
// inspector (later) and docs/file-format.md, so they cannot disagree.
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/catalog/part_kind.h"

namespace studio {

struct FieldSpec {
    std::string_view key;   // unit in the name: bf16_tflops, hbm_tb_per_s, tdp_w
    std::string_view unit;  // for display: "TFLOP/s"
    std::string_view description;
    bool required = false;
    bool integer = false;
    double min = 0;
    bool minExclusive = false;  // value must be > min rather than >= min
    double max = 1e9;
    // 0 means "none" (no scale-up link) and is allowed below min; anything
    // else between 0 and min is not (a bandwidth of 5e-324 divides to
    // infinity). belowFloor says so.
    bool zeroMeansNone = false;
    double floor() const { return zeroMeansNone ? 0 : min; }
    bool belowFloor(double v) const { return zeroMeansNone && v > 0 && v < min; }
};

struct AttributeSpec {
    std::string_view key;
    std::string_view description;
    bool required = false;
    std::vector<std::string_view> allowed;  // empty: free text
    std::optional<PartKind> partRef;        // value must name a part of this kind
};

// A setting a component has that is not a catalog figure (a switch's tier, a
// fabric's switch part). Figures can also be overridden per component.
enum class SettingType { String, Integer, Boolean, PartRef };
struct SettingSpec {
    std::string_view key;
    std::string_view description;
    SettingType type = SettingType::String;
    bool required = false;
    std::vector<std::string_view> allowed;  // String
    std::optional<PartKind> partRef;        // PartRef
    double min = 0, max = 0;                // Integer
};

std::span<const FieldSpec> fieldSpecs(PartKind kind);
std::span<const AttributeSpec> attributeSpecs(PartKind kind);
std::span<const SettingSpec> settingSpecs(PartKind kind);

const FieldSpec* findFieldSpec(PartKind kind, std::string_view key);

// "must be 0 (none) or at least 0.001, got 5e-324": a value belowFloor.
std::string figureFloorMessage(const FieldSpec& spec, double value);
const AttributeSpec* findAttributeSpec(PartKind kind, std::string_view key);
const SettingSpec* findSettingSpec(PartKind kind, std::string_view key);

// Containment rules. Roles are a group's role attribute ("" for other kinds):
// an NVLink domain holds nodes and accelerators; other groups hold racks and
// nodes; a rack holds nodes and, for rack-scale systems, an NVLink domain.
bool canContain(PartKind parent, std::string_view parentRole, PartKind child, std::string_view childRole);
bool canBeTopLevel(PartKind kind);
// Why a part may not stand at the top level ("" when it may).
std::string topLevelRefusal(PartKind kind);
// Why a drop or a file's nesting is refused, e.g. "a rack cannot be placed
// inside an accelerator: an accelerator holds nothing".
std::string nestingRefusal(PartKind parent, std::string_view parentRole, PartKind child, std::string_view childRole);

}  // namespace studio
