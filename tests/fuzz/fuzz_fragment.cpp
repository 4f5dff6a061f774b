// The clipboard: any bytes pasted into the studio, read as
// MainWindow::paste reads them (app/main_window.cpp: readFragmentText), and
// a fragment that reads copied back (MainWindow::copy) and read again to
// the same items.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "core/format/design_reader.h"
#include "core/format/design_writer.h"
#include "tests/fuzz/fuzz_checks.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    using namespace studio;
    const FragmentLoad loaded = readFragmentText(std::string_view(reinterpret_cast<const char*>(data), size));
    if (!loaded.fragment) {
        if (!hasErrors(loaded.problems))
            fuzz::finding("paste: refused without an error");
        return 0;
    }
    std::string copied;
    try {
        copied = fragmentToJson(*loaded.fragment).dump(2);
    } catch (const Json::exception& e) {
        fuzz::finding(std::string("copy: does not print: ") + e.what());
    }
    const FragmentLoad again = readFragmentText(copied);
    if (!again.fragment)
        fuzz::finding("paste of a copy: refused\n" + copied);
    if (again.fragment->components != loaded.fragment->components || again.fragment->links != loaded.fragment->links)
        fuzz::finding("paste of a copy: other items\n" + copied);
    return 0;
}
