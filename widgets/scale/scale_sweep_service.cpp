#include "widgets/scale/scale_sweep_service.h"

#include <memory>

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
    return [this, options](const Design& design, const Catalog& catalog, const Context& context) mutable -> Publish {
        options.cancel = context.cancel;
        options.progress = context.progress;
        auto result = std::make_shared<SweepResult>(sweepScale(design, catalog, options));
        if (result->cancelled)
            return {};
        return [this, result] { current_ = std::move(*result); };
    };
}

}  // namespace studio
