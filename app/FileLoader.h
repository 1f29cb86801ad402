#pragma once
// Reads files off the GUI thread, several at once, and hands the results back in the order the
// loads started (a placement after the graph it places, whichever was read first). Readers cannot
// be interrupted, so cancelling abandons the loads in flight: their results are dropped when they
// arrive and the window is free at once.
#include "core/io/FileKind.h"
#include "core/placers/Placer.h"

#include <QObject>
#include <QString>
#include <QStringList>

#include <atomic>
#include <functional>
#include <map>
#include <memory>

namespace ps {

struct SessionData;
struct SteeringLogDoc;

struct LoadResult
{
    QString path;
    std::shared_ptr<LoadedFile> file;         // a graph, cluster, placement or partition
    std::shared_ptr<SessionData> session;     // or a session
    std::shared_ptr<SteeringLogDoc> steering; // or a steering log (placement-cli steer --log)
    QString error;                            // or why it failed
    // For a graph loaded while a cluster was open: the best fast placement on that cluster,
    // computed in the loading thread (so a large graph opens placed without freezing the window).
    std::shared_ptr<const PlacerResult> initial;
    std::vector<std::string> initialDevices; // the cluster's device names it was computed for
    // For a cluster chosen while a graph was open (placeOn): that graph, which `initial` places.
    std::shared_ptr<const Graph> placedGraph;
    QString generated; // a built-in generator's name: the graph was generated (no file)
    // Files to open once this one is in place (a cluster read first, then the graph it places),
    // with their options.
    QStringList then;
    LoadOptions thenOptions;
};

class FileLoader : public QObject
{
    Q_OBJECT
public:
    explicit FileLoader(QObject *parent = nullptr);
    // With `cluster`, a graph is also placed there (LoadResult::initial). `then` comes back in
    // the result, for the caller to open next.
    void load(const QString &path, const LoadOptions &options = {}, std::shared_ptr<const Cluster> cluster = nullptr,
              const QStringList &then = {});
    // A cluster for the open graph: the graph is placed on it in the worker pool, and finished()
    // brings the cluster (as a loaded file named `path`) with `initial` and `placedGraph`.
    void placeOn(std::shared_ptr<const Graph> graph, const Cluster &cluster, const QString &path);
    // A built-in generator's graph at its defaults (seed 1), placed on `cluster` as a load is.
    void generate(const QString &name, std::shared_ptr<const Cluster> cluster);
    void cancel();
    int inFlight() const { return m_inFlight; }

    static bool isSession(const QString &path) { return path.endsWith(QStringLiteral(".pstudio")); }
    static bool isCluster(const QString &path) { return path.contains(QStringLiteral(".cluster.")); }

Q_SIGNALS:
    void finished(const ps::LoadResult &result);
    void busyChanged(bool busy);

private:
    // Runs `job` in the worker pool with the flag cancel() sets.
    void start(std::function<LoadResult(const std::atomic<bool> &)> job);
    // Emits the results that are next in line.
    void deliverInOrder();
    // What load() does, on the calling thread.
    static LoadResult loadNow(const QString &path, const LoadOptions &options, std::shared_ptr<const Cluster> cluster,
                              const std::atomic<bool> &cancel);

    int m_generation = 0, m_inFlight = 0;
    int m_nextTicket = 0, m_nextDelivery = 0; // loads are numbered as they start
    std::map<int, LoadResult> m_ready;        // results that wait for an earlier one
    std::shared_ptr<std::atomic<bool>> m_cancel = std::make_shared<std::atomic<bool>>(false);
};

} // namespace ps

Q_DECLARE_METATYPE(ps::LoadResult)
