#pragma once
// The open session: a graph, a cluster, the placement being edited, the user's pins, and the
// schedule of that placement. Every edit goes through the undo stack (app/commands/); the
// document re-simulates after each change and emits one signal that the views follow.
#include "core/cluster/Cluster.h"
#include "core/graph/Graph.h"
#include "core/placement/Constraints.h"
#include "core/sim/Schedule.h"

#include <QObject>
#include <QUndoStack>

#include <memory>
#include <vector>

namespace ps {

class Simulator;
struct PlacerResult;

// A cluster with the placement and pins that go with it, and the file it came from: what an edit
// of the cluster, or a cluster opened with a graph placed, replaces.
struct ClusterState
{
    std::shared_ptr<const Cluster> cluster;
    std::vector<int> placement, pins;
    QString path;
};

class Document : public QObject
{
    Q_OBJECT
public:
    explicit Document(QObject *parent = nullptr);
    ~Document() override;

    std::shared_ptr<const Graph> graph() const { return m_graph; }
    const Cluster &cluster() const { return *m_cluster; }
    // The same cluster, shared: a new one with every change of the cluster, none for each reader (a
    // copy of 1,024 devices with a link for each pair took 60 ms, and the Models dock made one
    // after every edit).
    std::shared_ptr<const Cluster> sharedCluster() const { return m_cluster; }
    bool ready() const { return m_graph && m_cluster->deviceCount() > 0; }
    const std::vector<int> &placement() const { return m_placement; }
    const std::vector<int> &pins() const { return m_pins; } // device per node, -1 unpinned
    std::shared_ptr<const Schedule> schedule() const { return m_schedule; }
    QUndoStack *undoStack() { return &m_undo; }
    double lastSimulationMs() const { return m_simulationMs; }
    // Why a ready document has no schedule (its placement's costs overflow a double); else empty.
    const QString &simulationError() const { return m_simulationError; }

    QString graphPath, clusterPath, sessionPath;
    QString producer; // what made the current placement (a model, "manual", a file)
    QString unplaced; // why no fast placer could place the graph when it opened (empty if one did)

    // Opening. A new graph starts a new editing context and clears the undo stack; it gets the
    // best of the fast placers (bestFastPlacement), or `initial` when one was computed off the GUI
    // thread for this cluster. A new cluster keeps ops on devices found by name (the others placed
    // anew: `fresh`, or here); with a graph placed it is one undo step.
    void setGraph(std::shared_ptr<const Graph> graph, const QString &path,
                  std::shared_ptr<const PlacerResult> initial = nullptr);
    // `fresh`: a placement of the graph on `cluster` for the ops whose device is gone (else the
    // best fast placement is computed here).
    void setCluster(const Cluster &cluster, const QString &path, const std::vector<int> *fresh = nullptr);
    void setCluster(std::shared_ptr<const Cluster> cluster, const QString &path,
                    const std::vector<int> *fresh = nullptr);
    // Restores a saved state at once (sessions, autosave recovery).
    void restore(std::shared_ptr<const Graph> graph, const Cluster &cluster, std::vector<int> placement,
                 std::vector<int> pins);

    // Edits, one undo command each.
    void assign(const std::vector<int> &nodes, int device);
    void applyPlacement(const std::vector<int> &devices, const QString &what);
    void setPinned(const std::vector<int> &nodes, bool pinned);
    void editCluster(std::shared_ptr<const Cluster> cluster); // kept as it is, shared (no copy)
    // Whether the cluster came last from an edit or a file opened over another cluster (or their
    // undo or redo), which the undo stack can take back; not from a session or a new graph, which
    // clear the stack.
    bool clusterUndoable() const { return m_clusterUndoable; }

    // Used by the undo commands.
    void setDevices(const std::vector<int> &nodes, const std::vector<int> &devices);
    void setPins(const std::vector<int> &nodes, const std::vector<int> &pins);
    void replaceCluster(const ClusterState &state);

    // Derived state.
    Constraints constraints() const; // the graph's pins and groups, plus the user's pins
    std::vector<int> opCountPerDevice() const;
    std::vector<char> flaggedNodes() const; // on an overflowing device, off its pin, or a split group
    std::vector<std::string> deviceNames() const;

Q_SIGNALS:
    void graphChanged();
    void clusterChanged();
    void placementChanged(); // the schedule is already updated
    void message(const QString &text);

private:
    // One undo step moving `nodes` to `devices` and recording `made` as the producer (nothing when
    // neither changes).
    void pushPlacement(const std::vector<int> &nodes, const std::vector<int> &devices, const QString &made,
                       const QString &text);
    void resimulate();
    void rebuildSimulator();
    // "Open cluster 4gpu.cluster.json", or "Open cluster preset 4xV100-NVLink" (the cluster's name).
    static QString openingText(const QString &clusterPath, const Cluster &cluster);
    // The best of the fast placers for the current graph and cluster (and what made it).
    std::vector<int> initialPlacement(QString *producer = nullptr, QString *why = nullptr) const;

    std::shared_ptr<const Graph> m_graph;
    std::shared_ptr<const Cluster> m_cluster = std::make_shared<const Cluster>(); // replaced, never changed
    std::vector<int> m_placement, m_pins;
    bool m_clusterUndoable = false;
    std::shared_ptr<const Schedule> m_schedule;
    std::unique_ptr<Simulator> m_simulator;
    QUndoStack m_undo;
    double m_simulationMs = 0;
    QString m_simulationError;
};

} // namespace ps
