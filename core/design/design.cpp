#include "core/design/design.h"

#include <algorithm>

namespace studio {

const Component* Design::component(const std::string& id) const
{
    const auto it = std::find_if(components.begin(), components.end(), [&](const Component& c) { return c.id == id; });
    return it == components.end() ? nullptr : &*it;
}

Component* Design::component(const std::string& id)
{
    return const_cast<Component*>(std::as_const(*this).component(id));
}

}  // namespace studio
