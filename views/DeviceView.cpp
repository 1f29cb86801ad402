#include "views/DeviceView.h"

#include "views/DeviceColors.h"
#include "views/Format.h"
#include "views/NodeMime.h"

#include <QDragEnterEvent>
#include <QHelpEvent>
#include <QPainter>
#include <QScrollBar>
#include <QToolTip>

#include <algorithm>
#include <cmath>

namespace ps {

namespace {
constexpr int kMargin = 8, kSpacing = 8, kMinWidth = 220, kHeight = 92;
} // namespace

DeviceView::DeviceView(QWidget *parent) : QAbstractScrollArea(parent)
{
    setAcceptDrops(true);
    viewport()->setAcceptDrops(true);
    setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    verticalScrollBar()->setSingleStep(kHeight + kSpacing);
}

void DeviceView::setState(const Cluster &cluster, const Schedule *schedule, const std::vector<int> &opCount)
{
    const int k = cluster.deviceCount();
    m_cards.resize(static_cast<size_t>(k));
    for (int d = 0; d < k; ++d) {
        const bool have = schedule && d < static_cast<int>(schedule->memory.size());
        Card &c = m_cards[d];
        c.device = cluster.device(d);
        c.used = have ? schedule->memory[d] : 0;
        c.busy = have ? schedule->busy[d] : 0;
        c.ops = d < static_cast<int>(opCount.size()) ? opCount[d] : 0;
    }
    m_makespan = schedule ? schedule->makespan : 0;
    if (m_dropTarget >= k)
        m_dropTarget = -1;
    updateScrollBar();
    viewport()->update();
}

bool DeviceView::overCapacity(int device) const
{
    const Card &c = m_cards.at(static_cast<size_t>(device));
    return c.used > c.device.memoryBytes;
}

int DeviceView::columns() const
{
    return std::max(1, (viewport()->width() - kMargin) / (kMinWidth + kSpacing));
}

QRect DeviceView::cardRect(int device) const
{
    const int cols = columns();
    const int width = std::max(kMinWidth - 20, (viewport()->width() - 2 * kMargin - (cols - 1) * kSpacing) / cols);
    const int row = device / cols, col = device % cols;
    return {kMargin + col * (width + kSpacing), kMargin + row * (kHeight + kSpacing) - verticalScrollBar()->value(),
            width, kHeight};
}

int DeviceView::deviceAt(const QPoint &p) const
{
    const int cols = columns();
    const int row = (p.y() + verticalScrollBar()->value() - kMargin) / (kHeight + kSpacing);
    const int width = cardRect(0).width();
    const int col = (p.x() - kMargin) / (width + kSpacing);
    if (p.x() < kMargin || p.y() + verticalScrollBar()->value() < kMargin || col >= cols)
        return -1;
    const int device = row * cols + col;
    return device < cardCount() && cardRect(device).contains(p) ? device : -1;
}

void DeviceView::updateScrollBar()
{
    const int rows = (cardCount() + columns() - 1) / columns();
    const int height = 2 * kMargin + rows * kHeight + std::max(0, rows - 1) * kSpacing;
    verticalScrollBar()->setPageStep(viewport()->height());
    verticalScrollBar()->setRange(0, std::max(0, height - viewport()->height()));
}

void DeviceView::resizeEvent(QResizeEvent *event)
{
    QAbstractScrollArea::resizeEvent(event);
    updateScrollBar();
}

void DeviceView::paintEvent(QPaintEvent *event)
{
    QPainter p(viewport());
    p.fillRect(event->rect(), palette().window());
    if (m_cards.empty())
        return;
    p.setRenderHint(QPainter::Antialiasing);
    const int cols = columns();
    const int top = std::max(0, (event->rect().top() + verticalScrollBar()->value() - kMargin) / (kHeight + kSpacing));
    const int bottom = (event->rect().bottom() + verticalScrollBar()->value() - kMargin) / (kHeight + kSpacing);
    for (int row = top; row <= bottom; ++row)
        for (int col = 0; col < cols; ++col) {
            const int d = row * cols + col;
            if (d >= cardCount())
                return;
            paintCard(p, QRectF(cardRect(d)), d);
        }
}

void DeviceView::paintCard(QPainter &p, const QRectF &card, int index) const
{
    const Card &c = m_cards[index];
    const bool target = index == m_dropTarget;
    const QRectF r = card.adjusted(1, 1, -1, -1);
    p.setPen(QPen(target ? palette().highlight().color() : QColor(190, 190, 200), target ? 2.5 : 1));
    p.setBrush(palette().base());
    p.drawRoundedRect(r, 6, 6);
    p.setPen(Qt::NoPen);
    p.setBrush(deviceQColor(index));
    p.drawRoundedRect(QRectF(r.left(), r.top(), 8, r.height()), 3, 3);

    QFont bold = font();
    bold.setBold(true);
    p.setFont(bold);
    p.setPen(palette().text().color());
    const QRectF text = r.adjusted(16, 6, -8, 0);
    p.drawText(text, Qt::AlignLeft | Qt::AlignTop, QString::fromStdString(c.device.name));
    p.setFont(font());
    p.setPen(palette().placeholderText().color());
    p.drawText(text, Qt::AlignRight | Qt::AlignTop, QString::fromStdString(c.device.type));

    // Memory bar.
    const double cap = std::max(1.0, c.device.memoryBytes);
    const bool over = c.used > c.device.memoryBytes;
    const QRectF bar(text.left(), r.top() + 30, text.width(), 12);
    p.setPen(Qt::NoPen);
    p.setBrush(QColor(230, 230, 235));
    p.drawRoundedRect(bar, 3, 3);
    p.setBrush(over ? QColor(215, 40, 40) : QColor(90, 150, 90));
    p.drawRoundedRect(QRectF(bar.left(), bar.top(), bar.width() * std::min(1.0, c.used / cap), bar.height()), 3, 3);
    p.setPen(over ? QColor(200, 0, 0) : palette().text().color());
    p.drawText(QRectF(text.left(), bar.bottom() + 2, text.width(), 16), Qt::AlignLeft,
               QStringLiteral("%1 / %2%3")
                   .arg(formatBytes(c.used), formatBytes(c.device.memoryBytes),
                        over ? tr("  over by %1").arg(formatBytes(c.used - c.device.memoryBytes)) : QString()));
    p.setPen(palette().text().color());
    const double busyFraction = m_makespan > 0 ? c.busy / m_makespan : 0;
    p.drawText(QRectF(text.left(), bar.bottom() + 20, text.width(), 16), Qt::AlignLeft,
               tr("busy %1%   %2 ops").arg(busyFraction * 100, 0, 'f', 1).arg(c.ops));
}

QString DeviceView::toolTip(int device) const
{
    const Device &d = m_cards[device].device;
    return QStringLiteral("%1 (%2)\n%3 TFLOP/s, %4 memory, %5 µs per op\nDrop ops here to move them; "
                          "double-click to select its ops")
        .arg(QString::fromStdString(d.name), QString::fromStdString(d.type))
        .arg(d.flopsPerS / 1e12, 0, 'g', 4)
        .arg(formatBytes(d.memoryBytes))
        .arg(d.opOverheadS * 1e6, 0, 'g', 3);
}

bool DeviceView::viewportEvent(QEvent *event)
{
    if (event->type() == QEvent::ToolTip) {
        auto *help = static_cast<QHelpEvent *>(event);
        const int d = deviceAt(help->pos());
        if (d >= 0)
            QToolTip::showText(help->globalPos(), toolTip(d), viewport(), cardRect(d));
        else
            QToolTip::hideText();
        return true;
    }
    return QAbstractScrollArea::viewportEvent(event);
}

void DeviceView::setDropTarget(int device)
{
    if (device == m_dropTarget)
        return;
    m_dropTarget = device;
    viewport()->update();
}

void DeviceView::dragEnterEvent(QDragEnterEvent *event)
{
    if (!event->mimeData()->hasFormat(kNodeMimeType))
        return;
    event->acceptProposedAction(); // moves over the gaps between cards must keep the drag alive
    setDropTarget(deviceAt(event->position().toPoint()));
}

void DeviceView::dragMoveEvent(QDragMoveEvent *event)
{
    if (!event->mimeData()->hasFormat(kNodeMimeType))
        return;
    const int d = deviceAt(event->position().toPoint());
    setDropTarget(d);
    if (d >= 0)
        event->acceptProposedAction();
    else
        event->ignore();
}

void DeviceView::dragLeaveEvent(QDragLeaveEvent *)
{
    setDropTarget(-1);
}

void DeviceView::dropEvent(QDropEvent *event)
{
    setDropTarget(-1);
    const int d = deviceAt(event->position().toPoint());
    const std::vector<int> nodes = nodesFromMime(event->mimeData());
    if (d < 0 || nodes.empty())
        return;
    event->acceptProposedAction();
    Q_EMIT nodesDropped(d, nodes);
}

void DeviceView::mouseDoubleClickEvent(QMouseEvent *event)
{
    const int d = deviceAt(event->position().toPoint());
    if (d >= 0)
        Q_EMIT deviceActivated(d);
}

} // namespace ps
