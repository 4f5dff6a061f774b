#include "widgets/scale/sensitivity_service.h"

namespace studio {

SensitivityService::SensitivityService(DesignDocument* document, AnalysisService* analyses, QObject* parent)
    : BackgroundRunner(document, analyses, parent)
{}

BackgroundRunner::Work SensitivityService::work()
{
    return workInto(&current_, [](const Design& design, const Catalog& catalog, const Context& context) {
        return analyzeSensitivity(design, catalog, context.cancel, context.progress);
    });
}

}  // namespace studio
