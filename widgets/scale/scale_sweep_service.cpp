#include "widgets/scale/scale_sweep_service.h"

namespace studio {

ScaleSweepService::ScaleSweepService(DesignDocument* document, AnalysisService* analyses, QObject* parent)
    : BackgroundRunner(document, analyses, parent)
{}

void ScaleSweepService::setScaling(Scaling scaling)
{
    if (scaling == scaling_)
        return;
    scaling_ = scaling;
    restart();
}

BackgroundRunner::Work ScaleSweepService::work()
{
    SweepOptions options;
    options.scaling = scaling_;
    return workInto(&current_, [options](const Design& design, const Catalog& catalog, const Context& context) {
        SweepOptions o = options;
        o.cancel = context.cancel;
        o.progress = context.progress;
        return sweepScale(design, catalog, o);
    });
}

}  // namespace studio
