#pragma once
// Where each item of a list of components or links is, by id, for a list
// that is edited in place: a lookup is a hash probe, not a scan (a design
// drawn in full has tens of thousands of items, and every edit looks some
// up). The list's owner reports each insertion, removal and replacement;
// positions after a change in the middle are re-read lazily, at the next
// lookup, from the first position that moved, so a burst of changes costs
// one pass at most. Ids are unique in the list (a valid design).
#include <algorithm>
#include <cstddef>
#include <string>
#include <unordered_map>
#include <vector>

namespace studio {

template <typename Item>
class IdIndex {
public:
    // The position of the item with this id in `items`, or -1.
    int find(const std::vector<Item>& items, const std::string& id) const
    {
        if (auto it = at_.find(id); it != at_.end() && it->second < exactBelow_)
            return int(it->second);
        if (exactBelow_ >= items.size())
            return -1;
        for (std::size_t i = exactBelow_; i < items.size(); ++i)
            at_.insert_or_assign(items[i].id, i);
        exactBelow_ = items.size();
        const auto it = at_.find(id);
        return it == at_.end() ? -1 : int(it->second);
    }

    // `items[at]` was inserted.
    void inserted(const std::vector<Item>& items, std::size_t at)
    {
        if (at == exactBelow_ && at + 1 == items.size()) {
            at_.insert_or_assign(items[at].id, at);  // appended to an exact index: stays exact
            exactBelow_ = items.size();
        } else {
            exactBelow_ = std::min(exactBelow_, at);
        }
    }
    // The item `id` at `at` was removed.
    void erased(const std::string& id, std::size_t at)
    {
        at_.erase(id);
        exactBelow_ = std::min(exactBelow_, at);
    }
    // The item at `at` was replaced; its id may have changed.
    void replaced(const std::string& oldId, const std::string& newId, std::size_t at)
    {
        if (oldId == newId)
            return;
        at_.erase(oldId);
        exactBelow_ = std::min(exactBelow_, at);
    }
    // The whole list was replaced.
    void clear()
    {
        at_.clear();
        exactBelow_ = 0;
    }

private:
    // Positions below exactBelow_ are exact; at or above it an entry may
    // be stale (its item moved) and an item may have none yet.
    mutable std::unordered_map<std::string, std::size_t> at_;
    mutable std::size_t exactBelow_ = 0;
};

}  // namespace studio
