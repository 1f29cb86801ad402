#pragma once
// The graph view's scene items. They paint from one shared GraphPaintData, so a new placement
// or selection is a repaint, not a rebuild. One item per visible op or collapsed scope; all
// edges (and the stubs of high fan-out weights) are painted by a single layer item.
#include "core/graph/Graph.h"
#include "core/layout/CollapsedView.h"

#include <QGraphicsItem>

#include <memory>
#include <vector>

namespace ps {

struct GraphPaintData
{
    std::shared_ptr<const Graph> graph;
    std::unique_ptr<CollapsedView> view;
    std::vector<QPointF> center;       // per item
    std::vector<QSizeF> size;          // per item
    std::vector<int> device;           // per node (-1 unplaced)
    std::vector<char> pinned;          // per node
    std::vector<char> flagged;         // per node: on an overflowing device or breaking a constraint
    std::vector<std::vector<int>> mix; // per item: members per device (groups)
    int deviceCount = 0;

    int itemDevice(int item) const; // an op's device, a group's most common one
    void updateMix();
    static QSizeF itemSize(const Graph &graph, const CollapsedView::Item &item);
};

class NodeItem : public QGraphicsItem
{
public:
    NodeItem(int item, const GraphPaintData *data);
    int item() const { return m_item; }
    QRectF boundingRect() const override;
    void paint(QPainter *painter, const QStyleOptionGraphicsItem *option, QWidget *widget) override;

private:
    int m_item;
    const GraphPaintData *m_data;
};

class EdgeLayer : public QGraphicsItem
{
public:
    explicit EdgeLayer(const GraphPaintData *data, QRectF bounds);
    QRectF boundingRect() const override { return m_bounds; }
    void paint(QPainter *painter, const QStyleOptionGraphicsItem *option, QWidget *widget) override;

private:
    const GraphPaintData *m_data;
    QRectF m_bounds;
};

} // namespace ps
