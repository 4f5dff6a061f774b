#pragma once
// The canvas's scene: one item per component (children inside their
// container's item, so positions are relative as in the file) and one per
// link, rebuilt from the document's signals. Gestures on the canvas (drops,
// drags, link drags, in-place edits) become edits through the DesignEditor;
// a refused gesture says why through message().
#include <QGraphicsScene>
#include <QHash>
#include <QSet>

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

    void scheduleLinkUpdate();
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
    void updateLinks();
    void highlightDropTarget(ComponentItem* item);
    QString refusalForParent(const QString& childPart, ComponentItem* target) const;
    QPointF snapped(QPointF p) const;

    DesignDocument* doc_;
    DesignEditor editor_;
    AnalysisService* analysis_;
    QHash<QString, ComponentItem*> items_;
    QHash<QString, LinkItem*> links_;
    PostedCall routeLinks_{this, [this] { updateLinks(); }};
    bool snap_ = true;
    bool dragging_ = false;
    ComponentItem* dropTarget_ = nullptr;
    ComponentItem* linkFrom_ = nullptr;
    QGraphicsPathItem* rubberLink_ = nullptr;
};

}  // namespace studio
