#include "app/RunsPanel.h"

#include "app/Session.h"
#include "core/InputError.h"
#include "core/partitioners/Partitioner.h"
#include "core/placers/PlacerRegistry.h"
#include "core/sim/Simulator.h"
#include "views/ConvergenceChart.h"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QElapsedTimer>
#include <QGridLayout>
#include <QLabel>
#include <QFutureWatcher>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLineEdit>
#include <QSplitter>
#include <QThread>
#include <QPushButton>
#include <QSpinBox>
#include <QTreeWidget>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrent>

#include <cmath>
#include <mutex>

namespace ps {


struct RunsPanel::Run
{
    QString model;
    std::atomic<bool> cancel{false}, pause{false};
    std::mutex mutex;
    std::vector<Progress> rows; // learners' iterations not yet drawn
    int iterations = 0;
    std::atomic<double> fraction{0}, best{std::numeric_limits<double>::infinity()};
    bool done = false;
    PlacerResult result;
    QString error;
    QTreeWidgetItem *item = nullptr;
    QFutureWatcher<void> watcher;
    QTimer ticker;
};

RunsPanel::RunsPanel(QWidget *parent) : QWidget(parent)
{
    m_pool.setMaxThreadCount(256);
    m_model = new QComboBox(this);
    m_model->setEditable(true);
    // Each family with its description and hyperparameters as the tooltip.
    auto addFamily = [this](const FamilyInfo &info) {
        QString tip = QString::fromStdString(info.description);
        for (const HyperParam &h : info.params)
            tip += QStringLiteral("\n  %1 (%2): %3")
                       .arg(QString::fromStdString(h.name), QString::fromStdString(hyperParamTypeName(h.type)),
                            QString::fromStdString(h.description));
        m_model->addItem(QString::fromStdString(info.name));
        m_model->setItemData(m_model->count() - 1, tip, Qt::ToolTipRole);
    };
    for (const Placer *p : PlacerRegistry::builtin().all())
        addFamily(p->info());
    // Partitioners that are not also placers (gap): their k parts go to the first k devices.
    for (const Partitioner *p : PartitionerRegistry::builtin().all())
        if (!PlacerRegistry::builtin().find(p->info().name))
            addFamily(p->info());
    for (const char *composed : {"heft+local-search", "m-etf-c+local-search", "human+local-search", "gdp+local-search"})
        m_model->addItem(composed);
    m_model->setCurrentText("heft-c");
    m_model->setToolTip(tr("A model family, or several joined by + (each refines the one before)"));
    m_timeLimit = new QDoubleSpinBox(this);
    m_timeLimit->setRange(0.1, 3600);
    m_timeLimit->setValue(10);
    m_timeLimit->setSuffix(" s");
    m_seed = new QSpinBox(this);
    m_seed->setRange(0, 1 << 30);
    m_seed->setValue(1);
    m_params = new QLineEdit(this);
    m_params->setPlaceholderText(tr("key=value …  e.g. iterations=200 samples=8 (see placement-cli models)"));
    auto *run = new QPushButton(tr("Run"), this);
    auto *pause = new QPushButton(tr("Pause/Resume"), this);
    auto *cancelOne = new QPushButton(tr("Cancel"), this);
    auto *cancel = new QPushButton(tr("Cancel all"), this);
    auto *apply = new QPushButton(tr("Apply selected"), this);
    m_tree = new QTreeWidget(this);
    m_tree->setHeaderLabels({tr("Model"), tr("Status"), tr("Makespan"), tr("× bound"), tr("Time")});
    m_tree->setRootIsDecorated(false);
    m_tree->header()->setSectionResizeMode(0, QHeaderView::Stretch);
    // Two compact rows: the model with its budget and seed, then its parameters.
    auto *form = new QGridLayout;
    form->addWidget(new QLabel(tr("Model"), this), 0, 0);
    form->addWidget(m_model, 0, 1);
    form->addWidget(new QLabel(tr("Time"), this), 0, 2);
    form->addWidget(m_timeLimit, 0, 3);
    form->addWidget(new QLabel(tr("Seed"), this), 0, 4);
    form->addWidget(m_seed, 0, 5);
    form->addWidget(new QLabel(tr("Parameters"), this), 1, 0);
    form->addWidget(m_params, 1, 1, 1, 5);
    form->setColumnStretch(1, 1);
    auto *buttons = new QHBoxLayout;
    buttons->addWidget(run);
    buttons->addWidget(pause);
    buttons->addWidget(cancelOne);
    buttons->addWidget(cancel);
    buttons->addStretch();
    buttons->addWidget(apply);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addLayout(form);
    layout->addLayout(buttons);
    m_chart = new ConvergenceChart(this);
    auto *split = new QSplitter(Qt::Vertical, this);
    split->addWidget(m_tree);
    split->addWidget(m_chart);
    split->setStretchFactor(1, 2);
    m_tree->setMinimumHeight(60);
    layout->addWidget(split);
    connect(pause, &QPushButton::clicked, this, [this] {
        if (const int r = currentRun(); r >= 0)
            setPaused(r, !paused(r));
    });
    connect(cancelOne, &QPushButton::clicked, this, [this] {
        if (const int r = currentRun(); r >= 0)
            m_runs[r]->cancel = true;
    });
    connect(run, &QPushButton::clicked, this, &RunsPanel::startClicked);
    connect(cancel, &QPushButton::clicked, this, &RunsPanel::cancelAll);
    connect(apply, &QPushButton::clicked, this, [this] {
        if (m_tree->currentItem())
            applyItem(m_tree->currentItem());
    });
    connect(m_tree, &QTreeWidget::itemDoubleClicked, this, [this](QTreeWidgetItem *item) { applyItem(item); });
}

RunsPanel::~RunsPanel()
{
    cancelAll();
    for (auto &r : m_runs)
        r->watcher.waitForFinished();
}

void RunsPanel::setProblem(std::shared_ptr<const Graph> graph, const Cluster &cluster, const Constraints &constraints)
{
    if (graph != m_graph)
        m_chart->clear(); // curves of another graph's runs would mislead
    if (graph && cluster.deviceCount() > 0)
        m_chart->setLowerBound(computeLowerBound(*graph, cluster).bound);
    m_graph = std::move(graph);
    m_cluster = cluster;
    m_constraints = constraints;
}

void RunsPanel::startClicked()
{
    start(m_model->currentText().trimmed(), m_timeLimit->value(), m_seed->value(), m_params->text());
}

int RunsPanel::currentRun() const
{
    for (size_t i = 0; i < m_runs.size(); ++i)
        if (m_runs[i]->item == m_tree->currentItem())
            return static_cast<int>(i);
    return m_runs.empty() ? -1 : static_cast<int>(m_runs.size()) - 1;
}

void RunsPanel::setPaused(int run, bool paused)
{
    Run &r = *m_runs.at(static_cast<size_t>(run));
    if (r.done)
        return;
    r.pause = paused;
    r.item->setText(1, paused ? tr("paused") : tr("running"));
}

bool RunsPanel::paused(int run) const { return m_runs.at(static_cast<size_t>(run))->pause; }

int RunsPanel::iterationsSeen(int run) const { return m_runs.at(static_cast<size_t>(run))->iterations; }

int RunsPanel::start(const QString &model, double timeLimitS, quint64 seed, const QString &paramText)
{
    if (!m_graph || m_cluster.deviceCount() == 0) {
        Q_EMIT log(tr("Open a graph and a cluster before running a model."));
        return -1;
    }
    auto run = std::make_shared<Run>();
    run->model = model;
    run->item = new QTreeWidgetItem(m_tree, {model, tr("running"), "", "", ""});
    const int index = static_cast<int>(m_runs.size());
    m_runs.push_back(run);
    auto graph = m_graph;
    auto cluster = std::make_shared<Cluster>(m_cluster);
    auto constraints = std::make_shared<Constraints>(m_constraints);
    QElapsedTimer *clock = new QElapsedTimer;
    clock->start();
    // Progress is polled 10 times a second from the GUI thread: the worker only stores numbers,
    // and the chart gets the new iterations in one batch.
    auto drain = [this, run, index] {
        std::vector<Progress> rows;
        {
            std::lock_guard<std::mutex> lock(run->mutex);
            rows.swap(run->rows);
        }
        if (rows.empty())
            return;
        std::vector<ConvergenceChart::Point> points;
        for (const Progress &p : rows)
            points.push_back({p.iteration, p.sampleMean, p.bestMakespan, p.loss, p.entropy, p.evaluations});
        run->iterations = rows.back().iteration + 1;
        m_chart->addPoints(index, run->model, points);
    };
    connect(&run->ticker, &QTimer::timeout, this, [run, clock, drain] {
        drain();
        if (run->pause)
            return;
        run->item->setText(1, run->iterations > 0 ? QStringLiteral("iteration %1").arg(run->iterations)
                                                  : QStringLiteral("running %1%").arg(std::round(run->fraction * 100)));
        if (std::isfinite(run->best.load()))
            run->item->setText(2, QString::number(run->best.load(), 'g', 6) + " s");
        run->item->setText(4, QString::number(clock->elapsed() / 1000.0, 'f', 1) + " s");
    });
    run->ticker.start(100);
    connect(&run->watcher, &QFutureWatcher<void>::finished, this, [this, run, index, clock, drain] {
        run->ticker.stop();
        drain();
        run->done = true;
        delete clock;
        if (!run->error.isEmpty()) {
            run->item->setText(1, tr("failed"));
            run->item->setToolTip(1, run->error);
            Q_EMIT log(run->model + ": " + run->error);
        } else {
            const PlacerResult &r = run->result;
            run->item->setText(1, run->cancel ? tr("cancelled (best kept)") : r.feasible ? tr("done") : tr("infeasible"));
            run->item->setText(2, QString::number(r.makespan, 'g', 6) + " s");
            run->item->setText(3, QString::number(r.lowerBound > 0 ? r.makespan / r.lowerBound : 0, 'f', 3));
            run->item->setText(4, QString::number(r.wallS, 'f', 2) + " s");
            if (!r.feasible)
                run->item->setForeground(1, QColor(200, 0, 0));
            Q_EMIT log(QStringLiteral("%1: makespan %2 s (%3× bound) in %4 s%5")
                           .arg(run->model)
                           .arg(r.makespan, 0, 'g', 6)
                           .arg(r.lowerBound > 0 ? r.makespan / r.lowerBound : 0, 0, 'f', 3)
                           .arg(r.wallS, 0, 'f', 2)
                           .arg(r.feasible ? QString() : tr(", infeasible")));
        }
        Q_EMIT runFinished(index);
    });
    std::vector<std::string> params;
    for (const QString &p : paramText.split(' ', Qt::SkipEmptyParts))
        params.push_back(p.toStdString());
    // Several runs share the cores: a learner started while others run gets an even share of
    // the threads (unless the user set them).
    const Placer *first = PlacerRegistry::builtin().find(model.section('+', 0, 0).toStdString());
    bool hasThreads = false;
    if (first) {
        const FamilyInfo info = first->info(); // by value: one copy for both iterators
        hasThreads = std::any_of(info.params.begin(), info.params.end(),
                                 [](const HyperParam &h) { return h.name == "threads"; });
    }
    if (hasThreads && !paramText.contains("threads=")) {
        int running = 0;
        for (const auto &r : m_runs)
            running += !r->done;
        params.push_back("threads=" + std::to_string(std::max(1, QThread::idealThreadCount() / std::max(1, running))));
    }
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
            if (!PlacerRegistry::builtin().find(name.substr(0, name.find('+'))) &&
                PartitionerRegistry::builtin().find(name)) {
                run->result = runPartitionerAsPlacer(name, {*graph, *cluster, *constraints, {}}, params, control);
                return;
            }
            run->result = runPlacer(PlacerRegistry::builtin(), name, {*graph, *cluster, *constraints, {}}, params,
                                    control);
        } catch (const InputError &e) {
            run->error = QString::fromStdString(e.what());
        } catch (const std::exception &e) {
            run->error = QString::fromStdString(e.what());
        }
    }));
    return index;
}

