#pragma once
// Calculon's inputs (github.com/calculon-ai/calculon at caa4b11) as a
// design and its workload (docs/export.md, "Importing"): the system's
// processor becomes an accelerator part, its first network (filled, the
// NVLink domain) the node and its scale-up link, the networks after it a
// fat tree of NICs, links and switches of the matching bandwidth; the model
// and execution become the training workload. The new parts travel in the
// design (its embedded catalog). What the studio cannot represent is said in
// the notes; a file the studio cannot read is refused whole, every problem
// named by file and JSON pointer.
#include <optional>
#include <string>
#include <vector>

#include "core/design/design.h"

namespace studio {

struct CalculonSource {
    std::string path;  // for messages and the model's name (its file's stem)
    Json doc;
};

struct CalculonImport {
    std::optional<Json> design;       // the design file's JSON; none when anything was refused
    std::vector<std::string> errors;  // "FILE: /pointer: what is wrong"
    std::vector<std::string> notes;   // what was left out or assumed, one sentence each
    bool ok() const { return design.has_value(); }
};

// The files in any order, each known by its keys: a system has "networks",
// a model "num_blocks", an execution "num_procs". A system and a model are
// needed; the execution gives the GPU count and the layout, else `gpus`
// (0: none) gives the count.
CalculonImport importCalculon(const std::vector<CalculonSource>& files, std::int64_t gpus = 0);
// The same, reading each path (a file that cannot be read or parsed is an
// error naming it).
CalculonImport importCalculonFiles(const std::vector<std::string>& paths, std::int64_t gpus = 0);

}  // namespace studio
