#include "widgets/compare/compare_run_tab.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QVBoxLayout>

#include "widgets/analysis/run_progress_bar.h"

namespace studio {

CompareRunTab::CompareRunTab(const QString& what, QWidget* parent) : QWidget(parent), job_(new BackgroundJob(this))
{
    layout_ = new QVBoxLayout(this);
    layout_->setContentsMargins(6, 6, 6, 6);
    auto* bar = new QHBoxLayout;
    auto* whatLabel = new QLabel(what, this);
    whatLabel->setWordWrap(true);
    bar->addWidget(whatLabel, 1);
    bar->addWidget(new RunProgressBar(job_, this));
    layout_->addLayout(bar);
    summary_ = new QLabel(this);
    summary_->setWordWrap(true);
    summary_->setTextFormat(Qt::RichText);
    layout_->addWidget(summary_);
    // The previous result stays, dimmed, until the new one lands.
    connect(job_, &BackgroundJob::started, this, [this] {
        if (body_)
            body_->setEnabled(false);
    });
}

void CompareRunTab::setBody(QWidget* body)
{
    body_ = body;
    layout_->addWidget(body, 1);
}

void CompareRunTab::setDesigns(std::vector<ComparedRun> designs)
{
    designs_ = std::move(designs);
    if (designs_ != ran_) {
        job_->cancel();
        ran_.clear();
    }
    runIfShown();
}

void CompareRunTab::setShown(bool shown)
{
    shown_ = shown;
    runIfShown();
}

void CompareRunTab::runIfShown()
{
    if (!shown_ || designs_.empty() || designs_ == ran_)
        return;  // nobody looks, nothing to compare, or its result is shown or on its way
    ran_ = designs_;
    summary_->setText(runningText(designs_.size()));
    job_->start(task(designs_));
}

void CompareRunTab::landed(const QString& summary)
{
    summary_->setText(summary);
    if (body_)
        body_->setEnabled(true);
}

}  // namespace studio
