#include "views/ModelMapView.h"

#include "views/DeviceColors.h"
#include "views/Format.h"

#include <QMouseEvent>
#include <QPainter>
#include <QPainterPath>

#include <algorithm>
#include <cmath>

namespace ps {

namespace {
constexpr double kLegendRow = 13;     // pixels per family in the legend
constexpr double kLegendColumn = 100; // pixels per column of it
} // namespace

QString ModelMapView::axisName(Axis a)
{
    switch (a) {
    case Axis::Ratio: return tr("makespan / bound");
    case Axis::Bytes: return tr("moved bytes");
    case Axis::Memory: return tr("peak memory share");
    case Axis::Imbalance: return tr("busy-time imbalance");
    case Axis::Score: return tr("score");
    }
    return {};
}

double ModelMapView::axisValue(Axis a, const CandidateInfo &c)
{
    switch (a) {
    case Axis::Ratio: return c.terms.bound > 0 ? c.terms.makespan / c.terms.bound : c.terms.makespan;
    case Axis::Bytes: return c.terms.movedBytes;
    case Axis::Memory: return c.terms.peakMemoryShare;
    case Axis::Imbalance: return c.terms.imbalance;
    case Axis::Score: return c.score;
    }
    return 0;
}

void ModelMapView::setFamilies(const std::vector<std::string> &families)
{
    m_families = families;
    update();
}

QColor ModelMapView::familyColor(const std::string &family) const
{
    // Twenty distinct colours (Tableau 20, darker shades first).
    static const QRgb kPalette[] = {0x1f77b4, 0xff7f0e, 0x2ca02c, 0xd62728, 0x9467bd, 0x8c564b, 0xe377c2,
                                    0x7f7f7f, 0xbcbd22, 0x17becf, 0xaec7e8, 0xffbb78, 0x98df8a, 0xff9896,
                                    0xc5b0d5, 0xc49c94, 0xf7b6d2, 0xc7c7c7, 0xdbdb8d, 0x9edae5};
    auto it = std::find(m_families.begin(), m_families.end(), family);
    size_t i = it != m_families.end() ? static_cast<size_t>(it - m_families.begin()) : 0;
    if (it == m_families.end()) {
        unsigned h = 2166136261u;
        for (char ch : family)
            h = (h ^ static_cast<unsigned char>(ch)) * 16777619u;
        i = h;
    }
    return QColor(kPalette[i % 20]);
}

ModelMapView::ModelMapView(QWidget *parent) : QWidget(parent)
{
    setMinimumSize(220, 160);
    setMouseTracking(false);
}

void ModelMapView::setCandidates(std::vector<CandidateInfo> candidates, std::vector<double> agreement, int best)
{
    m_candidates = std::move(candidates);
    m_agreement = std::move(agreement);
    m_agreement.resize(m_candidates.size(), 1.0);
    m_best = best;
    updateRanges();
    update();
}

void ModelMapView::setAxes(Axis x, Axis y)
{
    m_x = x;
    m_y = y;
    updateRanges();
    update();
}

void ModelMapView::setSelection(const std::vector<int> &ids)
{
    m_selection = ids;
    update();
}

void ModelMapView::updateRanges()
{
    if (m_candidates.empty())
        return;
    m_x0 = m_y0 = std::numeric_limits<double>::infinity();
    m_x1 = m_y1 = -m_x0;
    auto extend = [](double v, double &lo, double &hi) {
        if (std::isfinite(v)) { // an overflowed makespan stays off the scale (at its edge)
            lo = std::min(lo, v);
            hi = std::max(hi, v);
        }
    };
    for (const CandidateInfo &c : m_candidates) {
        extend(axisValue(m_x, c), m_x0, m_x1);
        extend(axisValue(m_y, c), m_y0, m_y1);
    }
    auto orUnit = [](double &lo, double &hi) {
        if (!(lo <= hi)) { // nothing finite
            lo = 0;
            hi = 1;
        }
    };
    orUnit(m_x0, m_x1);
    orUnit(m_y0, m_y1);
    m_logX = m_x0 > 0 && m_x1 > 10 * m_x0;
    m_logY = m_y0 > 0 && m_y1 > 10 * m_y0;
    auto pad = [](double &a, double &b, bool log) {
        if (log) {
            a /= 1.15;
            b = std::min(b * 1.15, std::numeric_limits<double>::max());
            return;
        }
        const double span = b - a > 0 ? b - a : std::max(std::abs(a), 1e-12);
        a = a >= 0 ? std::max(0.0, a - 0.06 * span) : a - 0.06 * span; // no negative bytes or times
        b += 0.06 * span;
    };
    pad(m_x0, m_x1, m_logX);
    pad(m_y0, m_y1, m_logY);
}

QRectF ModelMapView::plotRect() const
{
    return QRectF(66, 8, width() - 74, height() - 40);
}

QPointF ModelMapView::toWidget(double x, double y) const
{
    const QRectF r = plotRect();
    // (Logarithms taken apart: hi / lo overflows on a scale up to 1e307.) A value off the scale (a
    // makespan that overflowed) sits at the far edge.
    auto share = [](double v, double lo, double hi, bool log) {
        const double s =
            log ? (std::log(std::max(v, lo)) - std::log(lo)) / (std::log(hi) - std::log(lo)) : (v - lo) / (hi - lo);
        return std::isfinite(s) ? std::min(s, 1.0) : 1.0;
    };
    return {r.left() + share(x, m_x0, m_x1, m_logX) * r.width(),
            r.bottom() - share(y, m_y0, m_y1, m_logY) * r.height()};
}

QPointF ModelMapView::centreOf(const CandidateInfo &c) const
{
    return toWidget(axisValue(m_x, c), axisValue(m_y, c));
}

QPointF ModelMapView::glyphCentre(int id) const
{
    for (const CandidateInfo &c : m_candidates)
        if (c.id == id)
            return centreOf(c);
    return {-1, -1};
}

std::vector<int> ModelMapView::paretoFront() const
{
    std::vector<const CandidateInfo *> sorted;
    for (const CandidateInfo &c : m_candidates)
        sorted.push_back(&c);
    std::sort(sorted.begin(), sorted.end(), [&](const CandidateInfo *a, const CandidateInfo *b) {
        const double ax = axisValue(m_x, *a), bx = axisValue(m_x, *b);
        return ax != bx ? ax < bx : axisValue(m_y, *a) < axisValue(m_y, *b);
    });
    std::vector<int> front;
    double bestY = std::numeric_limits<double>::infinity();
    for (const CandidateInfo *c : sorted)
        if (axisValue(m_y, *c) < bestY) {
            bestY = axisValue(m_y, *c);
            front.push_back(c->id);
        }
    return front;
}

int ModelMapView::candidateAt(const QPoint &p) const
{
    int hit = -1;
    double nearest = 10.0;
    for (const CandidateInfo &c : m_candidates) {
        const QPointF q = centreOf(c);
        const double d = std::hypot(q.x() - p.x(), q.y() - p.y());
        if (d < nearest) {
            nearest = d;
            hit = c.id;
        }
    }
    return hit;
}

void ModelMapView::paintEvent(QPaintEvent *)
{
    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing);
    p.fillRect(rect(), palette().base());
    const QRectF r = plotRect();
    p.setPen(palette().mid().color());
    p.drawRect(r);
    QFont small = font();
    small.setPointSizeF(std::max(6.5, small.pointSizeF() - 1.5));
    p.setFont(small);
    p.setPen(palette().text().color());
    if (m_candidates.empty()) {
        p.drawText(r, Qt::AlignCenter, tr("Run a round to see candidates here"));
        return;
    }
    auto label = [&](Axis a, double v) {
        return a == Axis::Bytes                           ? formatBytes(v)
               : a == Axis::Imbalance || a == Axis::Score ? formatSeconds(v)
                                                          : QString::number(v, 'g', 3);
    };
    p.drawText(QRectF(r.left(), r.bottom() + 2, r.width(), 14), Qt::AlignLeft, label(m_x, m_x0));
    p.drawText(QRectF(r.left(), r.bottom() + 2, r.width(), 14), Qt::AlignRight, label(m_x, m_x1));
    p.drawText(QRectF(r.left(), r.bottom() + 16, r.width(), 14), Qt::AlignHCenter,
               axisName(m_x) + (m_logX ? tr(" (log)") : QString()));
    p.save();
    p.translate(10, r.center().y());
    p.rotate(-90);
    p.drawText(QRectF(-r.height() / 2, -8, r.height(), 14), Qt::AlignHCenter,
               axisName(m_y) + (m_logY ? tr(" (log)") : QString()));
    p.restore();
    p.drawText(QRectF(0, r.top(), r.left() - 4, 14), Qt::AlignRight, label(m_y, m_y1));
    p.drawText(QRectF(0, r.bottom() - 14, r.left() - 4, 14), Qt::AlignRight, label(m_y, m_y0));

