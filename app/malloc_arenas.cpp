#include "app/malloc_arenas.h"

#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace studio {

void limitMallocArenas()
{
#if defined(__GLIBC__)
    mallopt(M_ARENA_MAX, 2);
#endif
}

}  // namespace studio
