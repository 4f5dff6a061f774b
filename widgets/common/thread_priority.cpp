#include "widgets/common/thread_priority.h"

#ifdef __linux__
#include <sys/resource.h>
#include <unistd.h>
#endif

namespace studio {

void lowerThisThreadsPriority()
{
#ifdef __linux__
    setpriority(PRIO_PROCESS, id_t(gettid()), 10);
#endif
}

}  // namespace studio