    // Legend: the families present, framed, in the emptiest corner, and drawn under the glyphs so
    // that it never hides a candidate.
    const std::vector<int> front = paretoFront();
    const Legend key = legend(front);
    p.setPen(palette().midlight().color());
    p.setBrush(Qt::NoBrush);
    p.drawRect(key.box);
    for (size_t i = 0; i < key.families.size(); ++i) { // column by column
        const double x = key.box.left() + kLegendColumn * static_cast<double>(i / key.rows);
        const double y = key.box.top() + 2 + kLegendRow * static_cast<double>(i % key.rows);
        p.setPen(Qt::NoPen);
        p.setBrush(familyColor(key.families[i]));
        p.drawEllipse(QPointF(x + 8, y + 6), 4, 4);
        p.setPen(palette().text().color());
        p.drawText(QRectF(x + 16, y - 1, kLegendColumn - 18, 14), Qt::AlignLeft,
                   QString::fromStdString(key.families[i]));
    }
    p.setBrush(Qt::NoBrush);

    // The Pareto front, as a staircase.
    if (front.size() > 1) {
        QPainterPath path;
        for (size_t i = 0; i < front.size(); ++i) {
            const QPointF q = glyphCentre(front[i]);
            if (i == 0)
                path.moveTo(q);
            else {
                path.lineTo(q.x(), path.currentPosition().y());
                path.lineTo(q);
            }
        }
        p.setPen(QPen(QColor(40, 40, 40, 140), 1.2, Qt::DashLine));
        p.drawPath(path);
    }
    for (size_t i = 0; i < m_candidates.size(); ++i) {
        const CandidateInfo &c = m_candidates[i];
        const QPointF q = centreOf(c);
        const double radius = 3.0 + 4.0 * std::clamp(m_agreement[i], 0.0, 1.0);
        const bool selected = std::find(m_selection.begin(), m_selection.end(), c.id) != m_selection.end();
        QColor fill = familyColor(c.arm);
        if (!c.terms.feasible)
            fill.setAlpha(90);
        p.setPen(QPen(selected ? QColor(0, 0, 0) : fill.darker(140), selected ? 2.2 : 1.0));
        p.setBrush(fill);
        if (c.verdict == CandidateInfo::Verdict::Rejected)
            p.drawRect(QRectF(q.x() - radius, q.y() - radius, 2 * radius, 2 * radius));
        else
            p.drawEllipse(q, radius, radius);
        if (c.id == m_best) {
            p.setBrush(Qt::NoBrush);
            p.setPen(QPen(QColor(200, 30, 30), 1.6));
            p.drawEllipse(q, radius + 3.5, radius + 3.5);
        }
    }
}

