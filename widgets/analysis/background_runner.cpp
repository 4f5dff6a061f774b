#include "widgets/analysis/background_runner.h"

#include <memory>
#include <utility>

#include "widgets/analysis/analysis_service.h"
#include "widgets/document/design_document.h"

namespace studio {

BackgroundRunner::BackgroundRunner(DesignDocument* document, AnalysisService* analyses, QObject* parent)
    : BackgroundJob(parent), doc_(document), analyses_(analyses)
{
    // Running on the design the analyses just recomputed: after every burst
    // of edits, and only for a design without errors.
    connect(analyses_, &AnalysisService::updated, this, &BackgroundRunner::restart);
}

void BackgroundRunner::restart()
{
    cancel();
    discard();
    stale_ = !wanted_;
    if (!wanted_)
        return;
    if (!analyses_->analysis()) {
        emit finished();
        return;
    }
    // Started once the edits pause (quietMs): copying a design drawn in
    // full is milliseconds, spent after the edit is painted, not before,
    // and once per burst of edits.
    startSoon(quietMs(), [this]() -> Task {
        // An edit since whose recompute has not run yet: it runs now. An
        // edit that changed only where items are drawn leaves the figures
        // as they were (this run goes ahead); any other restarts this
        // runner, and the run started below supersedes that restart.
        analyses_->bringUpToDate();
        if (!analyses_->current() || !analyses_->analysis())
            return {};
        // The thread owns copies: the document may change (or close) while
        // it runs. The design's copy goes with the run, on the worker:
        // freeing a design drawn in full is milliseconds the GUI thread need
        // not spend.
        return [design = std::make_shared<Design>(doc_->design()), catalog = doc_->catalogPtr(),
                work = work()](const Context& context) mutable {
            const std::shared_ptr<Design> mine = std::exchange(design, nullptr);
            return work(*mine, *catalog, context);
        };
    });
}

int BackgroundRunner::quietMs() const
{
    if (quietMs_ >= 0)
        return quietMs_;
    return quietMsFor(doc_->design().components.size() + doc_->design().links.size());
}

void BackgroundRunner::setWanted(bool wanted)
{
    wanted_ = wanted;
    if (wanted_ && stale_)
        restart();
}

}  // namespace studio
