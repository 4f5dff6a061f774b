#pragma once
// One component on the canvas: a tile for a leaf part, a framed container
// that draws its children for nodes, racks and groups. A thin view: it
// draws the document's component and hands gestures to the scene, which
// turns them into undo commands.
#include <QGraphicsObject>

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/catalog/part_kind.h"
#include "core/design/design.h"
#include "core/model/analysis.h"
#include "widgets/canvas/item_metrics.h"

namespace studio {

class DesignScene;
struct Part;

// What an item shows from the analysis: the totals in its header and the
// problems that point at it (its mark and tip).
struct ItemAnalysis {
    std::optional<ComponentTotals> totals;
    std::vector<std::pair<Severity, std::string>> problems;
    bool operator==(const ItemAnalysis&) const = default;
};

class ComponentItem : public QGraphicsObject, public ItemMetrics {
    Q_OBJECT
public:
    enum { Type = UserType + 1 };

    ComponentItem(DesignScene* scene, const QString& id);
    int type() const override { return Type; }

    QString id() const { return id_; }
    const std::string& componentId() const { return componentId_; }
    // Its component's position in the document's design, or -1.
    int componentIndex() const;
    const Component* component() const;
    const Part* part() const;
    PartKind kind() const;
    bool isContainer() const;
    bool isCollapsed() const;

    QRectF frameRect() const { return {QPointF(0, 0), size_}; }
    QRectF boundingRect() const override;
    QPainterPath shape() const override;
    void paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget* widget) override;
    // The item as it is drawn far out (below kDetailZoom): its shape, fill
    // and marks, no text. Also what the overview draws.
    void paintOutline(QPainter* painter) const;

    // Reads position, size and state from the document.
    void syncFromDocument();
    // Re-reads its component's part from the document's catalog (which may
    // be another object holding the same parts); true when it changed.
    bool syncPart();
    // Grows a container to hold its children; propagates to ancestors.
    void relayout();
    void setDropHighlight(bool on);
    // What the item shows from the analysis (totals, problem marks), and
    // repaints where that changed; false when that is what it already shows.
    bool setAnalysisShown(ItemAnalysis shown);
    // Whether it keeps a pixmap of itself, by the view's zoom and its size.
    void updateCacheMode();
    // Where those are drawn: a container's header strip (a container covers
    // its children, so redrawing all of it redraws the canvas), a whole tile.
    QRectF analysisRect() const;
    QString totalsText() const;

    QRectF countBadgeRect() const;
    QRectF collapseToggleRect() const;
    QRectF portRect() const;
    QPointF portScenePos() const { return mapToScene(portRect().center()); }

protected:
    QVariant itemChange(GraphicsItemChange change, const QVariant& value) override;
    void mousePressEvent(QGraphicsSceneMouseEvent* event) override;
    void mouseReleaseEvent(QGraphicsSceneMouseEvent* event) override;
    void mouseDoubleClickEvent(QGraphicsSceneMouseEvent* event) override;
    void hoverEnterEvent(QGraphicsSceneHoverEvent* event) override;
    void hoverLeaveEvent(QGraphicsSceneHoverEvent* event) override;

private:
    QSizeF naturalSize() const;
    // Tells Qt whether every descendant is drawn inside this item (it then
    // skips them when this item is not exposed); true when that changed.
    bool updateContainsChildren();
    void stopContainingChildren();
    QString countText() const;

    DesignScene* scene_;
    QString id_;
    std::string componentId_;     // id_ as the document spells it: looked up on every paint
    const Part* part_ = nullptr;  // its component's, as last synced
    mutable int indexHint_ = -1;  // where its component was last found
    // The document's componentOrder() then.
    mutable std::uint64_t hintOrder_ = ~std::uint64_t{0};
    QSizeF size_;
    bool hover_ = false;
    bool dropHighlight_ = false;
    std::optional<ItemAnalysis> analysisShown_;
    bool retell_ = false;             // its component changed: the tip is set again
    std::optional<Component> drawn_;  // the component as last synced, to repaint only what changed
};

}  // namespace studio
