// Measures the layout search (core/search) on one core: how many layouts it
// models per second, and the whole search for Llama 3 405B on the
// 16,384-GPU preset and for GPT-3 175B on 1,024 A100 (Calculon's
// optimal-execution case), pruned (the CLI), exhaustive, and keeping every
// feasible point (the studio's Layouts panel), and the serving search of
// the two serving presets (aggregated and disaggregated). Not a test: results go to
// docs/performance.md. Usage: bench_search PRESET_DIR
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

#include "core/design/model_presets.h"
#include "core/format/design_reader.h"
#include "core/search/layout_search.h"
#include "core/serving/serving_search.h"

using namespace studio;
using Clock = std::chrono::steady_clock;

namespace {

// Median and fastest wall time of `runs` searches, in milliseconds.
struct Timing {
    double medianMs = 0, minMs = 0;
};

Timing timeSearch(const Design& d, const Catalog& catalog, const SearchOptions& options, SearchResult* last)
{
    std::vector<double> ms;
    for (int i = 0; i < 7; ++i) {
        const auto t0 = Clock::now();
        *last = searchLayouts(d, catalog, options);
        ms.push_back(std::chrono::duration<double, std::milli>(Clock::now() - t0).count());
    }
    std::sort(ms.begin(), ms.end());
    return {ms[ms.size() / 2], ms.front()};
}

void report(const char* name, const Design& d, const Catalog& catalog, std::int64_t gpus = 0)
{
    struct Mode {
        const char* name;
        bool prune, keepPoints;
    };
    for (const Mode m : {Mode{"pruned (CLI)", true, false}, Mode{"exhaustive", false, false},
                         Mode{"every point (Layouts panel)", false, true}}) {
        SearchOptions o;
        o.prune = m.prune;
        o.keepPoints = m.keepPoints;
        o.gpus = gpus;
        SearchResult r;
        const Timing t = timeSearch(d, catalog, o, &r);
        if (!r.ok()) {
            std::fprintf(stderr, "%s: %s\n", name, r.error.c_str());
            std::exit(1);
        }
        std::printf("| %s | %s | %lld | %lld | %lld | %lld | %.1f | %.1f | %.2f |\n", name, m.name,
                    static_cast<long long>(r.space), static_cast<long long>(r.feasible),
                    static_cast<long long>(r.evaluated), static_cast<long long>(r.rejected.total()), t.medianMs,
                    t.minMs, double(r.evaluated) / (t.medianMs / 1000) / 1e6);
    }
}

Design load(const std::string& path, std::shared_ptr<const Catalog>* catalog)
{
    DesignLoad l = loadDesignFile(path, Catalog::builtin());
    if (!l.ok()) {
        std::fprintf(stderr, "%s does not load\n", path.c_str());
        std::exit(1);
    }
    *catalog = l.catalog;
    return *l.design;
}

}  // namespace

int main(int argc, char** argv)
{
    if (argc != 2) {
        std::fprintf(stderr, "usage: bench_search PRESET_DIR\n");
        return 2;
    }
    const std::string dir = argv[1];
    std::printf("| search | mode | space | feasible | modelled | rejected | p50 ms | min ms | M modelled/s |\n");
    std::printf("|---|---|---|---|---|---|---|---|---|\n");

    std::shared_ptr<const Catalog> catalog;
    const Design llama = load(dir + "/h100-16k-roce-llama3.cluster.json", &catalog);
    report("Llama 3 405B, 16,384 H100", llama, *catalog);

    // GPT-3 175B on 1,024 A100 80GB: 1,024 of the 140-node SuperPOD preset's
    // GPUs, the model, batch and tokens of the GPT-3 preset, and Narayanan
    // et al. 2021's layout for it (t 8, p 8, d 16) as the current one.
    Design gpt3 = load(dir + "/dgx-a100-superpod.cluster.json", &catalog);
    const ModelPreset* preset = findModelPreset("gpt3-175b");
    gpt3.workload.model = preset->model;
    gpt3.workload.training.global_batch = preset->globalBatch;
    gpt3.workload.training.tokens = preset->tokens;
    gpt3.workload.parallelism = {};
    gpt3.workload.parallelism.tp = 8;
    gpt3.workload.parallelism.pp = 8;
    gpt3.workload.parallelism.dp = 16;
    report("GPT-3 175B, 1,024 A100", gpt3, *catalog, 1024);

    // What one modelled layout costs inside the search, for comparison with
    // Calculon's 2.2-2.5 ms per execution.
    SearchOptions o;
    o.prune = false;
    SearchResult r;
    const Timing t = timeSearch(llama, *catalog, o, &r);
    std::printf("\nLlama 3 405B exhaustive: %.3f us per modelled layout (memory, step time, objective, ranking), "
                "%.1f ns per combination of the space\n",
                t.medianMs * 1000 / double(r.evaluated), t.medianMs * 1e6 / double(r.space));

    // The serving search of each serving preset (issue 37's target: under
    // 100 ms on one core).
    std::printf("\n| serving search | configurations | modelled | skipped by the rate bound | p50 ms | min ms |\n");
    std::printf("|---|---|---|---|---|---|\n");
    for (const char* preset : {"serving-llama3-70b-dgx-h100", "serving-grok1-moe-gb200-nvl72"}) {
        const Design d = load(dir + "/" + preset + ".cluster.json", &catalog);
        std::vector<double> ms;
        ServingSearchResult sr;
        for (int i = 0; i < 7; ++i) {
            const auto t0 = Clock::now();
            sr = searchServing(d, *catalog, {});
            ms.push_back(std::chrono::duration<double, std::milli>(Clock::now() - t0).count());
        }
        std::sort(ms.begin(), ms.end());
        if (!sr.ok()) {
            std::fprintf(stderr, "%s: %s\n", preset, sr.error.c_str());
            return 1;
        }
        std::printf("| %s | %lld | %lld | %lld | %.1f | %.1f |\n", d.name.c_str(), static_cast<long long>(sr.space),
                    static_cast<long long>(sr.modelled), static_cast<long long>(sr.pruned), ms[ms.size() / 2],
                    ms.front());
    }
    return 0;
}
