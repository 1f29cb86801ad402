#pragma once
// Runs model families (classical, learned, compositions, partitioners as placers) in worker
// threads of a pool of its own: progress polled ten times a second, pause/resume/cancel, results
// with their provenance, and the finished runs a session saves and restores. The Models dock
// shows its runs; the Steering dock evaluates its rounds in the same pool. No widgets here.
#include "core/cluster/Cluster.h"
#include "core/graph/Graph.h"
#include "core/placement/Constraints.h"
#include "core/placers/Placer.h"

#include <QObject>
#include <QThreadPool>

#include <memory>
#include <string>
#include <vector>

namespace ps {

struct SavedRun;

class RunManager : public QObject
{
    Q_OBJECT
public:
    explicit RunManager(QObject *parent = nullptr);
    ~RunManager() override;

    // Starts `model` ("a" or "a+b", or a partitioner) on the problem; returns the run's index. A
    // learner started while others run gets an even share of the cores unless params set threads.
    // processes > 1: a learned family that trains data-parallel (gdp, giph) runs as rank 0 here
    // with processes - 1 local `placement-cli train` ranks on copies of the graph, cluster and
    // pins; it is still one run (one curve), whose iterations carry each rank's simulator runs.
    // label: what the run is shown and saved as (default: the model).
    int start(const QString &model, std::shared_ptr<const Graph> graph, std::shared_ptr<const Cluster> cluster,
              std::shared_ptr<const Constraints> constraints, double timeLimitS, quint64 seed,
              std::vector<std::string> params, int processes = 1, const QString &label = {});
    void setPaused(int run, bool paused);
    void cancel(int run);
    void cancelAll();
    void waitAll();

    int count() const { return static_cast<int>(m_runs.size()); }
    bool anyRunning() const;
    const QString &model(int run) const;
    const QString &label(int run) const; // e.g. "metis refine=true": two runs of one model told apart
    bool finished(int run) const;
    bool paused(int run) const;
    bool cancelled(int run) const;
    bool restored(int run) const;
    int iterationsSeen(int run) const;
    double fraction(int run) const;
    double best(int run) const;     // best feasible makespan reported so far
    double elapsedS(int run) const; // while running; the result's wall time once done
    const QString &error(int run) const;
    const PlacerResult &result(int run) const; // once finished

    // Whether `run` placed this graph on a cluster with these devices (by name, in order): its
    // placement means nothing elsewhere (a 4-device placement on 2 devices named devices 2 and 3).
    bool ranOn(int run, const std::shared_ptr<const Graph> &graph, const std::vector<std::string> &devices) const;
    // The finished runs of this problem (as ranOn), for a session.
    std::vector<SavedRun> savedRuns(const std::shared_ptr<const Graph> &graph,
                                    const std::vector<std::string> &devices) const;
    // A session's runs, of the problem it holds.
    void restoreRuns(const std::vector<SavedRun> &runs, const std::shared_ptr<const Graph> &graph,
                     const std::vector<std::string> &devices);
    QThreadPool *pool() { return &m_pool; }

Q_SIGNALS:
    void runStarted(int run);
    // Ten times a second per running run; `iterations` are the learner's new ones, if any.
    void runProgressed(int run, const std::vector<Progress> &iterations);
    void runFinished(int run);
    void runsRestored(int first, int count);

private:
    struct Run;
    std::vector<std::shared_ptr<Run>> m_runs;
    // Runs get threads of their own: in the global pool (as many threads as cores) long runs
    // would hold up file loads and graph layouts.
    QThreadPool m_pool;
};

} // namespace ps
