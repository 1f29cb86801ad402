#include "views/GraphView.h"

#include "core/layout/LayeredLayout.h"
#include "views/NodeMime.h"
#include "views/ToolTip.h"
#include "views/WorkerPool.h"

#include <QApplication>
#include <QDrag>
#include <QElapsedTimer>
#include <QHelpEvent>
#include <QMouseEvent>
#include <QScrollBar>
#include <QWheelEvent>
#include <QtConcurrent/QtConcurrent>

#include <algorithm>
#include <cmath>
#include <limits>

namespace ps {

namespace {
constexpr int kInitialItems = 150; // visible items when a graph opens
constexpr int kDotLimit = 300;     // Graphviz dot up to this many visible items
} // namespace

// A layout computed off the GUI thread: the collapsed view and item positions.
struct LayoutJob
{
    std::unique_ptr<CollapsedView> view;
    LayoutResult result;
    std::vector<QSizeF> size;
    qint64 ms = 0;
    bool usedDot = false;
};

GraphView::GraphView(QWidget *parent) : QGraphicsView(parent)
{
    setScene(new QGraphicsScene(this));
    setDragMode(RubberBandDrag);
    setRenderHint(QPainter::Antialiasing);
    setViewportUpdateMode(SmartViewportUpdate);
    setTransformationAnchor(AnchorUnderMouse);
    setOptimizationFlag(DontSavePainterState);
    setMouseTracking(true);
    connect(scene(), &QGraphicsScene::selectionChanged, this, &GraphView::sceneSelectionChanged);
    connect(&m_watcher, &QFutureWatcher<std::shared_ptr<LayoutJob>>::finished, this, &GraphView::layoutDone);
}

GraphView::~GraphView()
{
    if (m_cancel)
        *m_cancel = true;
    m_watcher.waitForFinished();
    // The items paint from m_data, which goes before the scene (a child object) does.
    disconnect(scene(), nullptr, this, nullptr);
    scene()->clear();
}

void GraphView::setGraph(std::shared_ptr<const Graph> graph)
{
    m_graph = std::move(graph);
    m_device.clear();
    m_pinned.clear();
    m_flagged.clear();
    m_start.clear();
    m_finish.clear();
    m_expanded.clear();
    m_selection.clear();
    m_centreNode = -1;
    if (m_graph)
        m_expanded = CollapsedView::expandWithin(*m_graph, kInitialItems);
    m_fitPending = true;
    relayout();
}

void GraphView::setPlacement(const std::vector<int> &device, int deviceCount, const std::vector<char> &pinned,
                             const std::vector<char> &flagged)
{
    m_device = device;
    m_deviceCount = deviceCount;
    m_pinned = pinned;
    m_flagged = flagged;
    if (m_data) {
        m_data->device = m_device;
        m_data->deviceCount = deviceCount;
        m_data->pinned = m_pinned;
        m_data->flagged = m_flagged;
        m_data->updateMix();
        scene()->update();
    }
}

void GraphView::setTimes(const std::vector<double> &start, const std::vector<double> &finish,
                         const std::vector<std::string> &deviceNames)
{
    m_start = start;
    m_finish = finish;
    m_deviceNames = deviceNames;
}

void GraphView::relayout()
{
    if (m_running) {
        // One layout at a time: the newest request runs when the current one ends.
        *m_cancel = true;
        m_pendingRelayout = true;
        return;
    }
    if (!m_graph) {
        scene()->clear();
        m_items.clear();
        m_data.reset();
        return;
    }
    m_running = true;
    m_cancel = std::make_shared<std::atomic<bool>>(false);
    auto graph = m_graph;
    auto expanded = m_expanded;
    auto cancel = m_cancel;
    m_watcher.setFuture(QtConcurrent::run(workerPool(), [graph, expanded, cancel] {
        QElapsedTimer timer;
        timer.start();
        auto job = std::make_shared<LayoutJob>();
        job->view = std::make_unique<CollapsedView>(*graph, expanded);
        LayoutInput input;
        for (const auto &item : job->view->items()) {
            const QSizeF s = GraphPaintData::itemSize(*graph, item);
            job->size.push_back(s);
            input.size.push_back({s.width(), s.height()});
        }
        for (const auto &e : job->view->edges())
            input.edges.push_back({e.from, e.to});
        job->usedDot = input.size.size() <= static_cast<size_t>(kDotLimit);
        job->result = job->usedDot ? dotLayout(input) : layeredLayout(input, cancel.get());
        job->ms = timer.elapsed();
        return job;
    }));
}

void GraphView::layoutDone()
{
    m_running = false;
    std::shared_ptr<LayoutJob> job = m_watcher.result();
    if (m_pendingRelayout) {
        m_pendingRelayout = false;
        relayout();
        return;
    }
    if (job->result.cancelled)
        return;
    m_settingSelection = true;
    scene()->clear();
    m_items.clear();
    m_data = std::make_unique<GraphPaintData>();
    m_data->graph = m_graph;
    m_data->view = std::move(job->view);
    m_data->size = job->size;
    for (const auto &c : job->result.center)
        m_data->center.push_back(QPointF(c.first, c.second));
    m_data->device = m_device;
    m_data->deviceCount = m_deviceCount;
    m_data->pinned = m_pinned;
    m_data->flagged = m_flagged;
    m_data->updateMix();
    const QRectF bounds(-60, -60, job->result.width + 120, job->result.height + 120);
    scene()->setSceneRect(bounds);
    scene()->addItem(new EdgeLayer(m_data.get(), bounds));
    for (size_t i = 0; i < m_data->center.size(); ++i) {
        auto *item = new NodeItem(static_cast<int>(i), m_data.get());
        m_items.push_back(item);
        scene()->addItem(item);
    }
    m_settingSelection = false;
    setSelection(std::vector<int>(m_selection)); // the same ops, in the new items
    m_lastLayoutMs = job->ms;
    if (m_centreNode >= 0) {
        // Shown where the person looks: the op revealed, or the scope just opened or closed.
        if (const auto at = centreOf(m_centreNode))
            centerOn(*at);
        m_centreNode = -1;
    }
    if (m_fitPending) {
        // A new graph: readable size, as wide as fits, starting from its inputs at the top.
        m_fitPending = false;
        const double s = std::clamp(viewport()->width() / std::max(1.0, bounds.width()), 0.35, 1.0);
        setTransform(QTransform::fromScale(s, s));
        const double width = viewport()->width() / s, height = viewport()->height() / s;
        centerOn(firstRowsX(bounds.top() + height, width, bounds), bounds.top() + height / 2);
    }
    Q_EMIT layoutFinished(job->ms, static_cast<int>(m_items.size()));
}

double GraphView::firstRowsX(double bandBottom, double width, const QRectF &bounds) const
{
    // A graph wider than the window: show where its first rows are, not the middle of the layout
    // (on GNMT that was an empty canvas crossed by edges). The ops whose centres fall in the band
    // the window shows at the top: their middle, or their left end where they are wider than the
    // window, so that the inputs are in sight.
    if (bounds.width() <= width)
        return bounds.center().x();
    double left = bounds.right(), right = bounds.left();
    for (const QPointF &c : m_data->center)
        if (c.y() <= bandBottom) {
            left = std::min(left, c.x());
            right = std::max(right, c.x());
        }
    if (left > right)
        return bounds.center().x();
    const double margin = 80;
    const double x = right - left + 2 * margin <= width ? (left + right) / 2 : left - margin + width / 2;
    return std::clamp(x, bounds.left() + width / 2, bounds.right() - width / 2);
}

int GraphView::visibleItems() const
{
    return static_cast<int>(m_items.size());
}

void GraphView::setExpanded(int scope, bool expanded)
{
    if (scope <= 0 || scope >= static_cast<int>(m_expanded.size()) || m_expanded[scope] == expanded)
        return;
    m_expanded[scope] = expanded;
    relayout();
}

void GraphView::expandToBudget(int items)
{
    if (!m_graph)
        return;
    m_expanded = CollapsedView::expandWithin(*m_graph, items);
    // The op nearest the middle of the view stays in view: the scene changes size, and where the
    // scroll bars were often showed empty canvas (the 57,969-op GNMT's expanded scene is 44,000
    // wide). Nothing near: shown as a new graph is.
    m_centreNode = nodeNearest(mapToScene(viewport()->rect().center()));
    m_fitPending = m_centreNode < 0;
    relayout();
}

int GraphView::nodeNearest(QPointF at) const
{
    if (!m_data || m_data->center.empty())
        return -1;
    size_t best = 0;
    double bestDistance = std::numeric_limits<double>::infinity();
    for (size_t i = 0; i < m_data->center.size(); ++i) {
        const QPointF d = m_data->center[i] - at;
        const double distance = QPointF::dotProduct(d, d);
        if (distance < bestDistance) {
            bestDistance = distance;
            best = i;
        }
    }
    return nodeOfItem(static_cast<int>(best));
}

int GraphView::nodeOfItem(int item) const
{
    const auto &it = m_data->view->items()[item];
    return it.scope >= 0 ? m_data->view->membersOf(item).front() : it.node;
}

bool GraphView::isExpanded(int scope) const
{
    return scope >= 0 && scope < static_cast<int>(m_expanded.size()) && m_expanded[scope];
}

std::vector<int> GraphView::nodesOfItems(const QList<QGraphicsItem *> &items) const
{
    std::vector<int> nodes;
    if (!m_data)
        return nodes;
    std::vector<char> itemSelected(m_items.size(), 0);
    for (QGraphicsItem *gi : items)
        if (auto *ni = dynamic_cast<NodeItem *>(gi))
            itemSelected[ni->item()] = 1;
    for (int v = 0; v < m_graph->nodeCount(); ++v) {
        const int item = m_data->view->itemOf(v);
        if (item >= 0 && itemSelected[item])
            nodes.push_back(v);
    }
    return nodes;
}

std::vector<int> GraphView::selectedNodes() const
{
    return nodesOfItems(scene()->selectedItems());
}

void GraphView::setSelection(const std::vector<int> &nodes)
{
    m_selection = nodes;
    if (!m_data)
        return;
    std::vector<char> want(m_items.size(), 0);
    for (int v : nodes) {
        const int item = v >= 0 && v < m_graph->nodeCount() ? m_data->view->itemOf(v) : -1;
        if (item >= 0)
            want[item] = 1;
    }
    m_settingSelection = true;
    for (size_t i = 0; i < m_items.size(); ++i)
        m_items[i]->setSelected(want[i]);
    m_settingSelection = false;
}

void GraphView::sceneSelectionChanged()
{
    if (m_settingSelection)
        return;
    m_selection = selectedNodes();
    Q_EMIT selectionChangedByUser(m_selection);
}

std::vector<int> GraphView::search(const QString &text)
{
    std::vector<int> found;
    if (!m_graph || text.isEmpty())
        return found;
    const std::string needle = text.toLower().toStdString();
    auto contains = [&](const std::string &s) {
        std::string lower = s;
        for (char &c : lower)
            c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        return lower.find(needle) != std::string::npos;
    };
    for (int v = 0; v < m_graph->nodeCount(); ++v)
        if (contains(m_graph->id(v)) || contains(m_graph->op(v)) || contains(m_graph->scope(v)))
            found.push_back(v);
    setSelection(found);
    return found;
}

void GraphView::reveal(int node)
{
    if (!m_graph || node < 0 || node >= m_graph->nodeCount())
        return;
    bool changed = false;
    for (int s = m_graph->scopeIndex(node); s > 0; s = m_graph->scopes().scope(s).parent)
        if (!m_expanded[s]) {
            m_expanded[s] = 1;
            changed = true;
        }
    if (changed) {
        m_centreNode = node; // once the new layout is in
        relayout();
        return;
    }
    if (const auto at = centreOf(node))
        centerOn(*at);
}

int GraphView::itemAt(const QPoint &viewPos) const
{
    for (QGraphicsItem *gi : items(viewPos))
        if (auto *ni = dynamic_cast<NodeItem *>(gi))
            return ni->item();
    return -1;
}

std::optional<QPointF> GraphView::centreOf(int node) const
{
    if (!m_data || node < 0 || node >= m_graph->nodeCount())
        return std::nullopt;
    int item = m_data->view->itemOf(node);
    if (item < 0) { // a stub is drawn beside the first item it feeds
        const auto &stubs = m_data->view->stubs();
        const auto it = std::find_if(stubs.begin(), stubs.end(), [&](const auto &s) { return s.node == node; });
        item = it != stubs.end() ? it->consumerItem : -1;
    }
    return item >= 0 ? std::optional<QPointF>(m_data->center[item]) : std::nullopt;
}

QString GraphView::tooltipFor(int item) const
{
    if (!m_data || item < 0)
        return {};
    const Graph &g = *m_graph;
    const auto &it = m_data->view->items()[item];
    auto human = [](double x, const char *unit) {
        const char *prefixes[] = {"", "k", "M", "G", "T", "P"};
        int p = 0;
        while (std::abs(x) >= 1000 && p < 5) {
            x /= 1000;
            ++p;
        }
        return QString::number(x, 'g', 4) + " " + prefixes[p] + unit;
    };
    if (it.node >= 0) {
        const int v = it.node;
        QString text =
            QStringLiteral("<b>%1</b><br>op %2 · scope %3<br>%4 · out %5 · params %6")
                .arg(QString::fromStdString(g.id(v)).toHtmlEscaped(), QString::fromStdString(g.op(v)).toHtmlEscaped(),
                     QString::fromStdString(g.scope(v).empty() ? "/" : g.scope(v)).toHtmlEscaped(),
                     human(g.flops(v), "FLOP"), human(g.outBytes(v), "B"), human(g.paramBytes(v), "B"));
        if (!m_device.empty() && m_device[v] >= 0 && m_device[v] < static_cast<int>(m_deviceNames.size()))
            text += QStringLiteral("<br>device <b>%1</b>%2")
                        .arg(QString::fromStdString(m_deviceNames[m_device[v]]),
                             !m_pinned.empty() && m_pinned[v] ? " (pinned)" : "");
        if (v < static_cast<int>(m_start.size()))
            text += QStringLiteral("<br>start %1 · finish %2").arg(human(m_start[v], "s"), human(m_finish[v], "s"));
        if (!m_flagged.empty() && m_flagged[v])
            text += QStringLiteral("<br><span style='color:#c00'>breaks memory or a constraint</span>");
        return text;
    }
    const auto &scope = g.scopes().scope(it.scope);
    QString text = QStringLiteral("<b>%1</b><br>%2 ops · %3<br>double-click to expand")
                       .arg(QString::fromStdString(scope.path).toHtmlEscaped())
                       .arg(it.members)
                       .arg(human(scope.totalFlops, "FLOP"));
    const auto &mix = m_data->mix[item];
    for (size_t d = 0; d < mix.size(); ++d)
        if (mix[d] > 0 && d < m_deviceNames.size())
            text += QStringLiteral("<br>%1: %2 ops").arg(QString::fromStdString(m_deviceNames[d])).arg(mix[d]);
    return text;
}

bool GraphView::viewportEvent(QEvent *event)
{
    if (event->type() == QEvent::ToolTip) {
        auto *help = static_cast<QHelpEvent *>(event);
        answerToolTip(*help, tooltipFor(itemAt(help->pos())), this);
        return true;
    }
    return QGraphicsView::viewportEvent(event);
}

void GraphView::wheelEvent(QWheelEvent *event)
{
    zoomBy(std::pow(1.0015, event->angleDelta().y()));
}

void GraphView::zoomBy(double factor)
{
    const double scale = transform().m11() * factor;
    if (scale < 0.01 || scale > 8)
        return;
    this->scale(factor, factor);
}

void GraphView::zoomToFit()
{
    if (m_items.empty())
        return;
    const QRectF bounds = sceneRect();
    const double s = std::clamp(0.98 * std::min(viewport()->width() / std::max(1.0, bounds.width()),
                                                viewport()->height() / std::max(1.0, bounds.height())),
                                0.01, 1.0); // 2% to spare, so that no edge of the graph touches the frame
    setTransform(QTransform::fromScale(s, s));
    centerOn(bounds.center());
}

void GraphView::mousePressEvent(QMouseEvent *event)
{
    m_pressPos = event->pos();
    const int item = itemAt(event->pos());
    m_pressOnSelected = item >= 0 && m_items[item]->isSelected() && event->button() == Qt::LeftButton;
    if (m_pressOnSelected && !(event->modifiers() & Qt::ControlModifier))
        return; // keep the selection: this may start a drag
    QGraphicsView::mousePressEvent(event);
}

void GraphView::mouseMoveEvent(QMouseEvent *event)
{
    if (m_pressOnSelected && (event->buttons() & Qt::LeftButton) &&
        (event->pos() - m_pressPos).manhattanLength() >= QApplication::startDragDistance()) {
        m_pressOnSelected = false;
        auto *drag = new QDrag(this);
        drag->setMimeData(makeNodeMime(selectedNodes()));
        drag->exec(Qt::MoveAction);
        return;
    }
    QGraphicsView::mouseMoveEvent(event);
}

void GraphView::mouseDoubleClickEvent(QMouseEvent *event)
{
    const int item = itemAt(event->pos());
    if (item < 0 || !m_data)
        return;
    const auto &it = m_data->view->items()[item];
    m_centreNode = nodeOfItem(item);
    if (it.scope >= 0)
        setExpanded(it.scope, true);
    else if (m_graph->scopeIndex(it.node) > 0)
        setExpanded(m_graph->scopeIndex(it.node), false);
    else
        m_centreNode = -1;
}

void GraphView::contextMenuEvent(QContextMenuEvent *event)
{
    const int item = itemAt(event->pos());
    if (item >= 0 && !m_items[item]->isSelected()) {
        scene()->clearSelection();
        m_items[item]->setSelected(true);
    }
    const std::vector<int> nodes = selectedNodes();
    if (!nodes.empty())
        Q_EMIT contextMenuRequested(nodes, event->globalPos());
}

void GraphView::drawBackground(QPainter *painter, const QRectF &rect)
{
    painter->fillRect(rect, QColor(252, 252, 253));
    if (m_running && !m_data) {
        painter->setPen(QColor(120, 120, 120));
        painter->drawText(mapToScene(viewport()->rect()).boundingRect(), Qt::AlignCenter, tr("Laying out…"));
    }
}

} // namespace ps
