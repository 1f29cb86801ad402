#pragma once
// One card per device: colour, name and type, a memory bar (red when over capacity), busy
// fraction and op count. Ops dragged from the graph view are dropped onto a card to move them.
#include "core/cluster/Cluster.h"
#include "core/sim/Schedule.h"

#include <QScrollArea>

#include <vector>

class QGridLayout;

namespace ps {

class DeviceCard;

class DeviceView : public QScrollArea
{
    Q_OBJECT
public:
    explicit DeviceView(QWidget *parent = nullptr);
    // opCount per device; schedule may be null before the first simulation.
    void setState(const Cluster &cluster, const Schedule *schedule, const std::vector<int> &opCount);
    DeviceCard *card(int device) const { return m_cards.at(static_cast<size_t>(device)); }
    int cardCount() const { return static_cast<int>(m_cards.size()); }

Q_SIGNALS:
    void nodesDropped(int device, const std::vector<int> &nodes);
    void deviceActivated(int device); // double-click: select its ops

protected:
    void resizeEvent(QResizeEvent *event) override;

private:
    void arrange();
    QWidget *m_box;
    QGridLayout *m_grid;
    std::vector<DeviceCard *> m_cards;
    int m_arrangedColumns = 0; // the grid as last laid out
    size_t m_arrangedCards = 0;
};

class DeviceCard : public QWidget
{
    Q_OBJECT
public:
    DeviceCard(int device, QWidget *parent);
    void setState(const Device &device, double memoryUsed, double busy, double makespan, int ops);
    QSize sizeHint() const override { return {220, 92}; }
    bool overCapacity() const { return m_used > m_device.memoryBytes; }

Q_SIGNALS:
    void nodesDropped(int device, const std::vector<int> &nodes);
    void activated(int device);

protected:
    void paintEvent(QPaintEvent *event) override;
    void dragEnterEvent(QDragEnterEvent *event) override;
    void dragLeaveEvent(QDragLeaveEvent *event) override;
    void dropEvent(QDropEvent *event) override;
    void mouseDoubleClickEvent(QMouseEvent *event) override;

private:
    int m_index;
    Device m_device;
    double m_used = 0, m_busy = 0, m_makespan = 0;
    int m_ops = 0;
    bool m_dropTarget = false;
};

} // namespace ps
