#pragma once
// "New from preset": the designs that ship with the studio, each with its
// description and key figures computed by the core.
#include <QDialog>

#include "core/format/design_reader.h"

class QLabel;
class QListWidget;

namespace studio {

// A preset shipped in the resources (":/presets/..."), read and checked
// against the built-in catalog like any file; a problem when it cannot be read.
DesignLoad loadPreset(const QString& resourcePath);

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
