#pragma once
#include <optional>
#include <string_view>

namespace studio {

// What a catalog part is; decides its figures, its component settings and
// what it may contain on the canvas.
enum class PartKind { Accelerator, Nic, Switch, Node, Rack, Storage, Link, Group, Fabric };

inline constexpr PartKind kAllPartKinds[] = {PartKind::Accelerator, PartKind::Nic,   PartKind::Switch,
                                             PartKind::Node,        PartKind::Rack,  PartKind::Storage,
                                             PartKind::Link,        PartKind::Group, PartKind::Fabric};

std::string_view partKindName(PartKind kind);   // "accelerator", as in the files
std::string_view partKindLabel(PartKind kind);  // "an accelerator", for messages
std::optional<PartKind> partKindFromName(std::string_view name);

}  // namespace studio
