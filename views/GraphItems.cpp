#include "views/GraphItems.h"

#include "views/DeviceColors.h"

#include <QPainter>
#include <QStyleOptionGraphicsItem>

#include <algorithm>
#include <cmath>

namespace ps {

int GraphPaintData::itemDevice(int item) const
{
    const auto &it = view->items()[item];
    if (it.node >= 0)
        return device.empty() ? -1 : device[it.node];
    const auto &m = mix[item];
    if (m.empty())
        return -1;
    return static_cast<int>(std::max_element(m.begin(), m.end()) - m.begin());
}

void GraphPaintData::updateMix()
{
    const auto &items = view->items();
    mix.assign(items.size(), {});
    if (device.empty())
        return;
    for (size_t i = 0; i < items.size(); ++i)
        if (items[i].scope >= 0)
            mix[i].assign(std::max(1, deviceCount), 0);
    for (int v = 0; v < graph->nodeCount(); ++v) {
        const int item = view->itemOf(v);
        if (item >= 0 && items[item].scope >= 0 && device[v] >= 0 && device[v] < deviceCount)
            ++mix[item][device[v]];
    }
}

QSizeF GraphPaintData::itemSize(const Graph &graph, const CollapsedView::Item &item)
{
    if (item.node >= 0)
        return {std::clamp(8.0 * static_cast<double>(graph.id(item.node).size()), 60.0, 150.0), 26};
    return {160, 46};
}

NodeItem::NodeItem(int item, const GraphPaintData *data) : m_item(item), m_data(data)
{
    setFlag(ItemIsSelectable);
    setAcceptHoverEvents(false);
    setPos(data->center[item]);
    setZValue(1);
}

QRectF NodeItem::boundingRect() const
{
    const QSizeF s = m_data->size[m_item];
    return {-s.width() / 2 - 2, -s.height() / 2 - 2, s.width() + 4, s.height() + 4};
}

void NodeItem::paint(QPainter *painter, const QStyleOptionGraphicsItem *option, QWidget *)
{
    const auto &item = m_data->view->items()[m_item];
    const QSizeF s = m_data->size[m_item];
    const QRectF r(-s.width() / 2, -s.height() / 2, s.width(), s.height());
    const double lod = option->levelOfDetailFromTransform(painter->worldTransform());
    const Graph &g = *m_data->graph;
    bool flagged = false;
    if (item.node >= 0) {
        flagged = !m_data->flagged.empty() && m_data->flagged[item.node];
        painter->setBrush(deviceQColor(m_data->device.empty() ? -1 : m_data->device[item.node]));
        painter->setPen(QPen(isSelected() ? QColor(20, 20, 20)
                             : flagged    ? QColor(210, 30, 30)
                                          : QColor(90, 90, 90),
                             isSelected() || flagged ? 2.5 : 0.8));
        painter->drawRoundedRect(r, 5, 5);
        if (!m_data->pinned.empty() && m_data->pinned[item.node]) {
            painter->setBrush(QColor(30, 30, 30));
            painter->drawEllipse(QPointF(r.right() - 5, r.top() + 5), 2.5, 2.5);
        }
        if (lod > 0.55) {
            painter->setPen(Qt::black);
            QFont f = painter->font();
            f.setPointSizeF(7.5);
            painter->setFont(f);
            const std::string &id = g.id(item.node);
            const size_t slash = id.rfind('/');
            const QString label = QString::fromStdString(slash == std::string::npos ? id : id.substr(slash + 1));
            painter->drawText(
                r.adjusted(4, 0, -4, 0), Qt::AlignCenter,
                painter->fontMetrics().elidedText(label, Qt::ElideMiddle, static_cast<int>(r.width() - 8)));
        }
        return;
    }
    // A collapsed scope: a card with its name and count, and a bar of its device mix.
    painter->setBrush(QColor(245, 245, 248));
    painter->setPen(QPen(isSelected() ? QColor(20, 20, 20) : QColor(110, 110, 130), isSelected() ? 2.5 : 1.2));
    painter->drawRoundedRect(r, 6, 6);
    const QRectF bar(r.left() + 6, r.bottom() - 14, r.width() - 12, 8);
    const auto &mix = m_data->mix[m_item];
    double total = 0;
    for (int c : mix)
        total += c;
    double x = bar.left();
    painter->setPen(Qt::NoPen);
    for (size_t d = 0; d < mix.size() && total > 0; ++d) {
        const double w = bar.width() * mix[d] / total;
        painter->setBrush(deviceQColor(static_cast<int>(d)));
        painter->drawRect(QRectF(x, bar.top(), w, bar.height()));
        x += w;
    }
    if (total == 0) {
        painter->setBrush(unplacedColor());
        painter->drawRect(bar);
    }
    if (lod > 0.45) {
        painter->setPen(Qt::black);
        QFont f = painter->font();
        f.setPointSizeF(8);
        f.setBold(true);
        painter->setFont(f);
        const QString name = QString::fromStdString(g.scopes().scope(item.scope).name);
        const QString text = QStringLiteral("%1  (%2)").arg(name).arg(item.members);
        painter->drawText(QRectF(r.left() + 6, r.top() + 3, r.width() - 12, 22), Qt::AlignLeft | Qt::AlignVCenter,
                          painter->fontMetrics().elidedText(text, Qt::ElideMiddle, static_cast<int>(r.width() - 12)));
    }
}

EdgeLayer::EdgeLayer(const GraphPaintData *data, QRectF bounds) : m_data(data), m_bounds(bounds)
{
    setFlag(ItemUsesExtendedStyleOption);
    setZValue(0);
}

void EdgeLayer::paint(QPainter *painter, const QStyleOptionGraphicsItem *option, QWidget *)
{
    const QRectF exposed = option->exposedRect;
    const auto &edges = m_data->view->edges();
    const double lod = option->levelOfDetailFromTransform(painter->worldTransform());
    painter->setRenderHint(QPainter::Antialiasing, lod > 0.3);
    const QPen local(QColor(150, 150, 160), 0.8);
    for (const auto &e : edges) {
        const QPointF a = m_data->center[e.from] + QPointF(0, m_data->size[e.from].height() / 2);
        const QPointF b = m_data->center[e.to] - QPointF(0, m_data->size[e.to].height() / 2);
        if (!exposed.intersects(QRectF(a, b).normalized().adjusted(-2, -2, 2, 2)))
            continue;
        const int da = m_data->itemDevice(e.from), db = m_data->itemDevice(e.to);
        if (da >= 0 && db >= 0 && da != db) {
            // Cross-device: highlighted, wider for more bytes (log scale). Opaque: antialiased
            // lines with alpha took 73 ms a frame where 687 cross the view (the 57,969-op GNMT
            // expanded), 5 ms opaque; the colour is what (220, 80, 30) at 78% was on white.
            const double w = std::clamp(0.8 + 0.6 * std::log10(1 + e.bytes / 1e4), 1.0, 6.0);
            painter->setPen(QPen(QColor(228, 118, 79), w));
        } else {
            painter->setPen(local);
        }
        painter->drawLine(a, b);
    }
    // Stubs: a small diamond left of the first consumer.
    painter->setPen(QPen(QColor(90, 90, 90), 0.8));
    for (const auto &stub : m_data->view->stubs()) {
        if (stub.consumerItem < 0)
            continue;
        const QPointF c =
            m_data->center[stub.consumerItem] - QPointF(m_data->size[stub.consumerItem].width() / 2 + 8, 0);
        if (!exposed.contains(c))
            continue;
        painter->setBrush(deviceQColor(m_data->device.empty() ? -1 : m_data->device[stub.node]));
        QPolygonF diamond;
        diamond << c + QPointF(0, -5) << c + QPointF(5, 0) << c + QPointF(0, 5) << c + QPointF(-5, 0);
        painter->drawPolygon(diamond);
    }
}

} // namespace ps
