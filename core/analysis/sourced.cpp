#include "core/analysis/sourced.h"

namespace studio {

Sourced figureOf(const DesignIndex& index, std::size_t i, std::string_view key, std::optional<double> fallback,
                 std::string_view fallbackSource)
{
    Sourced s;
    if (index.isOverridden(i, key)) {
        if (auto v = index.figure(i, key)) {
            s.value = *v;
            s.source = "override on component '" + index.component(i).id + "'";
            return s;
        }
    }
    if (const Figure* f = index.part(i).figure(key)) {
        s.value = f->value;
        s.source = f->source;
        s.uncertain = f->uncertain;
        return s;
    }
    if (fallback) {
        s.value = *fallback;
        s.source = std::string(fallbackSource);
        s.uncertain = true;
        return s;
    }
    s.known = false;
    s.source = "not in the catalog";
    return s;
}

Sourced inputOr(const std::optional<double>& value, const SourcedDefault& def)
{
    if (value)
        return {*value, "design input " + std::string(def.pointer), false, true};
    return {def.value, "default: " + std::string(def.source), false, true};
}

}  // namespace studio
