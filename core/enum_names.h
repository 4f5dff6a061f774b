#pragma once
// An enum's values by their names, for the command line and the file
// formats: each enum lists its values once (kObjectives, kBudgets, ...) and
// names each value in one function; these read both.
#include <span>
#include <string>

namespace studio {

template <class E>
bool enumFromName(std::span<const E> all, const char* (*nameOf)(E), const std::string& name, E* out)
{
    for (E e : all)
        if (name == nameOf(e)) {
            *out = e;
            return true;
        }
    return false;
}

// "time|energy|days|cost" for a usage line.
template <class E>
std::string enumChoices(std::span<const E> all, const char* (*nameOf)(E))
{
    std::string out;
    for (E e : all)
        out += (out.empty() ? "" : "|") + std::string(nameOf(e));
    return out;
}

}  // namespace studio
