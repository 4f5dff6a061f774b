#include "widgets/serving/arrival_band_service.h"

namespace studio {

ArrivalBandService::ArrivalBandService(DesignDocument* document, AnalysisService* analyses, QObject* parent)
    : BackgroundRunner(document, analyses, parent)
{}

BackgroundRunner::Work ArrivalBandService::work()
{
    return workInto(&current_, [](const Design& design, const Catalog& catalog, const Context& context) {
        Replayed r;
        r.band = arrivalBand(design, catalog, context.cancel, context.progress);
        r.cancelled = context.cancel && context.cancel->load();
        return r;
    });
}

}  // namespace studio
