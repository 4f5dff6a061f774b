#pragma once
// Sizing a folded-Clos (fat-tree) fabric from its endpoints, as in the NVIDIA
// DGX SuperPOD reference architecture: a leaf switch per rail per scalable
// unit (rail-optimized), leaf ports split between down- and up-links by the
// oversubscription, spines (and cores when two tiers do not fit) sized to
// take every uplink. Reproduces the SuperPOD table in hardware.md exactly.
// Endpoints that fit one switch take one, rails or not. A leaf whose
// down-ports are not all in use (the last, partly filled scalable unit) is
// cabled up for what it holds, not for the unit it could grow to: 40 DGX on
// 64-port switches are a unit of 32 and one of 8, whose leaves send 8 up,
// not 32.
#include <cstdint>
#include <string>

namespace studio {

struct FatTreeSpec {
    std::int64_t nodes = 0;           // nodes attached rail by rail
    std::int64_t rails = 0;           // fabric ports per node (one per rail)
    std::int64_t otherEndpoints = 0;  // storage and other ports, not rail-aligned
    std::int64_t radix = 64;          // ports per switch
    double oversubscription = 1.0;    // leaf down-link : up-link bandwidth
    bool railOptimized = true;
    int tiers = 0;  // 0: the fewest that fit
};

struct FatTree {
    int tiers = 0;
    std::int64_t endpoints = 0;
    std::int64_t leafDown = 0, leafUp = 0;  // ports per leaf
    std::int64_t nodesPerUnit = 0;          // scalable unit: nodes one rail-leaf serves
    std::int64_t leaf = 0, spine = 0, core = 0;
    std::int64_t leafSpineCables = 0, spineCoreCables = 0;
    std::int64_t maxEndpoints = 0;  // what this many tiers could take at this radix
    std::string error;              // set when the endpoints do not fit

    std::int64_t switches() const { return leaf + spine + core; }
};

FatTree sizeFatTree(const FatTreeSpec& spec);

// Up-links of a switch with `usedDown` of its `down` ports in use: the
// oversubscription's share of them, rounded up (all `up` when it is full).
// The one rule for the sizing above and for the cable plan of an export.
std::int64_t upLinksFor(std::int64_t usedDown, std::int64_t down, std::int64_t up);

}  // namespace studio
