#include "core/contract.h"

#include <cstdio>
#include <cstdlib>

namespace studio {

void contractViolation(const char* condition, const char* file, int line)
{
    std::fprintf(stderr, "cluster-studio: internal error: precondition %s failed at %s:%d\n", condition, file, line);
    std::fflush(stderr);
    std::abort();
}

}  // namespace studio
