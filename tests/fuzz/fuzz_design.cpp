// Any bytes as a design file: `validate FILE` and `metrics FILE` read it,
// and a design that reads goes through every verb (fuzz_checks.h).
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "core/catalog/catalog.h"
#include "core/format/design_reader.h"
#include "tests/fuzz/fuzz_checks.h"

extern "C" int LLVMFuzzerInitialize(int*, char***)
{
    studio::fuzz::prepare();
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    using namespace studio;
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    const Catalog& base = Catalog::builtin();
    fuzz::checkDesignVerbs(readDesignText(text, base), base, text);
    return 0;
}
