#include "widgets/serving/serving_search_service.h"

namespace studio {

ServingSearchService::ServingSearchService(DesignDocument* document, AnalysisService* analyses, QObject* parent)
    : BackgroundRunner(document, analyses, parent)
{
}

BackgroundRunner::Work ServingSearchService::work()
{
    return workInto(&current_, [](const Design& design, const Catalog& catalog, const Context& context) {
        ServingSearchOptions o;
        o.top = kTop;
        o.cancel = context.cancel;
        o.progress = context.progress;
        return searchServing(design, catalog, o);
    });
}

}  // namespace studio
