#pragma once
// Positions by id for the ids of one design, without copying them: an
// open-addressing table of views into the design's own strings. Analyses
// and validation look every component and link end up after each edit; a
// node-based map of a design drawn in full (tens of thousands of ids) was
// a tenth of an edit to build, most of it allocating and chasing nodes.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

namespace studio {

class IdTable {
public:
    // Room for `expected` ids without growing; the viewed strings must
    // outlive the table.
    explicit IdTable(std::size_t expected);

    // Files `id` at `at`; when `id` is already filed, keeps the first and
    // returns its position.
    std::optional<std::size_t> insert(std::string_view id, std::size_t at);
    std::optional<std::size_t> find(std::string_view id) const;
    std::size_t size() const { return ids_.size(); }

private:
    struct Slot {
        std::uint32_t hash = 0;
        std::uint32_t entry = 0;  // 1 + its position in ids_; 0: empty
    };
    struct Entry {
        std::string_view id;
        std::size_t at;
    };
    // The slot holding `id`, or the empty slot it would go in.
    std::size_t probe(std::string_view id, std::uint32_t hash) const;
    void grow();

    std::vector<Slot> slots_;  // a power of two, at most half full
    std::vector<Entry> ids_;
};

}  // namespace studio
