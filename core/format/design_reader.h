#pragma once
// Reading *.cluster.json: parse, migrate older formats, read every field with
// its type and range, then check the design as a whole (design_validator.h).
// Every problem names its JSON pointer; nothing throws.
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/catalog/catalog.h"
#include "core/design/design.h"
#include "core/problem.h"

namespace studio {

inline constexpr std::string_view kDesignFormat = "cluster-studio.design";

struct DesignLoad {
    std::optional<Design> design;            // set when there are no errors
    std::shared_ptr<const Catalog> catalog;  // the base catalog plus the design's embedded parts
    std::vector<Problem> problems;           // errors and warnings, in file order
    bool ok() const { return design.has_value(); }
};

// A "--set" edit: the value at a JSON pointer of the document.
struct PointerEdit {
    std::string pointer;
    Json value;
};

// Reads design text, with "--set" edits applied to the parsed document
// before it is read, so an edit is checked like the file itself.
DesignLoad readDesignText(std::string_view text, const Catalog& base, const std::vector<PointerEdit>& edits = {});
DesignLoad readDesignJson(Json doc, const Catalog& base);
// The same edits applied to a parsed document (a design built in memory,
// turned into JSON by designToJson).
DesignLoad readDesignJson(Json doc, const Catalog& base, const std::vector<PointerEdit>& edits);
// readDesignText of a file's bytes.
DesignLoad loadDesignFile(const std::string& path, const Catalog& base, const std::vector<PointerEdit>& edits = {});

// A fragment: components and links without a design around them, as the
// studio copies them to the clipboard. Ids and parents are as copied; the
// paste decides what they become.
inline constexpr std::string_view kFragmentFormat = "cluster-studio.fragment";
struct Fragment {
    std::vector<Component> components;
    std::vector<Link> links;
};
struct FragmentLoad {
    std::optional<Fragment> fragment;
    std::vector<Problem> problems;
};
FragmentLoad readFragmentJson(const Json& doc);
// The clipboard's text as a fragment, parsed within the size and depth
// limits a file is (json_text.h): pasted text is anyone's.
FragmentLoad readFragmentText(std::string_view text);

}  // namespace studio
