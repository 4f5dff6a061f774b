#include "widgets/panels/background_panel.h"

#include "core/design/design.h"

namespace studio {

QString BackgroundPanel::servingHint(const Design& design)
{
    return design.workload.isServing()
        ? tr("This design serves: the Serving dock sizes it and searches the best way to serve it, aggregated or "
             "disaggregated.")
        : QString();
}

}  // namespace studio
