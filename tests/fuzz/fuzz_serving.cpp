// A serving design's inputs as structured bytes: a shipped serving design
// (first byte) with the fuzzer's values for every field of its
// workload.serving, parallelism and model sections, the counts that size
// it, the GPU it serves on and that GPU's figures, and its facility
// (design_mutation.h), read as a file and put through every verb
// (fuzz_checks.h), `metrics`' serving object first.
#include <cstddef>
#include <cstdint>

#include <fuzzer/FuzzedDataProvider.h>

#include "core/catalog/catalog.h"
#include "core/format/design_reader.h"
#include "tests/fuzz/design_mutation.h"
#include "tests/fuzz/fuzz_checks.h"
#include "tests/fuzz/shipped_designs.h"

extern "C" int LLVMFuzzerInitialize(int*, char***)
{
    studio::fuzz::prepare();
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    using namespace studio;
    FuzzedDataProvider in(data, size);
    const fuzz::ShippedDesign& shipped =
        fuzz::pickDesign(in.ConsumeIntegral<std::uint8_t>(), [](const fuzz::ShippedDesign& d) { return d.serving; });
    Json doc = shipped.doc;
    Json& workload = doc["workload"];
    fuzz::mutateFields(in, workload["serving"], fields::serving());
    fuzz::mutateFields(in, workload["parallelism"], fields::parallelism());
    fuzz::mutateFields(in, workload["model"], fields::model());
    fuzz::mutateCounts(in, doc);
    fuzz::mutateParts(in, doc, PartKind::Accelerator);
    fuzz::mutateFigures(in, doc, PartKind::Accelerator);
    fuzz::mutateFields(in, doc["facility"], fields::facility());

    fuzz::printDesignIfAsked(doc);
    const Catalog& base = Catalog::builtin();
    const DesignLoad loaded = readDesignJson(doc, base);
    fuzz::checkDesignVerbs(loaded, base, fuzz::userTextOf(doc));
    return 0;
}
