// Measures one full recompute of every analysis for each preset and for a
// 131,072-GPU design, on one core: analyzeDesign (the structs the panels
// read) and, separately, metricsJson (the CLI's serialisation); with a
// serving design, its whole serving analysis (analyzeServing). Not a test:
// results go to docs/performance.md.
// Usage: bench_analysis PRESET_DIR [SERVING_DESIGN]
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "core/design/resize.h"
#include "core/format/design_reader.h"
#include "core/metrics/metrics.h"
#include "core/model/analysis.h"
#include "core/serving/serving.h"

using namespace studio;
using Clock = std::chrono::steady_clock;

namespace {

struct Timing {
    double medianUs = 0, p95Us = 0, minUs = 0;
};

template <typename F>
Timing measure(F&& f)
{
    for (int i = 0; i < 50; ++i)
        f();  // warm caches and the allocator
    std::vector<double> us;
    const auto budget = Clock::now() + std::chrono::milliseconds(400);
    while (us.size() < 200 || (Clock::now() < budget && us.size() < 20000)) {
        const auto t0 = Clock::now();
        f();
        us.push_back(std::chrono::duration<double, std::micro>(Clock::now() - t0).count());
    }
    std::sort(us.begin(), us.end());
    return {us[us.size() / 2], us[us.size() * 95 / 100], us.front()};
}

void report(const std::string& name, const Design& d, const Catalog& catalog)
{
    volatile double sink = 0;
    const Timing analysis = measure([&] { sink = sink + analyzeDesign(d, catalog).step.stepS; });
    const Analysis a = analyzeDesign(d, catalog);
    const Timing json = measure([&] { sink = sink + double(metricsJson(d, a).size()); });
    std::printf("| %-44s | %9lld | %10zu | %8.1f | %8.1f | %8.1f | %8.1f |\n", name.c_str(),
                static_cast<long long>(a.inventory.gpus), d.components.size() + d.links.size(), analysis.medianUs,
                analysis.p95Us, json.medianUs, json.p95Us);
}

}  // namespace

int main(int argc, char** argv)
{
    if (argc != 2 && argc != 3) {
        std::fprintf(stderr, "usage: bench_analysis PRESET_DIR [SERVING_DESIGN]\n");
        return 2;
    }
    std::vector<std::filesystem::path> files;
    for (const auto& e : std::filesystem::directory_iterator(argv[1]))
        if (e.path().string().ends_with(".cluster.json"))
            files.push_back(e.path());
    std::sort(files.begin(), files.end());
    std::printf("| design | GPUs | items | analyses p50 us | p95 us | metrics JSON p50 us | p95 us |\n");
    std::printf("|---|---|---|---|---|---|---|\n");
    std::optional<Design> large;
    std::shared_ptr<const Catalog> largeCatalog;
    for (const auto& f : files) {
        DesignLoad l = loadDesignFile(f.string(), Catalog::builtin());
        if (!l.ok()) {
            std::fprintf(stderr, "%s does not load\n", f.c_str());
            return 1;
        }
        report(f.filename().string(), *l.design, *l.catalog);
        if (f.filename().string().find("16k") != std::string::npos) {
            large = *l.design;
            largeCatalog = l.catalog;
        }
    }
    if (large) {
        // The same design resized to 131,072 GPUs: the items stay the same, so
        // the time must too.
        if (auto p = resizeToGpus(*large, *largeCatalog, 131072)) {
            std::fprintf(stderr, "resize: %s\n", p->message.c_str());
            return 1;
        }
        report("H100 16K design resized to 131,072 GPUs", *large, *largeCatalog);

        // One training configuration, as a parallelism search would evaluate
        // it: the hardware is profiled once, the step-time model runs per
        // candidate (the quantity Calculon takes 2.2-2.5 ms for).
        std::vector<Problem> warnings;
        const Analysis a = analyzeDesign(*large, *largeCatalog);
        volatile double sink = 0;
        const Timing step =
            measure([&] { sink = sink + modelStepTime(a.hardware, a.hierarchy, a.workload, 0.01, false).stepS; });
        std::printf("\nOne configuration's step time (modelStepTime): p50 %.2f us, p95 %.2f us, min %.2f us\n",
                    step.medianUs, step.p95Us, step.minUs);
    }
    if (argc == 3) {
        const DesignLoad l = loadDesignFile(argv[2], Catalog::builtin());
        const Serving s = l.ok() ? analyzeServing(*l.design, *l.catalog) : Serving{};
        if (!l.ok() || !s.ok()) {
            std::fprintf(stderr, "%s does not load or serve\n", argv[2]);
            return 1;
        }
        volatile double sink = 0;
        const Timing serving = measure([&] { sink = sink + analyzeServing(*l.design, *l.catalog).decode.tpotS; });
        std::printf("\nThe serving analysis (analyzeServing, %zu curve points, max batch %lld): p50 %.1f us, p95 %.1f "
                    "us, min %.1f us\n",
                    s.curve.size(), static_cast<long long>(s.maxBatch), serving.medianUs, serving.p95Us, serving.minUs);
    }
    return 0;
}
