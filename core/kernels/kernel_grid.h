#pragma once
// A measured kernel table: positive values over one to three grid axes
// (GEMM m, n, k; attention head size and sequence; collective GPUs and
// bytes), read between its points in log space, the logarithm of the value
// linear in the logarithm of every coordinate, and held at the edge value
// beyond them (docs/kernel-profiles.md). In log space a kernel's time (a
// coordinate over an efficiency) is linear between points too, so it never
// dips between two points it does not dip at.
#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

namespace studio {

// Where a value a figure uses came from, from the best to the least.
enum class KernelTier {
    Measured,      // a point of the table
    Interpolated,  // between points of the table
    Edge,          // beyond the measured range: the edge value held
    CatalogFactor  // no table for this GPU, operation or precision
};

// "measured", "interpolated", "held at the edge of the measured range",
// "catalog factor".
std::string_view kernelTierName(KernelTier tier);
// The worse of two tiers: a figure built from parts is no better than its worst.
KernelTier worseTier(KernelTier a, KernelTier b);

struct KernelValue {
    double value = 0;
    KernelTier tier = KernelTier::CatalogFactor;
};

class KernelGrid {
public:
    static constexpr std::size_t kMaxAxes = 3;

    // Axes ascending and positive; values row-major (the last axis
    // fastest), positive and finite. The reader checks both.
    KernelGrid() = default;
    KernelGrid(std::vector<std::vector<double>> axes, std::vector<double> values);

    std::size_t dimensions() const { return axes_.size(); }
    const std::vector<double>& axis(std::size_t i) const { return axes_[i]; }
    const std::vector<double>& values() const { return values_; }

    // Every value times `factor`, at most `cap` (the sensitivity analysis's
    // faster and slower kernels).
    KernelGrid scaled(double factor, double cap) const;

    // The value at `x` (one coordinate per axis).
    KernelValue at(const std::array<double, kMaxAxes>& x) const;
    KernelValue at(double x0) const { return at({x0, 0, 0}); }
    KernelValue at(double x0, double x1) const { return at({x0, x1, 0}); }
    KernelValue at(double x0, double x1, double x2) const { return at({x0, x1, x2}); }

private:
    KernelValue lookUp(const std::array<double, kMaxAxes>& x) const;

    std::vector<std::vector<double>> axes_;
    std::vector<std::vector<double>> logAxes_;  // log of each axis, computed once
    std::vector<double> values_;
    std::vector<double> logValues_;
    // Names this grid's values in the lookup cache: a copy shares it (the
    // same values), a scaled grid gets its own.
    std::uint64_t id_ = 0;
    std::array<std::size_t, kMaxAxes> strides_{};
};

}  // namespace studio
