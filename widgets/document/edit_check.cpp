#include "widgets/document/edit_check.h"

#include <set>

#include "core/format/design_validator.h"
#include "widgets/document/design_document.h"

namespace studio {

QString refusalFor(const DesignDocument& document, const Design& proposed)
{
    std::set<std::string> before;
    for (const auto& p : validateDesign(document.design(), document.catalog()))
        if (p.severity == Severity::Error)
            before.insert(p.message);
    for (const auto& p : validateDesign(proposed, document.catalog()))
        if (p.severity == Severity::Error && !before.count(p.message))
            return QString::fromStdString(p.message);
    return {};
}

}  // namespace studio
