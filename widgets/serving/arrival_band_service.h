#pragma once
// The design's first token replayed at the two ends of how its users'
// requests line up (core/serving/closed_loop_replay.h), off the GUI thread
// after each burst of edits while the Serving panel shows: a replay takes
// milliseconds to a second, more than an edit may wait for.
#include <optional>

#include "core/serving/closed_loop_replay.h"
#include "widgets/analysis/background_runner.h"

namespace studio {

class ArrivalBandService : public BackgroundRunner {
    Q_OBJECT
public:
    ArrivalBandService(DesignDocument* document, AnalysisService* analyses, QObject* parent = nullptr);

    // For the design as it is now: nullptr until its replay ends, and where
    // there is none (a disaggregated or unservable design, too many users
    // and tokens to replay).
    const ArrivalBand* band() const { return current_ && current_->band ? &*current_->band : nullptr; }

protected:
    Work work() override;
    void discard() override { current_.reset(); }

private:
    struct Replayed {
        std::optional<ArrivalBand> band;
        bool cancelled = false;
    };
    std::optional<Replayed> current_;
};

}  // namespace studio
