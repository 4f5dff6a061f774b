#pragma once
// The inspector: the selected item's properties (part, name, count,
// settings, and every catalog figure it may override, with the catalog value
// and its source beside), validated as typed and applied as undo commands.
// Several items of one part are edited together. With nothing selected it
// shows the design's own inputs (name, facility, operations).
#include <QPointer>
#include <QWidget>

#include <functional>
#include <vector>

#include "widgets/document/design_editor.h"

class QFormLayout;
class QLabel;
class QScrollArea;

namespace studio {

class DesignDocument;
class DesignScene;

class Inspector : public QWidget {
    Q_OBJECT
public:
    Inspector(DesignDocument* document, DesignScene* scene, QWidget* parent = nullptr);

signals:
    void message(const QString& text);

private:
    void rebuild();        // selection changed: new fields
    void refreshValues();  // document changed: new values, fields kept
    void buildComponents(const QStringList& ids);
    void buildLink(const QString& id);
    void buildDesign();
    void addSection(const QString& title);

    DesignDocument* doc_;
    DesignEditor editor_;
    DesignScene* scene_;
    QScrollArea* scroll_;
    QPointer<QWidget> body_;
    QFormLayout* form_ = nullptr;
    std::vector<std::function<void()>> refreshers_;  // one per field, skipping the focused one
};

}  // namespace studio
