#pragma once
// A panel whose result comes from a run off the GUI thread (the layout
// search, the scale sweep, the tornado, the serving search): a dock of the
// main window, made by its entry in the background registry
// (background_registry.h). It makes and owns the services that run for it,
// from the open document and its analyses.
#include <QString>
#include <QWidget>

#include <any>
#include <atomic>
#include <string>
#include <vector>

namespace studio {

class AnalysisService;
class BackgroundJob;
class MessageStack;
class Catalog;
class ReportDocument;
struct Analysis;
struct Design;

// What a design review's page of a background analysis is made from: the
// design, valid against its catalog, its analyses as the report's own
// document computed them, and what the entry's `prepare` computed off the
// GUI thread (the sweep, the tornado; none without one, and the page then
// computes it there and then).
struct ReportInputs {
    const Design& design;
    const Catalog& catalog;
    const Analysis& analysis;
    AnalysisService& analyses;
    const std::any* prepared = nullptr;
};

// The result of type T that `prepare` left in `in`, else `compute()`'s.
template <typename T, typename Compute>
T preparedOr(const ReportInputs& in, Compute compute)
{
    if (const T* done = in.prepared ? std::any_cast<T>(in.prepared) : nullptr)
        return *done;
    return compute();
}

class BackgroundPanel : public QWidget {
    Q_OBJECT
public:
    using QWidget::QWidget;
    // Whether the user can see the panel (a tabbed dock's widget stays
    // "visible" behind the current tab, so its dock tells): a run nobody
    // waits for is not started.
    virtual void setShown(bool shown) = 0;
    // The runs it shows (progress; tests wait for them).
    virtual std::vector<BackgroundJob*> jobs() const = 0;

signals:
    // A sentence for the status bar (an Apply done or refused).
    void message(const QString& text);

protected:
    // Where a serving design's user goes instead of a panel that analyses a
    // training run (empty for a training design).
    static QString servingHint(const Design& design);
    // Why the run has no result to show, in place of the panel's content:
    // `none` ("No scale sweep") with the run's `error`, or (none) while it
    // runs `running` ("Sweeping sizes..."), else the design's errors.
    static void showWhyNone(MessageStack& stack, const QString& none, const std::string* error, bool isRunning,
                            const QString& running, const Design& design);
};

}  // namespace studio
