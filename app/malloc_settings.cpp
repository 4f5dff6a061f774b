#include "app/malloc_settings.h"

// Any C library header defines __GLIBC__ (through <features.h>): tested
// before one was included, the settings below compiled to nothing.
#include <cstdlib>
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
