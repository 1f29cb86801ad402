#include "app/SteeringController.h"

#include "app/LocalProcesses.h"

#include "core/InputError.h"
#include "core/placers/PlacerRegistry.h"
#include "core/steering/CandidateRunner.h"
#include "core/steering/SteeringLog.h"
#include "models/SteeringWorkers.h"

#include <QDateTime>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QPointer>
#include <QThread>
#include <QtConcurrent>

namespace ps {

SteeringController::SteeringController(QThreadPool *pool, QObject *parent) : QObject(parent), m_pool(pool)
{
    connect(&m_watcher, &QFutureWatcher<QString>::finished, this, &SteeringController::workDone);
}

SteeringController::~SteeringController()
{
    cancel();
    waitForIdle();
    stopWorkers();
}

void SteeringController::waitForIdle()
{
    if (m_watcher.isRunning())
        m_watcher.waitForFinished();
}

namespace {
std::unique_ptr<SteeringSession> sessionFor(const std::shared_ptr<const Graph> &graph,
                                            const std::shared_ptr<const Cluster> &cluster,
                                            const SteeringSettings &settings)
{
    if (!graph || graph->nodeCount() == 0 || !cluster || cluster->deviceCount() == 0)
        return nullptr;
    return std::make_unique<SteeringSession>(*graph, *cluster, PlacerRegistry::builtin(), settings);
}
} // namespace

void SteeringController::reset(std::shared_ptr<const Graph> graph, std::shared_ptr<const Cluster> cluster,
                               SteeringSettings settings)
{
    std::unique_ptr<SteeringSession> session = sessionFor(graph, cluster, settings);
    adopt(std::move(graph), std::move(cluster), std::move(session), std::nullopt);
}

void SteeringController::restore(std::shared_ptr<const Graph> graph, std::shared_ptr<const Cluster> cluster,
                                 const SteeringLogDoc &log, int threads)
{
    SteeringSettings settings = log.settings;
    if (threads > 0)
        settings.threads = threads;
    // Restored aside first: a log that does not fit leaves the session as it was.
    std::unique_ptr<SteeringSession> session = sessionFor(graph, cluster, settings);
    if (session)
        session->restore(log, *graph, *cluster);
    std::optional<EnsembleResult> ensemble;
    if (log.haveEnsemble)
        ensemble = log.ensemble;
    adopt(std::move(graph), std::move(cluster), std::move(session), std::move(ensemble));
}

void SteeringController::adopt(std::shared_ptr<const Graph> graph, std::shared_ptr<const Cluster> cluster,
                               std::unique_ptr<SteeringSession> session, std::optional<EnsembleResult> ensemble)
{
    cancel();
    waitForIdle();
    m_running = false;
    stopWorkers();
    m_session = std::move(session);
    m_ensemble = std::move(ensemble);
    m_queued.clear();
    m_graph = std::move(graph);
    m_cluster = cluster ? std::move(cluster) : std::make_shared<const Cluster>();
    markLogStale();
    Q_EMIT changed();
}

std::shared_ptr<const SteeringLogDoc> SteeringController::logSnapshot() const
{
    if (!m_session)
        return nullptr;
    bool stale;
    {
        std::lock_guard<std::mutex> lock(m_logMutex);
        stale = m_logStale && !m_running;
    }
    if (stale) // idle: the session is this thread's
        publishLog(*m_session);
    std::lock_guard<std::mutex> lock(m_logMutex);
    return m_log;
}

void SteeringController::publishLog(const SteeringSession &session) const
{
    auto log = std::make_shared<const SteeringLogDoc>(
        steeringLogDoc(session, *m_graph, *m_cluster, m_ensemble ? &*m_ensemble : nullptr));
    std::lock_guard<std::mutex> lock(m_logMutex);
    m_log = std::move(log);
    m_logStale = false;
}

void SteeringController::markLogStale()
{
    std::lock_guard<std::mutex> lock(m_logMutex);
    m_logStale = true;
}

void SteeringController::apply(const SteeringFeedback &feedback)
{
    if (!m_session || feedback.empty())
        return;
    if (m_running) {
        m_queued.push_back(feedback);
        return;
    }
    m_session->apply(feedback);
    markLogStale();
    Q_EMIT changed();
}

void SteeringController::syncPins(const std::vector<int> &pins)
{
    if (!m_session)
        return;
    SteeringFeedback f;
    const std::vector<int> &have = m_session->personPins();
    for (size_t v = 0; v < pins.size() && v < have.size(); ++v)
        if (pins[v] != have[v] && !(pins[v] < 0 && have[v] < 0))
            f.pins.emplace_back(static_cast<int>(v), pins[v] < 0 ? -1 : pins[v]);
    apply(f);
}

void SteeringController::startWork(std::function<void(const RunControl &)> work)
{
    m_cancel = false;
    logSnapshot(); // what a save keeps until the first round ends
    m_running = true;
    QPointer<SteeringController> self(this);
    m_watcher.setFuture(QtConcurrent::run(m_pool, [this, self, work]() -> QString {
        RunControl control;
        control.cancel = &m_cancel;
        control.progress = [this, self](const Progress &p) {
            // At most 20 updates a second reach the event loop.
            const qint64 now = QDateTime::currentMSecsSinceEpoch();
            if (now - m_lastProgressMs < 50 && p.fraction < 1)
                return;
            m_lastProgressMs = now;
            const double fraction = p.fraction;
            const QString text = QString::fromStdString(p.message);
            QMetaObject::invokeMethod(
                this,
                [self, fraction, text] {
                    if (self)
                        Q_EMIT self->progress(fraction, text);
                },
                Qt::QueuedConnection);
        };
        try {
            work(control);
        } catch (const std::exception &e) {
            return QString::fromStdString(e.what());
        }
        return {};
    }));
}

void SteeringController::workDone()
{
    m_running = false;
    if (m_runner) {
        const QJsonObject summary = QJsonDocument::fromJson(QByteArray::fromStdString(m_runner->summary())).object();
        QStringList parts;
        for (const QJsonValue &v : summary["workers"].toArray()) {
            const QJsonObject w = v.toObject();
            const double busy = w["busy_s"].toDouble();
            parts << QStringLiteral("%1: %2 candidates, %3 sim runs/s")
                         .arg(w["worker"].toString() == "steer" ? tr("this process")
                                                                : tr("worker ") + w["worker"].toString())
                         .arg(w["candidates"].toInt())
                         .arg(busy > 0 ? w["evaluations"].toDouble() / busy : 0.0, 0, 'f', 0);
        }
        if (summary["requeued"].toInt() > 0)
            parts << tr("%1 re-run here after a worker was lost").arg(summary["requeued"].toInt());
        m_readout = parts.join(" · ");
    }
    const QString error = m_watcher.result();
    std::vector<SteeringFeedback> queued;
    queued.swap(m_queued);
    for (const SteeringFeedback &f : queued) {
        try {
            m_session->apply(f);
        } catch (const InputError &e) {
            Q_EMIT failed(QString::fromStdString(e.what()));
        }
    }
    if (!error.isEmpty())
        Q_EMIT failed(error);
    markLogStale();
    Q_EMIT changed();
    Q_EMIT finished();
}

void SteeringController::setWorkers(int workers)
{
    if (workers == m_workers)
        return;
    if (!m_running)
        stopWorkers();
    m_workers = std::max(0, workers);
}

void SteeringController::startWorkers()
{
    if (m_workers == 0 || !m_workerProcesses.empty())
        return;
    const QString program = cliProgram();
    if (program.isEmpty())
        throw InputError("placement-cli was not found beside the app; steering runs in this process");
    m_workerPort = freeLoopbackPort();
    for (int i = 0; i < m_workers; ++i) {
        auto p = std::make_unique<QProcess>();
        p->setProcessChannelMode(QProcess::ForwardedErrorChannel);
        p->setStandardOutputFile(QProcess::nullDevice());
        p->start(program, {"steer-worker", "--master", "127.0.0.1:" + QString::number(m_workerPort)});
        m_workerProcesses.push_back(std::move(p));
    }
}

void SteeringController::stopWorkers()
{
    m_runner.reset(); // tells the workers to stop
    for (auto &p : m_workerProcesses)
        if (!p->waitForFinished(2000))
            p->kill();
    m_workerProcesses.clear();
}

void SteeringController::runRounds(int rounds, int perRound, long long evaluations)
{
    if (!m_session || m_running)
        return;
    m_session->setPerRound(std::max(1, perRound));
    evaluations = std::max(1LL, evaluations);
    SteeringSession *session = m_session.get();
    try {
        startWorkers();
    } catch (const InputError &e) {
        Q_EMIT failed(QString::fromStdString(e.what()));
    }
    const int wanted = static_cast<int>(m_workerProcesses.size());
    startWork([this, session, rounds, wanted, evaluations](const RunControl &control) {
        if (wanted > 0 && !m_runner) { // joins in the work thread: the window stays responsive
            WorkerOptions o;
            o.port = m_workerPort;
            o.waitFor = wanted;
            o.timeoutS = 30;
            m_runner = makeWorkerRunner(o, *m_graph, *m_cluster);
        }
        session->setRunner(m_runner.get());
        // The rounds share rounds x evaluations, as `placement-cli steer` shares its total: what a
        // round leaves (or a learned candidate's longer run takes) moves the later rounds' budgets.
        const long long total = evaluations * rounds, before = session->evaluationsSpent();
        for (int r = 0; r < rounds && !control.cancelled(); ++r) {
            // A round always runs when asked for; Auto-steer's later ones stop where the best
            // candidate is optimal under the weights (the person's feedback comes between runs).
            const bool atFloor = r > 0 && session->bestMeetsFloor();
            if (atFloor || !session->shareLeft(total - (session->evaluationsSpent() - before), rounds - r)) {
                const QString note = QString::fromStdString(atFloor ? SteeringSession::floorNote(r, rounds)
                                                                    : SteeringSession::spentNote(total, r, rounds));
                QMetaObject::invokeMethod(
                    this,
                    [self = QPointer<SteeringController>(this), note] {
                        if (self)
                            Q_EMIT self->noted(note);
                    },
                    Qt::QueuedConnection);
                break;
            }
            RunControl each = control;
            each.progress = [&control, r, rounds](const Progress &p) {
                Progress q = p;
                q.fraction = (r + p.fraction) / rounds;
                q.message = QStringLiteral("round %1/%2: ").arg(r + 1).arg(rounds).toStdString() + p.message;
                control.report(q);
            };
            session->runRound(each);
            publishLog(*session);
            QMetaObject::invokeMethod(
                this,
                [self = QPointer<SteeringController>(this)] {
                    if (self)
                        Q_EMIT self->roundEnded();
                },
                Qt::QueuedConnection);
        }
        session->setRunner(nullptr);
    });
}

void SteeringController::formEnsemble(int size, long long evaluations)
{
    if (!m_session || m_running)
        return;
    SteeringSession *session = m_session.get();
    auto *result = &m_ensemble;
    startWork([session, result, size, evaluations](const RunControl &control) {
        EnsembleResult e = session->ensemble(size, evaluations, control);
        *result = std::move(e); // read by the GUI thread only after finished()
    });
}

void SteeringController::cancel()
{
    m_cancel = true;
}

} // namespace ps
