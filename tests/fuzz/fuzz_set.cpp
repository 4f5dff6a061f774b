// `metrics DESIGN --set POINTER=VALUE ... [--gpus N]` on a shipped design:
// the first byte picks the design, the rest is one argument a line,
// "POINTER=VALUE" for --set or "--gpus=N". Each argument is decoded as the
// command line decodes it, split and parsed as runMetrics does
// (app/cli/command_line.cpp: loadForAnalysis), and a design that reads goes
// through every verb (fuzz_checks.h).
#include <algorithm>
#include <charconv>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/catalog/catalog.h"
#include "core/design/resize.h"
#include "core/format/design_reader.h"
#include "core/format/design_validator.h"
#include "core/json/json_pointer.h"
#include "tests/fuzz/fuzz_checks.h"
#include "tests/fuzz/shipped_designs.h"

namespace {

constexpr std::string_view kGpus = "--gpus=";

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***)
{
    studio::fuzz::prepare();
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    using namespace studio;
    if (size == 0)
        return 0;
    const fuzz::ShippedDesign& shipped = fuzz::pickDesign(data[0], [](const fuzz::ShippedDesign&) { return true; });
    const std::string_view rest(reinterpret_cast<const char*>(data + 1), size - 1);

    std::vector<PointerEdit> edits;
    std::optional<std::int64_t> gpus;
    std::string userText = shipped.text;
    for (std::size_t at = 0; at <= rest.size();) {
        const std::size_t end = std::min(rest.find('\n', at), rest.size());
        const std::string arg = fuzz::asUtf8Text(rest.substr(at, end - at));
        at = end + 1;
        if (arg.empty())
            continue;
        userText += "\n" + arg;
        if (arg.starts_with(kGpus)) {
            // QString::toLongLong: a whole number, nothing around it.
            std::int64_t n = 0;
            const char* first = arg.data() + kGpus.size();
            const char* last = arg.data() + arg.size();
            const auto [ptr, ec] = std::from_chars(first, last, n);
            if (ec != std::errc() || ptr != last || first == last || n < 1)
                return 0;  // a usage error: exit 2 before the design is read
            gpus = n;
            continue;
        }
        const std::size_t eq = arg.find('=');
        if (eq == std::string::npos || eq == 0)
            return 0;  // a usage error
        edits.push_back({arg.substr(0, eq), parseSetValue(arg.substr(eq + 1))});
    }

    const Catalog& base = Catalog::builtin();
    DesignLoad loaded = readDesignText(shipped.text, base, edits);
    if (loaded.ok() && gpus) {
        if (auto problem = resizeToGpus(*loaded.design, *loaded.catalog, *gpus)) {
            if (problem->severity != Severity::Error || problem->message.empty())
                fuzz::finding("--gpus: refused without an error");
            return 0;
        }
        if (hasErrors(validateDesign(*loaded.design, *loaded.catalog)))
            return 0;  // metrics prints the errors and exits 1
    }
    fuzz::checkDesignVerbs(loaded, base, userText);
    return 0;
}
