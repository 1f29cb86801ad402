#include "views/ConvergenceChart.h"

#include <QComboBox>
#include <QGraphicsLayout>
#include <QSignalBlocker>
#include <QTabWidget>
#include <QVBoxLayout>
#include <QtCharts/QChart>
#include <QtCharts/QChartView>
#include <QtCharts/QLegend>
#include <QtCharts/QLegendMarker>
#include <QtCharts/QLineSeries>
#include <QtCharts/QValueAxis>

#include <algorithm>
#include <cmath>

namespace ps {

namespace {
QColor runColor(int id)
{
    static const QColor palette[] = {QColor("#1f77b4"), QColor("#d62728"), QColor("#2ca02c"), QColor("#9467bd"),
                                     QColor("#ff7f0e"), QColor("#8c564b"), QColor("#e377c2"), QColor("#17becf")};
    return palette[id % 8];
}

QValueAxis *axis(const QString &title)
{
    auto *a = new QValueAxis;
    QFont small = a->labelsFont();
    small.setPointSizeF(7);
    a->setLabelsFont(small);
    a->setTitleFont(small);
    a->setTitleText(title);
    a->setLabelFormat("%.3g");
    a->setTickCount(4);
    return a;
}
// The x axis's end: a little past the last point (so that a lone point is not on the plot's
// edge), rounded up to a value its four ticks divide evenly (1.2, 1.5, 1.8, 2.4, 3, 3.6, 4.5, 6,
// 7.5 or 9 times a power of ten).
double axisEnd(double last)
{
    const double want = std::max(last, 1.0) * 1.02;
    for (double scale = std::pow(10.0, std::floor(std::log10(want)) - 1);; scale *= 10)
        for (double step : {1.2, 1.5, 1.8, 2.4, 3.0, 3.6, 4.5, 6.0, 7.5, 9.0})
            if (step * scale >= want)
                return step * scale;
}
} // namespace

ConvergenceChart::ConvergenceChart(QWidget *parent) : QWidget(parent)
{
    m_makespan = new QChart;
    m_makespan->setTitle(tr("Makespan (ms): sampled mean (thin), best so far (thick), lower bound (dashed), "
                            "a result without a curve (dash-dot)"));
    m_training = new QChart;
    m_training->setTitle(tr("Loss (solid, left axis) and policy entropy (dotted, right axis)"));
    for (QChart *c : {m_makespan, m_training}) {
        QFont small = c->legend()->font();
        small.setPointSizeF(7);
        c->legend()->setFont(small);
        c->setTitleFont(small);
        c->legend()->setAlignment(Qt::AlignBottom);
        c->setMargins(QMargins(4, 4, 4, 4));
        c->layout()->setContentsMargins(0, 0, 0, 0); // no frame of empty space around each chart
        c->setBackgroundRoundness(0);
        c->setAnimationOptions(QChart::NoAnimation);
    }
    m_x1 = axis(tr("iteration"));
    m_y1 = axis(tr("ms"));
    m_x2 = axis(tr("iteration"));
    for (QValueAxis *x : {m_x1, m_x2})
        x->setLabelFormat("%g"); // 12000 rather than 1.2e+04
    m_y2 = axis(tr("loss"));
    m_y2b = axis(tr("entropy"));
    m_makespan->addAxis(m_x1, Qt::AlignBottom);
    m_makespan->addAxis(m_y1, Qt::AlignLeft);
    m_training->addAxis(m_x2, Qt::AlignBottom);
    m_training->addAxis(m_y2, Qt::AlignLeft);
    m_training->addAxis(m_y2b, Qt::AlignRight);
    m_bound = new QLineSeries;
    m_bound->setName(tr("bound"));
    m_bound->setPen(QPen(Qt::black, 1.2, Qt::DashLine));
    m_makespan->addSeries(m_bound);
    m_bound->attachAxis(m_x1);
    m_bound->attachAxis(m_y1);
    m_makespanView = new QChartView(m_makespan, this);
    m_trainingView = new QChartView(m_training, this);
    for (QChartView *v : {m_makespanView, m_trainingView}) {
        v->setRenderHint(QPainter::Antialiasing);
        v->setMinimumHeight(150);
    }
    m_axisChoice = new QComboBox(this);
    m_axisChoice->addItems({tr("against iterations"), tr("against simulator evaluations")});
    connect(m_axisChoice, &QComboBox::currentIndexChanged, this, [this](int i) { setAgainstEvaluations(i == 1); });
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    // One chart at a time, so that the Models dock fits a window 900 pixels tall; the x-axis
    // choice sits beside the tabs.
    auto *tabs = new QTabWidget(this);
    tabs->addTab(m_makespanView, tr("Makespan"));
    tabs->addTab(m_trainingView, tr("Loss and entropy"));
    tabs->setCornerWidget(m_axisChoice, Qt::TopRightCorner);
    layout->addWidget(tabs);
}

void ConvergenceChart::addPoints(int id, const QString &label, const std::vector<Point> &points)
{
    auto it = m_runs.find(id);
    if (it == m_runs.end()) {
        const QColor color = runColor(id);
        RunSeries s{new QLineSeries, new QLineSeries, new QLineSeries, new QLineSeries};
        s.mean->setName(label);
        s.mean->setPen(QPen(color.lighter(130), 1.2));
        s.best->setName(label);
        s.best->setPen(QPen(color, 2.4));
        s.loss->setName(label);
        s.loss->setPen(QPen(color, 1.4));
        s.entropy->setName(label);
        s.entropy->setPen(QPen(color, 1.4, Qt::DotLine));
        for (QLineSeries *series : {s.mean, s.best}) {
            m_makespan->addSeries(series);
            series->attachAxis(m_x1);
            series->attachAxis(m_y1);
        }
        m_training->addSeries(s.loss);
        s.loss->attachAxis(m_x2);
        s.loss->attachAxis(m_y2);
        m_training->addSeries(s.entropy);
        s.entropy->attachAxis(m_x2);
        s.entropy->attachAxis(m_y2b);
        // One legend entry per run and chart (the line styles are in the titles).
        for (QLineSeries *hidden : {s.mean, s.entropy})
            for (QLegendMarker *marker : hidden->chart()->legend()->markers(hidden))
                marker->setVisible(false);
        it = m_runs.emplace(id, s).first;
    }
    m_labels[id] = label;
    if (!points.empty())
        setFlat(id, false);
    auto &stored = m_points[id];
    stored.insert(stored.end(), points.begin(), points.end());
    if (std::any_of(points.begin(), points.end(), [](const Point &p) { return p.iteration >= 0; }))
        m_iterated.insert(id);
    append(it->second, points);
    lineWhereNoPoints(id); // points none of which this axis shows (a search's, against iterations)
    rescale();
    retitle();
}

QStringList ConvergenceChart::trainingLegend() const
{
    QStringList names;
    for (QLegendMarker *marker : m_training->legend()->markers())
        if (marker->isVisible())
            names << marker->label();
    return names;
}

QString ConvergenceChart::makespanAxisTitle() const
{
    return m_x1->titleText();
}

std::pair<double, double> ConvergenceChart::makespanRange() const
{
    return {m_y1->min(), m_y1->max()};
}

double ConvergenceChart::xEnd() const
{
    return m_x1->max();
}

void ConvergenceChart::setResult(int id, const QString &label, double makespanS)
{
    if (!(makespanS > 0) || !std::isfinite(makespanS))
        return;
    if (!m_runs.count(id))
        addPoints(id, label, {});
    m_results[id] = makespanS * 1e3;
    trackMakespan(makespanS * 1e3);
    lineWhereNoPoints(id);
    rescale();
    retitle();
}

void ConvergenceChart::lineWhereNoPoints(int id)
{
    if (m_results.count(id) && !m_flat.count(id) && m_runs.at(id).best->count() == 0)
        setFlat(id, true);
}

void ConvergenceChart::setFlat(int id, bool flat)
{
    const bool was = m_flat.count(id) > 0;
    if (flat == was)
        return;
    QLineSeries *best = m_runs.at(id).best;
    const QColor color = runColor(id);
    if (flat) {
        m_flat.insert(id);
        best->setPen(QPen(color, 1.6, Qt::DashDotLine));
        best->setPointsVisible(false);
    } else {
        m_flat.erase(id);
        best->clear(); // the line: the run's own points follow
        best->setPen(QPen(color, 2.4));
    }
}

bool ConvergenceChart::bestShownAsDot(int id) const
{
    auto it = m_runs.find(id);
    return it != m_runs.end() && it->second.best->count() == 1 && it->second.best->pointsVisible();
}

void ConvergenceChart::retitle()
{
    QStringList without;
    for (const auto &[id, label] : m_labels)
        if (!m_iterated.count(id))
            without << label;
    m_x1->setTitleText(
        m_byEvaluations ? tr("simulator evaluations")
        : without.isEmpty()
            ? tr("iteration")
            : tr("iteration (%1: no iterations; each result dash-dot, a search's curve against simulator "
                 "evaluations)")
                  .arg(without.join(", ")));
}

void ConvergenceChart::setAgainstEvaluations(bool evaluations)
{
    if (evaluations == m_byEvaluations)
        return;
    m_byEvaluations = evaluations;
    {
        const QSignalBlocker quiet(m_axisChoice);
        m_axisChoice->setCurrentIndex(evaluations ? 1 : 0);
    }
    m_x2->setTitleText(evaluations ? tr("simulator evaluations") : tr("iteration"));
    m_maxIteration = 1;
    for (auto &[id, s] : m_runs) {
        setFlat(id, false);
        for (QLineSeries *series : {s.mean, s.best, s.loss, s.entropy})
            series->clear();
        append(s, m_points[id]);
        lineWhereNoPoints(id);
    }
    rescale();
    retitle();
}

void ConvergenceChart::append(const RunSeries &s, const std::vector<Point> &points)
{
    QList<QPointF> mean, best, loss, entropy;
    for (const Point &p : points) {
        if (!m_byEvaluations && p.iteration < 0)
            continue; // no iteration to plot it at
        const double x = m_byEvaluations ? static_cast<double>(p.evaluations) : p.iteration + 1;
        m_maxIteration = std::max(m_maxIteration, x);
        if (std::isfinite(p.sampleMean)) {
            mean << QPointF(x, p.sampleMean * 1e3);
            trackMakespan(p.sampleMean * 1e3);
        }
        if (std::isfinite(p.bestSoFar)) {
            best << QPointF(x, p.bestSoFar * 1e3);
            trackMakespan(p.bestSoFar * 1e3);
        }
        if (std::isfinite(p.loss)) {
            loss << QPointF(x, p.loss);
            m_lossMin = std::min(m_lossMin, p.loss);
            m_lossMax = std::max(m_lossMax, p.loss);
        }
        if (std::isfinite(p.entropy)) {
            entropy << QPointF(x, p.entropy);
            m_entropyMax = std::max(m_entropyMax, p.entropy);
        }
    }
    s.mean->append(mean);
    s.best->append(best);
    s.loss->append(loss);
    s.entropy->append(entropy);
    // A line needs two points: a run with one so far (a large graph's first iteration, a run
    // stopped early) shows it as a dot rather than nothing.
    for (QLineSeries *series : {s.mean, s.best, s.loss, s.entropy})
        series->setPointsVisible(series->count() == 1);
    // A run that trains nothing (a classical placer) has no entry in the training chart's legend.
    for (QLegendMarker *marker : m_training->legend()->markers(s.loss))
        marker->setVisible(s.loss->count() > 0 || s.entropy->count() > 0);
}

void ConvergenceChart::trackMakespan(double ms)
{
    m_maxMakespan = std::max(m_maxMakespan, ms);
    m_minMakespan = m_minMakespan == 0 ? ms : std::min(m_minMakespan, ms);
}

void ConvergenceChart::setLowerBound(double seconds)
{
    m_lowerBound = seconds * 1e3;
    rescale();
}

void ConvergenceChart::rescale()
{
    const double end = axisEnd(m_maxIteration);
    m_bound->clear();
    if (m_lowerBound > 0)
        m_bound->append({QPointF(0, m_lowerBound), QPointF(end, m_lowerBound)});
    for (int id : m_flat)
        m_runs.at(id).best->replace(QList<QPointF>{QPointF(0, m_results.at(id)), QPointF(end, m_results.at(id))});
    m_x1->setRange(0, end);
    m_x2->setRange(0, end);
    // Without points yet (m_minMakespan 0) the range still shows the bound.
    const double low = m_lowerBound > 0 && m_minMakespan > 0 ? std::min(m_lowerBound, m_minMakespan)
                                                             : std::max(m_lowerBound, m_minMakespan);
    m_y1->setRange(low * 0.9, std::max(low * 1.1, m_maxMakespan * 1.05));
    m_y2->setRange(m_lossMin - 0.05 * std::abs(m_lossMin) - 1e-9, m_lossMax + 0.05 * std::abs(m_lossMax) + 1e-9);
    m_y2b->setRange(0, std::max(1e-6, m_entropyMax * 1.1));
}

void ConvergenceChart::clear()
{
    for (auto &[id, s] : m_runs)
        for (QLineSeries *series : {s.mean, s.best, s.loss, s.entropy}) {
            series->chart()->removeSeries(series);
            delete series;
        }
    m_runs.clear();
    m_points.clear();
    m_labels.clear();
    m_iterated.clear();
    m_results.clear();
    m_flat.clear();
    retitle();
    m_maxIteration = 1;
    m_maxMakespan = m_minMakespan = m_lossMin = m_lossMax = m_entropyMax = 0;
    rescale();
}

int ConvergenceChart::seriesCount() const
{
    return static_cast<int>(m_makespan->series().size() + m_training->series().size());
}

int ConvergenceChart::pointCount(int id) const
{
    auto it = m_runs.find(id);
    return it == m_runs.end() ? 0 : static_cast<int>(it->second.mean->count() + it->second.best->count());
}

} // namespace ps
