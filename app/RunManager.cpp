#include "app/RunManager.h"

#include "app/LocalProcesses.h"
#include "app/Session.h"
#include "core/InputError.h"
#include "core/family/RunFingerprint.h"
#include "core/io/ClusterJson.h"
#include "core/io/GraphJson.h"
#include "core/io/PlacementCsv.h"
#include "core/placers/PlacerRegistry.h"

#include <QElapsedTimer>
#include <QFutureWatcher>
#include <QProcess>
#include <QTemporaryDir>
#include <QThread>
#include <QTimer>
#include <QtConcurrent>

#include <algorithm>
#include <atomic>
#include <limits>
#include <mutex>
#include <optional>

namespace ps {

struct RunManager::Run
{
    QString model, label;
    std::weak_ptr<const Graph> graph; // the problem it ran on (not kept alive for it)
    std::vector<std::string> devices;
    std::atomic<bool> cancel{false}, pause{false};
    std::mutex mutex;
    std::vector<Progress> rows; // learners' iterations not yet handed out
    int iterations = 0;
    std::atomic<double> fraction{0}, best{std::numeric_limits<double>::infinity()};
    bool done = false, restored = false;
    PlacerResult result;
    QString error;
    QElapsedTimer clock;
    QFutureWatcher<void> watcher;
    QTimer ticker;
};

RunManager::RunManager(QObject *parent) : QObject(parent)
{
    m_pool.setMaxThreadCount(256);
}

RunManager::~RunManager()
{
    cancelAll();
    waitAll();
}

void RunManager::waitAll()
{
    for (auto &r : m_runs)
        r->watcher.waitForFinished();
    m_pool.waitForDone();
}

namespace {

// Ranks 1..N-1 of a data-parallel run started from the app: `placement-cli train` on copies of
// the problem in a folder of their own. Their fingerprint is built from the same files and
// values as this process's, so they join rank 0 (which runs in the app).
class LocalRanks
{
public:
    LocalRanks(const std::string &model, const Graph &graph, const Cluster &cluster, const Constraints &constraints,
               double timeLimitS, quint64 seed, const std::vector<std::string> &params, int processes,
               Distribution &rank0)
    {
        const Placer *placer = PlacerRegistry::builtin().find(model);
        if (!placer || !placer->info().distributes)
            throw InputError(model + " trains in one process only (across processes: gdp, giph)");
        const QString program = cliProgram();
        if (program.isEmpty())
            throw InputError("placement-cli was not found beside the app: it runs the other processes");
        if (!m_dir.isValid())
            throw InputError("no temporary folder for the other processes' copy of the problem");
        const std::string graphPath = path("graph.json"), clusterPath = path("cluster.json"),
                          pinsPath = path("pins.csv");
        writeGraphJson(graphPath, graph);
        writeClusterJson(clusterPath, cluster);
        PlacementDoc pins;
        for (int v = 0; v < graph.nodeCount(); ++v)
            if (constraints.pinnedDevice(v) >= 0)
                pins.assignment.emplace_back(graph.id(v), cluster.device(constraints.pinnedDevice(v)).name);
        writePlacementCsv(pinsPath, pins);
        TrainingInputs in;
        in.model = model;
        in.files = {{"graph", graphPath}, {"cluster", clusterPath}, {"pins", pinsPath}};
        in.params = params;
        const QString limit = QString::number(timeLimitS, 'g', 17);
        in.timeLimit = limit.toStdString();
        in.seed = std::to_string(seed);
        rank0.worldSize = processes;
        rank0.rank = 0;
        rank0.masterPort = freeLoopbackPort();
        rank0.timeoutS = 3600; // a paused rank 0 keeps the others waiting
        rank0.fingerprint = trainingFingerprint(in);
        for (int r = 1; r < processes; ++r) {
            QStringList args{"train",
                             "--model",
                             QString::fromStdString(model),
                             QString::fromStdString(graphPath),
                             QString::fromStdString(clusterPath),
                             "--pins",
                             QString::fromStdString(pinsPath),
                             "--seed",
                             QString::number(seed),
                             "--time-limit",
                             limit,
                             "--world-size",
                             QString::number(processes),
                             "--rank",
                             QString::number(r),
                             "--master",
                             "127.0.0.1:" + QString::number(rank0.masterPort),
                             "--dist-timeout",
                             "3600",
                             "--out",
                             QString::fromStdString(path("rank" + std::to_string(r) + ".placement.json"))};
            for (const std::string &p : params)
                args << "--param" << QString::fromStdString(p);
            auto process = std::make_unique<QProcess>();
            process->setProcessChannelMode(QProcess::ForwardedErrorChannel);
            process->start(program, args);
            m_processes.push_back(std::move(process));
        }
    }
    ~LocalRanks()
    {
        for (auto &p : m_processes)
            if (!p->waitForFinished(10000))
                p->kill();
    }

private:
    std::string path(const std::string &name) const
    {
        return m_dir.filePath(QString::fromStdString(name)).toStdString();
    }
    QTemporaryDir m_dir;
    std::vector<std::unique_ptr<QProcess>> m_processes;
};

} // namespace

int RunManager::start(const QString &model, std::shared_ptr<const Graph> graph, std::shared_ptr<const Cluster> cluster,
                      std::shared_ptr<const Constraints> constraints, double timeLimitS, quint64 seed,
                      std::vector<std::string> params, int processes, const QString &label)
{
    auto run = std::make_shared<Run>();
    run->model = model;
    run->label = label.isEmpty() ? model : label;
    run->graph = graph;
    run->devices = cluster->deviceNames();
    run->clock.start();
    const int index = count();
    m_runs.push_back(run);
    // Several runs share the cores: a learner started while others run gets an even share of
    // the threads (unless the person set them).
    const Placer *first = PlacerRegistry::builtin().find(model.section('+', 0, 0).toStdString());
    bool hasThreads = false;
    if (first) {
        const FamilyInfo info = first->info(); // by value: one copy for both iterators
        hasThreads = std::any_of(info.params.begin(), info.params.end(),
                                 [](const HyperParam &h) { return h.name == "threads"; });
    }
    const bool threadsGiven =
        std::any_of(params.begin(), params.end(), [](const std::string &p) { return p.rfind("threads=", 0) == 0; });
    if (hasThreads && !threadsGiven) {
        int running = 0;
        for (const auto &r : m_runs)
            running += !r->done;
        params.push_back("threads=" + std::to_string(std::max(1, QThread::idealThreadCount() / std::max(1, running))));
    }
    // The worker only stores numbers; they are handed out from the GUI thread in batches.
    auto drain = [run] {
        std::vector<Progress> rows;
        std::lock_guard<std::mutex> lock(run->mutex);
        rows.swap(run->rows);
        if (!rows.empty())
            run->iterations = std::max(run->iterations, rows.back().iteration + 1);
        return rows;
    };
    connect(&run->ticker, &QTimer::timeout, this, [this, run, index, drain] {
        std::vector<Progress> rows = drain();
        Q_EMIT runProgressed(index, rows);
    });
    run->ticker.start(100);
    connect(&run->watcher, &QFutureWatcher<void>::finished, this, [this, run, index, drain] {
        run->ticker.stop();
        std::vector<Progress> rows = drain();
        if (!rows.empty())
            Q_EMIT runProgressed(index, rows);
        run->done = true;
        Q_EMIT runFinished(index);
    });
    run->watcher.setFuture(
        QtConcurrent::run(&m_pool, [run, graph, cluster, constraints, timeLimitS, seed, params, processes] {
            RunControl control;
            control.seed = seed;
            control.budget.timeLimitS = timeLimitS;
            control.cancel = &run->cancel;
            control.pause = &run->pause;
            control.progress = [run](const Progress &p) {
                run->fraction = p.fraction;
                run->best = p.bestMakespan;
                // Learners' iterations; and any family's best so far once it has one (local
                // search, compositions), which the chart plots against simulator runs.
                if (p.iteration >= 0 || (std::isfinite(p.bestMakespan) && p.evaluations > 0)) {
                    std::lock_guard<std::mutex> lock(run->mutex);
                    run->rows.push_back(p);
                }
            };
            try {
                const std::string name = run->model.toStdString();
                std::optional<LocalRanks> ranks; // started in this thread, waited for when the run ends
                if (processes > 1)
                    ranks.emplace(name, *graph, *cluster, *constraints, timeLimitS, seed, params, processes,
                                  control.distribution);
                const PlacementProblem problem{*graph, *cluster, *constraints, {}};
                run->result = runPlacer(PlacerRegistry::builtin(), name, problem, params, control);
            } catch (const std::exception &e) {
                run->error = QString::fromStdString(e.what());
            }
        }));
    Q_EMIT runStarted(index);
    return index;
}

void RunManager::setPaused(int run, bool paused)
{
    m_runs.at(static_cast<size_t>(run))->pause = paused;
}

void RunManager::cancel(int run)
{
    Run &r = *m_runs.at(static_cast<size_t>(run));
    r.cancel = true;
    r.pause = false;
}

void RunManager::cancelAll()
{
    for (int i = 0; i < count(); ++i)
        cancel(i);
}

bool RunManager::anyRunning() const
{
    return std::any_of(m_runs.begin(), m_runs.end(), [](const auto &r) { return !r->done; });
}

const QString &RunManager::model(int run) const
{
    return m_runs.at(static_cast<size_t>(run))->model;
}
const QString &RunManager::label(int run) const
{
    return m_runs.at(static_cast<size_t>(run))->label;
}
bool RunManager::finished(int run) const
{
    return m_runs.at(static_cast<size_t>(run))->done;
}
bool RunManager::paused(int run) const
{
    return m_runs.at(static_cast<size_t>(run))->pause;
}
bool RunManager::cancelled(int run) const
{
    return m_runs.at(static_cast<size_t>(run))->cancel;
}
bool RunManager::restored(int run) const
{
    return m_runs.at(static_cast<size_t>(run))->restored;
}
int RunManager::iterationsSeen(int run) const
{
    return m_runs.at(static_cast<size_t>(run))->iterations;
}
double RunManager::fraction(int run) const
{
    return m_runs.at(static_cast<size_t>(run))->fraction;
}
double RunManager::best(int run) const
{
    return m_runs.at(static_cast<size_t>(run))->best;
}
const QString &RunManager::error(int run) const
{
    return m_runs.at(static_cast<size_t>(run))->error;
}
const PlacerResult &RunManager::result(int run) const
{
    return m_runs.at(static_cast<size_t>(run))->result;
}

double RunManager::elapsedS(int run) const
{
    const Run &r = *m_runs.at(static_cast<size_t>(run));
    return r.done ? r.result.wallS : static_cast<double>(r.clock.elapsed()) / 1000;
}

bool RunManager::ranOn(int run, const std::shared_ptr<const Graph> &graph,
                       const std::vector<std::string> &devices) const
{
    const Run &r = *m_runs.at(static_cast<size_t>(run));
    return graph && r.graph.lock() == graph && r.devices == devices;
}

std::vector<SavedRun> RunManager::savedRuns(const std::shared_ptr<const Graph> &graph,
                                            const std::vector<std::string> &devices) const
{
    std::vector<SavedRun> out;
    for (size_t i = 0; i < m_runs.size(); ++i)
        if (const Run *r = m_runs[i].get(); r->done && r->error.isEmpty() && ranOn(static_cast<int>(i), graph, devices))
            out.push_back({r->label, r->result.placement.devices(), r->result.makespan, r->result.lowerBound,
                           r->result.feasible, r->result.evaluations, r->result.wallS, r->result.notes});
    return out;
}

void RunManager::restoreRuns(const std::vector<SavedRun> &runs, const std::shared_ptr<const Graph> &graph,
                             const std::vector<std::string> &devices)
{
    const int first = count();
    for (const SavedRun &saved : runs) {
        auto run = std::make_shared<Run>();
        run->model = run->label = saved.model;
        run->graph = graph;
        run->devices = devices;
        run->done = run->restored = true;
        run->result.placement = Placement(saved.placement);
        run->result.makespan = saved.makespan;
        run->result.lowerBound = saved.lowerBound;
        run->result.feasible = saved.feasible;
        run->result.evaluations = saved.evaluations;
        run->result.wallS = saved.wallS;
        run->result.notes = saved.notes;
        m_runs.push_back(run);
    }
    Q_EMIT runsRestored(first, static_cast<int>(runs.size()));
}

} // namespace ps
