#pragma once
// Live convergence of runs (QtCharts): sampled mean and best-so-far makespan against iterations
// or simulator runs, with the lower bound as a dashed line, and loss and entropy in a second tab; several
// runs overlaid, one colour each. A point without an iteration (local search, compositions: the
// best so far) shows against simulator runs only, and the x axis's title says so while it counts
// iterations. Points are appended in batches (the caller throttles).
#include <QStringList>
#include <QWidget>

#include <map>
#include <set>
#include <utility>

class QChart;
class QComboBox;
class QChartView;
class QLineSeries;
class QValueAxis;

namespace ps {

class ConvergenceChart : public QWidget
{
    Q_OBJECT
public:
    explicit ConvergenceChart(QWidget *parent = nullptr);
    struct Point
    {
        int iteration;
        double sampleMean, bestSoFar, loss, entropy; // NaN where unknown
        long long evaluations;                       // simulator runs so far
    };
    // The x axis: training iterations (default) or simulator evaluations.
    void setAgainstEvaluations(bool evaluations);
    bool againstEvaluations() const { return m_byEvaluations; }
    // Adds points to run `id` (created on first use with its label).
    void addPoints(int id, const QString &label, const std::vector<Point> &points);
    // Run `id`'s final makespan: where the run has no best-so-far point on the current x axis (a
    // one-shot placer, or a search against iterations), it is drawn as a flat dash-dot line.
    void setResult(int id, const QString &label, double makespanS);
    void setLowerBound(double seconds);
    void clear();
    int seriesCount() const;
    int pointCount(int id) const;
    QString makespanAxisTitle() const;               // the makespan chart's x axis
    std::pair<double, double> makespanRange() const; // the makespan axis (ms)
    double xEnd() const;                             // where the x axes end
    bool bestShownAsDot(int id) const;               // run `id`'s best so far is one point, drawn as a dot
    bool resultShownAsLine(int id) const { return m_flat.count(id) > 0; } // see setResult
    QStringList trainingLegend() const;                                   // the runs the loss chart's legend names

private:
    struct RunSeries
    {
        QLineSeries *mean, *best, *loss, *entropy;
    };
    QChart *m_makespan, *m_training;
    QChartView *m_makespanView, *m_trainingView;
    QValueAxis *m_x1, *m_y1, *m_x2, *m_y2, *m_y2b;
    QLineSeries *m_bound;
    double m_lowerBound = 0;
    std::map<int, RunSeries> m_runs;
    std::map<int, std::vector<Point>> m_points; // to redraw when the x axis changes
    std::map<int, QString> m_labels;
    std::set<int> m_iterated;        // runs with a point that has an iteration
    std::map<int, double> m_results; // ms, by run (setResult)
    std::set<int> m_flat;            // runs whose best series is their result's flat line
    QComboBox *m_axisChoice;
    bool m_byEvaluations = false;
    void retitle(); // the makespan chart's x axis: what it counts, and the runs it cannot show
    void append(const RunSeries &s, const std::vector<Point> &points);
    void trackMakespan(double ms);
    void setFlat(int id, bool flat); // the best series as the result's line, or as its own points
    void lineWhereNoPoints(int id);  // the result's line for a run with a result and no point shown
    double m_maxIteration = 1, m_maxMakespan = 0, m_minMakespan = 0, m_lossMin = 0, m_lossMax = 0, m_entropyMax = 0;
    void rescale();
};

} // namespace ps
