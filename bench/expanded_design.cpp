#include "bench/expanded_design.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/design/design_index.h"
#include "core/design/resize.h"
#include "core/text.h"
#include "widgets/canvas/item_metrics.h"

namespace studio {
namespace {

// Between copies and between blocks of siblings, in canvas units: enough
// for a link's channel to run between them.
constexpr double kGap = 20;

class Expander {
public:
    Expander(const Design& design, const Catalog& catalog)
        : in_(design), index_(design, catalog), extent_(design.components.size()), origin_(design.components.size()),
          copies_(design.components.size()), suffixes_(design.components.size())
    {}

    Design run()
    {
        Design out = in_;
        out.components.clear();
        out.links.clear();
        std::vector<std::size_t> roots;
        for (std::size_t i = 0; i < index_.size(); ++i)
            if (!index_.parent(i)) {
                measure(i);
                roots.push_back(i);
            }
        layout(roots);
        for (std::size_t i : roots)
            emit(i, "", {}, out);
        for (const Link& l : in_.links)
            expandLink(l, out);
        return out;
    }

private:
    bool expanded(std::size_t i) const
    {
        return index_.kind(i) != PartKind::Accelerator && in_.components[i].count > 1;
    }
    std::int64_t copiesOf(std::size_t i) const { return expanded(i) ? in_.components[i].count : 1; }
    bool isContainer(std::size_t i) const
    {
        const PartKind k = index_.kind(i);
        return k == PartKind::Node || k == PartKind::Rack || k == PartKind::Group;
    }

    // Copies per row: racks stand in a row, groups (scalable units, pods)
    // form a near-square grid, everything else a column.
    std::int64_t columns(std::size_t i) const
    {
        const std::int64_t n = copiesOf(i);
        if (index_.kind(i) == PartKind::Rack)
            return n;
        if (index_.kind(i) == PartKind::Group) {
            const double square = std::sqrt(double(n) * extent_[i].h / std::max(1.0, extent_[i].w));
            return std::clamp<std::int64_t>(std::llround(square), 1, n);
        }
        return 1;
    }
    Extent block(std::size_t i) const
    {
        const std::int64_t cols = columns(i), rows = (copiesOf(i) + cols - 1) / cols;
        return {double(cols) * (extent_[i].w + kGap) - kGap, double(rows) * (extent_[i].h + kGap) - kGap};
    }
    Point copyOffset(std::size_t i, std::int64_t k) const
    {
        const std::int64_t cols = columns(i);
        return {double(k % cols) * (extent_[i].w + kGap), double(k / cols) * (extent_[i].h + kGap)};
    }

    // Places the blocks of copies of `items` (siblings): columns in the
    // order of their drawn x, blocks in a column in the order of their
    // drawn y, each pushed right or down past what grew before it.
    Extent layout(std::span<const std::size_t> items)
    {
        std::map<double, std::vector<std::size_t>> byX;
        for (std::size_t i : items)
            byX[in_.components[i].position.x].push_back(i);
        double x = byX.empty() ? 0 : byX.begin()->first, right = 0, bottom = 0;
        for (auto& [drawnX, column] : byX) {
            std::stable_sort(column.begin(), column.end(), [this](std::size_t a, std::size_t b) {
                return in_.components[a].position.y < in_.components[b].position.y;
            });
            x = std::max(x, drawnX);
            double y = in_.components[column.front()].position.y, width = 0;
            for (std::size_t i : column) {
                y = std::max(y, in_.components[i].position.y);
                origin_[i] = {x, y};
                const Extent b = block(i);
                width = std::max(width, b.w);
                y += b.h + kGap;
                bottom = std::max(bottom, y - kGap);
            }
            right = x + width;
            x = right + kGap;
        }
        return {right, bottom};
    }

    // The size one copy of `i` is drawn at once everything inside it is
    // expanded (the canvas grows a container around its children).
    void measure(std::size_t i)
    {
        for (std::size_t c : index_.children(i))
            measure(c);
        if (index_.kind(i) == PartKind::Fabric) {
            extent_[i] = {ItemMetrics::kFabricW, ItemMetrics::kFabricH};
        } else if (isContainer(i)) {
            const Extent content = layout(index_.children(i));
            extent_[i] = {std::max(260.0, content.w + ItemMetrics::kPad),
                          std::max(ItemMetrics::kHeader + 60, content.h + ItemMetrics::kPad)};
        } else {
            extent_[i] = {ItemMetrics::kTileW, ItemMetrics::kTileH};
        }
    }

