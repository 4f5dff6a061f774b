#pragma once
// Runs the layout search (core/search) for the open design off the GUI
// thread: after every recompute of the analyses (so after every edit) it
// cancels the run in flight and starts one on a copy of the design. A
// result is published only when it belongs to the design as it is now;
// edits never wait for a search.
#include <QElapsedTimer>
#include <QObject>
#include <QTimer>

#include <atomic>
#include <memory>
#include <optional>
#include <vector>

#include "core/search/layout_search.h"

class QThread;

namespace studio {

class AnalysisService;
class DesignDocument;

class LayoutSearchService : public QObject {
    Q_OBJECT
public:
    LayoutSearchService(DesignDocument* document, AnalysisService* analyses, QObject* parent = nullptr);
    ~LayoutSearchService() override;

    // The last result for the design as it is now, or nullptr (none yet, a
    // search still running for the latest edit, or a design with errors).
    const SearchResult* result() const { return current_ ? &*current_ : nullptr; }
    // The last published result, even if the design changed since.
    const SearchResult* lastResult() const { return last_ ? &*last_ : nullptr; }
    bool running() const { return !current_ && !runs_.empty() && runs_.back().generation == generation_; }
    // Share of the running search done, 0..1.
    double progress() const;
    // Milliseconds the running search has taken so far.
    qint64 runningMs() const { return running() ? clock_.elapsed() : 0; }

    Objective objective() const { return objective_; }
    void setObjective(Objective objective);  // searches again
    int top() const { return kTop; }
    // Starts a search of the design as it is now (after an edit, done for
    // you when the analyses recompute).
    void restart();
    // Blocks until no search runs; for tests and the benchmark.
    void waitForIdle();

    static constexpr int kTop = 20;

signals:
    void started();
    void progressed(double done);
    // A result for the current design is ready (or the design has errors
    // and there is none: result() is nullptr).
    void finished();

private:
    struct Run {
        std::uint64_t generation = 0;
        QThread* thread = nullptr;
        std::shared_ptr<std::atomic<bool>> cancel;
        std::shared_ptr<std::atomic<double>> progress;
    };
    void publish(std::uint64_t generation, SearchResult result);
    void forget(QThread* thread);

    DesignDocument* doc_;
    AnalysisService* analyses_;
    Objective objective_ = Objective::Time;
    std::uint64_t generation_ = 0;
    std::vector<Run> runs_;  // the latest last; earlier ones are cancelled and finishing
    std::optional<SearchResult> current_, last_;
    QTimer progressTimer_;
    QElapsedTimer clock_;
};

}  // namespace studio
