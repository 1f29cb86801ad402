#include "views/SteeringCharts.h"

#include "views/ToolTip.h"

#include <QHelpEvent>
#include <QPainter>
#include <QPainterPath>

#include <algorithm>
#include <cmath>

namespace ps {

AgreementMatrixView::AgreementMatrixView(QWidget *parent) : QWidget(parent)
{
    setMinimumSize(160, 120);
}

void AgreementMatrixView::setMatrix(std::vector<std::vector<double>> similarity, std::vector<QString> labels)
{
    m_similarity = std::move(similarity);
    m_labels = std::move(labels);
    update();
}

void AgreementMatrixView::paintEvent(QPaintEvent *)
{
    QPainter p(this);
    p.fillRect(rect(), palette().base());
    const int n = static_cast<int>(m_similarity.size());
    QFont small = font();
    small.setPointSizeF(std::max(6.5, small.pointSizeF() - 1.5));
    p.setFont(small);
    if (n == 0) {
        p.drawText(rect(), Qt::AlignCenter, tr("Agreement of the top candidates"));
        return;
    }
    const double left = kLeft, top = kTop, cell = cellSize();
    for (int i = 0; i < n; ++i) {
        p.setPen(palette().text().color());
        p.drawText(QRectF(0, top + i * cell, left - 3, cell), Qt::AlignRight | Qt::AlignVCenter, m_labels[i]);
        for (int j = 0; j < n; ++j) {
            const double v = std::clamp(m_similarity[i][j], 0.0, 1.0);
            const QColor c = QColor::fromRgbF(1 - 0.8 * v, 1 - 0.45 * v, 1 - 0.1 * v);
            const QRectF r(left + j * cell, top + i * cell, cell - 1, cell - 1);
            p.fillRect(r, c);
            if (cell > 26) {
                p.setPen(v > 0.6 ? Qt::white : Qt::black);
                p.drawText(r, Qt::AlignCenter, QString::number(int(std::lround(100 * v))));
            }
        }
    }
}

double AgreementMatrixView::cellSize() const
{
    const double n = std::max(1.0, static_cast<double>(m_similarity.size()));
    return std::max(6.0, std::min((width() - kLeft - 4) / n, (height() - kTop - 4) / n));
}

QString AgreementMatrixView::tipAt(const QPoint &pos) const
{
    const int n = static_cast<int>(m_similarity.size());
    const double cell = cellSize();
    const int i = static_cast<int>(std::floor((pos.y() - kTop) / cell)),
              j = static_cast<int>(std::floor((pos.x() - kLeft) / cell));
    if (pos.x() < kLeft || pos.y() < kTop || i >= n || j >= n)
        return {};
    if (i == j)
        return m_labels[i];
    return tr("%1 and %2: %3% of ops placed alike")
        .arg(m_labels[i], m_labels[j])
        .arg(std::lround(100 * std::clamp(m_similarity[i][j], 0.0, 1.0)));
}

bool AgreementMatrixView::event(QEvent *event)
{
    if (event->type() == QEvent::ToolTip) {
        const auto *help = static_cast<QHelpEvent *>(event);
        answerToolTip(*help, tipAt(help->pos()), this);
        return true;
    }
    return QWidget::event(event);
}

ParamScoreView::ParamScoreView(QWidget *parent) : QWidget(parent)
{
    setMinimumSize(160, 120);
}

void ParamScoreView::setData(const QString &parameter, std::vector<Point> evaluated, std::vector<Point> estimate,
                             std::vector<double> uncertainty, const QString &measure)
{
    m_parameter = parameter;
    m_measure = measure;
    m_evaluated = std::move(evaluated);
    m_estimate = std::move(estimate);
    m_uncertainty = std::move(uncertainty);
    update();
}

void ParamScoreView::paintEvent(QPaintEvent *)
{
    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing);
    p.fillRect(rect(), palette().base());
    QFont small = font();
    small.setPointSizeF(std::max(6.5, small.pointSizeF() - 1.5));
    p.setFont(small);
    const QRectF r(8, 6, width() - 16, height() - 26);
    p.setPen(palette().mid().color());
    p.drawRect(r);
    p.setPen(palette().text().color());
    p.drawText(QRectF(r.left(), r.bottom() + 2, r.width(), 16), Qt::AlignHCenter,
               m_parameter.isEmpty() ? tr("hyperparameter vs score (lower is better)")
                                     : m_parameter + tr("  vs  ") + (m_measure.isEmpty() ? tr("score") : m_measure));
    if (m_evaluated.empty() && m_estimate.empty())
        return;
    double x0 = 0, x1 = 1, y0 = 1e300, y1 = -1e300;
    for (const Point &q : m_evaluated) {
        y0 = std::min(y0, q.y);
        y1 = std::max(y1, q.y);
    }
    for (size_t i = 0; i < m_estimate.size(); ++i) {
        const double u = i < m_uncertainty.size() ? m_uncertainty[i] : 0;
        y0 = std::min(y0, m_estimate[i].y - u);
        y1 = std::max(y1, m_estimate[i].y + u);
    }
    if (!(y1 > y0)) {
        y0 -= 0.5;
        y1 += 0.5;
    }
    auto at = [&](double x, double y) {
        return QPointF(r.left() + (x - x0) / (x1 - x0) * r.width(), r.bottom() - (y - y0) / (y1 - y0) * r.height());
    };
    if (!m_estimate.empty()) {
        QPainterPath band, line;
        for (size_t i = 0; i < m_estimate.size(); ++i) {
            const double u = i < m_uncertainty.size() ? m_uncertainty[i] : 0;
            const QPointF q = at(m_estimate[i].x, m_estimate[i].y + u);
            i == 0 ? band.moveTo(q) : band.lineTo(q);
        }
        for (size_t i = m_estimate.size(); i-- > 0;) {
            const double u = i < m_uncertainty.size() ? m_uncertainty[i] : 0;
            band.lineTo(at(m_estimate[i].x, m_estimate[i].y - u));
        }
        p.fillPath(band, QColor(70, 130, 220, 50));
        for (size_t i = 0; i < m_estimate.size(); ++i) {
            const QPointF q = at(m_estimate[i].x, m_estimate[i].y);
            i == 0 ? line.moveTo(q) : line.lineTo(q);
        }
        p.setPen(QPen(QColor(40, 90, 190), 1.5));
        p.drawPath(line);
    }
    p.setPen(QPen(QColor(30, 30, 30), 1));
    p.setBrush(QColor(230, 120, 30));
    for (const Point &q : m_evaluated)
        p.drawEllipse(at(q.x, q.y), 3.5, 3.5);
}

} // namespace ps
