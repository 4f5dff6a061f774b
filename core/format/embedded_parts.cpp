#include "core/format/embedded_parts.h"

#include <set>

#include "core/catalog/part_schema.h"

namespace studio {

std::vector<std::string> partsUsedBy(const Design& design, const Catalog& catalog)
{
    std::set<std::string, std::less<>> used;
    std::vector<std::string> pending;
    auto want = [&](const std::string& id) {
        if (!id.empty() && used.insert(id).second)
            pending.push_back(id);
    };
    for (const Component& c : design.components) {
        want(c.part);
        for (const auto& [key, value] : c.props)
            if (value.is_string())
                if (const Part* p = catalog.find(c.part))
                    if (const SettingSpec* s = findSettingSpec(p->kind, key); s && s->type == SettingType::PartRef)
                        want(value.get<std::string>());
    }
    for (const Link& l : design.links)
        want(l.part);
    // Parts name other parts (a node its accelerator): follow them too.
    while (!pending.empty()) {
        const std::string id = pending.back();
        pending.pop_back();
        if (const Part* p = catalog.find(id))
            for (const auto& spec : attributeSpecs(p->kind))
                if (spec.partRef)
                    want(p->attribute(spec.key));
    }
    std::vector<std::string> ordered;
    for (const Part& p : catalog.parts())
        if (used.count(p.id))
            ordered.push_back(p.id);
    return ordered;
}

void embedUsedParts(Design& design, const Catalog& catalog)
{
    std::vector<std::string> software;
    if (design.workload.software)
        software.push_back(*design.workload.software);
    design.catalog = catalog.subset(partsUsedBy(design, catalog), software);
}

}  // namespace studio
