#include "widgets/serving/serving_search_service.h"

#include "widgets/document/design_document.h"

namespace studio {

ServingSearchService::ServingSearchService(DesignDocument* document, AnalysisService* analyses, QObject* parent)
    : BackgroundRunner(document, analyses, parent)
{
    // Kept for the dock, which shows the last result while the next runs.
    connect(this, &BackgroundRunner::finished, this, [this] {
        if (current_)
            last_ = current_;
    });
    // Another design's result is neither worth showing nor worth keeping.
    connect(document, &DesignDocument::designReset, this, [this] { last_.reset(); });
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
