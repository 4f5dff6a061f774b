#include "widgets/analysis/run_progress_bar.h"

#include "widgets/analysis/background_job.h"

namespace studio {
namespace {

constexpr qint64 kFrameMs = 16;

}  // namespace

RunProgressBar::RunProgressBar(BackgroundJob* runner, QWidget* parent) : QProgressBar(parent)
{
    setRange(0, 1000);
    setTextVisible(false);
    setMaximumWidth(160);
    setVisible(false);
    connect(runner, &BackgroundJob::progressed, this, [this, runner](double done) {
        setVisible(runner->runningMs() > kFrameMs);
        setValue(int(1000 * done));
    });
    connect(runner, &BackgroundJob::finished, this, [this] { setVisible(false); });
}

}  // namespace studio