QRectF ModelMapView::legendRect() const
{
    return legend(paretoFront()).box;
}

// At most as many rows as half the plot's height holds (at least four), so that the legend leaves
// most of the plot's height to the glyphs; more families take more columns, as many as the plot's
// width holds, and more rows beyond that. The columns are filled evenly. The corner is the one
// with the fewest glyphs over it, the ones that matter more weighing more: the best candidate,
// then the Pareto front (`front`).
ModelMapView::Legend ModelMapView::legend(const std::vector<int> &front) const
{
    Legend key;
    for (const CandidateInfo &c : m_candidates)
        if (std::find(key.families.begin(), key.families.end(), c.arm) == key.families.end())
            key.families.push_back(c.arm);
    const QRectF r = plotRect();
    const int families = std::max(1, static_cast<int>(key.families.size()));
    const int widest = std::max(1, static_cast<int>(r.width() / kLegendColumn));
    const int most =
        std::max({4, static_cast<int>((r.height() / 2 - 8) / kLegendRow), (families + widest - 1) / widest});
    const int columns = (families + most - 1) / most;
    key.rows = (families + columns - 1) / columns;
    const QSizeF size(kLegendColumn * columns,
                      kLegendRow * std::min(key.rows, static_cast<int>(key.families.size())) + 4);
    const QRectF corners[] = {
        QRectF(QPointF(r.right() - size.width() - 2, r.top() + 2), size),
        QRectF(QPointF(r.left() + 2, r.top() + 2), size),
        QRectF(QPointF(r.right() - size.width() - 2, r.bottom() - size.height() - 2), size),
        QRectF(QPointF(r.left() + 2, r.bottom() - size.height() - 2), size),
    };
    int fewest = -1;
    for (const QRectF &box : corners) {
        int under = 0;
        for (const CandidateInfo &c : m_candidates)
            if (box.adjusted(-6, -6, 6, 6).contains(centreOf(c)))
                under += c.id == m_best ? 8 : std::find(front.begin(), front.end(), c.id) != front.end() ? 3 : 1;
        if (fewest < 0 || under < fewest) {
            fewest = under;
            key.box = box;
        }
    }
    return key;
}

void ModelMapView::mousePressEvent(QMouseEvent *event)
{
    const int id = candidateAt(event->pos());
    std::vector<int> sel = (event->modifiers() & Qt::ControlModifier) ? m_selection : std::vector<int>{};
    if (id >= 0) {
        auto it = std::find(sel.begin(), sel.end(), id);
        if (it == sel.end())
            sel.push_back(id);
        else
            sel.erase(it);
    }
    setSelection(sel);
    Q_EMIT selectionChangedByUser(sel);
}

} // namespace ps
