#pragma once
// What must hold of everything a user sees, checked the same way whichever
// harness reached the design:
// - no output holds a NaN or an infinity (JSON walked, text scanned);
// - every JSON output prints (nlohmann refuses text that is not UTF-8);
// - `validate` accepts exactly the designs `metrics` accepts;
// - saving and reading again gives the same design and the same text.
// A breach prints what broke and aborts, so libFuzzer keeps the input.
#include <string>
#include <string_view>

#include "core/catalog/catalog.h"
#include "core/format/design_reader.h"

namespace studio::fuzz {

[[noreturn]] void finding(const std::string& what);

// Reads the built-in catalog, the shipped designs and what the checks
// compare with: a harness calls it from LLVMFuzzerInitialize, so that time
// is not its first input's.
void prepare();

// Every number in `output` is finite.
void requireFinite(const Json& output, std::string_view what);
// `output` is finite and dumps as `cluster-studio` would print it.
void requirePrintable(const Json& output, std::string_view what);
// `text` shows no "nan" or "inf" figure, nor one overflowed to the int64
// limits. A word the user wrote (in a name, a description, a part) can be
// either, so `userText` holds every text the user gave, and those words
// are only looked for when it has neither.
void requireFiniteText(std::string_view text, std::string_view what, std::string_view userText);

// What a design document lets the user write, for requireFiniteText: its
// JSON text and every key and string in it as the outputs print them (a
// name "\tinf" is "\\tinf" in the JSON text, but prints the word "inf").
std::string userTextOf(const Json& doc);

// `cluster-studio validate FILE` exits 0 for this read of FILE.
bool validateAccepts(const DesignLoad& loaded);

// Every verb a read design goes through, checked: a refused read names
// its errors; an accepted one goes through `metrics` (JSON and text, with
// the serving figures), `compare`, the explanations the studio shows, the
// what-if upgrades, `normalize` (plain and --embed-parts). `base` is the
// catalog it was read against; `userText` as for requireFiniteText.
void checkDesignVerbs(const DesignLoad& loaded, const Catalog& base, std::string_view userText);

// Fuzz bytes as the text a user can give: what is not UTF-8 becomes U+FFFD
// and a NUL ends it, as the command line's arguments reach the core through
// QString (and a file's strings must be UTF-8).
std::string asUtf8Text(std::string_view bytes);

// With FUZZ_PRINT_DESIGN set, prints the design a structured harness built
// from its input, so a finding becomes a file for tests/data/bad.
void printDesignIfAsked(const Json& design);

}  // namespace studio::fuzz
