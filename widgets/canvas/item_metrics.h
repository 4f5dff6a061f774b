#pragma once
// The sizes the canvas draws items at, in canvas units: where a container's
// contents start below its header, tile sizes. The editor places new items
// by them (a node's GPUs and NICs in a row under its header) without a view.
namespace studio {

struct ItemMetrics {
    static constexpr double kHeader = 30, kPad = 12, kTileW = 180, kTileH = 50, kFabricW = 270, kFabricH = 70;
};

}  // namespace studio
