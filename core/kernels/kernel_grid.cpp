#include "core/kernels/kernel_grid.h"

#include <algorithm>
#include <atomic>
#include <bit>
#include <cmath>

#include "core/contract.h"

namespace studio {

std::string_view kernelTierName(KernelTier tier)
{
    switch (tier) {
    case KernelTier::Measured: return "measured";
    case KernelTier::Interpolated: return "interpolated";
    case KernelTier::Edge: return "held at the edge of the measured range";
    case KernelTier::CatalogFactor: break;
    }
    return "catalog factor";
}

KernelTier worseTier(KernelTier a, KernelTier b)
{
    return static_cast<int>(a) > static_cast<int>(b) ? a : b;
}

namespace {

std::uint64_t nextGridId()
{
    static std::atomic<std::uint64_t> next{1};
    return next.fetch_add(1, std::memory_order_relaxed);
}

// A layout search looks the same few dozen shapes up for tens of thousands
// of layouts: each thread keeps its last lookups, direct-mapped by shape
// (docs/performance.md). Per thread, so no lock; a grid's id, not its
// address, names it, so a freed grid's entries never answer for another.
struct CachedLookup {
    std::uint64_t grid = 0;
    std::array<double, KernelGrid::kMaxAxes> x{};
    KernelValue value;
};
constexpr std::size_t kCacheSize = 4096;
static_assert(std::has_single_bit(kCacheSize));

std::size_t slotOf(std::uint64_t grid, const std::array<double, KernelGrid::kMaxAxes>& x)
{
    std::uint64_t h = grid * 0x9E3779B97F4A7C15ull;
    for (double v : x)
        h = (h ^ std::bit_cast<std::uint64_t>(v)) * 0xBF58476D1CE4E5B9ull;
    return std::size_t(h >> (64 - std::countr_zero(kCacheSize)));  // the hash's top bits
}

}  // namespace

KernelGrid::KernelGrid(std::vector<std::vector<double>> axes, std::vector<double> values)
    : axes_(std::move(axes)), values_(std::move(values)), id_(nextGridId())
{
    STUDIO_EXPECTS(!axes_.empty() && axes_.size() <= kMaxAxes);
    std::size_t size = 1;
    for (std::size_t d = axes_.size(); d-- > 0;) {
        STUDIO_EXPECTS(!axes_[d].empty());
        strides_[d] = size;
        size *= axes_[d].size();
        std::vector<double> logs(axes_[d].size());
        std::transform(axes_[d].begin(), axes_[d].end(), logs.begin(), [](double v) { return std::log(v); });
        logAxes_.insert(logAxes_.begin(), std::move(logs));
    }
    STUDIO_EXPECTS(values_.size() == size);
    logValues_.resize(size);
    for (std::size_t i = 0; i < size; ++i) {
        STUDIO_EXPECTS(values_[i] > 0);
        logValues_[i] = std::log(values_[i]);
    }
}

KernelGrid KernelGrid::scaled(double factor, double cap) const
{
    std::vector<double> values = values_;
    for (double& v : values)
        v = std::min(cap, v * factor);
    return KernelGrid(axes_, std::move(values));
}

KernelValue KernelGrid::at(const std::array<double, kMaxAxes>& x) const
{
    thread_local std::array<CachedLookup, kCacheSize> cache;
    CachedLookup& slot = cache[slotOf(id_, x)];
    if (slot.grid == id_ && slot.x == x)
        return slot.value;
    slot = {id_, x, lookUp(x)};
    return slot.value;
}

KernelValue KernelGrid::lookUp(const std::array<double, kMaxAxes>& x) const
{
    // Per axis: the two neighbouring points and the weight of the upper one.
    std::array<std::size_t, kMaxAxes> lo{}, hi{};
    std::array<double, kMaxAxes> weight{};
    KernelTier tier = KernelTier::Measured;
    for (std::size_t d = 0; d < axes_.size(); ++d) {
        const std::vector<double>& a = axes_[d];
        const double v = x[d];
        if (!(v > a.front())) {  // also NaN: the first point
            lo[d] = hi[d] = 0;
            if (v != a.front())
                tier = worseTier(tier, KernelTier::Edge);
            continue;
        }
        if (v >= a.back()) {
            lo[d] = hi[d] = a.size() - 1;
            if (v != a.back())
                tier = worseTier(tier, KernelTier::Edge);
            continue;
        }
        const std::size_t up = std::size_t(std::upper_bound(a.begin(), a.end(), v) - a.begin());
        if (a[up - 1] == v) {
            lo[d] = hi[d] = up - 1;
            continue;
        }
        lo[d] = up - 1;
        hi[d] = up;
        const std::vector<double>& l = logAxes_[d];
        weight[d] = (std::log(v) - l[up - 1]) / (l[up] - l[up - 1]);
        tier = worseTier(tier, KernelTier::Interpolated);
    }
    // On a point of every axis (or held at its edge): the table's value.
    if (std::equal(lo.begin(), lo.begin() + std::ptrdiff_t(axes_.size()), hi.begin())) {
        std::size_t at = 0;
        for (std::size_t d = 0; d < axes_.size(); ++d)
            at += lo[d] * strides_[d];
        return {values_[at], tier};
    }
    // Multilinear in the logarithms: the 2^d corners, each weighted by how
    // near x is to it.
    const std::size_t corners = std::size_t(1) << axes_.size();
    double sum = 0;
    for (std::size_t c = 0; c < corners; ++c) {
        double w = 1;
        std::size_t at = 0;
        for (std::size_t d = 0; d < axes_.size(); ++d) {
            const bool upper = (c >> d) & 1;
            w *= upper ? weight[d] : 1 - weight[d];
            at += (upper ? hi[d] : lo[d]) * strides_[d];
        }
        if (w != 0)
            sum += w * logValues_[at];
    }
    return {std::exp(sum), tier};
}

}  // namespace studio
