#pragma once
// Runs a steering session off the GUI thread: rounds (or an ensemble) in a worker, progress
// throttled to the event loop, cancel. The session is touched by one thread at a time: while a
// round runs, feedback is queued and applied when it ends; views read the session only while
// idle (after changed()). A copy of the session's log, taken when idle or at the end of each round
// in the work thread, is what a saved session keeps: saving needs no idle session.
#include "core/cluster/Cluster.h"
#include "core/graph/Graph.h"
#include "core/steering/SteeringLog.h"
#include "core/steering/SteeringSession.h"

#include <QFutureWatcher>
#include <QObject>
#include <QProcess>
#include <QThreadPool>

#include <atomic>
#include <memory>
#include <mutex>
#include <optional>

namespace ps {

class CandidateRunner;

class SteeringController : public QObject
{
    Q_OBJECT
public:
    // Rounds run in `pool` (the run manager's, shared with the Models dock).
    explicit SteeringController(QThreadPool *pool, QObject *parent = nullptr);
    ~SteeringController() override;

    // A new session for this graph and cluster (the old one is cancelled and dropped).
    void reset(std::shared_ptr<const Graph> graph, std::shared_ptr<const Cluster> cluster, SteeringSettings settings);
    // Restores a session from its log (the app session's "steering" entry). InputError when the
    // log does not fit the graph or cluster. `threads` > 0 runs its later rounds on that many
    // threads instead of the log's (how many run at once changes no proposal).
    void restore(std::shared_ptr<const Graph> graph, std::shared_ptr<const Cluster> cluster, const SteeringLogDoc &log,
                 int threads = 0);
    // The session's log as of now when idle, or as of the last round that ended while work runs
    // (a copy: write it on any thread). Null without a session.
    std::shared_ptr<const SteeringLogDoc> logSnapshot() const;

    bool hasSession() const { return m_session != nullptr; }
    bool running() const { return m_running; }
    // Valid while idle.
    const SteeringSession *session() const { return m_running ? nullptr : m_session.get(); }
    const std::optional<EnsembleResult> &ensemble() const { return m_ensemble; }
    std::shared_ptr<const Graph> graph() const { return m_graph; }
    const Cluster &cluster() const { return *m_cluster; }

    // Applied at once when idle, else when the running work ends. InputError on bad feedback
    // (when idle).
    void apply(const SteeringFeedback &feedback);
    // The person's pins as a device per node (-1: none): what differs becomes feedback.
    void syncPins(const std::vector<int> &pins);
    // `rounds` rounds of `perRound` candidates and `evaluations` simulator runs each.
    void runRounds(int rounds, int perRound, long long evaluations);
    void formEnsemble(int size, long long evaluations);
    // Rounds also run candidates in this many local worker processes (`placement-cli
    // steer-worker`, started with the next round and kept until the session is reset; 0: this
    // process only). The results are the same; the rounds end sooner where cores are free.
    void setWorkers(int workers);
    int workers() const { return m_workers; }
    // Per worker process: candidates run, simulator runs, busy seconds (after a round with workers).
    QString workerReadout() const { return m_readout; }
    void cancel();
    void waitForIdle();

Q_SIGNALS:
    void progress(double fraction, const QString &text);
    void changed();    // ranking, candidates or feedback changed (read the session now)
    void finished();   // the running work ended (also when cancelled or failed)
    void roundEnded(); // a round of the running work ended: logSnapshot() holds it
    void failed(const QString &message);
    void noted(const QString &message); // something the person should know, not a failure

private:
    // Makes `session` (of `graph` and `cluster`, or none) the one steered, once the work on the old
    // one has stopped.
    void adopt(std::shared_ptr<const Graph> graph, std::shared_ptr<const Cluster> cluster,
               std::unique_ptr<SteeringSession> session, std::optional<EnsembleResult> ensemble);
    void startWorkers();
    void stopWorkers();
    void startWork(std::function<void(const RunControl &)> work);
    void workDone();
    // Takes a copy of the session's log (on the thread that holds the session).
    void publishLog(const SteeringSession &session) const;
    void markLogStale();

    std::shared_ptr<const Graph> m_graph;
    std::shared_ptr<const Cluster> m_cluster = std::make_shared<const Cluster>(); // the document's, shared
    std::unique_ptr<SteeringSession> m_session;
    std::optional<EnsembleResult> m_ensemble;
    std::vector<SteeringFeedback> m_queued;
    QFutureWatcher<QString> m_watcher;
    QThreadPool *m_pool;
    std::atomic<bool> m_cancel{false};
    bool m_running = false;
    qint64 m_lastProgressMs = 0;
    int m_workers = 0;
    int m_workerPort = 0;
    std::unique_ptr<CandidateRunner> m_runner; // made in the work thread, once the workers joined
    std::vector<std::unique_ptr<QProcess>> m_workerProcesses;
    QString m_readout;
    mutable std::mutex m_logMutex; // m_log is written by the work thread at the end of a round
    mutable std::shared_ptr<const SteeringLogDoc> m_log;
    mutable bool m_logStale = true;
};

} // namespace ps
