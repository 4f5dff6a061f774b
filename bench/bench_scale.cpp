// Measures core/scale on one core for the 16,384-GPU Llama 3 preset: the
// whole scale sweep, strong and weak, a layout search at every size, the
// whole sensitivity tornado and the what-if upgrades; and the compare
// view's Scale tab, four presets' sweeps. Not a test: results go to
// docs/performance.md.
// Usage: bench_scale PRESET_DIR
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

#include "bench/timed_runs.h"
#include "core/format/design_reader.h"
#include "core/scale/scale_sweep.h"
#include "core/scale/sensitivity.h"
#include "core/scale/upgrades.h"

using namespace studio;

int main(int argc, char** argv)
{
    if (argc != 2) {
        std::fprintf(stderr, "usage: bench_scale PRESET_DIR\n");
        return 2;
    }
    const std::string path = std::string(argv[1]) + "/h100-16k-roce-llama3.cluster.json";
    const DesignLoad loaded = loadDesignFile(path, Catalog::builtin());
    if (!loaded.ok()) {
        std::fprintf(stderr, "%s does not load\n", path.c_str());
        return 1;
    }
    std::printf("| sweep | sizes | with a layout | p50 ms | min ms | ms per size |\n|---|---|---|---|---|---|\n");
    for (const Scaling scaling : {Scaling::Strong, Scaling::Weak}) {
        SweepOptions options;
        options.scaling = scaling;
        SweepResult r;
        const std::vector<double> ms =
            bench::timedMs([&] { r = sweepScale(*loaded.design, *loaded.catalog, options); });
        if (!r.ok()) {
            std::fprintf(stderr, "sweep failed: %s\n", r.error.c_str());
            return 1;
        }
        const auto runs = std::count_if(r.points.begin(), r.points.end(), [](const SweepPoint& p) { return p.best; });
        std::printf("| Llama 3 405B, 16,384 H100, %s, %lld-%lld GPUs | %zu | %td | %.1f | %.1f | %.1f |\n",
                    scaling == Scaling::Weak ? "weak" : "strong", static_cast<long long>(r.points.front().gpus),
                    static_cast<long long>(r.points.back().gpus), r.points.size(), runs, ms[ms.size() / 2], ms.front(),
                    ms[ms.size() / 2] / double(r.points.size()));
    }
    SensitivityResult s;
    std::vector<double> ms = bench::timedMs([&] { s = analyzeSensitivity(*loaded.design, *loaded.catalog); });
    if (!s.ok()) {
        std::fprintf(stderr, "sensitivity failed: %s\n", s.error.c_str());
        return 1;
    }
    std::size_t changes = 0;
    for (const auto& in : s.inputs)
        changes += in.changes.size();
    std::printf("\n| tornado | inputs | changed designs | p50 ms | min ms |\n|---|---|---|---|---|\n");
    std::printf("| Llama 3 405B, 16,384 H100 | %zu | %zu | %.1f | %.1f |\n", s.inputs.size(), changes,
                ms[ms.size() / 2], ms.front());

    UpgradesResult u;
    ms = bench::timedMs([&] { u = analyzeUpgrades(*loaded.design, *loaded.catalog); });
    if (!u.ok()) {
        std::fprintf(stderr, "upgrades failed: %s\n", u.error.c_str());
        return 1;
    }
    std::printf("\n| what-if upgrades | upgrades | p50 ms | min ms |\n|---|---|---|---|\n");
    std::printf("| Llama 3 405B, 16,384 H100 | %zu | %.1f | %.1f |\n", u.upgrades.size(), ms[ms.size() / 2],
                ms.front());

    // The compare view's Scale tab: one sweep per design, one after another.
    std::vector<DesignLoad> four;
    for (const char* name :
         {"dgx-h100-superpod-4su", "dgx-b200-superpod-8su", "gb200-nvl72-8rack", "mi300x-roce-128node"}) {
        four.push_back(loadDesignFile(std::string(argv[1]) + "/" + name + ".cluster.json", Catalog::builtin()));
        if (!four.back().ok()) {
            std::fprintf(stderr, "%s does not load\n", name);
            return 1;
        }
    }
    std::size_t sizes = 0;
    ms = bench::timedMs([&] {
        sizes = 0;
        for (const DesignLoad& d : four)
            sizes += sweepScale(*d.design, *d.catalog).points.size();
    });
    std::printf("\n| compare view sweeps | designs | sizes | p50 ms | min ms |\n|---|---|---|---|---|\n");
    std::printf("| H100 4 SU, B200 8 SU, GB200 NVL72 8 racks, MI300X 128 nodes | 4 | %zu | %.1f | %.1f |\n", sizes,
                ms[ms.size() / 2], ms.front());
    return 0;
}