void RunsPanel::cancelAll()
{
    for (auto &r : m_runs) {
        r->cancel = true;
        r->pause = false;
    }
}

std::vector<SavedRun> RunsPanel::savedRuns() const
{
    std::vector<SavedRun> out;
    for (const auto &r : m_runs)
        if (r->done && r->error.isEmpty())
            out.push_back({r->model, r->result.placement.devices(), r->result.makespan, r->result.lowerBound,
                           r->result.feasible});
    return out;
}

void RunsPanel::restoreRuns(const std::vector<SavedRun> &runs)
{
    for (const SavedRun &saved : runs) {
        auto run = std::make_shared<Run>();
        run->model = saved.model;
        run->done = true;
        run->result.placement = Placement(saved.placement);
        run->result.makespan = saved.makespan;
        run->result.lowerBound = saved.lowerBound;
        run->result.feasible = saved.feasible;
        run->item = new QTreeWidgetItem(
            m_tree, {saved.model, tr("saved"), QString::number(saved.makespan, 'g', 6) + " s",
                     QString::number(saved.lowerBound > 0 ? saved.makespan / saved.lowerBound : 0, 'f', 3), ""});
        m_runs.push_back(run);
    }
}

bool RunsPanel::anyRunning() const
{
    return std::any_of(m_runs.begin(), m_runs.end(), [](const auto &r) { return !r->done; });
}

bool RunsPanel::finished(int run) const { return m_runs.at(static_cast<size_t>(run))->done; }

const std::vector<int> &RunsPanel::placementOf(int run) const
{
    return m_runs.at(static_cast<size_t>(run))->result.placement.devices();
}

void RunsPanel::applyItem(QTreeWidgetItem *item)
{
    for (const auto &r : m_runs)
        if (r->item == item && r->done && r->error.isEmpty())
            Q_EMIT applyRequested(r->result.placement.devices(), r->model);
}

} // namespace ps
