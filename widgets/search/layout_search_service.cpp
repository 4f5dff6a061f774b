#include "widgets/search/layout_search_service.h"

#include <memory>

namespace studio {

LayoutSearchService::LayoutSearchService(DesignDocument* document, AnalysisService* analyses, QObject* parent)
    : BackgroundRunner(document, analyses, parent)
{}

void LayoutSearchService::setObjective(Objective objective)
{
    if (objective == objective_)
        return;
    objective_ = objective;
    restart();
}

BackgroundRunner::Work LayoutSearchService::work()
{
    SearchOptions options;
    options.objective = objective_;
    options.top = kTop;
    options.keepPoints = true;  // the scatter shows every feasible layout
    return [this, options](const Design& design, const Catalog& catalog, const Context& context) mutable -> Publish {
        options.cancel = context.cancel;
        options.progress = context.progress;
        auto result = std::make_shared<SearchResult>(searchLayouts(design, catalog, options));
        if (result->cancelled)
            return {};
        return [this, result] {
            current_ = std::move(*result);
            last_ = current_;
        };
    };
}

}  // namespace studio
