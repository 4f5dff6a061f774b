#pragma once
// What an empty canvas offers instead of a blank grid: the presets that ship
// with the studio and the recently opened files, one click each, over the
// middle of the canvas. The main window shows it while the design has no
// components and hides it at the first one.
#include <QFrame>

class QListWidget;
class QListWidgetItem;

namespace studio {

class StartPage : public QFrame {
    Q_OBJECT
public:
    explicit StartPage(QWidget* parent = nullptr);
    // The recent files to offer, newest first; missing ones are left out.
    void setRecentFiles(const QStringList& paths);
    QListWidget* presetList() const { return presets_; }
    QListWidget* recentList() const { return recent_; }

protected:
    // Keeps itself centred over its parent (the canvas's viewport).
    bool eventFilter(QObject* watched, QEvent* event) override;

signals:
    void presetChosen(const QString& resourcePath);  // ":/presets/..."
    void fileChosen(const QString& path);

private:
    void place();
    QListWidget* presets_;
    QListWidget* recent_;
};

}  // namespace studio
