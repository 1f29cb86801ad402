#include "views/TimelineView.h"

#include "views/DeviceColors.h"
#include "views/ToolTip.h"

#include <QHelpEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QScrollBar>
#include <QWheelEvent>

#include <algorithm>
#include <cmath>
#include <unordered_map>

namespace ps {

namespace {
constexpr int kLabelWidth = 110, kRowHeight = 22, kAxisHeight = 22;
constexpr double kOutlinedWidth = 6; // a selected op narrower than this is marked above, not outlined

QString timeText(double s)
{
    if (s == 0)
        return QStringLiteral("0");
    if (s >= 1)
        return QString::number(s, 'g', 4) + " s";
    if (s >= 1e-3)
        return QString::number(s * 1e3, 'g', 4) + " ms";
    return QString::number(s * 1e6, 'g', 4) + " µs";
}
} // namespace

TimelineView::TimelineView(QWidget *parent) : QWidget(parent), m_rowBar(new QScrollBar(Qt::Vertical, this))
{
    setMouseTracking(true);
    setMinimumHeight(120);
    setAttribute(Qt::WA_OpaquePaintEvent);
    m_rowBar->setObjectName("timelineRows");
    m_rowBar->hide();
    connect(m_rowBar, &QScrollBar::valueChanged, this, [this] { update(); });
}

int TimelineView::firstVisibleRow() const
{
    return m_rowBar->value();
}

int TimelineView::visibleRowCount() const
{
    return std::max(1, (height() - kAxisHeight) / kRowHeight);
}

void TimelineView::scrollToRow(int row)
{
    m_rowBar->setValue(row); // clamped to the bar's range; valueChanged moves the view
}

void TimelineView::updateRowBar()
{
    const int width = m_rowBar->sizeHint().width();
    m_rowBar->setGeometry(this->width() - width, kAxisHeight, width, std::max(0, height() - kAxisHeight));
    const int hidden = std::max(0, static_cast<int>(m_rows.size()) - visibleRowCount());
    m_rowBar->setRange(0, hidden);
    m_rowBar->setPageStep(visibleRowCount());
    m_rowBar->setVisible(hidden > 0);
}

void TimelineView::resizeEvent(QResizeEvent *event)
{
    QWidget::resizeEvent(event);
    updateRowBar();
}

double TimelineView::plotWidth() const
{
    const int bar = m_rowBar->isHidden() ? 0 : m_rowBar->width();
    return std::max(1, width() - bar - kLabelWidth - 6);
}

void TimelineView::setData(std::shared_ptr<const Graph> graph, const Cluster &cluster,
                           std::shared_ptr<const Schedule> schedule, const std::vector<int> &device)
{
    const bool first = !m_schedule;
    m_graph = std::move(graph);
    m_schedule = std::move(schedule);
    m_rows.clear();
    if (!m_graph || !m_schedule) {
        updateRowBar();
        update();
        return;
    }
    const Schedule &s = *m_schedule;
    const int k = cluster.deviceCount();
    m_rows.resize(k);
    for (int d = 0; d < k; ++d) {
        m_rows[d].label = QString::fromStdString(cluster.device(d).name);
        m_rows[d].device = d;
    }
    for (int v = 0; v < m_graph->nodeCount() && v < static_cast<int>(device.size()); ++v)
        if (device[v] >= 0 && device[v] < k)
            m_rows[device[v]].items.push_back(v);
    for (int d = 0; d < k; ++d)
        std::sort(m_rows[d].items.begin(), m_rows[d].items.end(),
                  [&](int a, int b) { return s.start[a] < s.start[b]; });
    std::unordered_map<size_t, int> linkRow; // by device pair; not a k x k table (16.7M for 4,096)
    for (size_t t = 0; t < s.transfers.size(); ++t) {
        const Transfer &tr = s.transfers[t];
        int &row = linkRow.try_emplace(static_cast<size_t>(tr.src) * k + tr.dst, -1).first->second;
        if (row < 0) {
            row = static_cast<int>(m_rows.size());
            Row r;
            r.link = true;
            r.label = QString::fromStdString(cluster.device(tr.src).name + " → " + cluster.device(tr.dst).name);
            m_rows.push_back(r);
        }
        m_rows[row].items.push_back(static_cast<int>(t)); // issue order is start order on a link
    }
    m_critical.assign(m_graph->nodeCount(), 0);
    m_criticalTransfer.assign(s.transfers.size(), 0);
    for (const CriticalStep &step : s.criticalPath)
        (step.kind == CriticalStep::Op ? m_critical : m_criticalTransfer)[step.index] = 1;
    m_selected.resize(m_graph->nodeCount(), 0);
    if (first || m_span <= 0 || m_t0 + m_span > s.makespan * 1.5 + 1e-12)
        fit();
    setMinimumHeight(kAxisHeight + kRowHeight * std::min<int>(4, static_cast<int>(m_rows.size())) + 4);
    updateRowBar();
    update();
}

void TimelineView::setSelection(const std::vector<int> &nodes)
{
    if (!m_graph)
        return;
    m_selected.assign(m_graph->nodeCount(), 0);
    for (int v : nodes)
        if (v >= 0 && v < m_graph->nodeCount())
            m_selected[v] = 1;
    update();
}

void TimelineView::fit()
{
    m_t0 = 0;
    m_span = m_schedule && m_schedule->makespan > 0 ? m_schedule->makespan * 1.02 : 1;
    update();
}

double TimelineView::xAt(double t) const
{
    return kLabelWidth + (t - m_t0) / m_span * plotWidth();
}

double TimelineView::timeAt(double x) const
{
    return m_t0 + (x - kLabelWidth) / plotWidth() * m_span;
}

int TimelineView::rowAt(int y) const
{
    const int row = firstVisibleRow() + (y - kAxisHeight) / kRowHeight;
    return y >= kAxisHeight && row < static_cast<int>(m_rows.size()) ? row : -1;
}

void TimelineView::paintEvent(QPaintEvent *)
{
    QPainter p(this);
    p.fillRect(rect(), palette().base());
    if (!m_schedule) {
        p.setPen(palette().placeholderText().color());
        p.drawText(rect(), Qt::AlignCenter, tr("No schedule yet"));
        return;
    }
    const Schedule &s = *m_schedule;
    const double t1 = m_t0 + m_span;
    // Axis with about one tick per 100 px.
    const double rough = m_span / std::max(1.0, plotWidth() / 100.0);
    const double mag = std::pow(10, std::floor(std::log10(rough)));
    const double step = rough / mag < 2 ? 2 * mag : rough / mag < 5 ? 5 * mag : 10 * mag;
    p.setPen(palette().placeholderText().color());
    for (double t = std::ceil(m_t0 / step) * step; t <= t1; t += step) {
        const double x = xAt(t);
        p.drawLine(QPointF(x, kAxisHeight - 4), QPointF(x, height()));
        p.drawText(QRectF(x + 2, 2, 90, kAxisHeight - 4), Qt::AlignLeft | Qt::AlignVCenter, timeText(t));
    }
    // Makespan marker.
    p.setPen(QPen(QColor(200, 0, 0), 1, Qt::DashLine));
    p.drawLine(QPointF(xAt(s.makespan), kAxisHeight), QPointF(xAt(s.makespan), height()));

    const auto top = static_cast<size_t>(firstVisibleRow());
    for (size_t r = top; r < m_rows.size(); ++r) {
        const Row &row = m_rows[r];
        const double y = kAxisHeight + static_cast<double>(r - top) * kRowHeight;
        if (y > height())
            break;
        p.fillRect(QRectF(0, y, width(), kRowHeight), r % 2 ? palette().alternateBase() : palette().base());
        p.setPen(palette().text().color());
        p.drawText(QRectF(4, y, kLabelWidth - 8, kRowHeight), Qt::AlignLeft | Qt::AlignVCenter,
                   p.fontMetrics().elidedText(row.label, Qt::ElideMiddle, kLabelWidth - 8));
        p.setClipRect(QRectF(kLabelWidth, y, width() - kLabelWidth, kRowHeight));
        auto startOf = [&](int i) { return row.link ? s.transfers[i].start : s.start[i]; };
        auto endOf = [&](int i) { return row.link ? s.transfers[i].end : s.finish[i]; };
        // Items are in start order, and on a device or link they do not overlap: skip to the
        // first one that ends in view, draw until one starts after it, at most one per pixel.
        auto first =
            std::lower_bound(row.items.begin(), row.items.end(), m_t0, [&](int i, double t) { return endOf(i) < t; });
        const QColor fill = row.link ? QColor(150, 150, 170) : deviceQColor(row.device);
        double lastX = -1;
        for (auto it = first; it != row.items.end() && startOf(*it) <= t1; ++it) {
            const double x0 = xAt(startOf(*it)), x1 = std::max(x0 + 1, xAt(endOf(*it)));
            const bool critical = row.link ? m_criticalTransfer[*it] : m_critical[*it];
            const bool selected = !row.link && m_selected[*it];
            if (x1 < lastX + 1 && !critical && !selected)
                continue;
            lastX = x1;
            const QRectF box(x0, y + 3, x1 - x0, kRowHeight - 6);
            p.fillRect(box, fill);
            if (selected && box.width() >= kOutlinedWidth) {
                p.setPen(QPen(Qt::black, 2));
                p.drawRect(box);
            } else if (selected) {
                // Too narrow for an outline, which would cover the op (thousands of selected ops
                // turned a row black): a mark above it, the device's colour left to read.
                p.fillRect(QRectF(x0, y + 1, x1 - x0, 2), Qt::black);
            } else if (critical) {
                // The critical path: a red underline, readable even on long chains.
                p.fillRect(QRectF(x0, y + kRowHeight - 4, x1 - x0, 3), QColor(210, 20, 20));
            }
        }
        p.setClipping(false);
    }
}

int TimelineView::opAt(const QPoint &pos) const
{
    const int r = rowAt(pos.y());
    if (r < 0 || m_rows[r].link || pos.x() < kLabelWidth)
        return -1;
    const double t = timeAt(pos.x()), slack = m_span / std::max(1, width()) * 2;
    const auto &items = m_rows[r].items;
    auto it = std::lower_bound(items.begin(), items.end(), t - slack,
                               [&](int v, double tt) { return m_schedule->finish[v] < tt; });
    return it != items.end() && m_schedule->start[*it] <= t + slack ? *it : -1;
}

int TimelineView::transferAt(const QPoint &pos) const
{
    const int r = rowAt(pos.y());
    if (r < 0 || !m_rows[r].link || pos.x() < kLabelWidth)
        return -1;
    const double t = timeAt(pos.x()), slack = m_span / std::max(1, width()) * 2;
    const auto &items = m_rows[r].items;
    auto it = std::lower_bound(items.begin(), items.end(), t - slack,
                               [&](int i, double tt) { return m_schedule->transfers[i].end < tt; });
    return it != items.end() && m_schedule->transfers[*it].start <= t + slack ? *it : -1;
}

bool TimelineView::event(QEvent *event)
{
    if (event->type() == QEvent::ToolTip && m_schedule) {
        auto *help = static_cast<QHelpEvent *>(event);
        QString text;
        if (const int v = opAt(help->pos()); v >= 0) {
            text = QStringLiteral("<b>%1</b> (%2)<br>%3 → %4 (%5)%6")
                       .arg(QString::fromStdString(m_graph->id(v)).toHtmlEscaped(),
                            QString::fromStdString(m_graph->op(v)).toHtmlEscaped(), timeText(m_schedule->start[v]),
                            timeText(m_schedule->finish[v]), timeText(m_schedule->finish[v] - m_schedule->start[v]),
                            m_critical[v] ? QStringLiteral("<br><span style='color:#c00'>on the critical path</span>")
                                          : QString());
        } else if (const int t = transferAt(help->pos()); t >= 0) {
            const Transfer &tr = m_schedule->transfers[t];
            text = QStringLiteral("output of <b>%1</b><br>%2 bytes, %3 → %4")
                       .arg(QString::fromStdString(m_graph->id(tr.producer)).toHtmlEscaped())
                       .arg(tr.bytes, 0, 'g', 6)
                       .arg(timeText(tr.start), timeText(tr.end));
        }
        answerToolTip(*help, text, this);
        return true;
    }
    return QWidget::event(event);
}

void TimelineView::wheelEvent(QWheelEvent *event)
{
    if (!m_rowBar->isHidden() &&
        (event->modifiers() & Qt::ShiftModifier || event->position().x() < kLabelWidth)) { // rows
        const QPoint delta = event->angleDelta();
        const int angle = delta.y() != 0 ? delta.y() : delta.x();
        if (angle != 0) // a notch is 120; a finer wheel's smaller steps still move one row
            scrollToRow(firstVisibleRow() - (angle / 120 != 0 ? angle / 120 : (angle > 0 ? 1 : -1)));
        return;
    }
    const double factor = std::pow(0.9985, event->angleDelta().y());
    const double anchor = timeAt(event->position().x());
    const double span = std::clamp(m_span * factor, 1e-12, m_schedule ? m_schedule->makespan * 2 + 1e-9 : 1.0);
    m_t0 = anchor - (anchor - m_t0) * span / m_span;
    m_span = span;
    update();
}

void TimelineView::mousePressEvent(QMouseEvent *event)
{
    m_dragFrom = event->pos();
    m_dragT0 = m_t0;
    m_dragged = false;
}

void TimelineView::mouseMoveEvent(QMouseEvent *event)
{
    if (!(event->buttons() & Qt::LeftButton))
        return;
    const int dx = event->pos().x() - m_dragFrom.x();
    if (std::abs(dx) > 3)
        m_dragged = true;
    m_t0 = m_dragT0 - dx * m_span / plotWidth();
    update();
}

void TimelineView::mouseReleaseEvent(QMouseEvent *event)
{
    if (!m_dragged && event->button() == Qt::LeftButton) {
        const int v = opAt(event->pos());
        if (v >= 0)
            Q_EMIT opClicked(v);
    }
}

void TimelineView::mouseDoubleClickEvent(QMouseEvent *)
{
    fit();
}

} // namespace ps
