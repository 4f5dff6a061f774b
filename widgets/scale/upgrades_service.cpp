#include "widgets/scale/upgrades_service.h"

namespace studio {

UpgradesService::UpgradesService(DesignDocument* document, AnalysisService* analyses, QObject* parent)
    : BackgroundRunner(document, analyses, parent)
{}

BackgroundRunner::Work UpgradesService::work()
{
    return workInto(&current_, [](const Design& design, const Catalog& catalog, const Context& context) {
        return analyzeUpgrades(design, catalog, context.cancel);
    });
}

}  // namespace studio
