// `--kernels FILE`: any bytes as a user's kernel profile, merged over the
// built-in catalog as catalogFor does (app/cli/command_line.cpp:
// Catalog::mergeKernelsFile). When it merges, a shipped design with one of
// the GPUs it profiles, picked by the input's hash, is read against that
// catalog and goes through every verb (fuzz_checks.h): a profile that reads
// must give finite step times, serving figures and searches on it.
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "core/catalog/catalog.h"
#include "core/format/design_reader.h"
#include "core/json/json_text.h"
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
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    const ParsedJson parsed = parseJsonText(text);
    if (parsed.error)
        return 0;
    Catalog catalog = Catalog::builtin();
    if (hasErrors(catalog.mergeKernels(parsed.doc, "FILE")))
        return 0;
    // The GPUs it profiles: the parts whose kernels it replaced.
    std::vector<const fuzz::ShippedDesign*> users;
    for (const fuzz::ShippedDesign& shipped : fuzz::shippedDesigns()) {
        bool uses = false;
        for (const std::string& id : shipped.parts)
            uses = uses || (catalog.kernels(id) && catalog.kernels(id) != Catalog::builtin().kernels(id));
        if (uses)
            users.push_back(&shipped);
    }
    if (users.empty())
        return 0;
    const fuzz::ShippedDesign& shipped = *users[std::hash<std::string_view>{}(text) % users.size()];
    fuzz::checkDesignVerbs(readDesignJson(shipped.doc, catalog), catalog, std::string(text) + shipped.text);
    return 0;
}
