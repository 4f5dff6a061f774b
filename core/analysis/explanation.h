#pragma once
// Every number the studio shows can explain itself: the formula it comes
// from and each input with its value, unit and source.
#include <string>
#include <vector>

namespace studio {

struct ExplainInput {
    std::string name;
    double value = 0;
    std::string unit;
    std::string source;  // a catalog citation, a default's origin, or "design"
};

struct Explanation {
    std::string formula;
    std::vector<ExplainInput> inputs;
    // Why the figure is not shown ("not runnable: ...", "never completes:
    // ..."), or "" when it is.
    std::string unavailable;
};

}  // namespace studio
