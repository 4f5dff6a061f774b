#include "app/malloc_settings.h"

#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace studio {

void setUpMalloc()
{
#if defined(__GLIBC__)
    mallopt(M_ARENA_MAX, 2);
    // Setting it at all also turns glibc's raising of it off.
    mallopt(M_MMAP_THRESHOLD, 128 * 1024);
#endif
}

}  // namespace studio
