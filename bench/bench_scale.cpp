// Measures core/scale on one core for the 16,384-GPU Llama 3 preset: the
// whole scale sweep, strong and weak, a layout search at every size, and
// the whole sensitivity tornado. Not a test: results go to
// docs/performance.md.
// Usage: bench_scale PRESET_DIR
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

#include "core/format/design_reader.h"
#include "core/scale/scale_sweep.h"
#include "core/scale/sensitivity.h"

using namespace studio;
using Clock = std::chrono::steady_clock;

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
        std::vector<double> ms;
        SweepResult r;
        for (int i = 0; i < 7; ++i) {
            const auto t0 = Clock::now();
            r = sweepScale(*loaded.design, *loaded.catalog, options);
            ms.push_back(std::chrono::duration<double, std::milli>(Clock::now() - t0).count());
        }
        if (!r.ok()) {
            std::fprintf(stderr, "sweep failed: %s\n", r.error.c_str());
            return 1;
        }
        std::sort(ms.begin(), ms.end());
        const auto runs = std::count_if(r.points.begin(), r.points.end(), [](const SweepPoint& p) { return p.best; });
        std::printf("| Llama 3 405B, 16,384 H100, %s, %lld-%lld GPUs | %zu | %td | %.1f | %.1f | %.1f |\n",
                    scaling == Scaling::Weak ? "weak" : "strong", static_cast<long long>(r.points.front().gpus),
                    static_cast<long long>(r.points.back().gpus), r.points.size(), runs, ms[ms.size() / 2], ms.front(),
                    ms[ms.size() / 2] / double(r.points.size()));
    }
    std::vector<double> ms;
    SensitivityResult s;
    for (int i = 0; i < 7; ++i) {
        const auto t0 = Clock::now();
        s = analyzeSensitivity(*loaded.design, *loaded.catalog);
        ms.push_back(std::chrono::duration<double, std::milli>(Clock::now() - t0).count());
    }
    if (!s.ok()) {
        std::fprintf(stderr, "sensitivity failed: %s\n", s.error.c_str());
        return 1;
    }
    std::sort(ms.begin(), ms.end());
    std::size_t changes = 0;
    for (const auto& in : s.inputs)
        changes += in.changes.size();
    std::printf("\n| tornado | inputs | changed designs | p50 ms | min ms |\n|---|---|---|---|---|\n");
    std::printf("| Llama 3 405B, 16,384 H100 | %zu | %zu | %.1f | %.1f |\n", s.inputs.size(), changes,
                ms[ms.size() / 2], ms.front());
    return 0;
}
