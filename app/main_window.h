#pragma once
#include <QMainWindow>

class QTextBrowser;

namespace studio {

class DesignDocument;

// The studio's window. For now it shows the open design's inventory; the
// canvas, docks and live panels arrive with their issues.
class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    explicit MainWindow(QWidget* parent = nullptr);
    bool openFile(const QString& path);

private:
    void refresh();
    void updateTitle();

    DesignDocument* document_;
    QTextBrowser* summary_;
};

}  // namespace studio
