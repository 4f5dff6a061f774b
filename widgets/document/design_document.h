#pragma once
// The open design: owns the core Design, the catalog it resolves against,
// its file path and its undo stack. Views edit it through a DesignEditor
// (design_editor.h), which checks each edit and pushes an undo command;
// only those commands call the mutators. Each mutator announces what
// changed, and views resync from the signals (the Tiled pattern). The scene
// is never the document.
#include <QObject>
#include <QString>
#include <QUndoStack>

#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "core/catalog/catalog.h"
#include "core/design/design.h"
#include "core/design/id_index.h"
#include "core/problem.h"

namespace studio {

class DesignDocument : public QObject {
    Q_OBJECT
public:
    explicit DesignDocument(QObject* parent = nullptr);

    // Replaces everything (load, new, revert, recovery); clears undo.
    void reset(Design design, std::shared_ptr<const Catalog> catalog, const QString& filePath);
    // Reads `path`; on failure the document is unchanged and `problems`
    // says why (each with its JSON pointer).
    bool load(const QString& path, const Catalog& base, std::vector<Problem>* problems);
    // Writes atomically (widgets/common/atomic_write.h): a killed process, a
    // full disk or a read-only folder leaves the old file whole. On failure
    // `error` names the file and says why; the document stays modified.
    bool saveAs(const QString& path, QString* error);

    // Whether the file at filePath() now holds something other than what
    // this document last read from or wrote to it: another program (or
    // another studio) rewrote it, and saving would lose that. False when
    // there is no file there: saving overwrites nothing.
    bool fileChangedOnDisk() const;
    // SHA-256 of the file as this document last read or wrote it; empty
    // when unknown. Recovery carries it across a crash.
    QByteArray diskDigest() const { return diskDigest_; }
    void setDiskDigest(const QByteArray& digest) { diskDigest_ = digest; }

    const Design& design() const { return design_; }
    const Catalog& catalog() const { return *catalog_; }
    // The analyses read `catalog` from now on: the same parts with another
    // kernel profile. The design does not change, so its undo history stays.
    // Views holding a part of the old catalog let go of it on catalogChanged,
    // which comes while the old catalog is still alive.
    void setCatalog(std::shared_ptr<const Catalog> catalog);
    std::shared_ptr<const Catalog> catalogPtr() const { return catalog_; }
    QString filePath() const { return filePath_; }
    QUndoStack* undoStack() { return &undoStack_; }
    // The undo history keeps at most `steps` steps, dropping the oldest.
    // QUndoStack takes a limit only while it is empty: on a history with
    // steps in it the new limit waits for the next reset (open, new design).
    void setUndoLimit(int steps);
    // The limit asked for, and the one the history now keeps to.
    int undoLimit() const { return undoLimit_; }
    int undoLimitNow() const { return undoStack_.undoLimit(); }
    bool isModified() const { return !undoStack_.isClean(); }
    // Changes on every mutation: what was derived from the design (the
    // editor's validation of it) is current while this is unchanged.
    std::uint64_t revision() const { return revision_; }
    // The design's problems (validateDesign), worked out once per revision:
    // the editor checks each edit against them and the analysis shows them.
    const std::vector<Problem>& problems() const;
    // The problems of the design as it is now, found by the editor before it
    // pushed the edit that made it: not worked out again.
    void setProblems(std::vector<Problem> problems);

    // Changes whenever a component may have moved to another index (one
    // inserted or removed, an id changed, the design replaced): a view that
    // remembers where its component was need not check again while this
    // is unchanged. The editor's previews put back what they change.
    std::uint64_t componentOrder() const { return componentOrder_; }
    // Lookups by id; -1 when absent.
    int componentIndex(const std::string& id) const;
    int linkIndex(const std::string& id) const;
    // A fresh id with this prefix ("rack", "rack-2", ...).
    std::string uniqueComponentId(const std::string& prefix) const;
    std::string uniqueLinkId(const std::string& prefix) const;

    // --- mutators: for undo commands only. An index out of range is a bug
    // in the command and stops the program (core/contract.h).
    void insertComponent(int index, const Component& c);
    Component takeComponent(int index);
    void replaceComponent(int index, const Component& c);
    void insertLink(int index, const Link& l);
    Link takeLink(int index);
    void replaceLink(int index, const Link& l);
    void replaceWorkload(const Workload& w);
    void replaceFacility(const Facility& f);
    // The parts the design carries (its embedded catalog document) and the
    // catalog they make with the base one, together.
    void replaceParts(const Json& embedded, std::shared_ptr<const Catalog> catalog);
    void replaceOperations(const Operations& o);
    void replaceInfo(const std::string& name, const std::string& description);

signals:
    void designReset();
    void componentAdded(const QString& id);
    void componentRemoved(const QString& id);
    void componentChanged(const QString& id);
    void linkAdded(const QString& id);
    void linkRemoved(const QString& id);
    void linkChanged(const QString& id);
    void settingsChanged();  // workload, facility, operations, name
    void catalogChanged();   // another catalog object (kernels; parts an import adds): re-read any held part
    void changed();          // after any of the above: analyses recompute
    void filePathChanged(const QString& path);

private:
    // The editor previews an edit on the design in place and takes it back
    // (no signals, no revision): a copy of a design drawn in full per edit
    // cost more than the rest of the edit.
    friend class DesignEditor;

    Design design_;
    int undoLimit_ = 0;  // 0: none
    std::shared_ptr<const Catalog> catalog_;
    QString filePath_;
    QByteArray diskDigest_;
    QUndoStack undoStack_;
    std::uint64_t revision_ = 0;
    std::uint64_t componentOrder_ = 0;
    IdIndex<Component> componentIds_;
    IdIndex<Link> linkIds_;
    mutable std::uint64_t problemsRevision_ = ~std::uint64_t{0};
    mutable std::vector<Problem> problems_;
};

}  // namespace studio
