#pragma once
// The hardware catalog: parts with sourced figures. The built-in catalog is
// resources/catalog.json compiled into the core; a user catalog file or a
// design's embedded parts are merged on top (same id replaces the part).
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/catalog/part.h"
#include "core/catalog/software_profile.h"
#include "core/kernels/kernel_profile.h"
#include "core/problem.h"

namespace studio {

inline constexpr std::string_view kCatalogFormat = "cluster-studio.catalog";

class Catalog {
public:
    // resources/catalog.json as compiled in; parsed once. Its validity is a
    // test, so a broken build-time catalog aborts loudly rather than limping.
    static const Catalog& builtin();

    // Merges a catalog document. Everything is checked first (types, units,
    // sources, references between parts); on any error nothing is merged.
    // `requireHeader`: standalone files must say "format": "cluster-studio.catalog".
    std::vector<Problem> merge(const nlohmann::ordered_json& doc, const std::string& origin, bool requireHeader = true);
    // Reads and merges a catalog file; problems are about that file.
    std::vector<Problem> mergeFile(const std::string& path);

    // Kernel profiles (docs/kernel-profiles.md): the built-in catalog holds
    // resources/kernels/; a user's profile replaces the one of each part it
    // names. Checked whole first: on any error nothing changes.
    std::vector<Problem> mergeKernels(const nlohmann::ordered_json& doc, const std::string& origin);
    std::vector<Problem> mergeKernelsFile(const std::string& path);
    // The profile measured for an accelerator part, or nullptr.
    const KernelProfile* kernels(std::string_view partId) const;
    std::shared_ptr<const KernelProfile> sharedKernels(std::string_view partId) const;
    // No profile at all: every kernel at the catalog's factors (--kernels none).
    void clearKernels() { kernels_.clear(); }
    // The profiles of `other` instead of these (the built-in ones back).
    void useKernelsOf(const Catalog& other) { kernels_ = other.kernels_; }
    // Every profile's efficiencies times `factor`, at most `cap`: kernels
    // faster or slower by that much (the sensitivity analysis).
    void scaleKernelEfficiencies(double factor, double cap);
    // Every part's price band times `factor` (the sensitivity analysis);
    // cloud prices, which are not paid for owning, stay.
    void scalePrices(double factor);

    const Part* find(std::string_view id) const;
    // What each training framework runs (the catalog's "software"); a
    // design names one. nullptr when there is no such profile.
    const SoftwareProfile* software(std::string_view id) const;
    const std::vector<SoftwareProfile>& softwareProfiles() const { return software_; }
    const std::vector<Part>& parts() const { return parts_; }
    std::string sourceText(std::string_view key) const;

    // A catalog document holding just these parts and software profiles
    // and the sources they cite, for embedding into a design so it opens the
    // same elsewhere.
    nlohmann::ordered_json subset(const std::vector<std::string>& ids,
                                  const std::vector<std::string>& softwareIds = {}) const;

private:
    // Looked up by views of ids (a design's parts and cables, per item and
    // per link in every analysis): no string is made to look one up.
    struct IdHash {
        using is_transparent = void;
        std::size_t operator()(std::string_view id) const { return std::hash<std::string_view>{}(id); }
    };
    std::vector<Part> parts_;
    std::vector<SoftwareProfile> software_;
    std::unordered_map<std::string, std::size_t, IdHash, std::equal_to<>> index_;
    std::map<std::string, std::string, std::less<>> sources_;
    // Shared: a catalog is copied with every design loaded and every
    // background run, and a profile is large and never changes.
    std::map<std::string, std::shared_ptr<const KernelProfile>, std::less<>> kernels_;
};

}  // namespace studio
