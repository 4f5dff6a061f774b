#pragma once
// The headline figures in the status bar: GPUs, peak PFLOP/s, MFU, days to
// train, facility MW and MTBF, each explaining itself on hover (the tip is
// built when asked for, not on every edit).
#include <QHash>
#include <QWidget>

class QLabel;

namespace studio {

class AnalysisService;

class KpiStrip : public QWidget {
    Q_OBJECT
public:
    explicit KpiStrip(AnalysisService* service, QWidget* parent = nullptr);
    // The text shown for a figure (gpus, peak, mfu, days, facility, mtbf).
    QString text(const QString& key) const;
    QString tip(const QString& key) const;

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void refresh();
    AnalysisService* service_;
    QHash<QString, QLabel*> labels_;
};

}  // namespace studio
