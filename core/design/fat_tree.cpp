#include "core/design/fat_tree.h"

#include <algorithm>
#include <cmath>

#include "core/text.h"

namespace studio {
namespace {

std::int64_t ceilDiv(std::int64_t a, std::int64_t b)
{
    return b <= 0 ? 0 : (a + b - 1) / b;
}

}  // namespace

std::int64_t upLinksFor(std::int64_t usedDown, std::int64_t down, std::int64_t up)
{
    if (usedDown <= 0 || down <= 0)
        return 0;
    if (usedDown >= down)
        return up;
    return ceilDiv(usedDown * up, down);
}

FatTree sizeFatTree(const FatTreeSpec& s)
{
    FatTree t;
    t.endpoints = s.nodes * s.rails + s.otherEndpoints;
    if (t.endpoints <= 0)
        return t;
    const std::int64_t k = s.radix;
    if (k < 2) {
        t.error = "a switch needs at least 2 ports";
        return t;
    }
    // Oversubscription o splits a leaf's k ports into down = k·o/(1+o) and
    // up = k - down (o = 1: half and half, non-blocking).
    const double o = std::max(1.0, s.oversubscription);
    t.leafDown = static_cast<std::int64_t>(std::floor(static_cast<double>(k) * o / (1.0 + o) + 1e-9));
    t.leafUp = k - t.leafDown;
    const bool rails = s.railOptimized && s.rails > 0 && s.nodes > 0;

    // One switch holds everything when the endpoints fit its ports, rails
    // or not: every rail on one switch is one hop from every other, which
    // rail leaves and a spine only approach. Rails are how a fabric grows
    // past one switch.
    const bool fitsOneSwitch = t.endpoints <= k;
    if (s.tiers == 1 || (s.tiers == 0 && fitsOneSwitch)) {
        t.maxEndpoints = k;
        if (!fitsOneSwitch) {
            t.error = formatCount(t.endpoints) + " endpoints do not fit one " + formatCount(k) +
                "-port switch (tiers is set to 1)";
            return t;
        }
        t.tiers = 1;
        t.leaf = 1;
        t.leafDown = k;
        t.leafUp = 0;
        return t;
    }

    if (rails) {
        // A scalable unit is as many nodes as one leaf has down-ports; each
        // unit gets one leaf per rail.
        t.nodesPerUnit = t.leafDown;
        t.leaf = ceilDiv(s.nodes, t.leafDown) * s.rails + ceilDiv(s.otherEndpoints, t.leafDown);
    } else {
        t.leaf = ceilDiv(t.endpoints, t.leafDown);
    }

    // Two tiers: every leaf reaches every spine, so at most k leaves.
    const std::int64_t twoTierLeaves = k;
    // Three tiers: spines split k/2 down, k/2 up; k pods of k/2 leaves.
    const std::int64_t threeTierLeaves = k * (k / 2);
    const int needed = t.leaf <= twoTierLeaves ? 2 : t.leaf <= threeTierLeaves ? 3 : 4;
    t.tiers = s.tiers == 0 ? needed : s.tiers;
    t.maxEndpoints = (t.tiers == 2 ? twoTierLeaves : threeTierLeaves) * t.leafDown;
    if (needed > t.tiers || needed > 3) {
        t.error = formatCount(t.endpoints) + " endpoints need " + formatCount(t.leaf) + " leaf switches; " +
            (needed > 3 ? "a three-tier fat tree" : "a " + std::to_string(t.tiers) + "-tier fat tree") + " of " +
            formatCount(k) + "-port switches takes at most " +
            formatCount(needed > 3 ? threeTierLeaves : (t.tiers == 2 ? twoTierLeaves : threeTierLeaves)) + " leaves";
        return t;
    }
    // Up-links of the leaves that take `n` endpoints, `down` to a leaf.
    auto upLinks = [&](std::int64_t n) {
        return n / t.leafDown * t.leafUp + upLinksFor(n % t.leafDown, t.leafDown, t.leafUp);
    };
    t.leafSpineCables = rails ? s.rails * upLinks(s.nodes) + upLinks(s.otherEndpoints) : upLinks(t.endpoints);
    if (t.tiers == 2) {
        t.spine = ceilDiv(t.leafSpineCables, k);
        return t;
    }
    // A spine splits k/2 down, k/2 up, so it sends up as many as come in.
    t.spine = ceilDiv(t.leafSpineCables, k / 2);
    t.spineCoreCables = t.leafSpineCables;
    t.core = ceilDiv(t.spineCoreCables, k);
    return t;
}

}  // namespace studio
