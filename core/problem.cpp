#include "core/problem.h"

#include <algorithm>

namespace studio {

bool hasErrors(const std::vector<Problem>& problems)
{
    return std::any_of(problems.begin(), problems.end(),
                       [](const Problem& p) { return p.severity == Severity::Error; });
}

std::string formatProblem(const std::string& file, const Problem& problem)
{
    std::string line = file + ": " + (problem.pointer.empty() ? "/" : problem.pointer) + ": ";
    if (problem.severity == Severity::Warning)
        line += "warning: ";
    return line + problem.message;
}

}  // namespace studio
