#include "app/RunsPanel.h"

#include "core/InputError.h"
#include "core/placers/PlacerRegistry.h"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QElapsedTimer>
#include <QFormLayout>
#include <QFutureWatcher>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QPushButton>
#include <QSpinBox>
#include <QTreeWidget>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrent>

#include <cmath>

namespace ps {

struct RunsPanel::Run
{
    QString model;
    std::atomic<bool> cancel{false};
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
    m_model = new QComboBox(this);
    m_model->setEditable(true);
    for (const Placer *p : PlacerRegistry::builtin().all())
        m_model->addItem(QString::fromStdString(p->info().name), QString::fromStdString(p->info().description));
    for (const char *composed : {"heft+local-search", "m-etf-c+local-search", "human+local-search"})
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
    auto *run = new QPushButton(tr("Run"), this);
    auto *cancel = new QPushButton(tr("Cancel all"), this);
    auto *apply = new QPushButton(tr("Apply selected"), this);
    m_tree = new QTreeWidget(this);
    m_tree->setHeaderLabels({tr("Model"), tr("Status"), tr("Makespan"), tr("× bound"), tr("Time")});
    m_tree->setRootIsDecorated(false);
    m_tree->header()->setSectionResizeMode(0, QHeaderView::Stretch);
    auto *form = new QFormLayout;
    form->addRow(tr("Model"), m_model);
    form->addRow(tr("Time limit"), m_timeLimit);
    form->addRow(tr("Seed"), m_seed);
    auto *buttons = new QHBoxLayout;
    buttons->addWidget(run);
    buttons->addWidget(cancel);
    buttons->addStretch();
    buttons->addWidget(apply);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addLayout(form);
    layout->addLayout(buttons);
    layout->addWidget(m_tree);
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
    m_graph = std::move(graph);
    m_cluster = cluster;
    m_constraints = constraints;
}

void RunsPanel::startClicked() { start(m_model->currentText().trimmed(), m_timeLimit->value(), m_seed->value()); }

int RunsPanel::start(const QString &model, double timeLimitS, quint64 seed)
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
    // Progress is polled 10 times a second from the GUI thread: the worker only stores numbers.
    connect(&run->ticker, &QTimer::timeout, this, [run, clock] {
        run->item->setText(1, QStringLiteral("running %1%").arg(std::round(run->fraction * 100)));
        if (std::isfinite(run->best.load()))
            run->item->setText(2, QString::number(run->best.load(), 'g', 6) + " s");
        run->item->setText(4, QString::number(clock->elapsed() / 1000.0, 'f', 1) + " s");
    });
    run->ticker.start(100);
    connect(&run->watcher, &QFutureWatcher<void>::finished, this, [this, run, index, clock] {
        run->ticker.stop();
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
    run->watcher.setFuture(QtConcurrent::run([run, graph, cluster, constraints, timeLimitS, seed] {
        RunControl control;
        control.seed = seed;
        control.budget.timeLimitS = timeLimitS;
        control.cancel = &run->cancel;
        control.progress = [run](const Progress &p) {
            run->fraction = p.fraction;
            run->best = p.bestMakespan;
        };
        try {
            run->result = runPlacer(PlacerRegistry::builtin(), run->model.toStdString(),
                                    {*graph, *cluster, *constraints, {}}, {}, control);
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
    for (auto &r : m_runs)
        r->cancel = true;
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
