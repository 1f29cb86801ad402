#include "views/DeviceView.h"

#include "views/DeviceColors.h"
#include "views/Format.h"
#include "views/NodeMime.h"

#include <QDragEnterEvent>
#include <QGridLayout>
#include <QPainter>

#include <cmath>

namespace ps {

DeviceView::DeviceView(QWidget *parent) : QScrollArea(parent), m_box(new QWidget), m_grid(new QGridLayout(m_box))
{
    setWidgetResizable(true);
    setWidget(m_box);
    m_grid->setSpacing(8);
    m_grid->setContentsMargins(8, 8, 8, 8);
}

void DeviceView::setState(const Cluster &cluster, const Schedule *schedule, const std::vector<int> &opCount)
{
    while (static_cast<int>(m_cards.size()) > cluster.deviceCount()) {
        delete m_cards.back();
        m_cards.pop_back();
    }
    while (static_cast<int>(m_cards.size()) < cluster.deviceCount()) {
        auto *card = new DeviceCard(static_cast<int>(m_cards.size()), m_box);
        connect(card, &DeviceCard::nodesDropped, this, &DeviceView::nodesDropped);
        connect(card, &DeviceCard::activated, this, &DeviceView::deviceActivated);
        m_cards.push_back(card);
    }
    for (int d = 0; d < cluster.deviceCount(); ++d) {
        const bool have = schedule && d < static_cast<int>(schedule->memory.size());
        m_cards[d]->setState(cluster.device(d), have ? schedule->memory[d] : 0, have ? schedule->busy[d] : 0,
                             schedule ? schedule->makespan : 0, d < static_cast<int>(opCount.size()) ? opCount[d] : 0);
    }
    arrange();
}

void DeviceView::arrange()
{
    // Laying out the grid again costs per card (4,096 cards: most of an edit's 0.4 s), so only
    // when the cards or the columns changed.
    const int columns = std::max(1, (viewport()->width() - 8) / 228);
    if (columns == m_arrangedColumns && m_cards.size() == m_arrangedCards)
        return;
    m_arrangedColumns = columns;
    m_arrangedCards = m_cards.size();
    for (auto *card : m_cards)
        m_grid->removeWidget(card);
    for (size_t i = 0; i < m_cards.size(); ++i)
        m_grid->addWidget(m_cards[i], static_cast<int>(i) / columns, static_cast<int>(i) % columns);
    m_grid->setRowStretch(static_cast<int>(m_cards.size()) / columns + 1, 1);
}

void DeviceView::resizeEvent(QResizeEvent *event)
{
    QScrollArea::resizeEvent(event);
    arrange();
}

DeviceCard::DeviceCard(int device, QWidget *parent) : QWidget(parent), m_index(device)
{
    setAcceptDrops(true);
    setMinimumSize(200, 88);
}

void DeviceCard::setState(const Device &device, double memoryUsed, double busy, double makespan, int ops)
{
    m_device = device;
    m_used = memoryUsed;
    m_busy = busy;
    m_makespan = makespan;
    m_ops = ops;
    setToolTip(QStringLiteral("%1 (%2)\n%3 TFLOP/s, %4 memory, %5 µs per op\nDrop ops here to move them; "
                              "double-click to select its ops")
                   .arg(QString::fromStdString(device.name), QString::fromStdString(device.type))
                   .arg(device.flopsPerS / 1e12, 0, 'g', 4)
                   .arg(formatBytes(device.memoryBytes))
                   .arg(device.opOverheadS * 1e6, 0, 'g', 3));
    update();
}

void DeviceCard::paintEvent(QPaintEvent *)
{
    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing);
    const QRectF r = QRectF(rect()).adjusted(1, 1, -1, -1);
    p.setPen(QPen(m_dropTarget ? palette().highlight().color() : QColor(190, 190, 200), m_dropTarget ? 2.5 : 1));
    p.setBrush(palette().base());
    p.drawRoundedRect(r, 6, 6);
    p.setPen(Qt::NoPen);
    p.setBrush(deviceQColor(m_index));
    p.drawRoundedRect(QRectF(r.left(), r.top(), 8, r.height()), 3, 3);

    QFont bold = font();
    bold.setBold(true);
    p.setFont(bold);
    p.setPen(palette().text().color());
    const QRectF text = r.adjusted(16, 6, -8, 0);
    p.drawText(text, Qt::AlignLeft | Qt::AlignTop, QString::fromStdString(m_device.name));
    p.setFont(font());
    p.setPen(palette().placeholderText().color());
    p.drawText(text, Qt::AlignRight | Qt::AlignTop, QString::fromStdString(m_device.type));

    // Memory bar.
    const double cap = std::max(1.0, m_device.memoryBytes);
    const bool over = m_used > m_device.memoryBytes;
    const QRectF bar(text.left(), r.top() + 30, text.width(), 12);
    p.setPen(Qt::NoPen);
    p.setBrush(QColor(230, 230, 235));
    p.drawRoundedRect(bar, 3, 3);
    p.setBrush(over ? QColor(215, 40, 40) : QColor(90, 150, 90));
    p.drawRoundedRect(QRectF(bar.left(), bar.top(), bar.width() * std::min(1.0, m_used / cap), bar.height()), 3, 3);
    p.setPen(over ? QColor(200, 0, 0) : palette().text().color());
    p.drawText(QRectF(text.left(), bar.bottom() + 2, text.width(), 16), Qt::AlignLeft,
               QStringLiteral("%1 / %2%3")
                   .arg(formatBytes(m_used), formatBytes(m_device.memoryBytes),
                        over ? tr("  over by %1").arg(formatBytes(m_used - m_device.memoryBytes)) : QString()));
    p.setPen(palette().text().color());
    const double busyFraction = m_makespan > 0 ? m_busy / m_makespan : 0;
    p.drawText(QRectF(text.left(), bar.bottom() + 20, text.width(), 16), Qt::AlignLeft,
               tr("busy %1%   %2 ops").arg(busyFraction * 100, 0, 'f', 1).arg(m_ops));
}

void DeviceCard::dragEnterEvent(QDragEnterEvent *event)
{
    if (event->mimeData()->hasFormat(kNodeMimeType)) {
        m_dropTarget = true;
        update();
        event->acceptProposedAction();
    }
}

void DeviceCard::dragLeaveEvent(QDragLeaveEvent *)
{
    m_dropTarget = false;
    update();
}

void DeviceCard::dropEvent(QDropEvent *event)
{
    m_dropTarget = false;
    update();
    const std::vector<int> nodes = nodesFromMime(event->mimeData());
    if (nodes.empty())
        return;
    event->acceptProposedAction();
    Q_EMIT nodesDropped(m_index, nodes);
}

void DeviceCard::mouseDoubleClickEvent(QMouseEvent *)
{
    Q_EMIT activated(m_index);
}

} // namespace ps
