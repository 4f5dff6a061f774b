#pragma once
// A spin box whose arrows skip the values a check refuses: stepping tp up
// from 8 on a 128-head model lands on 16, not on 9. A typed value is checked
// by whoever applies it (the workload dock), which says why it is refused.
#include <QSpinBox>

#include <functional>

namespace studio {

class CheckedSpinBox : public QSpinBox {
    Q_OBJECT
public:
    explicit CheckedSpinBox(QWidget* parent = nullptr);
    // "" when `value` may be used, else why not.
    void setCheck(std::function<QString(int value)> check) { check_ = std::move(check); }
    void stepBy(int steps) override;

signals:
    void refused(const QString& why);

private:
    std::function<QString(int)> check_;
};

}  // namespace studio