    void emit(std::size_t i, const std::string& parent, const std::vector<std::int64_t>& path, Design& out)
    {
        const Component& c = in_.components[i];
        for (std::int64_t k = 0; k < copiesOf(i); ++k) {
            std::vector<std::int64_t> at = path;
            if (expanded(i))
                at.push_back(k + 1);
            std::string suffix, numbered;
            for (std::int64_t n : at) {
                suffix += "-" + std::to_string(n);
                numbered += (numbered.empty() ? "" : ".") + std::to_string(n);
            }
            Component copy = c;
            copy.id = c.id + suffix;
            copy.parent = parent;
            copy.count = expanded(i) ? 1 : c.count;
            const Point offset = copyOffset(i, k);
            copy.position = {origin_[i].x + offset.x, origin_[i].y + offset.y};
            if (expanded(i))
                copy.name = (c.name.empty() ? index_.part(i).name : c.name) + " " + numbered;
            out.components.push_back(copy);
            copies_[i].push_back(copy.id);
            suffixes_[i].push_back(suffix);
            for (std::size_t child : index_.children(i))
                emit(child, copy.id, at, out);
        }
    }

    void expandLink(const Link& l, Design& out) const
    {
        const auto from = index_.find(l.from), to = index_.find(l.to);
        if (!from || !to)
            throw std::invalid_argument("link " + inQuotes(l.id) + " has a missing end");
        for (std::size_t end : {*from, *to})
            if (!expanded(end) && in_.components[end].count > 1)
                throw std::invalid_argument("link " + inQuotes(l.id) + " ends at replicated GPUs");
        const auto& a = copies_[*from];
        const auto& b = copies_[*to];
        if (a.size() != b.size() && a.size() != 1 && b.size() != 1)
            throw std::invalid_argument("link " + inQuotes(l.id) + " joins " + std::to_string(a.size()) + " to " +
                                        std::to_string(b.size()) + " copies: no way to pair them");
        const std::size_t n = std::max(a.size(), b.size());
        const auto& suffix = a.size() >= b.size() ? suffixes_[*from] : suffixes_[*to];
        for (std::size_t k = 0; k < n; ++k)
            for (std::int64_t cable = 1; cable <= l.count; ++cable) {
                Link one = l;
                one.id = l.id + suffix[k] + (l.count > 1 ? "-" + std::to_string(cable) : "");
                one.from = a[a.size() == 1 ? 0 : k];
                one.to = b[b.size() == 1 ? 0 : k];
                one.count = 1;
                out.links.push_back(std::move(one));
            }
    }

    const Design& in_;
    const DesignIndex index_;
    std::vector<Extent> extent_;                               // one copy of each component, drawn expanded
    std::vector<Point> origin_;                                // where the first copy goes in its container
    std::vector<std::vector<std::string>> copies_, suffixes_;  // each copy's id and id suffix, in order
};

}  // namespace

Design expandReplicas(const Design& design, const Catalog& catalog)
{
    return Expander(design, catalog).run();
}

Design expandedSuperPod(const Design& preset, const Catalog& catalog, std::int64_t nodes)
{
    const ScaleUnitResult unit = findScaleUnit(preset, catalog);
    if (!unit.unit)
        throw std::invalid_argument(unit.problem ? unit.problem->message : "no scale unit");
    Design resized = preset;
    if (auto problem = resizeToGpus(resized, catalog, nodes * unit.unit->gpusPerNode))
        throw std::invalid_argument(problem->message);
    Design out = expandReplicas(resized, catalog);
    out.name = preset.name + ", " + formatCount(nodes) + " nodes drawn one by one";
    out.description = "The preset " + inQuotes(preset.name) + " resized to " + formatCount(nodes) +
        " nodes, with every rack, node, NIC, storage system and cable drawn as an item of its own (count 1); "
        "GPUs stay a count inside their node. Generated by bench/expanded_design.cpp.";
    return out;
}

}  // namespace studio
