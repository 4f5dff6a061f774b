#include "core/catalog/cable_choice.h"

namespace studio {

std::string defaultCable(const Catalog& catalog, double portGbps, const std::string& protocol)
{
    const Part* best = nullptr;
    auto better = [](const Part& a, const Part* b) {
        if (!b)
            return true;
        const double ga = a.figure("gbps")->value, gb = b->figure("gbps")->value;
        if (ga != gb)
            return ga < gb;
        return a.attribute("medium") == "optical" && b->attribute("medium") != "optical";
    };
    for (const Part& p : catalog.parts())
        if (p.kind == PartKind::Link && p.figure("gbps") && p.figure("gbps")->value >= portGbps &&
            (protocol.empty() || p.attribute("protocol") == protocol) && better(p, best))
            best = &p;
    if (!best)  // nothing fast enough on this protocol: any cable, for the user to change
        for (const Part& p : catalog.parts())
            if (p.kind == PartKind::Link)
                return p.id;
    return best ? best->id : std::string();
}

}  // namespace studio
