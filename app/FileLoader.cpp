#include "app/FileLoader.h"

#include "app/Session.h"
#include "core/InputError.h"
#include "core/generators/Generators.h"
#include "core/io/FileBytes.h"
#include "core/placers/PlacerRegistry.h"
#include "core/steering/SteeringLog.h"
#include "views/WorkerPool.h"

#include <QFutureWatcher>
#include <QtConcurrent/QtConcurrent>

namespace ps {

FileLoader::FileLoader(QObject *parent) : QObject(parent)
{
    qRegisterMetaType<LoadResult>();
}

namespace {
// The opening placement of `graph` on `cluster`, into `r` (left out if the placers refuse).
void placeInitial(LoadResult &r, const Graph &graph, const Cluster &cluster, const std::atomic<bool> &cancel)
{
    try { // else the document places it itself
        r.initial = std::make_shared<const PlacerResult>(
            openingPlacement({graph, cluster, Constraints::fromGraph(graph, cluster), {}}, &cancel));
        r.initialDevices = cluster.deviceNames();
    } catch (const InputError &) {}
}
} // namespace

void FileLoader::start(std::function<LoadResult(const std::atomic<bool> &)> job)
{
    const int generation = m_generation, ticket = m_nextTicket++;
    auto *watcher = new QFutureWatcher<LoadResult>(this);
    connect(watcher, &QFutureWatcher<LoadResult>::finished, this, [this, watcher, generation, ticket] {
        watcher->deleteLater();
        if (generation != m_generation)
            return; // cancelled
        m_ready.emplace(ticket, watcher->result());
        deliverInOrder();
    });
    if (m_inFlight++ == 0)
        Q_EMIT busyChanged(true);
    watcher->setFuture(QtConcurrent::run(workerPool(), [job = std::move(job), cancel = m_cancel] {
        try {
            return job(*cancel);
        } catch (const std::exception &e) { // InputError, or out of memory: an error, not a crash
            LoadResult r;
            r.error = QString::fromStdString(e.what());
            return r;
        }
    }));
}

void FileLoader::deliverInOrder()
{
    const int generation = m_generation;
    for (auto next = m_ready.find(m_nextDelivery); next != m_ready.end(); next = m_ready.find(m_nextDelivery)) {
        const LoadResult result = std::move(next->second);
        m_ready.erase(next);
        ++m_nextDelivery;
        // Counted out after the result is handled, so that loads the handler starts (the graph
        // after its cluster) keep the loader busy without a gap.
        Q_EMIT finished(result);
        if (generation != m_generation)
            return; // cancelled while handled
        if (--m_inFlight == 0)
            Q_EMIT busyChanged(false);
    }
}

void FileLoader::load(const QString &path, const LoadOptions &options, std::shared_ptr<const Cluster> cluster,
                      const QStringList &then)
{
    start([path, options, cluster, then](const std::atomic<bool> &cancel) {
        LoadResult r = loadNow(path, options, cluster, cancel);
        r.then = then;
        r.thenOptions = options;
        return r;
    });
}

void FileLoader::placeOn(std::shared_ptr<const Graph> graph, const Cluster &cluster, const QString &path)
{
    start([graph, cluster, path](const std::atomic<bool> &cancel) {
        LoadResult r;
        r.path = path;
        r.file = std::make_shared<LoadedFile>();
        r.file->cluster = cluster;
        r.placedGraph = graph;
        placeInitial(r, *graph, cluster, cancel);
        return r;
    });
}

void FileLoader::generate(const QString &name, std::shared_ptr<const Cluster> cluster)
{
    start([name, cluster](const std::atomic<bool> &cancel) {
        LoadResult r;
        r.generated = name;
        r.file = std::make_shared<LoadedFile>();
        r.file->graph = ps::generate(name.toStdString(), std::map<std::string, double>{}, 1);
        if (cluster && cluster->deviceCount() > 0 && r.file->graph->nodeCount() > 0)
            placeInitial(r, *r.file->graph, *cluster, cancel);
        return r;
    });
}

LoadResult FileLoader::loadNow(const QString &path, const LoadOptions &options, std::shared_ptr<const Cluster> cluster,
                               const std::atomic<bool> &cancel)
{
    LoadResult r;
    r.path = path;
    try {
        if (isSession(path))
            r.session = std::make_shared<SessionData>(loadSession(path));
        else
            try {
                r.file = std::make_shared<LoadedFile>(loadFile(path.toStdString(), options));
            } catch (const InputError &) {
                // A steering log (read again only here: it is none of the files loadFile reads).
                const std::string name = path.toStdString();
                if (isModelFile(name) || !path.contains(QStringLiteral(".json")))
                    throw;
                const std::string bytes = readFileBytes(name);
                if (sniffJsonFormat(bytes) != "steering-log")
                    throw;
                r.steering = std::make_shared<SteeringLogDoc>(parseSteeringLog(bytes, name));
            }
        if (r.file && r.file->graph && cluster && cluster->deviceCount() > 0 && r.file->graph->nodeCount() > 0)
            placeInitial(r, *r.file->graph, *cluster, cancel);
    } catch (const InputError &e) {
        r.error = QString::fromStdString(e.what());
    } catch (const std::exception &e) {
        r.error = path + ": " + QString::fromStdString(e.what());
    }
    return r;
}

void FileLoader::cancel()
{
    ++m_generation;
    m_ready.clear();
    m_nextDelivery = m_nextTicket; // the loads in flight are not waited for
    m_cancel->store(true);         // stops the placing in flight; later loads get a fresh flag
    m_cancel = std::make_shared<std::atomic<bool>>(false);
    if (m_inFlight > 0) {
        m_inFlight = 0;
        Q_EMIT busyChanged(false);
    }
}

} // namespace ps
