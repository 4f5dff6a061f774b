#pragma once
// The headline figures in the status bar: GPUs, peak PFLOP/s, MFU, days to
// train, facility MW and MTBF (for a serving design: tokens/s per GPU, time
// per output token and the replicas needed in place of MFU, days and
// MTBF), each explaining itself on hover (the tip is
// built when asked for, not on every edit). It paints its figures itself
// and asks the status bar for more room only when a figure outgrows what
// it has: an edit that changes a number must not lay the window out again.
#include <QStaticText>
#include <QString>
#include <QWidget>

#include <string>
#include <vector>

namespace studio {

class AnalysisService;

class KpiStrip : public QWidget {
    Q_OBJECT
public:
    explicit KpiStrip(AnalysisService* service, QWidget* parent = nullptr);
    // The text shown for a figure (gpus, peak, mfu, days, facility, mtbf).
    QString text(const QString& key) const;
    QString tip(const QString& key) const;
    QSize sizeHint() const override;
    // Down to the last figure alone: a narrow window leaves figures out.
    QSize minimumSizeHint() const override;
    // The first figure drawn: in a strip narrower than its figures, those
    // that would not fit whole are left out from the left (the GPUs and the
    // peak first, which the canvas shows too) rather than cut.
    std::size_t firstShown() const;

protected:
    void paintEvent(QPaintEvent* event) override;
    bool event(QEvent* event) override;
    void changeEvent(QEvent* event) override;

private:
    struct Figure {
        QString key, name, value;  // "MFU", "39.0%"
        std::string explainKey;
        QString how;  // the tip's formula when no metrics key explains it (serving)
        QStaticText nameText, valueText;
        int width = 0;  // name, gap and value
    };
    void refresh();
    void measure(Figure& f) const;
    const Figure* figure(const QString& key) const;
    int figureAt(int x) const;
    int firstX() const;  // where the first shown figure starts
    AnalysisService* service_;
    std::vector<Figure> figures_;
    int width_ = 0;  // the room asked for: grows, never shrinks while open
};

}  // namespace studio
