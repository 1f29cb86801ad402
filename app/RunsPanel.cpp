#include "app/RunsPanel.h"

#include "app/RunManager.h"
#include "app/Session.h"
#include "core/InputError.h"
#include "core/partitioners/Partitioner.h"
#include "core/placers/PlacerRegistry.h"
#include "models/Pretrained.h"
#include "views/ConvergenceChart.h"
#include "views/Format.h"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QRegularExpression>
#include <QSpinBox>
#include <QSplitter>
#include <QTreeWidget>
#include <QVBoxLayout>

#include <cmath>

namespace ps {

RunsPanel::RunsPanel(RunManager *manager, QWidget *parent) : QWidget(parent), m_manager(manager)
{
    m_model = new QComboBox(this);
    m_model->setEditable(true);
    m_model->setObjectName("runModel");
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
    // best-fast+local-search first: the classical pipeline that races the fast placers' starts.
    for (const char *composed : {"best-fast+local-search", "heft+local-search", "m-etf-c+local-search",
                                 "human+local-search", "gdp+local-search"})
        m_model->addItem(composed);
    // The policies shipped with the app (resources/pretrained): zero-shot unless iterations are given.
    for (const char *family : {"gdp", "gap"}) {
        const std::vector<int> counts = pretrainedDeviceCounts(family);
        if (counts.empty())
            continue;
        QStringList shipped;
        for (int c : counts)
            shipped << QString::number(c);
        m_model->addItem(tr("%1 (pretrained)").arg(family));
        m_model->setItemData(m_model->count() - 1,
                             tr("%1 with the policy shipped for this cluster's device count (%2), zero-shot: the "
                                "graph is placed in one pass, in about a second; on graphs unlike its training corpus "
                                "it gains little over the fast placers. Add iterations=N to fine-tune it on this "
                                "graph, or run %1 with a time limit to search further")
                                 .arg(family, shipped.join(", ")),
                             Qt::ToolTipRole);
    }
    m_model->setCurrentText("heft-c");
    m_model->setToolTip(tr("A model family, or several joined by + (each refines the one before)"));
    m_timeLimit = new QDoubleSpinBox(this);
    m_timeLimit->setRange(0.1, 3600);
    m_timeLimit->setValue(10);
    m_timeLimit->setSuffix(" s");
    m_seed = new QSpinBox(this);
    m_seed->setRange(0, 1 << 30);
    m_seed->setValue(1);
    m_processes = new QSpinBox(this);
    m_processes->setRange(1, 64);
    m_processes->setObjectName("runProcesses");
    m_processes->setToolTip(tr("Processes for a learned model that trains data-parallel (gdp, giph): this one "
                               "and local placement-cli ranks over torch.distributed; one run, one curve"));
    m_params = new QLineEdit(this);
    m_params->setPlaceholderText(tr("key=value …  e.g. iterations=200 samples=8 (see placement-cli models)"));
    auto *run = new QPushButton(tr("Run"), this);
    auto *pause = new QPushButton(tr("Pause/Resume"), this);
    auto *cancelOne = new QPushButton(tr("Cancel"), this);
    auto *cancel = new QPushButton(tr("Cancel all"), this);
    auto *apply = new QPushButton(tr("Apply selected"), this);
    m_tree = new QTreeWidget(this);
    m_tree->setHeaderLabels({tr("Model"), tr("Status"), tr("Makespan"), tr("× bound"), tr("Sim runs"), tr("Time")});
    m_tree->headerItem()->setToolTip(4, tr("Simulator runs the model spent (its budget in the steering and "
                                           "equal-budget comparisons), its warm start included"));
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
    form->addWidget(new QLabel(tr("Processes"), this), 0, 6);
    form->addWidget(m_processes, 0, 7);
    form->addWidget(new QLabel(tr("Parameters"), this), 1, 0);
    form->addWidget(m_params, 1, 1, 1, 7);
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
    // The runs keep room for about four rows (the charts shrink first), and a third of any height
    // beyond that.
    split->setStretchFactor(0, 1);
    split->setStretchFactor(1, 2);
    m_tree->setMinimumHeight(m_tree->fontMetrics().height() * 6);
    layout->addWidget(split);
    connect(pause, &QPushButton::clicked, this, [this] {
        if (const int r = currentRun(); r >= 0)
            setPaused(r, !paused(r));
    });
    connect(cancelOne, &QPushButton::clicked, this, [this] {
        if (const int r = currentRun(); r >= 0)
            m_manager->cancel(r);
    });
    connect(run, &QPushButton::clicked, this, &RunsPanel::startClicked);
    connect(cancel, &QPushButton::clicked, this, &RunsPanel::cancelAll);
    connect(apply, &QPushButton::clicked, this, [this] {
        if (m_tree->currentItem())
            applyItem(m_tree->currentItem());
    });
    connect(m_tree, &QTreeWidget::itemDoubleClicked, this, [this](QTreeWidgetItem *item) { applyItem(item); });
    connect(m_manager, &RunManager::runStarted, this, &RunsPanel::showStarted);
    connect(m_manager, &RunManager::runProgressed, this, &RunsPanel::showProgress);
    connect(m_manager, &RunManager::runFinished, this, &RunsPanel::showFinished);
    connect(m_manager, &RunManager::runsRestored, this, [this](int first, int n) {
        for (int r = first; r < first + n; ++r) {
            addItem(r, tr("saved"));
            showFinished(r);
            m_items[r]->setText(1, tr("saved"));
        }
    });
}

RunsPanel::~RunsPanel() = default;

void RunsPanel::setProblem(std::shared_ptr<const Graph> graph, std::shared_ptr<const Cluster> cluster,
                           const Constraints &constraints, double lowerBound)
{
    if (graph != m_graph)
        m_chart->clear(); // curves of another graph's runs would mislead
    if (lowerBound != m_lowerBound) {
        m_lowerBound = lowerBound;
        m_chart->setLowerBound(lowerBound);
    }
    m_graph = std::move(graph);
    m_cluster = std::move(cluster);
    m_constraints = std::make_shared<const Constraints>(constraints);
}

void RunsPanel::startClicked()
{
    start(m_model->currentText().trimmed(), m_timeLimit->value(), m_seed->value(), m_params->text());
}

int RunsPanel::currentRun() const
{
    for (size_t i = 0; i < m_items.size(); ++i)
        if (m_items[i] == m_tree->currentItem())
            return static_cast<int>(i);
    return m_items.empty() ? -1 : static_cast<int>(m_items.size()) - 1;
}

void RunsPanel::setPaused(int run, bool paused)
{
    if (m_manager->finished(run))
        return;
    m_manager->setPaused(run, paused);
    m_items[run]->setText(1, paused ? tr("paused") : tr("running"));
}

int RunsPanel::start(QString model, double timeLimitS, quint64 seed, const QString &paramText, int processes)
{
    if (!m_graph || !m_cluster || m_cluster->deviceCount() == 0) {
        Q_EMIT log(tr("Open a graph and a cluster before running a model."));
        return -1;
    }
    std::vector<std::string> params;
    const QString pretrained = QStringLiteral(" (pretrained)");
    // Shown as asked for, parameters included: two runs of one model are told apart.
    const QString label = paramText.simplified().isEmpty() ? model : model + ' ' + paramText.simplified();
    if (model.endsWith(pretrained)) { // "gdp (pretrained)": the shipped policy, zero-shot unless told
        model.chop(pretrained.size());
        params.push_back("checkpoint=pretrained");
        if (!paramText.contains(QRegularExpression("(^|\\s)iterations=")))
            params.push_back("iterations=0");
    }
    for (const QString &p : paramText.split(' ', Qt::SkipEmptyParts))
        params.push_back(p.toStdString());
    try {
        checkPlacerSpec(PlacerRegistry::builtin(), model.toStdString(), params);
    } catch (const InputError &e) {
        Q_EMIT refused(tr("%1 not started: %2").arg(model, QString::fromStdString(e.what())));
        return -1;
    }
    return m_manager->start(model, m_graph, m_cluster, m_constraints, timeLimitS, seed, std::move(params),
                            processes > 0 ? processes : m_processes->value(), label);
}

int RunsPanel::startSpec(const QString &spec)
{
    const QStringList words = spec.split(' ', Qt::SkipEmptyParts);
    if (words.isEmpty()) {
        Q_EMIT refused(tr("--run needs a model, e.g. --run 'heft-c+local-search time=30'"));
        return -1;
    }
    double timeLimitS = m_timeLimit->value();
    quint64 seed = static_cast<quint64>(m_seed->value());
    QStringList params;
    // "gdp (pretrained) ...": the dock's entry for the shipped policy.
    const bool pretrained = words.size() > 1 && words[1] == QStringLiteral("(pretrained)");
    const QString model = pretrained ? words[0] + QStringLiteral(" (pretrained)") : words[0];
    int processes = m_processes->value();
    for (const QString &w : words.mid(pretrained ? 2 : 1)) {
        bool ok = true;
        QString needs;
        if (w.startsWith("time=")) {
            timeLimitS = w.mid(5).toDouble(&ok);
            ok = ok && timeLimitS > 0 && std::isfinite(timeLimitS);
            needs = tr("a positive number of seconds");
        } else if (w.startsWith("seed=")) {
            seed = w.mid(5).toULongLong(&ok);
            needs = tr("a whole number >= 0");
        } else if (w.startsWith("processes=")) {
            processes = w.mid(10).toInt(&ok);
            ok = ok && processes >= m_processes->minimum() && processes <= m_processes->maximum();
            needs = tr("a whole number from %1 to %2").arg(m_processes->minimum()).arg(m_processes->maximum());
        } else {
            params << w;
        }
        if (!ok) {
            Q_EMIT refused(tr("%1 not started: '%2' needs %3").arg(words[0], w, needs));
            return -1;
        }
    }
    return start(model, timeLimitS, seed, params.join(' '), processes);
}

void RunsPanel::addItem(int run, const QString &status)
{
    if (static_cast<int>(m_items.size()) <= run)
        m_items.resize(run + 1, nullptr);
    m_items[run] = new QTreeWidgetItem(m_tree, {m_manager->label(run), status, "", "", "", ""});
    m_items[run]->setToolTip(0, m_manager->label(run)); // in full where the column cuts it short
}

void RunsPanel::showStarted(int run)
{
    addItem(run, tr("running"));
}

void RunsPanel::showProgress(int run, const std::vector<Progress> &rows)
{
    if (!rows.empty()) {
        std::vector<ConvergenceChart::Point> points;
        for (const Progress &p : rows)
            points.push_back({p.iteration, p.sampleMean, p.bestMakespan, p.loss, p.entropy, p.evaluations});
        m_chart->addPoints(run, m_manager->label(run), points);
    }
    if (m_manager->paused(run) || m_manager->finished(run))
        return;
    QTreeWidgetItem *item = m_items[run];
    const int iterations = m_manager->iterationsSeen(run);
    item->setText(1, iterations > 0 ? tr("iteration %1").arg(iterations)
                                    : tr("running %1%").arg(std::round(m_manager->fraction(run) * 100)));
    if (std::isfinite(m_manager->best(run)))
        item->setText(2, formatSeconds(m_manager->best(run)));
    if (!rows.empty())
        item->setText(4, QString::number(rows.back().evaluations));
    item->setText(5, QString::number(m_manager->elapsedS(run), 'f', 1) + " s");
    // A data-parallel run: each process's simulator runs per second so far.
    if (!rows.empty() && rows.back().rankEvaluations.size() > 1 && rows.back().wallS > 0) {
        QStringList rates;
        for (long long e : rows.back().rankEvaluations)
            rates << QString::number(static_cast<double>(e) / rows.back().wallS, 'f', 0);
        const QString readout =
            tr("%1 processes: %2 sim runs/s").arg(rows.back().rankEvaluations.size()).arg(rates.join(", "));
        item->setData(1, Qt::UserRole, readout);
        item->setToolTip(0, m_manager->label(run) + "\n" + readout);
        item->setText(1, item->text(1) + " · " + readout);
    }
}

namespace {
// A line of text under a run's row, the width of the table (a failure's reason, a note).
void addLineUnder(QTreeWidgetItem *item, const QString &text, const QColor &colour)
{
    auto *line = new QTreeWidgetItem(item, {text});
    line->setFirstColumnSpanned(true);
    line->setToolTip(0, text);
    line->setForeground(0, colour);
    line->setFlags(Qt::ItemIsEnabled);
    item->setExpanded(true);
}
} // namespace

void RunsPanel::showFinished(int run)
{
    QTreeWidgetItem *item = m_items[run];
    const QString &label = m_manager->label(run);
    if (!m_manager->error(run).isEmpty()) {
        // The reason in a line of its own under the run, the width of the table (and in the
        // tooltip and the Log).
        item->setText(1, tr("failed"));
        item->setToolTip(1, m_manager->error(run));
        item->setForeground(1, QColor(200, 0, 0));
        addLineUnder(item, m_manager->error(run), QColor(200, 0, 0));
        const QString &why = m_manager->error(run);
        const QString &family = m_manager->model(run); // the parameters are in the row and its reason
        Q_EMIT failed(why.startsWith(family + ": ") ? why : family + ": " + why); // named once
    } else {
        const PlacerResult &r = m_manager->result(run);
        const double ratio = r.lowerBound > 0 ? r.makespan / r.lowerBound : 0;
        item->setText(1, m_manager->cancelled(run) ? tr("cancelled (best kept)")
                         : r.feasible              ? tr("done")
                                                   : tr("infeasible"));
        // A data-parallel run: its processes' throughput.
        if (const QString readout = item->data(1, Qt::UserRole).toString(); !readout.isEmpty())
            item->setText(1, item->text(1) + " · " + readout);
        item->setText(2, formatSeconds(r.makespan)); // as the Metrics dock writes it
        m_chart->setResult(run, label, r.makespan);
        item->setText(3, QString::number(ratio, 'f', 3));
        item->setText(4, r.evaluations >= 0 ? QString::number(r.evaluations) : QString());   // -1: an old session's
        item->setText(5, r.wallS > 0 ? QString::number(r.wallS, 'f', 2) + " s" : QString()); // restored: as saved
        if (!r.feasible)
            item->setForeground(1, QColor(200, 0, 0));
        // What the model says of its result (the start kept, ops moved off a full device, the
        // placer that won a race), each in a grey line under its row.
        QStringList notes;
        for (const std::string &note : r.notes) {
            notes << QString::fromStdString(note);
            addLineUnder(item, notes.back(), QColor(100, 100, 100));
        }
        if (!m_manager->restored(run))
            Q_EMIT log(QStringLiteral("%1: makespan %2 s (%3× bound) in %4 s, %5 simulator runs%6%7")
                           .arg(label)
                           .arg(r.makespan, 0, 'g', 6)
                           .arg(ratio, 0, 'f', 3)
                           .arg(r.wallS, 0, 'f', 2)
                           .arg(r.evaluations)
                           .arg(r.feasible ? QString() : tr(", infeasible"))
                           .arg(notes.isEmpty() ? QString() : "; " + notes.join("; ")));
    }
    Q_EMIT runFinished(run);
}

void RunsPanel::cancelAll()
{
    m_manager->cancelAll();
}

bool RunsPanel::paused(int run) const
{
    return m_manager->paused(run);
}
int RunsPanel::iterationsSeen(int run) const
{
    return m_manager->iterationsSeen(run);
}
int RunsPanel::runCount() const
{
    return m_manager->count();
}
bool RunsPanel::finished(int run) const
{
    return m_manager->finished(run);
}
bool RunsPanel::anyRunning() const
{
    return m_manager->anyRunning();
}
std::vector<std::string> RunsPanel::deviceNames() const
{
    return m_cluster ? m_cluster->deviceNames() : std::vector<std::string>{};
}
std::vector<SavedRun> RunsPanel::savedRuns() const
{
    return m_manager->savedRuns(m_graph, deviceNames());
}
void RunsPanel::restoreRuns(const std::vector<SavedRun> &runs)
{
    m_manager->restoreRuns(runs, m_graph, deviceNames());
}

const std::vector<int> &RunsPanel::placementOf(int run) const
{
    return m_manager->result(run).placement.devices();
}

void RunsPanel::applyItem(QTreeWidgetItem *item)
{
    for (int r = 0; r < static_cast<int>(m_items.size()); ++r) {
        if (m_items[r] != item || !m_manager->finished(r) || !m_manager->error(r).isEmpty())
            continue;
        if (m_manager->ranOn(r, m_graph, deviceNames()))
            Q_EMIT applyRequested(m_manager->result(r).placement.devices(), m_manager->label(r));
        else
            Q_EMIT refused(
                tr("%1 ran on another graph or cluster: run it again to place this one").arg(m_manager->label(r)));
    }
}

} // namespace ps
