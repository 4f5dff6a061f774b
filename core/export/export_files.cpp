#include "core/export/export_files.h"

#include <iterator>

#include "core/analysis/inventory.h"
#include "core/enum_names.h"
#include "core/export/calculon_files.h"
#include "core/export/netbox_csv.h"
#include "core/export/physical_design.h"
#include "core/export/slurm_topology.h"

namespace studio {

namespace {

// Each target's name on the command line and its name for people, in
// ExportTarget's order (each value is its position).
struct TargetNames {
    const char *name, *title;
};
constexpr TargetNames kTargetNames[] = {{"netbox", "NetBox"}, {"slurm", "Slurm"}, {"calculon", "Calculon"}};
static_assert(std::size(kTargetNames) == kExportTargets.size());

}  // namespace

const char* exportTargetName(ExportTarget t)
{
    return kTargetNames[std::size_t(t)].name;
}

const char* exportTargetTitle(ExportTarget t)
{
    return kTargetNames[std::size_t(t)].title;
}

bool exportNeedsFolder(ExportTarget t)
{
    return t != ExportTarget::Slurm;
}

bool exportTargetFromName(const std::string& name, ExportTarget* out)
{
    return enumFromName<ExportTarget>(kExportTargets, exportTargetName, name, out);
}

std::string exportTargetChoices()
{
    return enumChoices<ExportTarget>(kExportTargets, exportTargetName);
}

namespace {

// What a reader of the folder needs: how to run it and what it leaves out.
std::string calculonReadme(const Design& design, const std::vector<std::string>& notes)
{
    std::string text = "# " + design.name +
        " for Calculon\n\n"
        "Written by Cluster Studio for Calculon (github.com/calculon-ai/calculon, commit caa4b11). "
        "From a Calculon checkout, with this folder as DIR:\n\n    " +
        calculonCommand("DIR") + "\n\nWhat the files approximate or leave out:\n\n";
    for (const std::string& n : notes)
        text += "- " + n + "\n";
    return text;
}

}  // namespace

DesignExport exportDesign(const Design& design, const Catalog& catalog, ExportTarget target)
{
    DesignExport out;
    if (target == ExportTarget::Calculon) {
        CalculonFiles c = calculonFiles(design, catalog);
        if (!c.error.empty()) {
            out.error = std::move(c.error);
            return out;
        }
        out.files.push_back({"model.json", c.model.dump(2) + "\n"});
        out.files.push_back({"system.json", c.system.dump(2) + "\n"});
        out.files.push_back({"execution.json", c.execution.dump(2) + "\n"});
        out.files.push_back({"README.md", calculonReadme(design, c.notes)});
        out.notes = std::move(c.notes);
        return out;
    }
    const DesignIndex index(design, catalog);
    const Inventory inventory = takeInventory(index);
    const PhysicalDesign physical = expandDesign(index, inventory);
    if (!physical.ok()) {
        out.error = physical.error;
        return out;
    }
    switch (target) {
    case ExportTarget::NetBox:
        for (NetBoxFile& f : netBoxCsvs(physical, index))
            out.files.push_back({std::move(f.name), std::move(f.csv)});
        break;
    case ExportTarget::Calculon: break;  // written above, from the analysis
    case ExportTarget::Slurm:
        if (inventory.nodes == 0) {
            out.error = "the design has no nodes for Slurm to schedule";
            return out;
        }
        out.files.push_back({"topology.conf", slurmTreeTopology(physical, index)});
        if (std::string block = slurmBlockTopology(physical, index); !block.empty())
            out.files.push_back({"topology.block.conf", std::move(block)});
        break;
    }
    return out;
}

}  // namespace studio
