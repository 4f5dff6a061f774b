#pragma once
// Runs one long analysis of the open design (a layout search, a scale
// sweep) off the GUI thread (BackgroundJob): after every recompute of the
// analyses (so after every burst of edits) it cancels the run in flight and,
// once the edits pause (quietMs), starts one on a copy of the design. A
// result is published only when it belongs to the design as it is now;
// edits never wait for a run.
// Subclasses say what to run (`work`) and keep its result.
#include <algorithm>
#include <cstddef>
#include <optional>

#include "core/catalog/catalog.h"
#include "core/design/design.h"
#include "widgets/analysis/background_job.h"

namespace studio {

class AnalysisService;
class DesignDocument;

class BackgroundRunner : public BackgroundJob {
    Q_OBJECT
public:
    BackgroundRunner(DesignDocument* document, AnalysisService* analyses, QObject* parent = nullptr);

    // Starts a run on the design as it is now, once quietMs() pass without
    // another restart (done for you when the analyses recompute).
    void restart();
    // How long edits must pause before a run starts: by default, a
    // millisecond per hundred components and links, at most kQuietMs. A
    // preset's run starts at once (after the edit's paint), a design drawn
    // in full waits out a burst of edits (a drag, a spin box held), its
    // copy being milliseconds; short beside any run's length and below what
    // a user notices.
    static constexpr int kQuietMs = 100;
    static int quietMsFor(std::size_t items) { return int(std::min<std::size_t>(kQuietMs, items / 100)); }
    int quietMs() const;
    void setQuietMs(int ms) { quietMs_ = ms; }
    // Whether anyone shows the result: a run nobody waits for is not
    // started (a hidden panel's sweep); wanting it again runs it then.
    void setWanted(bool wanted);
    bool wanted() const { return wanted_; }

protected:
    // Runs on the worker with copies of the design and catalog; returns how
    // to publish its result, or nothing when cancelled.
    using Work = std::function<Publish(const Design&, const Catalog&, const Context&)>;
    // Called on the GUI thread as a run starts: may read the subclass's
    // options, must capture what the worker needs by value.
    virtual Work work() = 0;
    // The held result no longer belongs to the design.
    virtual void discard() = 0;
    // The usual Work: `compute(design, catalog, context)` on the worker, its
    // result (a struct with `cancelled`) moved into `*into` on the GUI
    // thread unless it was cancelled.
    template <typename Result, typename Compute>
    static Work workInto(std::optional<Result>* into, Compute compute)
    {
        return [into, compute](const Design& design, const Catalog& catalog, const Context& context) -> Publish {
            auto result = std::make_shared<Result>(compute(design, catalog, context));
            if (result->cancelled)
                return {};
            return [into, result] { *into = std::move(*result); };
        };
    }

    DesignDocument* document() const { return doc_; }

private:
    DesignDocument* doc_;
    AnalysisService* analyses_;
    int quietMs_ = -1;  // by the design's size
    bool wanted_ = true;
    bool stale_ = true;  // nothing run for the design as it is (nobody wanted it)
};

}  // namespace studio
