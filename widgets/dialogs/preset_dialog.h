#pragma once
// "New from preset": the designs that ship with the studio, each with its
// description and key figures computed by the core.
#include <QDialog>

class QLabel;
class QListWidget;

namespace studio {

class PresetDialog : public QDialog {
    Q_OBJECT
public:
    explicit PresetDialog(QWidget* parent = nullptr);
    QString selectedPreset() const;  // a resource path, ":/presets/..."
    static QStringList presetPaths();

private:
    void showDetails();
    QListWidget* list_;
    QLabel* details_;
};

}  // namespace studio
