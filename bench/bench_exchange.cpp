// Measures core/export and core/import on one core: every export target on
// the DGX H100 SuperPOD preset resized to 1,024 nodes (8,192 GPUs) and on
// the 2,048-node Llama 3 preset, the Calculon import of an export, and the
// device-type import. Issue 40 asks that a 1,024-node design export in
// under a second. Not a test: results go to docs/performance.md.
// Usage: bench_exchange SOURCE_DIR
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

#include "bench/timed_runs.h"
#include "core/design/resize.h"
#include "core/export/calculon_files.h"
#include "core/export/export_files.h"
#include "core/format/design_reader.h"
#include "core/import/calculon_import.h"
#include "core/import/netbox_device_type.h"
#include "core/json/json_text.h"

using namespace studio;

namespace {

void report(const std::string& what, const std::vector<double>& ms, const std::string& size)
{
    std::printf("%-58s median %8.1f ms  min %8.1f  max %8.1f  %s\n", what.c_str(), ms[3], ms.front(), ms.back(),
                size.c_str());
}

}  // namespace

int main(int argc, char** argv)
{
    if (argc < 2) {
        std::fprintf(stderr, "usage: bench_exchange SOURCE_DIR\n");
        return 2;
    }
    const std::string root = argv[1];
    const Catalog& catalog = Catalog::builtin();
    struct Case {
        std::string name, preset;
        std::int64_t gpus;
    };
    for (const Case& c : {Case{"DGX H100 SuperPOD at 1,024 nodes", "dgx-h100-superpod-4su.cluster.json", 8192},
                          Case{"Llama 3 405B, 2,048 nodes", "h100-16k-roce-llama3.cluster.json", 0}}) {
        DesignLoad loaded = loadDesignFile(root + "/presets/" + c.preset, catalog);
        if (!loaded.ok())
            return 1;
        Design design = *loaded.design;
        if (c.gpus > 0 && resizeToGpus(design, *loaded.catalog, c.gpus))
            return 1;
        for (ExportTarget t : kExportTargets) {
            std::size_t bytes = 0, files = 0;
            const auto ms = bench::timedMs([&] {
                const DesignExport e = exportDesign(design, *loaded.catalog, t);
                bytes = 0;
                files = e.files.size();
                for (const auto& f : e.files)
                    bytes += f.text.size();
            });
            report(c.name + ": export --to " + exportTargetName(t), ms,
                   std::to_string(files) + " files, " + std::to_string(bytes / 1024) + " KiB");
        }
        const CalculonFiles files = calculonFiles(design, *loaded.catalog);
        const auto ms = bench::timedMs([&] {
            const CalculonImport i = importCalculon(
                {{"model.json", files.model}, {"system.json", files.system}, {"execution.json", files.execution}});
            if (!i.ok())
                std::abort();
        });
        report(c.name + ": import --from calculon (its export)", ms, "");
    }
    std::vector<DeviceTypeSource> types;
    for (const char* f : {"example-xs-64-ndr.yaml", "example-gx-8-h100.yaml"})
        types.push_back({f, readTextFile(root + "/tests/data/netbox/" + f).text});
    const auto ms = bench::timedMs([&] {
        if (!importNetBoxDeviceTypes({types[0]}, catalog, {}).ok() ||
            !importNetBoxDeviceTypes({types[1]}, catalog, {"gpu.h100-sxm", ""}).ok())
            std::abort();
    });
    report("import --from netbox: a 66-port switch and an 8-GPU server", ms, "");
    return 0;
}
