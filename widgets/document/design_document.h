#pragma once
// The open design: owns the core Design, the catalog it resolves against,
// its file path and its undo stack. Views read it; edits will arrive as
// QUndoCommands on undoStack() (the Tiled pattern). Saving is atomic.
#include <QObject>
#include <QString>
#include <QUndoStack>

#include <memory>
#include <vector>

#include "core/catalog/catalog.h"
#include "core/design/design.h"
#include "core/problem.h"

namespace studio {

class DesignDocument : public QObject {
    Q_OBJECT
public:
    explicit DesignDocument(QObject* parent = nullptr);

    // Reads `path`; on failure the document is unchanged and `problems`
    // says why (each with its JSON pointer).
    bool load(const QString& path, const Catalog& base, std::vector<Problem>* problems);
    // Writes through QSaveFile: a temporary file in the same directory,
    // renamed over the target only once fully written.
    bool saveAs(const QString& path, QString* error);

    const Design& design() const { return design_; }
    const Catalog& catalog() const { return *catalog_; }
    QString filePath() const { return filePath_; }
    QUndoStack* undoStack() { return &undoStack_; }
    bool isModified() const { return !undoStack_.isClean(); }

signals:
    void reset();  // the whole design was replaced (load)
    void filePathChanged(const QString& path);

private:
    Design design_;
    std::shared_ptr<const Catalog> catalog_;
    QString filePath_;
    QUndoStack undoStack_;
};

}  // namespace studio
