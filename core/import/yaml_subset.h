#pragma once
// YAML as the NetBox device-type library writes it (block style, its
// yamllint rules), read into JSON: block mappings and sequences, plain,
// quoted and block (| >) scalars, comments and `---` documents. Flow
// collections, anchors, aliases, tags and plain scalars that run over
// several lines are refused with the line they are on, never guessed at:
// the core reads no other YAML, and takes no YAML library for this one
// shape (docs/export.md).
#include <string>
#include <string_view>
#include <vector>

#include "core/design/design.h"

namespace studio {

struct YamlDocuments {
    std::vector<Json> documents;
    std::string error;  // "line 12: ..." when the text is not the subset; documents then empty
};

YamlDocuments readYamlSubset(std::string_view text);

}  // namespace studio
