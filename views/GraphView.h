#pragma once
// The graph, collapsed by scope: ops coloured by device, cross-device edges highlighted by
// bytes, collapsed scopes with their device mix. Layout runs in a worker thread (Graphviz dot
// for a few hundred visible items, our layered layout beyond); the view stays usable meanwhile.
// Double-click expands a scope or collapses an op's scope; drag selected ops onto a device.
#include "core/graph/Graph.h"
#include "views/GraphItems.h"

#include <QFutureWatcher>
#include <QGraphicsView>

#include <atomic>
#include <memory>
#include <optional>

namespace ps {

struct LayoutJob;

class GraphView : public QGraphicsView
{
    Q_OBJECT
public:
    explicit GraphView(QWidget *parent = nullptr);
    ~GraphView() override;

    void setGraph(std::shared_ptr<const Graph> graph);
    // Colours, pins and red flags; a repaint only.
    void setPlacement(const std::vector<int> &device, int deviceCount, const std::vector<char> &pinned,
                      const std::vector<char> &flagged);
    void setTimes(const std::vector<double> &start, const std::vector<double> &finish,
                  const std::vector<std::string> &deviceNames);
    void setSelection(const std::vector<int> &nodes);
    std::vector<int> selectedNodes() const;

    void setExpanded(int scope, bool expanded);
    // Opens scopes breadth-first while at most `items` are visible (View ▸ Expand/Collapse all).
    void expandToBudget(int items);
    bool isExpanded(int scope) const;
    // Selects the nodes whose id, op or scope contains text; returns them.
    std::vector<int> search(const QString &text);
    // Centres on a node (expanding its scopes if needed).
    void reveal(int node);
    // The whole graph in view (never magnified beyond its natural size), and zooming by a factor
    // about the view's centre, within the wheel's limits (0.01x to 8x).
    void zoomToFit();
    void zoomBy(double factor);
    double zoom() const { return transform().m11(); }

    bool layoutRunning() const { return m_running; }
    int visibleItems() const;
    qint64 lastLayoutMs() const { return m_lastLayoutMs; }
    // The item under a scene point (-1 for none), and a node's item.
    int itemAt(const QPoint &viewPos) const;
    // Where the item showing a node is, in scene coordinates (for a stub, the item it feeds;
    // none before a layout).
    std::optional<QPointF> centreOf(int node) const;
    double firstRowsX(double bandBottom, double width, const QRectF &bounds) const;
    QString tooltipFor(int item) const;

Q_SIGNALS:
    void selectionChangedByUser(const std::vector<int> &nodes);
    void layoutFinished(qint64 ms, int items);
    void contextMenuRequested(const std::vector<int> &nodes, const QPoint &globalPos);

protected:
    void wheelEvent(QWheelEvent *event) override;
    void mousePressEvent(QMouseEvent *event) override;
    void mouseMoveEvent(QMouseEvent *event) override;
    void mouseDoubleClickEvent(QMouseEvent *event) override;
    void contextMenuEvent(QContextMenuEvent *event) override;
    bool viewportEvent(QEvent *event) override;
    void drawBackground(QPainter *painter, const QRectF &rect) override;

private:
    void relayout();
    void layoutDone();
    void sceneSelectionChanged();
    std::vector<int> nodesOfItems(const QList<QGraphicsItem *> &items) const;
    int nodeOfItem(int item) const;       // the op it shows, or a scope's first
    int nodeNearest(QPointF scene) const; // of the item nearest a scene point; -1: none

    std::shared_ptr<const Graph> m_graph;
    std::vector<char> m_expanded;
    std::unique_ptr<GraphPaintData> m_data;
    std::vector<NodeItem *> m_items;
    std::vector<int> m_device;
    std::vector<char> m_pinned, m_flagged;
    int m_deviceCount = 0;
    std::vector<double> m_start, m_finish;
    std::vector<std::string> m_deviceNames;
    QFutureWatcher<std::shared_ptr<LayoutJob>> m_watcher;
    std::shared_ptr<std::atomic<bool>> m_cancel;
    bool m_running = false, m_pendingRelayout = false, m_settingSelection = false, m_fitPending = false;
    qint64 m_lastLayoutMs = 0;
    QPoint m_pressPos;
    bool m_pressOnSelected = false;
    std::vector<int> m_selection; // the selected ops as set or chosen; kept through relayouts
    int m_centreNode = -1;        // an op to centre on when the running layout is in
};

} // namespace ps
