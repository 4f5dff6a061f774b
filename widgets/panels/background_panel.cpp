#include "widgets/panels/background_panel.h"

#include "core/design/design.h"
#include "widgets/common/qt_string.h"
#include "widgets/panels/message_stack.h"

namespace studio {

QString BackgroundPanel::servingHint(const Design& design)
{
    return design.workload.isServing()
        ? tr("This design serves: the Serving dock sizes it and searches the best way to serve it, aggregated or "
             "disaggregated.")
        : QString();
}

void BackgroundPanel::showWhyNone(MessageStack& stack, const QString& none, const std::string* error, bool isRunning,
                                  const QString& running, const Design& design)
{
    if (error)
        stack.showMessage(tr("%1: %2.").arg(none, q(*error)).toHtmlEscaped(), servingHint(design));
    else
        stack.showMessage(isRunning ? running : tr("%1: the design has errors (see the Warnings dock).").arg(none));
}

}  // namespace studio
