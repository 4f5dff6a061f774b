#pragma once
// Every number the studio shows can explain itself: the formula it comes
// from and each input with its value, unit and source.
#include <optional>
#include <string>
#include <vector>

namespace studio {

struct ExplainInput {
    std::string name;
    double value = 0;
    std::string unit;
    std::string source;  // a catalog citation, a default's origin, or "design"
};

// How far the model was from the published runs nearest a configuration
// (core/metrics/error_band.h): the figure's expected error.
struct ErrorBand {
    std::vector<std::string> runs;           // the nearest validated runs; empty: none near enough
    double nearestLow = 0, nearestHigh = 0;  // the model's step-time error on them, (predicted - measured) / measured
    double spread = 0;                       // how far beyond them the band reaches (the check runs' spread)
    double errorLow = 0, errorHigh = 0;      // the band: the nearest runs' errors widened by the spread
    double lowFactor = 1, highFactor = 1;    // the real figure over the shown one, from those errors
    std::string basis;                       // what "nearest" meant: same GPU, scale, layout kind
    std::string text;                        // the sentence the studio shows
};

struct Explanation {
    std::string formula;
    std::vector<ExplainInput> inputs;
    // Why the figure is not shown ("not runnable: ...", "never completes:
    // ..."), or "" when it is.
    std::string unavailable;
    // For the figures that follow from the step time; none elsewhere.
    std::optional<ErrorBand> errorBand;
    // A cost's band: the figure with every price at its low and at its high.
    struct Band {
        double low = 0, high = 0;
    };
    std::optional<Band> priceBand;
};

}  // namespace studio
