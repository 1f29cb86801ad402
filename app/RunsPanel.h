#pragma once
// The Models dock: start runs of any registered family (or a composition such as
// heft+local-search) on the open graph and cluster, each in a worker thread with its progress
// and a cancel button; finished runs list their makespan and can be applied (one undo step).
#include "core/cluster/Cluster.h"
#include "core/graph/Graph.h"
#include "core/placement/Constraints.h"

#include <QWidget>

#include <atomic>
#include <memory>
#include <vector>

class QComboBox;
class QDoubleSpinBox;
class QSpinBox;
class QTreeWidget;
class QTreeWidgetItem;

namespace ps {

class RunsPanel : public QWidget
{
    Q_OBJECT
public:
    explicit RunsPanel(QWidget *parent = nullptr);
    ~RunsPanel() override;
    void setProblem(std::shared_ptr<const Graph> graph, const Cluster &cluster, const Constraints &constraints);
    // Starts a run; returns its row.
    int start(const QString &model, double timeLimitS, quint64 seed);
    void cancelAll();
    int runCount() const { return static_cast<int>(m_runs.size()); }
    bool finished(int run) const;
    const std::vector<int> &placementOf(int run) const;
    QTreeWidget *tree() const { return m_tree; }

Q_SIGNALS:
    void applyRequested(const std::vector<int> &devices, const QString &what);
    void runFinished(int run);
    void log(const QString &text);

private:
    struct Run;
    void startClicked();
    void applyItem(QTreeWidgetItem *item);

    QComboBox *m_model;
    QDoubleSpinBox *m_timeLimit;
    QSpinBox *m_seed;
    QTreeWidget *m_tree;
    std::shared_ptr<const Graph> m_graph;
    Cluster m_cluster;
    Constraints m_constraints;
    std::vector<std::shared_ptr<Run>> m_runs;
};

} // namespace ps
