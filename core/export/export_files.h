#pragma once
// A design written for another tool (docs/export.md): the files each target
// takes, by name, so the `export` verb and the studio write the same bytes.
#include <array>
#include <string>
#include <vector>

#include "core/catalog/catalog.h"
#include "core/design/design.h"

namespace studio {

enum class ExportTarget {
    NetBox,    // an import file per model (CSVs, the device types as YAML), numbered in import order
    Slurm,     // topology.conf (tree), and topology.block.conf when NVLink domains span nodes
    Calculon,  // model.json, system.json, execution.json and a README.md that says how to run them
};
inline constexpr std::array<ExportTarget, 3> kExportTargets{ExportTarget::NetBox, ExportTarget::Slurm,
                                                            ExportTarget::Calculon};
const char* exportTargetName(ExportTarget t);   // "netbox", "slurm", "calculon"
const char* exportTargetTitle(ExportTarget t);  // "NetBox", "Slurm", "Calculon": for people
// Its files are a set that only makes sense together (NetBox's CSVs,
// Calculon's inputs): they go into a folder, never one of them printed.
bool exportNeedsFolder(ExportTarget t);
bool exportTargetFromName(const std::string& name, ExportTarget* out);
std::string exportTargetChoices();  // "netbox|slurm", for usage lines

struct ExportedFile {
    std::string name;  // relative: "topology.conf"
    std::string text;
};

struct DesignExport {
    std::vector<ExportedFile> files;  // the first is the one printed when no folder is given
    std::string error;                // the design cannot be written for the target
    std::vector<std::string> notes;   // what the target cannot represent, one sentence each
};

// `design` must be valid against `catalog`.
DesignExport exportDesign(const Design& design, const Catalog& catalog, ExportTarget target);

}  // namespace studio
