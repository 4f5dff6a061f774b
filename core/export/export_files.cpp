#include "core/export/export_files.h"

#include "core/analysis/inventory.h"
#include "core/enum_names.h"
#include "core/export/netbox_csv.h"
#include "core/export/physical_design.h"
#include "core/export/slurm_topology.h"

namespace studio {

const char* exportTargetName(ExportTarget t)
{
    switch (t) {
    case ExportTarget::NetBox: return "netbox";
    case ExportTarget::Slurm: return "slurm";
    }
    return "slurm";
}

bool exportNeedsFolder(ExportTarget t)
{
    return t == ExportTarget::NetBox;
}

bool exportTargetFromName(const std::string& name, ExportTarget* out)
{
    return enumFromName<ExportTarget>(kExportTargets, exportTargetName, name, out);
}

std::string exportTargetChoices()
{
    return enumChoices<ExportTarget>(kExportTargets, exportTargetName);
}

DesignExport exportDesign(const Design& design, const Catalog& catalog, ExportTarget target)
{
    DesignExport out;
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
