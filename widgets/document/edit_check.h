#pragma once
// Before an edit is pushed, the studio checks the design it would make: an
// edit that would introduce a validation error is refused with that error's
// message, so the document never holds an invalid design.
#include <QString>

#include "core/design/design.h"

namespace studio {

class DesignDocument;

// "" when `proposed` has no error that the current design does not have.
QString refusalFor(const DesignDocument& document, const Design& proposed);

}  // namespace studio
