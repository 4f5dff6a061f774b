#include "widgets/search/layout_search_service.h"

namespace studio {

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
    return workInto(&current_, [options](const Design& design, const Catalog& catalog, const Context& context) {
        SearchOptions o = options;
        o.cancel = context.cancel;
        o.progress = context.progress;
        return searchLayouts(design, catalog, o);
    });
}

}  // namespace studio
