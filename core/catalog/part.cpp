#include "core/catalog/part.h"

namespace studio {

const Figure* Part::figure(std::string_view key) const
{
    const auto it = figures.find(key);
    return it == figures.end() ? nullptr : &it->second;
}

std::string Part::attribute(std::string_view key) const
{
    const auto it = attributes.find(key);
    return it == attributes.end() ? std::string() : it->second;
}

}  // namespace studio
