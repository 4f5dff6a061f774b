#pragma once
// What a plot shows, folded into 64 bits, so a ChartView replots only the
// plots whose content changed: data, ranges, ticks, texts, colours,
// positions and what is visible, of every kind of plottable, item and
// layout element the renderers use. A plot holding anything else (a kind
// this does not read) is not `complete`, and ChartView then replots it on
// every draw: a new kind of plottable costs speed until it is read here,
// never a stale picture (tst_panels checks every renderer's plots are
// complete).
#include <cstdint>

class QCustomPlot;

namespace studio {

struct PlotFingerprint {
    std::uint64_t value = 0;
    bool complete = true;
};

PlotFingerprint plotFingerprint(const QCustomPlot& plot);

}  // namespace studio
