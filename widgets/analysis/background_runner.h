#pragma once
// Runs one long analysis of the open design (a layout search, a scale
// sweep) off the GUI thread: after every recompute of the analyses (so
// after every burst of edits) it cancels the run in flight and starts one
// on a copy of the design. A result is published only when it belongs to
// the design as it is now; edits never wait for a run. Subclasses say what
// to run (`work`) and keep its result.
#include <QElapsedTimer>
#include <QObject>
#include <QTimer>

#include <atomic>
#include <functional>
#include <memory>
#include <optional>
#include <vector>

#include "core/catalog/catalog.h"
#include "core/design/design.h"

class QThread;

namespace studio {

class AnalysisService;
class DesignDocument;

class BackgroundRunner : public QObject {
    Q_OBJECT
public:
    BackgroundRunner(DesignDocument* document, AnalysisService* analyses, QObject* parent = nullptr);
    ~BackgroundRunner() override;

    // A run for the design as it is now has not published yet.
    bool running() const;
    // Share of the running run done, 0..1.
    double progress() const;
    // Milliseconds the running run has taken so far.
    qint64 runningMs() const { return running() ? clock_.elapsed() : 0; }
    // Starts a run on the design as it is now (done for you when the
    // analyses recompute).
    void restart();
    // Blocks until no run is left; for tests and the benchmark.
    void waitForIdle();
    // Whether anyone shows the result: a run nobody waits for is not
    // started (a hidden panel's sweep); wanting it again runs it then.
    void setWanted(bool wanted);
    bool wanted() const { return wanted_; }

signals:
    void started();
    void progressed(double done);
    // A result for the current design is ready (or the design has errors
    // and there is none).
    void finished();

protected:
    struct Context {
        const std::atomic<bool>* cancel = nullptr;
        std::function<void(double)> progress;  // 0..1
    };
    // What a run does with its result, on the GUI thread.
    using Publish = std::function<void()>;
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
    struct Run {
        std::uint64_t generation = 0;
        QThread* thread = nullptr;
        std::shared_ptr<std::atomic<bool>> cancel;
        std::shared_ptr<std::atomic<double>> progress;
    };
    void deliver(std::uint64_t generation, const Publish& publish);
    void forget(QThread* thread);

    DesignDocument* doc_;
    AnalysisService* analyses_;
    std::uint64_t generation_ = 0;
    bool published_ = false;  // the current generation's result is in
    bool wanted_ = true;
    bool stale_ = true;      // nothing run for the design as it is (nobody wanted it)
    std::vector<Run> runs_;  // the latest last; earlier ones are cancelled and finishing
    QTimer progressTimer_;
    QElapsedTimer clock_;
};

}  // namespace studio
