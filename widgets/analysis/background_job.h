#pragma once
// One long computation at a time off the GUI thread (a layout search, a
// scale sweep, the sweeps of a comparison): starting another cancels the
// one in flight, and a result is published, on the GUI thread, only by the
// latest. The caller never waits.
#include <QElapsedTimer>
#include <QObject>
#include <QTimer>

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

class QThread;

namespace studio {

class BackgroundJob : public QObject {
    Q_OBJECT
public:
    explicit BackgroundJob(QObject* parent = nullptr);
    ~BackgroundJob() override;

    struct Context {
        const std::atomic<bool>* cancel = nullptr;
        std::function<void(double)> progress;  // 0..1
    };
    // What a run does with its result, on the GUI thread.
    using Publish = std::function<void()>;
    // Runs on the worker; owns (by value) all it reads; returns how to
    // publish its result, or nothing when cancelled.
    using Task = std::function<Publish(const Context&)>;

    // Cancels any run in flight and starts `task`.
    void start(Task task);
    // Cancels any run in flight and, once `delayMs` pass without another
    // start, starts the task `prepare` then returns (none: nothing to run).
    // Meanwhile the run counts as running. A burst of edits starts one run,
    // and what the task copies is copied after the edit is painted.
    void startSoon(int delayMs, std::function<Task()> prepare);
    // Cancels any run in flight; nothing of it is published.
    void cancel();
    // The latest run has not published yet.
    bool running() const;
    // Share of the running run done, 0..1.
    double progress() const;
    // Runs started so far (a startSoon that is yet to start, or was
    // overtaken before it did, is none).
    std::uint64_t runsStarted() const { return runsStarted_; }
    // Milliseconds the running run has taken so far.
    qint64 runningMs() const { return running() ? clock_.elapsed() : 0; }
    // Starts a run waiting to start, then blocks until no run is left; for
    // tests and the benchmark.
    void waitForIdle();

signals:
    void started();
    void progressed(double done);
    // The latest run's result is published (or there is none to wait for).
    void finished();

private:
    struct Run {
        std::uint64_t generation = 0;
        QThread* thread = nullptr;
        std::shared_ptr<std::atomic<bool>> cancel;
        std::shared_ptr<std::atomic<double>> progress;
    };
    void startWaiting();
    void deliver(std::uint64_t generation, const Publish& publish);
    void forget(QThread* thread);

    std::uint64_t generation_ = 0;
    std::uint64_t runsStarted_ = 0;
    bool published_ = false;  // the latest run's result is in
    std::vector<Run> runs_;   // the latest last; earlier ones are cancelled and finishing
    QTimer soon_;             // a run waiting to start (startSoon)
    std::function<Task()> prepare_;
    QTimer progressTimer_;
    QElapsedTimer clock_;
};

}  // namespace studio
