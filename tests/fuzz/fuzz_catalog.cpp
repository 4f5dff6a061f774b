// `--catalog FILE`: any bytes as a user catalog, merged over the built-in
// one as catalogFor does (app/cli/command_line.cpp: Catalog::mergeFile).
// When it merges, a shipped design is read against it with its parts in
// use: a part that replaces a built-in one (same id) is used where that one
// was, and a new part takes the place of the built-in parts of its kind.
// Of the designs that then use the file's parts, the input's hash picks one
// (a design costs a read and every verb), which goes through every verb
// (fuzz_checks.h).
#include <cstddef>
#include <cstdint>
#include <functional>
#include <set>
#include <string>
#include <string_view>
#include <utility>
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
    const auto problems = catalog.merge(parsed.doc, "FILE", true);
    if (hasErrors(problems))
        return 0;

    // The parts the file gave, by id, and their kinds.
    std::set<std::string> replaced;
    std::vector<const Part*> added;
    for (const Json& p : parsed.doc.at("parts")) {
        const std::string id = p.at("id").get<std::string>();
        if (Catalog::builtin().find(id))
            replaced.insert(id);
        else
            added.push_back(catalog.find(id));
    }

    std::vector<std::pair<const fuzz::ShippedDesign*, Json>> users;
    for (const fuzz::ShippedDesign& shipped : fuzz::shippedDesigns()) {
        bool uses = false;
        for (const std::string& id : shipped.parts)
            uses = uses || replaced.count(id);
        Json doc = shipped.doc;
        for (const Part* part : added) {
            for (Json& c : doc["components"]) {
                const Part* was = Catalog::builtin().find(c["part"].get<std::string>());
                if (was && was->kind == part->kind) {
                    c["part"] = part->id;
                    uses = true;
                }
            }
        }
        if (uses)
            users.emplace_back(&shipped, std::move(doc));
    }
    if (users.empty())
        return 0;
    const auto& [shipped, doc] = users[std::hash<std::string_view>{}(text) % users.size()];
    fuzz::checkDesignVerbs(readDesignJson(doc, catalog), catalog, std::string(text) + shipped->text);
    return 0;
}
