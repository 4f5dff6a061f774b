#pragma once
// A tab of the compare view whose figures come from a long run on each
// design (the scale sweeps): the designs as compared go in, the run starts
// off the GUI thread only while the tab is shown and only when what it shows
// is not of those designs already (a new baseline runs nothing again), and
// the last result stays, dimmed, until the new one lands. A background
// analysis (widgets/panels/background_registry.h) that compares designs
// derives from it: what to run for 2-4 designs and how to draw them.
#include <QString>
#include <QWidget>

#include <memory>
#include <vector>

#include "core/catalog/catalog.h"
#include "core/design/design.h"
#include "widgets/analysis/background_job.h"

class QLabel;
class QVBoxLayout;

namespace studio {

// One design as the compare view prepared it: on the comparison's workload
// and layout, named as the comparison names it.
struct ComparedRun {
    QString label;
    Design design;
    std::shared_ptr<const Catalog> catalog;
    bool operator==(const ComparedRun& other) const = default;
};

class CompareRunTab : public QWidget {
    Q_OBJECT
public:
    // Runs for `designs` if the tab is shown and what it shows (or runs) is
    // not of them; otherwise a run of other designs is cancelled and this
    // one waits until the tab is shown.
    void setDesigns(std::vector<ComparedRun> designs);
    // Whether the user sees the tab (the compare view's current tab).
    void setShown(bool shown);
    BackgroundJob* job() const { return job_; }
    QLabel* summaryLabel() const { return summary_; }

protected:
    // `what` says in a sentence what the tab runs, above its progress.
    CompareRunTab(const QString& what, QWidget* parent);
    // The plots, below the summary.
    void setBody(QWidget* body);
    // What the summary says while the designs run.
    virtual QString runningText(std::size_t designs) const = 0;
    // Called on the GUI thread as a run starts: the task owns its designs
    // and returns how to publish (the summary's text and the plots, through
    // `show`), or nothing when cancelled.
    virtual BackgroundJob::Task task(std::vector<ComparedRun> designs) = 0;
    // For a task's publish: shows `summary` and enables the body again
    // before it draws (the plots take the enabled palette's colours).
    void landed(const QString& summary);

private:
    void runIfShown();

    BackgroundJob* job_;
    QVBoxLayout* layout_;
    QLabel* summary_;
    QWidget* body_ = nullptr;
    std::vector<ComparedRun> designs_;
    std::vector<ComparedRun> ran_;  // what the shown (or running) result is of; empty when none
    bool shown_ = false;
};

}  // namespace studio
