#pragma once
// The one place a design changes. Every view (canvas, inspector, workload
// dock, main-window actions) asks the editor for an edit; the editor builds
// the undo command, previews the design it would make, checks that design
// with the rules the file reader enforces (core validateDesign: the same
// field tables, coordinate ranges included) and pushes the command, or
// refuses with the first error the edit would add. Errors are compared by
// code and JSON pointer, never by message text. Needs no view: tests drive
// it on a bare DesignDocument.
#include <QString>

#include <cstdint>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "core/design/alignment.h"
#include "core/design/design.h"
#include "core/design/fabric_plan.h"
#include "core/format/design_reader.h"
#include "core/problem.h"
#include "widgets/document/commands.h"

namespace studio {

class DesignDocument;

struct EditResult {
    enum class Status { Applied, Unchanged, Refused };
    Status status = Status::Unchanged;
    Problem problem;  // when refused: why (code, pointer, message)
    QString reason;   // when refused: the problem as the user reads it ("Rack 2, count: must be at least 1, got 0")
    bool applied() const { return status == Status::Applied; }
    bool refused() const { return status == Status::Refused; }
};

// Where an item goes after a drag: its container ("" for the top level)
// and its position there.
struct Placement {
    std::string id, parent;
    Point position;
};

// An item and the size the canvas draws it at, for align and distribute.
struct SizedItem {
    std::string id;
    Extent size;
};

class DesignEditor {
public:
    explicit DesignEditor(DesignDocument* document);
    DesignDocument* document() const { return doc_; }

    // A part from the catalog at `position` in `parent` ("" for the top
    // level); a node platform brings its GPUs, NICs and DPUs. The new root's
    // id goes to `newId`.
    EditResult addPart(const std::string& partId, const std::string& parent, Point position,
                       std::string* newId = nullptr);
    // A cable from one item to another: the fabric's own cable, else the
    // slowest catalog cable that carries the NIC's speed.
    EditResult connect(const std::string& from, const std::string& to);
    EditResult addItems(std::vector<Component> components, std::vector<Link> links, const QString& text);
    // The components with everything inside them, the links named, and every
    // link that touches a removed component.
    EditResult remove(const std::vector<std::string>& componentIds, const std::vector<std::string>& linkIds,
                      const QString& text);
    EditResult setCount(const std::string& id, std::int64_t count);
    // Consecutive moves with one merge key are one undo step.
    EditResult moveBy(const std::vector<std::string>& ids, Point delta, int mergeKey = 0);
    EditResult place(const std::vector<Placement>& placements);
    EditResult toggleCollapsed(const std::vector<std::string>& ids);
    // Items of one container, at least two (three to distribute).
    EditResult align(const std::vector<SizedItem>& items, Alignment how);
    EditResult distribute(const std::vector<SizedItem>& items, Distribution how);
    // A copied fragment with fresh ids; its roots go into `target` (a
    // container's id), else where they came from if that exists here, else
    // the top level, 20 units down and right. The roots' new ids go to `roots`.
    EditResult paste(const Fragment& fragment, const std::string& target, const QString& text,
                     std::vector<std::string>* roots = nullptr);
    EditResult addFabric(FabricPlan plan, Point position);
    // New values for existing components or links (matched by id), or the
    // design's settings: what the inspector and the workload dock edit.
    EditResult changeComponents(std::vector<Component> after, const QString& text, int mergeKey = 0);
    EditResult changeLinks(std::vector<Link> after, const QString& text, int mergeKey = 0);
    EditResult changeSettings(DesignSettings after, const QString& text, int mergeKey = 0);
    // A catalog document's parts and sources into the design's embedded
    // catalog (a part of the same id replaced), so they are in the palette
    // and travel with the file; refused, naming the part, when the catalog
    // would not take them.
    EditResult addParts(const Json& catalogDocument, const QString& text);
    // The design made `after`, one undo step: the same components and links
    // (by id, in order) with new values -- parts, counts, settings, cables --
    // and new design settings. What a what-if upgrade applies.
    EditResult changeDesign(const Design& after, const QString& text);

    // The first error `proposed` has that the document's design has not.
    std::optional<Problem> newError(const Design& proposed) const;
    // The first error among `problems` (of a design the edit would make)
    // that the document's design has not.
    std::optional<Problem> firstNew(std::vector<Problem> problems) const;
    // A problem as the user reads it: the item it is about by name.
    QString describe(const Problem& problem) const;

private:
    EditResult submit(std::unique_ptr<DesignCommand> command);
    EditResult refuse(std::string code, std::string message) const;
    std::string freshComponentId(const std::string& prefix, std::set<std::string>& taken) const;

    DesignDocument* doc_;
    // The document's errors as (code, pointer), for the revision they were
    // computed at: every edit compares against them.
    mutable std::uint64_t errorsRevision_ = ~std::uint64_t{0};
    mutable std::set<std::pair<std::string, std::string>> errors_;
};

}  // namespace studio
