#include "core/catalog/part_kind.h"

namespace studio {

std::string_view partKindName(PartKind kind)
{
    switch (kind) {
    case PartKind::Accelerator: return "accelerator";
    case PartKind::Nic: return "nic";
    case PartKind::Switch: return "switch";
    case PartKind::Node: return "node";
    case PartKind::Rack: return "rack";
    case PartKind::Storage: return "storage";
    case PartKind::Link: return "link";
    case PartKind::Group: return "group";
    case PartKind::Fabric: return "fabric";
    }
    return "?";
}

std::string_view partKindLabel(PartKind kind)
{
    switch (kind) {
    case PartKind::Accelerator: return "an accelerator";
    case PartKind::Nic: return "a NIC";
    case PartKind::Switch: return "a switch";
    case PartKind::Node: return "a node";
    case PartKind::Rack: return "a rack";
    case PartKind::Storage: return "a storage system";
    case PartKind::Link: return "a link type";
    case PartKind::Group: return "a group";
    case PartKind::Fabric: return "a fabric";
    }
    return "?";
}

std::optional<PartKind> partKindFromName(std::string_view name)
{
    for (PartKind k : kAllPartKinds)
        if (partKindName(k) == name)
            return k;
    return std::nullopt;
}

}  // namespace studio
