#include "core/design/id_table.h"

#include <functional>
#include <stdexcept>

namespace studio {
namespace {

std::size_t capacityFor(std::size_t ids)
{
    std::size_t n = 16;
    while (n < 2 * ids)
        n *= 2;
    return n;
}

std::uint32_t hashOf(std::string_view id)
{
    const std::size_t h = std::hash<std::string_view>{}(id);
    return std::uint32_t(h ^ (h >> 32));
}

}  // namespace

IdTable::IdTable(std::size_t expected) : slots_(capacityFor(expected))
{
    ids_.reserve(expected);
}

std::size_t IdTable::probe(std::string_view id, std::uint32_t hash) const
{
    const std::size_t mask = slots_.size() - 1;
    for (std::size_t s = hash & mask;; s = (s + 1) & mask) {
        const Slot& slot = slots_[s];
        if (slot.entry == 0 || (slot.hash == hash && ids_[slot.entry - 1].id == id))
            return s;
    }
}

std::optional<std::size_t> IdTable::insert(std::string_view id, std::size_t at)
{
    if (2 * (ids_.size() + 1) > slots_.size())
        grow();
    const std::uint32_t hash = hashOf(id);
    Slot& slot = slots_[probe(id, hash)];
    if (slot.entry != 0)
        return ids_[slot.entry - 1].at;
    if (ids_.size() >= UINT32_MAX)
        throw std::length_error("too many ids for an IdTable");
    ids_.push_back({id, at});
    slot = {hash, std::uint32_t(ids_.size())};
    return std::nullopt;
}

std::optional<std::size_t> IdTable::find(std::string_view id) const
{
    const Slot& slot = slots_[probe(id, hashOf(id))];
    if (slot.entry == 0)
        return std::nullopt;
    return ids_[slot.entry - 1].at;
}

void IdTable::grow()
{
    std::vector<Slot> old(slots_.size() * 2);
    old.swap(slots_);
    const std::size_t mask = slots_.size() - 1;
    for (const Slot& slot : old)
        if (slot.entry != 0) {
            std::size_t s = slot.hash & mask;
            while (slots_[s].entry != 0)
                s = (s + 1) & mask;
            slots_[s] = slot;
        }
}

}  // namespace studio
