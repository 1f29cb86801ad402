#pragma once
// One card per device: colour, name and type, a memory bar (red when over capacity), busy
// fraction and op count. Ops dragged from the graph view are dropped onto a card to move them.
// The cards are painted, only those in sight: a widget per card took 1.8-1.9 s to lay out for
// 4,096 devices, holding the window.
#include "core/cluster/Cluster.h"
#include "core/sim/Schedule.h"

#include <QAbstractScrollArea>

#include <vector>

namespace ps {

class DeviceView : public QAbstractScrollArea
{
    Q_OBJECT
public:
    explicit DeviceView(QWidget *parent = nullptr);
    // opCount per device; schedule may be null before the first simulation.
    void setState(const Cluster &cluster, const Schedule *schedule, const std::vector<int> &opCount);
    int cardCount() const { return static_cast<int>(m_cards.size()); }
    bool overCapacity(int device) const;
    // Where a device's card lies in the viewport (scrolled), and the device under a viewport
    // point (-1 for none).
    QRect cardRect(int device) const;
    int deviceAt(const QPoint &viewportPoint) const;
    int columns() const;

Q_SIGNALS:
    void nodesDropped(int device, const std::vector<int> &nodes);
    void deviceActivated(int device); // double-click: select its ops

protected:
    void paintEvent(QPaintEvent *event) override;
    void resizeEvent(QResizeEvent *event) override;
    bool viewportEvent(QEvent *event) override;
    void dragEnterEvent(QDragEnterEvent *event) override;
    void dragMoveEvent(QDragMoveEvent *event) override;
    void dragLeaveEvent(QDragLeaveEvent *event) override;
    void dropEvent(QDropEvent *event) override;
    void mouseDoubleClickEvent(QMouseEvent *event) override;

private:
    struct Card
    {
        Device device;
        double used = 0, busy = 0;
        int ops = 0;
    };
    void updateScrollBar();
    void setDropTarget(int device);
    void paintCard(QPainter &p, const QRectF &r, int index) const;
    QString toolTip(int device) const;

    std::vector<Card> m_cards;
    double m_makespan = 0;
    int m_dropTarget = -1;
};

} // namespace ps
