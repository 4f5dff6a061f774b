#pragma once
// The canvas's scene: one item per component (children inside their
// container's item, so positions are relative as in the file) and one per
// link, rebuilt from the document's signals. Gestures on the canvas (drops,
// drags, link drags, in-place edits) become edits through the DesignEditor;
// a refused gesture says why through message().
#include <QGraphicsScene>
#include <QHash>
#include <QMultiHash>
#include <QSet>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "widgets/canvas/component_item.h"
#include "widgets/common/posted_call.h"
#include "widgets/document/design_editor.h"

namespace studio {

class AnalysisService;
class ComponentItem;
class DesignDocument;
class LinkItem;

class DesignScene : public QGraphicsScene {
    Q_OBJECT
public:
    static constexpr double kGrid = 10;

    DesignScene(DesignDocument* document, AnalysisService* analysis, QObject* parent = nullptr);

    DesignDocument* document() const { return doc_; }
    DesignEditor& editor() { return editor_; }
    AnalysisService* analysis() const { return analysis_; }
    bool snapToGrid() const { return snap_; }
    void setSnapToGrid(bool on) { snap_ = on; }

    ComponentItem* itemFor(const QString& id) const { return items_.value(id); }
    // The item of the component at this index must show the analysis again
    // (it was synced from the document): the next showAnalysis tells it.
    void forgetShown(int componentIndex);
    // The item itself, or its nearest ancestor shown (inside collapsed containers).
    ComponentItem* visibleItemFor(const QString& id) const;
    LinkItem* linkItemFor(const QString& id) const { return links_.value(id); }
    QStringList selectedComponentIds() const;
    QStringList selectedLinkIds() const;
    void selectComponents(const QStringList& ids);
    // The innermost container under a point, skipping `exclude` and its items.
    ComponentItem* containerAt(QPointF scenePos, const QSet<ComponentItem*>& exclude = {}) const;

    // --- gestures; each returns "" when done, else why it was refused.
    QString dropPart(const QString& partId, QPointF scenePos);
    QString createLink(const QString& fromId, const QString& toId);
    QString setCount(const QString& id, qint64 count);
    QString moveSelectionBy(QPointF delta, int mergeKey);
    void toggleCollapsed(const QString& id);
    void removeSelection();
    void beginLinkDrag(ComponentItem* from, QPointF scenePos);
    void editCount(ComponentItem* item);
    // After a drag: commits new positions, and a new container when an
    // item was dropped into one (or refuses, putting things back).
    void commitMove(QPointF scenePos);

