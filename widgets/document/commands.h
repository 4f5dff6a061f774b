#pragma once
// Every edit of a design is one of these commands on the document's undo
// stack, built and pushed by the DesignEditor (design_editor.h) only, after
// it has checked the design the command makes (preview). Commands keep only
// what they change (a few components, links or a settings section), never a
// snapshot of the whole document. Consecutive commands with the same merge
// key (one drag, typing into one field) merge into one undo step.
#include <QUndoCommand>

#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/catalog/catalog.h"
#include "core/design/design.h"
#include "core/problem.h"

namespace studio {

class DesignDocument;

enum CommandId { kChangeComponentsId = 1001, kChangeLinksId, kChangeSettingsId };

// A fresh merge key for a gesture (a drag, an arrow-key burst, a field).
int nextMergeKey();

// The items an edit changes, when it changes only their own fields (see
// FieldChange below) or the design's settings.
struct FieldChange {
    std::vector<std::string> components, links;  // ids
    bool settings = false;
};

class DesignCommand : public QUndoCommand {
public:
    using QUndoCommand::QUndoCommand;
    // What it changes when that is only the own fields of items (a
    // component's name, position, size, collapsed state or properties; a
    // link's count or cable) or the design's settings: the rules that can
    // break are those items' own (validateFields). Nothing when it adds,
    // removes, re-ids, re-parents, re-parts or re-counts a component or
    // re-ends a link.
    virtual std::optional<FieldChange> fieldChange() const { return std::nullopt; }
    // The links it adds when it adds links and nothing else (a cable drawn).
    virtual std::optional<std::vector<std::string>> addedLinksOnly() const { return std::nullopt; }
    // It only removes items (with everything inside them and every link to
    // them): a design without problems keeps none.
    virtual bool removesOnly() const { return false; }
    // The document's problems before and after the edit, as the editor
    // found them: undo and redo hand them back to the document, which then
    // need not validate a design whose problems are known.
    void setProblems(DesignDocument* doc, std::vector<Problem> before, std::vector<Problem> after);
    // Makes on `design` the change redo() makes on the document, without
    // signals: the editor checks the result before the command is pushed.
    virtual void preview(Design& design) const = 0;
    // Takes back what preview() made on `design`, leaving it as it was.
    virtual void unpreview(Design& design) const = 0;
    // Redo would leave the design as it is.
    virtual bool changesNothing() const = 0;

protected:
    // At the end of redo() (`after`) and undo().
    void restoreProblems(bool after) const;
    // Merging `later` into this one: its problems after are now these.
    void takeProblemsAfter(const DesignCommand& later) { problemsAfter_ = later.problemsAfter_; }

private:
    DesignDocument* problemsDoc_ = nullptr;
    std::shared_ptr<const std::vector<Problem>> problemsBefore_, problemsAfter_;
};

// Adds components (appended in order) and links.
class AddItemsCommand : public DesignCommand {
public:
    AddItemsCommand(DesignDocument* doc, std::vector<Component> components, std::vector<Link> links,
                    const QString& text);
    void redo() override;
    void undo() override;
    void preview(Design& design) const override;
    void unpreview(Design& design) const override;
    bool changesNothing() const override { return components_.empty() && links_.empty(); }
    std::optional<std::vector<std::string>> addedLinksOnly() const override;

private:
    DesignDocument* doc_;
    std::vector<Component> components_;
    std::vector<Link> links_;
};

// Removes components with everything inside them, and every link that
// touches a removed component, restoring them in place on undo.
class RemoveItemsCommand : public DesignCommand {
public:
    RemoveItemsCommand(DesignDocument* doc, const std::vector<std::string>& componentIds,
                       const std::vector<std::string>& linkIds, const QString& text);
    void redo() override;
    void undo() override;
    void preview(Design& design) const override;
    void unpreview(Design& design) const override;
    bool changesNothing() const override { return isEmpty(); }
    bool removesOnly() const override { return true; }
    bool isEmpty() const { return components_.empty() && links_.empty(); }

private:
    DesignDocument* doc_;
    std::vector<std::pair<int, Component>> components_;  // ascending index
    std::vector<std::pair<int, Link>> links_;
};

// New values for existing components (position, parent, count, name,
// props, ...) or links, matched by id.
template <typename Item>
class ChangeItemsCommand : public DesignCommand {
public:
    // Every item of `after` must exist in the document (matched by id).
    ChangeItemsCommand(DesignDocument* doc, std::vector<Item> after, const QString& text, int mergeKey = 0);
    void redo() override;
    void undo() override;
    void preview(Design& design) const override;
    void unpreview(Design& design) const override;
    bool changesNothing() const override { return isEmpty(); }
    bool isEmpty() const { return before_ == after_; }
    std::optional<FieldChange> fieldChange() const override;
    int id() const override;
    bool mergeWith(const QUndoCommand* other) override;

private:
    void apply(const std::vector<Item>& values);
    DesignDocument* doc_;
    std::vector<Item> before_, after_;
    int mergeKey_;
};

using ChangeComponentsCommand = ChangeItemsCommand<Component>;
using ChangeLinksCommand = ChangeItemsCommand<Link>;

// The design-level sections: name and description, workload, facility,
// operations.
struct DesignSettings {
    std::string name, description;
    Workload workload;
    Facility facility;
    Operations operations;
    bool operator==(const DesignSettings&) const = default;
    static DesignSettings of(const Design& d);
};

class ChangeSettingsCommand : public DesignCommand {
public:
    ChangeSettingsCommand(DesignDocument* doc, DesignSettings after, const QString& text, int mergeKey = 0);
    void redo() override;
    void undo() override;
    void preview(Design& design) const override;
    void unpreview(Design& design) const override;
    bool changesNothing() const override { return isEmpty(); }
    bool isEmpty() const { return before_ == after_; }
    std::optional<FieldChange> fieldChange() const override { return FieldChange{{}, {}, true}; }
    int id() const override { return mergeKey_ ? kChangeSettingsId : -1; }
    bool mergeWith(const QUndoCommand* other) override;

private:
    void apply(const DesignSettings& s);
    static void set(Design& design, const DesignSettings& s);
    DesignDocument* doc_;
    DesignSettings before_, after_;
    int mergeKey_;
};

// Parts the design takes into its embedded catalog (imported device
// types): the design's catalog section and the document's catalog change
// together, so undo takes the parts out of the palette too.
class AddPartsCommand : public DesignCommand {
public:
    AddPartsCommand(DesignDocument* doc, Json embedded, std::shared_ptr<const Catalog> catalog, const QString& text);
    void redo() override;
    void undo() override;
    void preview(Design& design) const override { design.catalog = after_; }
    void unpreview(Design& design) const override { design.catalog = before_; }
    bool changesNothing() const override { return before_ == after_; }
    std::optional<FieldChange> fieldChange() const override { return FieldChange{{}, {}, true}; }

private:
    DesignDocument* doc_;
    Json before_, after_;
    std::shared_ptr<const Catalog> catalogBefore_, catalogAfter_;
};

// Several changes as one undo step (a what-if upgrade changes parts,
// cables and the facility at once): redone in order, undone in reverse.
class CompositeCommand : public DesignCommand {
public:
    explicit CompositeCommand(const QString& text) : DesignCommand(text) {}
    void add(std::unique_ptr<DesignCommand> part) { parts_.push_back(std::move(part)); }
    bool isEmpty() const { return parts_.empty(); }
    void redo() override;
    void undo() override;
    void preview(Design& design) const override;
    void unpreview(Design& design) const override;
    bool changesNothing() const override;
    std::optional<FieldChange> fieldChange() const override;

private:
    std::vector<std::unique_ptr<DesignCommand>> parts_;
};

}  // namespace studio
