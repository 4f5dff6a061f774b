#pragma once
// Preconditions whose breach is a bug in the caller, not bad input: an index
// of -1 handed to a document mutator, a field name that is not in its table.
// Checked in every build (the checks are a compare and a branch), and a
// breach stops the program at once with where and what, instead of going on
// to corrupt a design or read out of bounds. Bad input never comes here: it
// is a Problem with a JSON pointer.
namespace studio {

[[noreturn]] void contractViolation(const char* condition, const char* file, int line);

}  // namespace studio

#define STUDIO_EXPECTS(condition)                                                                                      \
    ((condition) ? static_cast<void>(0) : ::studio::contractViolation(#condition, __FILE__, __LINE__))