    // An item moved, changed size, visibility or count: the links of it
    // and of everything inside it are routed again before the next paint.
    void itemMoved(ComponentItem* item);
    // The drawing's extent: every component and the links' channels and
    // labels below them (kept as items change, not measured per call).
    QRectF drawingRect() const { return drawingRect_; }
    // A component's count times its containers' (1 for an item of count 1
    // at the top level; 0 when there is no such component).
    std::int64_t instances(const std::string& componentId) const;
    // The scale the view draws the scene at (1 is 100%), which the view
    // sets: far out (below ItemMetrics::kDetailZoom) items are a few fills
    // and need no pixmap, no header repainted; close in, which keep one
    // (ComponentItem::updateCacheMode). A scene without a view (a report's)
    // is 0, far out: its items keep no pixmap, and a report draws them as
    // lines and text, not pictures.
    double viewZoom() const { return viewZoom_; }
    bool farOut() const { return viewZoom_ < ItemMetrics::kDetailZoom; }
    void setViewZoom(double zoom);
    // Whether link items are shown: not far out (below
    // ItemMetrics::kLinkZoom). The view sets it.
    void setLinksShown(bool shown);
    // The items at the top of the containment tree.
    QList<ComponentItem*> topLevelItems() const;
    // The drawing as it looks far out, onto `painter` through `toDevice`
    // (scene to painter coordinates): what lies under a pixel is left out.
    // The overview: rendering the scene drew every item of a design drawn
    // in full, four times a second while it was being edited.
    void drawOverview(QPainter& painter, const QTransform& toDevice) const;
    // While the mouse drags items, containers keep their size (an item
    // dragged out must not stretch its old container).
    bool isDragging() const { return dragging_; }
    void setDragging(bool on) { dragging_ = on; }

signals:
    void message(const QString& text);
    // The drawing changed: items added, removed, moved, resized or given
    // new badges. For views of the whole drawing (the overview); a listener
    // on QGraphicsScene::changed instead would make every view repaint the
    // whole of each changed item, not the part that changed.
    void drawingChanged();
    // An item's name or totals changed: what a view names it with far out.
    void itemRelabelled(ComponentItem* item);

protected:
    void dragEnterEvent(QGraphicsSceneDragDropEvent* event) override;
    void dragMoveEvent(QGraphicsSceneDragDropEvent* event) override;
    void dragLeaveEvent(QGraphicsSceneDragDropEvent* event) override;
    void dropEvent(QGraphicsSceneDragDropEvent* event) override;
    void mouseMoveEvent(QGraphicsSceneMouseEvent* event) override;
    void mouseReleaseEvent(QGraphicsSceneMouseEvent* event) override;
    void drawBackground(QPainter* painter, const QRectF& rect) override;

private:
    void rebuild();
    ComponentItem* addItemFor(const QString& id);
    void removeItemFor(const QString& id);
    void syncItem(const QString& id);
    void addLinkItem(const QString& id);
    void removeLinkItem(const QString& id);
    // Files a link item under the components it joins (its ends may change).
    void indexLinkEnds(LinkItem* link);
    void scheduleRoute(LinkItem* link);
    void updateLinks();
    void updateDrawingRect();
    void showAnalysis();
    // An item whose component sits in a container that has no item (yet):
    // adopted when the container's item is added.
    void awaitParent(ComponentItem* item, const std::string& parentId);
    void forgetOrphan(ComponentItem* item);
    void highlightDropTarget(ComponentItem* item);
    QString refusalForParent(const QString& childPart, ComponentItem* target) const;
    QPointF snapped(QPointF p) const;

    DesignDocument* doc_;
    DesignEditor editor_;
    AnalysisService* analysis_;
    QHash<QString, ComponentItem*> items_;
    // The items without a parent item, asked on every paint (the view names
    // them) and after every edit (the drawing's extent): found again only
    // after an item was added, removed or moved to another container.
    mutable std::optional<QList<ComponentItem*>> topLevel_;
    // What each component's item shows of the analysis, by index, while
    // the document's componentOrder() is shownOrder_ (showAnalysis); none
    // for an item that must be told again.
    std::vector<std::optional<ItemAnalysis>> shown_;
    // The next one, filled in place: a design drawn in full needs a
    // megabyte, which the C library maps afresh (page by page) if freed.
    std::vector<std::optional<ItemAnalysis>> next_;
    std::uint64_t shownOrder_ = ~std::uint64_t{0};
    QHash<QString, LinkItem*> links_;
    QMultiHash<QString, LinkItem*> linksAt_;       // by the id of either end
    QMultiHash<QString, ComponentItem*> orphans_;  // by the id of the container they wait for
    // What the next routing pass routes: everything, or the links of the
    // moved items' subtrees and the links marked.
    bool routeAll_ = true;
    QSet<ComponentItem*> moved_;
    QSet<LinkItem*> toRoute_;
    QRectF drawingRect_;
    double viewZoom_ = 0;  // no view
    bool linksShown_ = true;
    PostedCall routeLinks_{this, [this] { updateLinks(); }};
    bool snap_ = true;
    bool dragging_ = false;
    ComponentItem* dropTarget_ = nullptr;
    ComponentItem* linkFrom_ = nullptr;
    QGraphicsPathItem* rubberLink_ = nullptr;
};

}  // namespace studio
