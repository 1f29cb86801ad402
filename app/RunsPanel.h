#pragma once
// The Models dock: start runs of any registered family, classical or learned (or a composition
// such as heft+local-search), on the open graph and cluster; pause, resume and cancel them; watch
// learners converge live (several runs overlaid); finished runs list their makespan and can be
// applied (one undo step). The running itself is RunManager's; this is its view.
#include "core/cluster/Cluster.h"
#include "core/graph/Graph.h"
#include "core/placement/Constraints.h"

#include <QWidget>

#include <map>
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
class RunManager;
struct Progress;
struct SavedRun;

class RunsPanel : public QWidget
{
    Q_OBJECT
public:
    explicit RunsPanel(RunManager *manager, QWidget *parent = nullptr);
    ~RunsPanel() override;
    // `lowerBound`: the problem's makespan bound (the document's schedule has it; computing it
    // again for every edit took 0.3 s with 1,000 devices), 0 when there is none.
    void setProblem(std::shared_ptr<const Graph> graph, std::shared_ptr<const Cluster> cluster,
                    const Constraints &constraints, double lowerBound);
    // Starts a run ("key=value" parameters separated by spaces); returns its row, or -1 when the
    // model or a parameter is refused before it starts (refused() says why, naming the valid ones).
    // "FAMILY (pretrained)" runs the policy shipped for the cluster (checkpoint=pretrained),
    // zero-shot unless the parameters give iterations.
    // `processes`: over how many local processes a learner trains (0: the dock's field).
    int start(QString model, double timeLimitS, quint64 seed, const QString &params = {}, int processes = 0);
    // "MODEL key=value ..." as given to `placement-studio --run`: time=S, seed=N and processes=N
    // set the run's budget, seed and processes (else the dock's fields), the rest go to the model.
    int startSpec(const QString &spec);
    void cancelAll();
    void setPaused(int run, bool paused);
    bool paused(int run) const;
    int iterationsSeen(int run) const;
    int runCount() const;
    bool finished(int run) const;
    bool anyRunning() const;
    const std::vector<int> &placementOf(int run) const;
    QTreeWidget *tree() const { return m_tree; }
    RunManager *manager() const { return m_manager; }
    // Finished runs for a session, and restoring them from one (listed as finished, appliable):
    // those of the problem set last (setProblem; a restored session's, once the document holds it).
    std::vector<SavedRun> savedRuns() const;
    void restoreRuns(const std::vector<SavedRun> &runs);
    ConvergenceChart *chart() const { return m_chart; }

Q_SIGNALS:
    void applyRequested(const std::vector<int> &devices, const QString &what);
    void runFinished(int run);
    void log(const QString &text);
    void refused(const QString &why);
    // A run that started and then failed (its row says "failed: ..." and why).
    void failed(const QString &why);

private:
    void startClicked();
    void showStarted(int run);
    void showProgress(int run, const std::vector<Progress> &iterations);
    void showFinished(int run);
    void addItem(int run, const QString &status);
    void applyItem(QTreeWidgetItem *item);
    std::vector<std::string> deviceNames() const; // of the problem set last
    int currentRun() const;

    QComboBox *m_model;
    QDoubleSpinBox *m_timeLimit;
    QSpinBox *m_seed;
    QSpinBox *m_processes;
    QLineEdit *m_params;
    ConvergenceChart *m_chart;
    QTreeWidget *m_tree;
    RunManager *m_manager;
    std::vector<QTreeWidgetItem *> m_items; // per run
    std::shared_ptr<const Graph> m_graph;
    double m_lowerBound = 0; // what the chart shows
    std::shared_ptr<const Cluster> m_cluster;
    std::shared_ptr<const Constraints> m_constraints;
};

} // namespace ps
