#pragma once
// The Models dock: start runs of any registered family, classical or learned (or a composition
// such as heft+local-search), on the open graph and cluster, each in a worker thread; pause,
// resume and cancel them; watch learners converge live (several runs overlaid); finished runs
// list their makespan and can be applied (one undo step).
#include "core/cluster/Cluster.h"
#include "core/graph/Graph.h"
#include "core/placement/Constraints.h"

#include <QThreadPool>
#include <QWidget>

#include <atomic>
#include <memory>
#include <vector>

class QComboBox;
class QLineEdit;
class QDoubleSpinBox;
class QSpinBox;
class QTreeWidget;
class QTreeWidgetItem;

namespace ps {

class ConvergenceChart;
struct SavedRun;

class RunsPanel : public QWidget
{
    Q_OBJECT
public:
    explicit RunsPanel(QWidget *parent = nullptr);
    ~RunsPanel() override;
    void setProblem(std::shared_ptr<const Graph> graph, const Cluster &cluster, const Constraints &constraints);
    // Starts a run ("key=value" parameters separated by spaces); returns its row.
    int start(const QString &model, double timeLimitS, quint64 seed, const QString &params = {});
    void cancelAll();
    void setPaused(int run, bool paused);
    bool paused(int run) const;
    int iterationsSeen(int run) const;
    int runCount() const { return static_cast<int>(m_runs.size()); }
    bool finished(int run) const;
    bool anyRunning() const;
    const std::vector<int> &placementOf(int run) const;
    QTreeWidget *tree() const { return m_tree; }
    // Finished runs for a session, and restoring them from one (listed as finished, appliable).
    std::vector<SavedRun> savedRuns() const;
    void restoreRuns(const std::vector<SavedRun> &runs);
    ConvergenceChart *chart() const { return m_chart; }

Q_SIGNALS:
    void applyRequested(const std::vector<int> &devices, const QString &what);
    void runFinished(int run);
    void log(const QString &text);

private:
    struct Run;
    void startClicked();
    void applyItem(QTreeWidgetItem *item);
    int currentRun() const;

    QComboBox *m_model;
    QDoubleSpinBox *m_timeLimit;
    QSpinBox *m_seed;
    QLineEdit *m_params;
    ConvergenceChart *m_chart;
    QTreeWidget *m_tree;
    std::shared_ptr<const Graph> m_graph;
    Cluster m_cluster;
    Constraints m_constraints;
    std::vector<std::shared_ptr<Run>> m_runs;
    // Runs get threads of their own: in the global pool (as many threads as cores) long runs
    // would hold up file loads and graph layouts.
    QThreadPool m_pool;
};

} // namespace ps
