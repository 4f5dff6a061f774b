#include "widgets/search/layout_search_service.h"

#include <QCoreApplication>
#include <QThread>

#include "widgets/analysis/analysis_service.h"
#include "widgets/document/design_document.h"

#ifdef __linux__
#include <sys/resource.h>
#include <unistd.h>
#endif

namespace studio {
namespace {

// A search is background work: at nice 10 it gets about a tenth of a core
// the GUI thread also wants, so an edit repaints as fast as with no search
// running, yet it still gets its share beside other programs. (Qt's
// priorities do nothing for Linux's default scheduler, except IdlePriority,
// SCHED_IDLE, which would starve the search behind a compile.) On Linux
// the nice value is per thread.
void lowerThisThreadsPriority()
{
#ifdef __linux__
    setpriority(PRIO_PROCESS, id_t(gettid()), 10);
#endif
}

}  // namespace

LayoutSearchService::LayoutSearchService(DesignDocument* document, AnalysisService* analyses, QObject* parent)
    : QObject(parent), doc_(document), analyses_(analyses)
{
    // Searching the design the analyses just recomputed: after every burst
    // of edits, and only for a design without errors.
    connect(analyses_, &AnalysisService::updated, this, &LayoutSearchService::restart);
    progressTimer_.setInterval(33);
    connect(&progressTimer_, &QTimer::timeout, this, [this] { emit progressed(progress()); });
}

LayoutSearchService::~LayoutSearchService()
{
    for (auto& run : runs_)
        run.cancel->store(true);
    for (auto& run : runs_) {
        run.thread->wait();
        delete run.thread;
    }
}

double LayoutSearchService::progress() const
{
    return running() ? runs_.back().progress->load() : 1.0;
}

void LayoutSearchService::setObjective(Objective objective)
{
    if (objective == objective_)
        return;
    objective_ = objective;
    restart();
}

void LayoutSearchService::restart()
{
    ++generation_;
    for (auto& run : runs_)
        run.cancel->store(true);
    current_.reset();
    if (!analyses_->analysis()) {
        progressTimer_.stop();
        emit finished();
        return;
    }
    Run run;
    run.generation = generation_;
    run.cancel = std::make_shared<std::atomic<bool>>(false);
    run.progress = std::make_shared<std::atomic<double>>(0.0);
    SearchOptions options;
    options.objective = objective_;
    options.top = kTop;
    options.keepPoints = true;  // the scatter shows every feasible layout
    options.cancel = run.cancel.get();
    options.progress = [progress = run.progress](double done) { progress->store(done); };
    // The thread owns copies: the document may change (or close) while it runs.
    run.thread = QThread::create([this, generation = generation_, design = doc_->design(), catalog = doc_->catalogPtr(),
                                  options, cancel = run.cancel] {
        lowerThisThreadsPriority();
        auto result = std::make_shared<SearchResult>(searchLayouts(design, *catalog, options));
        if (result->cancelled)
            return;
        // Delivered on the GUI thread; dropped with this service if it is gone.
        QMetaObject::invokeMethod(
            this, [this, generation, result] { publish(generation, std::move(*result)); }, Qt::QueuedConnection);
    });
    QThread* thread = run.thread;
    connect(thread, &QThread::finished, this, [this, thread] { forget(thread); });
    runs_.push_back(std::move(run));
    clock_.start();
    thread->start();
    progressTimer_.start();
    emit started();
}

void LayoutSearchService::publish(std::uint64_t generation, SearchResult result)
{
    if (generation != generation_)
        return;  // the design changed while it ran
    progressTimer_.stop();
    current_ = std::move(result);
    last_ = current_;
    emit finished();
}

void LayoutSearchService::forget(QThread* thread)
{
    const auto at = std::find_if(runs_.begin(), runs_.end(), [thread](const Run& r) { return r.thread == thread; });
    if (at == runs_.end())
        return;
    thread->wait();
    delete thread;
    runs_.erase(at);
}

void LayoutSearchService::waitForIdle()
{
    for (auto& run : runs_)
        run.thread->wait();
    // The results and the threads' endings are queued to this object.
    QCoreApplication::sendPostedEvents(this, QEvent::MetaCall);
}

}  // namespace studio
