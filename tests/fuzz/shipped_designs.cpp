#include "tests/fuzz/shipped_designs.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>

#include "core/analysis/inventory.h"
#include "core/catalog/catalog.h"
#include "core/design/design_index.h"
#include "core/design/resize.h"
#include "core/format/design_reader.h"
#include "core/format/embedded_parts.h"
#include "core/json/json_text.h"

namespace studio::fuzz {
namespace {

std::vector<ShippedDesign> readAll()
{
    namespace fs = std::filesystem;
    const fs::path root(STUDIO_SOURCE_DIR);
    std::vector<ShippedDesign> out;
    for (const char* dir : {"presets", "tests/data/good", "tests/data/published"}) {
        std::vector<fs::path> files;
        for (const auto& entry : fs::directory_iterator(root / dir))
            if (entry.path().filename().string().ends_with(".cluster.json"))
                files.push_back(entry.path());
        std::sort(files.begin(), files.end());
        for (const fs::path& path : files) {
            ShippedDesign d;
            d.file = fs::relative(path, root).string();
            const FileText file = readTextFile(path.string());
            const DesignLoad loaded = readDesignText(file.text, Catalog::builtin());
            if (file.error || !loaded.ok()) {
                // The harnesses' seeds are valid designs; tst_format says why one is not.
                std::fprintf(stderr, "%s does not load; run tst_format\n", d.file.c_str());
                std::abort();
            }
            d.text = file.text;
            d.doc = parseJsonText(file.text).doc;
            d.serving = loaded.design->workload.isServing();
            d.parts = partsUsedBy(*loaded.design, *loaded.catalog);
            d.gpus = takeInventory(DesignIndex(*loaded.design, *loaded.catalog)).gpus;
            if (const ScaleUnitResult unit = findScaleUnit(*loaded.design, *loaded.catalog); unit.unit)
                d.unitGpus = unit.unit->gpusPerInstance;
            out.push_back(std::move(d));
        }
    }
    return out;
}

}  // namespace

const std::vector<ShippedDesign>& shippedDesigns()
{
    static const std::vector<ShippedDesign> all = readAll();
    return all;
}

const ShippedDesign& pickDesign(unsigned n, const std::function<bool(const ShippedDesign&)>& keep)
{
    std::vector<const ShippedDesign*> some;
    for (const ShippedDesign& d : shippedDesigns())
        if (keep(d))
            some.push_back(&d);
    return *some.at(n % some.size());
}

}  // namespace studio::fuzz
