#pragma once
// The sizes the canvas draws items at, in canvas units: where a container's
// contents start below its header, tile sizes. The editor places new items
// by them (a node's GPUs and NICs in a row under its header) without a view.
namespace studio {

struct ItemMetrics {
    static constexpr double kHeader = 30, kPad = 12, kTileW = 180, kTileH = 50, kFabricW = 270, kFabricH = 70;
    // Below this zoom an item's text is under four pixels high: items draw
    // their outline and fill only, and the view names the containers
    // large enough on screen to carry a name (DesignView::drawForeground).
    static constexpr double kDetailZoom = 0.35;
    // Below this zoom a tile is under six pixels high and a link's route one
    // pixel line among thousands (a design drawn in full): links are not
    // drawn until the view comes closer.
    static constexpr double kLinkZoom = 0.12;
};

}  // namespace studio
