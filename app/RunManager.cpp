#include "app/RunManager.h"

#include "app/Session.h"
#include "core/InputError.h"
#include "core/partitioners/Partitioner.h"
#include "core/placers/PlacerRegistry.h"

#include <QElapsedTimer>
#include <QFutureWatcher>
#include <QThread>
#include <QTimer>
#include <QtConcurrent>

#include <algorithm>
#include <atomic>
#include <limits>
#include <mutex>

namespace ps {

struct RunManager::Run
{
    QString model;
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

int RunManager::start(const QString &model, std::shared_ptr<const Graph> graph, std::shared_ptr<const Cluster> cluster,
                      std::shared_ptr<const Constraints> constraints, double timeLimitS, quint64 seed,
                      std::vector<std::string> params)
{
    auto run = std::make_shared<Run>();
    run->model = model;
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
            run->iterations = rows.back().iteration + 1;
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
    run->watcher.setFuture(QtConcurrent::run(&m_pool, [run, graph, cluster, constraints, timeLimitS, seed, params] {
        RunControl control;
        control.seed = seed;
        control.budget.timeLimitS = timeLimitS;
        control.cancel = &run->cancel;
        control.pause = &run->pause;
        control.progress = [run](const Progress &p) {
            run->fraction = p.fraction;
            run->best = p.bestMakespan;
            if (p.iteration >= 0) {
                std::lock_guard<std::mutex> lock(run->mutex);
                run->rows.push_back(p);
            }
        };
        try {
            const std::string name = run->model.toStdString();
            const PlacementProblem problem{*graph, *cluster, *constraints, {}};
            if (!PlacerRegistry::builtin().find(name.substr(0, name.find('+'))) &&
                PartitionerRegistry::builtin().find(name))
                run->result = runPartitionerAsPlacer(name, problem, params, control);
            else
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

std::vector<SavedRun> RunManager::savedRuns() const
{
    std::vector<SavedRun> out;
    for (const auto &r : m_runs)
        if (r->done && r->error.isEmpty())
            out.push_back({r->model, r->result.placement.devices(), r->result.makespan, r->result.lowerBound,
                           r->result.feasible});
    return out;
}

void RunManager::restoreRuns(const std::vector<SavedRun> &runs)
{
    const int first = count();
    for (const SavedRun &saved : runs) {
        auto run = std::make_shared<Run>();
        run->model = saved.model;
        run->done = run->restored = true;
        run->result.placement = Placement(saved.placement);
        run->result.makespan = saved.makespan;
        run->result.lowerBound = saved.lowerBound;
        run->result.feasible = saved.feasible;
        m_runs.push_back(run);
    }
    Q_EMIT runsRestored(first, static_cast<int>(runs.size()));
}

} // namespace ps
