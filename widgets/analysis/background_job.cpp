#include "widgets/analysis/background_job.h"

#include <QCoreApplication>
#include <QThread>

#include <algorithm>
#include <utility>

#include "widgets/common/thread_priority.h"

namespace studio {

BackgroundJob::BackgroundJob(QObject* parent) : QObject(parent)
{
    progressTimer_.setInterval(33);
    connect(&progressTimer_, &QTimer::timeout, this, [this] { emit progressed(progress()); });
    soon_.setSingleShot(true);
    connect(&soon_, &QTimer::timeout, this, &BackgroundJob::startWaiting);
}

BackgroundJob::~BackgroundJob()
{
    for (auto& run : runs_)
        run.cancel->store(true);
    for (auto& run : runs_) {
        run.thread->wait();
        delete run.thread;
    }
}

bool BackgroundJob::running() const
{
    return !published_ && (soon_.isActive() || (!runs_.empty() && runs_.back().generation == generation_));
}

double BackgroundJob::progress() const
{
    if (soon_.isActive())
        return 0.0;
    return running() ? runs_.back().progress->load() : 1.0;
}

void BackgroundJob::cancel()
{
    ++generation_;
    for (auto& run : runs_)
        run.cancel->store(true);
    published_ = false;
    progressTimer_.stop();
    soon_.stop();
    prepare_ = nullptr;
}

void BackgroundJob::startSoon(int delayMs, std::function<Task()> prepare)
{
    cancel();
    prepare_ = std::move(prepare);
    clock_.start();
    soon_.start(delayMs);
    emit started();
}

void BackgroundJob::startWaiting()
{
    soon_.stop();
    const auto prepare = std::exchange(prepare_, nullptr);
    if (!prepare)
        return;
    if (Task task = prepare())
        start(std::move(task));
}

void BackgroundJob::start(Task task)
{
    cancel();
    Run run;
    run.generation = generation_;
    run.cancel = std::make_shared<std::atomic<bool>>(false);
    run.progress = std::make_shared<std::atomic<double>>(0.0);
    Context context;
    context.cancel = run.cancel.get();
    context.progress = [progress = run.progress](double done) { progress->store(done); };
    // `cancel` is captured to keep the flag alive as long as the run.
    run.thread =
        QThread::create([this, generation = generation_, task = std::move(task), context, cancel = run.cancel] {
            lowerThisThreadsPriority();
            Publish publish = task(context);
            if (!publish || cancel->load())
                return;
            // Delivered on the GUI thread; dropped with this object if it is gone.
            QMetaObject::invokeMethod(
                this, [this, generation, publish] { deliver(generation, publish); }, Qt::QueuedConnection);
        });
    QThread* thread = run.thread;
    connect(thread, &QThread::finished, this, [this, thread] { forget(thread); });
    runs_.push_back(std::move(run));
    ++runsStarted_;
    clock_.start();
    thread->start();
    progressTimer_.start();
    emit started();
}

void BackgroundJob::deliver(std::uint64_t generation, const Publish& publish)
{
    if (generation != generation_)
        return;  // superseded while it ran
    progressTimer_.stop();
    published_ = true;
    publish();
    emit finished();
}

void BackgroundJob::forget(QThread* thread)
{
    const auto at = std::find_if(runs_.begin(), runs_.end(), [thread](const Run& r) { return r.thread == thread; });
    if (at == runs_.end())
        return;
    thread->wait();
    delete thread;
    runs_.erase(at);
}

void BackgroundJob::waitForIdle()
{
    if (soon_.isActive())
        startWaiting();
    for (auto& run : runs_)
        run.thread->wait();
    // The results and the threads' endings are queued to this object.
    QCoreApplication::sendPostedEvents(this, QEvent::MetaCall);
}

}  // namespace studio
