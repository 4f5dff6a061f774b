#include "widgets/workload/checked_spin_box.h"

namespace studio {

CheckedSpinBox::CheckedSpinBox(QWidget* parent) : QSpinBox(parent)
{
    // Apply on Enter, focus out or an arrow, not on every keystroke: "16"
    // must not be tried as "1" first.
    setKeyboardTracking(false);
    setAccelerated(true);
}

void CheckedSpinBox::stepBy(int steps)
{
    if (!check_ || steps == 0) {
        QSpinBox::stepBy(steps);
        return;
    }
    // The first value in the direction of the step that the check accepts;
    // a bounded search, so a field with no valid neighbour stays responsive.
    constexpr int kSearch = 1024;
    const int direction = steps > 0 ? 1 : -1;
    const qint64 first = qint64(value()) + steps;
    for (qint64 v = first, n = 0; v >= minimum() && v <= maximum() && n < kSearch; v += direction, ++n)
        if (check_(int(v)).isEmpty()) {
            setValue(int(v));
            return;
        }
    if (first >= minimum() && first <= maximum())
        emit refused(check_(int(first)));
}

}  // namespace studio
