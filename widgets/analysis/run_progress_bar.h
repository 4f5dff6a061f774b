#pragma once
// The progress of a BackgroundJob's run, shown only once the run has
// taken longer than a frame (a quick run never flashes a bar), hidden when
// it lands.
#include <QProgressBar>

namespace studio {

class BackgroundJob;

class RunProgressBar : public QProgressBar {
    Q_OBJECT
public:
    RunProgressBar(BackgroundJob* runner, QWidget* parent = nullptr);
};

}  // namespace studio
