#include "app/SteeringPanel.h"

#include "app/SteeringController.h"
#include "app/commands/SteeringFeedbackCommand.h"
#include "core/InputError.h"
#include "core/sim/Simulator.h"
#include "core/steering/Ensemble.h"
#include "core/steering/SteeringLog.h"
#include "core/steering/SteeringSession.h"
#include "views/Format.h"
#include "views/ModelMapView.h"
#include "views/RankingTable.h"
#include "views/SteeringCharts.h"
#include "views/TimelineView.h"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QSlider>
#include <QSpinBox>
#include <QSplitter>
#include <QTabWidget>
#include <QTableWidget>
#include <QThread>
#include <QUndoStack>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace ps {

namespace {

const char *const kWeightNames[SteeringPanel::kWeights] = {"makespan", "bytes", "memory", "balance", "important"};
const char *const kWeightTips[SteeringPanel::kWeights] = {
    "makespan", "moved bytes (in seconds of transfer)", "peak memory against capacity", "busy-time imbalance",
    "the longest path through the ops marked important (it counts only once some are)"};

double Objective::*weightMember(int i)
{
    static double Objective::*const members[SteeringPanel::kWeights] = {
        &Objective::makespanWeight, &Objective::bytesWeight, &Objective::memoryWeight, &Objective::balanceWeight,
        &Objective::importantWeight};
    return members[i];
}

double similarity(const Cluster &cluster, const std::vector<int> &a, const std::vector<int> &b)
{
    const std::vector<int> aligned = alignDevices(cluster, a, b);
    size_t same = 0;
    for (size_t v = 0; v < a.size(); ++v)
        same += a[v] == aligned[v];
    return a.empty() ? 1.0 : double(same) / double(a.size());
}

} // namespace

SteeringPanel::SteeringPanel(SteeringController *controller, QUndoStack *undo, QWidget *parent)
    : QWidget(parent), m_controller(controller), m_undo(undo)
{
    // Controls: weights, families, round size and budget, run buttons.
    auto *weights = new QGridLayout;
    weights->setSpacing(2);
    for (int i = 0; i < kWeights; ++i) {
        m_weights[i] = Objective{}.*weightMember(i);
        m_sliders[i] = new QSlider(Qt::Horizontal);
        m_sliders[i]->setRange(0, 200);
        m_sliders[i]->setValue(static_cast<int>(std::lround(100 * m_weights[i])));
        m_sliders[i]->setToolTip(tr("Weight of %1 in the objective (0 to 2)").arg(tr(kWeightTips[i])));
        m_sliderLabels[i] = new QLabel;
        weights->addWidget(new QLabel(tr(kWeightNames[i])), i, 0);
        weights->addWidget(m_sliders[i], i, 1);
        weights->addWidget(m_sliderLabels[i], i, 2);
        connect(m_sliders[i], &QSlider::valueChanged, this, [this, i] {
            m_sliderLabels[i]->setText(QString::number(m_sliders[i]->value() / 100.0, 'f', 2));
            if (!m_sliders[i]->isSliderDown())
                weightSliderMoved(i);
        });
        connect(m_sliders[i], &QSlider::sliderReleased, this, [this, i] { weightSliderMoved(i); });
        m_sliderLabels[i]->setText(QString::number(m_sliders[i]->value() / 100.0, 'f', 2));
    }
    m_families = new QTableWidget(0, 2);
    m_families->setHorizontalHeaderLabels({tr("family"), tr("weight (0 excludes)")});
    m_families->verticalHeader()->setVisible(false);
    m_families->verticalHeader()->setDefaultSectionSize(fontMetrics().height() + 6);
    m_families->horizontalHeader()->setStretchLastSection(true);
    m_families->setMaximumHeight(130);

    m_perRound = new QSpinBox;
    m_perRound->setRange(1, SteeringSettings::kMaxPerRound);
    m_perRound->setValue(8);
    m_perRound->setToolTip(tr("Candidates per round"));
    m_perRound->setObjectName("perRound");
    m_evaluations = new QSpinBox;
    m_evaluations->setRange(10, 10000000);
    m_evaluations->setSingleStep(500);
    m_evaluations->setValue(2000);
    m_evaluations->setObjectName("roundEvaluations");
    m_evaluations->setToolTip(tr("Simulator runs a round may spend, all its candidates together"));
    m_autoRounds = new QSpinBox;
    m_autoRounds->setRange(1, 1000);
    m_autoRounds->setValue(5);
    m_autoRounds->setSuffix(tr(" rounds"));
    m_runRound = new QPushButton(tr("Run round"));
    m_autoSteer = new QPushButton(tr("Auto-steer"));
    m_autoSteer->setToolTip(tr("Run this many rounds, each steered by the results before it"));
    m_cancel = new QPushButton(tr("Cancel"));
    m_progress = new QProgressBar;
    m_progress->setRange(0, 1000);
    m_progress->setTextVisible(false);
    m_progress->setMaximumHeight(10);
    m_status = new QLabel;
    m_status->setWordWrap(true);
    auto *runRow = new QHBoxLayout;
    runRow->addWidget(new QLabel(tr("round size")));
    runRow->addWidget(m_perRound);
    runRow->addWidget(new QLabel(tr("sim runs/round")));
    runRow->addWidget(m_evaluations);
    runRow->addWidget(m_runRound);
    runRow->addWidget(m_autoSteer);
    runRow->addWidget(m_autoRounds);
    runRow->addWidget(m_cancel);
    m_workers = new QSpinBox;
    m_workers->setRange(0, 64);
    m_workers->setObjectName("steerWorkers");
    m_workers->setToolTip(tr("Local worker processes that also run each round's candidates (placement-cli "
                             "steer-worker over torch.distributed's store); 0: this process only. Same results."));
    runRow->addWidget(new QLabel(tr("workers")));
    runRow->addWidget(m_workers);
    m_workerReadout = new QLabel;
    m_workerReadout->setObjectName("workerReadout");
    m_workerReadout->setWordWrap(true);
    runRow->addStretch(1);

    // Views: the model map beside the ranking, the agreement and the hyperparameters.
    m_map = new ModelMapView;
    m_xAxis = new QComboBox;
    m_yAxis = new QComboBox;
    for (auto a : {ModelMapView::Axis::Ratio, ModelMapView::Axis::Bytes, ModelMapView::Axis::Memory,
                   ModelMapView::Axis::Imbalance, ModelMapView::Axis::Score}) {
        m_xAxis->addItem(ModelMapView::axisName(a), static_cast<int>(a));
        m_yAxis->addItem(ModelMapView::axisName(a), static_cast<int>(a));
    }
    m_yAxis->setCurrentIndex(1);
    auto updateAxes = [this] {
        m_map->setAxes(static_cast<ModelMapView::Axis>(m_xAxis->currentData().toInt()),
                       static_cast<ModelMapView::Axis>(m_yAxis->currentData().toInt()));
    };
    connect(m_xAxis, &QComboBox::currentIndexChanged, this, updateAxes);
    connect(m_yAxis, &QComboBox::currentIndexChanged, this, updateAxes);
    auto *mapBox = new QWidget;
    auto *mapLayout = new QVBoxLayout(mapBox);
    mapLayout->setContentsMargins(0, 0, 0, 0);
    auto *axes = new QHBoxLayout;
    axes->addWidget(new QLabel(tr("x")));
    axes->addWidget(m_xAxis);
    axes->addWidget(new QLabel(tr("y")));
    axes->addWidget(m_yAxis);
    axes->addStretch(1);
    mapLayout->addLayout(axes);
    mapLayout->addWidget(m_map, 1);

    m_table = new RankingTable;
    m_filter = new QLineEdit;
    m_filter->setPlaceholderText(tr("Filter by family or hyperparameter"));
    m_filter->setClearButtonEnabled(true);
    connect(m_filter, &QLineEdit::textChanged, m_table, &RankingTable::setFilter);
    auto *rankingBox = new QWidget;
    auto *rankingLayout = new QVBoxLayout(rankingBox);
    rankingLayout->setContentsMargins(0, 0, 0, 0);
    rankingLayout->addWidget(m_filter);
    rankingLayout->addWidget(m_table, 1);

    m_agreement = new AgreementMatrixView;
    m_disagree = new QPushButton(tr("Show disagreement in the graph"));
    auto *agreementBox = new QWidget;
    auto *agreementLayout = new QVBoxLayout(agreementBox);
    agreementLayout->setContentsMargins(0, 0, 0, 0);
    agreementLayout->addWidget(m_agreement, 1);
    agreementLayout->addWidget(m_disagree);

    m_paramChart = new ParamScoreView;
    m_paramFamily = new QComboBox;
    m_paramName = new QComboBox;
    auto *paramBox = new QWidget;
    auto *paramLayout = new QVBoxLayout(paramBox);
    paramLayout->setContentsMargins(0, 0, 0, 0);
    auto *paramRow = new QHBoxLayout;
    paramRow->addWidget(m_paramFamily);
    paramRow->addWidget(m_paramName);
    paramLayout->addLayout(paramRow);
    paramLayout->addWidget(m_paramChart, 1);
    connect(m_paramFamily, &QComboBox::currentIndexChanged, this, [this] {
        if (m_refreshing)
            return;
        m_paramName->clear();
        if (const SteeringSession *s = m_controller->session(); s && m_paramFamily->count() > 0)
            for (const HyperParam &h : s->space(m_paramFamily->currentText().toStdString()).params())
                m_paramName->addItem(QString::fromStdString(h.name));
        refreshParamChart();
    });
    connect(m_paramName, &QComboBox::currentIndexChanged, this, [this] { refreshParamChart(); });

    auto *compareBox = new QWidget;
    auto *compareLayout = new QVBoxLayout(compareBox);
    compareLayout->setContentsMargins(0, 0, 0, 0);
    compareLayout->setSpacing(1);
    for (int i = 0; i < 2; ++i) {
        m_compareLabels[i] = new QLabel(i == 0 ? tr("Select two candidates and press Compare") : QString());
        m_compareTimelines[i] = new TimelineView;
        m_compareTimelines[i]->setMinimumHeight(60);
        compareLayout->addWidget(m_compareLabels[i]);
        compareLayout->addWidget(m_compareTimelines[i], 1);
    }
    auto *tabs = new QTabWidget;
    m_tabs = tabs;
    tabs->addTab(rankingBox, tr("Ranking"));
    tabs->addTab(agreementBox, tr("Agreement"));
    tabs->addTab(paramBox, tr("Hyperparameters"));
    tabs->addTab(compareBox, tr("Compare"));
    auto *split = new QSplitter(Qt::Horizontal);
    split->addWidget(mapBox);
    split->addWidget(tabs);
    split->setStretchFactor(0, 1);
    split->setStretchFactor(1, 1);

    m_apply = new QPushButton(tr("Apply"));
    m_apply->setToolTip(tr("Apply the selected candidate's placement (one undo step)"));
    m_ensembleButton = new QPushButton(tr("Ensemble"));
    m_ensembleButton->setToolTip(tr("Vote the top candidates (as many as the box beside says) into one placement, "
                                    "repair it and refine it"));
    m_ensembleSize = new QSpinBox;
    m_ensembleSize->setRange(1, SteeringSettings::kMaxEnsemble);
    m_ensembleSize->setValue(SteeringSettings::kDefaultEnsemble);
    m_ensembleSize->setObjectName("ensembleSize");
    m_ensembleSize->setPrefix(tr("of "));
    m_ensembleSize->setToolTip(tr("Members of the ensemble: the best this many candidates not rejected"));
    m_applyEnsemble = new QPushButton(tr("Apply ensemble"));
    m_compare = new QPushButton(tr("Compare"));
    m_compare->setToolTip(tr("Select two candidates: the ops they place differently are selected in the graph"));
    m_accept = new QPushButton(tr("Accept"));
    m_reject = new QPushButton(tr("Reject"));
    m_reject->setToolTip(tr("Its region of hyperparameters is sampled less, and it is never refined"));
    auto *actions = new QHBoxLayout;
    for (QPushButton *b : {m_apply, m_ensembleButton, m_applyEnsemble, m_compare, m_accept, m_reject}) {
        actions->addWidget(b);
        if (b == m_ensembleButton)
            actions->addWidget(m_ensembleSize);
    }
    actions->addStretch(1);

    auto *top = new QHBoxLayout;
    top->addLayout(weights, 1);
    top->addWidget(m_families, 1);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->setSpacing(3);
    layout->addLayout(top);
    layout->addLayout(runRow);
    layout->addWidget(m_progress);
    layout->addWidget(m_workerReadout);
    layout->addWidget(split, 1);
    layout->addLayout(actions);
    layout->addWidget(m_status);

    connect(m_runRound, &QPushButton::clicked, this, [this] { runRounds(1); });
    connect(m_workers, &QSpinBox::valueChanged, this, [this](int n) { m_controller->setWorkers(n); });
    connect(m_autoSteer, &QPushButton::clicked, this, [this] { runRounds(m_autoRounds->value()); });
    connect(m_cancel, &QPushButton::clicked, m_controller, &SteeringController::cancel);
    connect(m_apply, &QPushButton::clicked, this, &SteeringPanel::applySelected);
    connect(m_ensembleButton, &QPushButton::clicked, this, &SteeringPanel::formEnsemble);
    connect(m_applyEnsemble, &QPushButton::clicked, this, &SteeringPanel::applyEnsemble);
    connect(m_compare, &QPushButton::clicked, this, &SteeringPanel::compareSelected);
    connect(m_accept, &QPushButton::clicked, this, [this] { setVerdict(m_selection, true); });
    connect(m_reject, &QPushButton::clicked, this, [this] { setVerdict(m_selection, false); });
    connect(m_disagree, &QPushButton::clicked, this, &SteeringPanel::showDisagreement);
    connect(m_map, &ModelMapView::selectionChangedByUser, this, &SteeringPanel::brushCandidates);
    connect(m_table, &RankingTable::selectionChangedByUser, this, &SteeringPanel::brushCandidates);
    connect(m_controller, &SteeringController::changed, this, &SteeringPanel::refresh);
    connect(m_controller, &SteeringController::progress, this, [this](double f, const QString &text) {
        m_progress->setValue(static_cast<int>(1000 * f));
        m_status->setText(text);
    });
    connect(m_controller, &SteeringController::finished, this, [this] {
        setRunning(false);
        m_progress->setValue(0);
        m_workerReadout->setText(m_controller->workerReadout());
        m_workerReadout->setVisible(!m_workerReadout->text().isEmpty());
    });
    for (auto signal : {&SteeringController::failed, &SteeringController::noted})
        connect(m_controller, signal, this, [this](const QString &m) { Q_EMIT log(tr("Steering: %1").arg(m)); });
    m_workerReadout->setVisible(false);
    setRunning(false);
    refresh();
}

void SteeringPanel::setProblem(std::shared_ptr<const Graph> graph, std::shared_ptr<const Cluster> cluster,
                               bool undoable)
{
    // The document shares one copy per change of its cluster: another copy is another cluster, a
    // link edited included (compared by devices alone, steering went on with the old links).
    if (graph == m_graph && cluster == m_cluster)
        return;
    constexpr size_t kSetAside = 4;
    if (graph != m_graph || !undoable) {
        m_setAside.clear(); // the undo stack was cleared: no undo brings them back
    } else if (auto last = m_controller->logSnapshot(); last && !last->candidates.empty()) {
        // (as of its last round's end, if one runs now)
        m_setAside.push_back({m_cluster, last});
        if (m_setAside.size() > kSetAside)
            m_setAside.erase(m_setAside.begin());
        Q_EMIT log(tr("Steering: the cluster changed, so a new session begins; the %n candidate(s) of the "
                      "last one are set aside (undo the change to have them back)",
                      nullptr, static_cast<int>(last->candidates.size())));
    }
    m_graph = graph;
    m_cluster = cluster;
    m_selection.clear();
    const auto back =
        std::find_if(m_setAside.begin(), m_setAside.end(), [&](const SetAside &a) { return a.cluster == cluster; });
    SteeringSettings settings;
    settings.threads = std::max(1, QThread::idealThreadCount());
    settings.searches = settings.threads; // a search per core each round
    try {
        if (back != m_setAside.end()) {
            const std::shared_ptr<const SteeringLogDoc> kept = back->log;
            m_setAside.erase(back);
            m_controller->restore(graph, cluster, *kept);
            Q_EMIT log(tr("Steering: the session of this cluster is back (%n candidate(s))", nullptr,
                          static_cast<int>(kept->candidates.size())));
            refresh();
            return;
        }
        m_controller->reset(graph, cluster, settings);
    } catch (const InputError &e) {
        Q_EMIT log(tr("Steering is unavailable: %1").arg(QString::fromUtf8(e.what())));
    }
    // A new session starts from the default weights.
    for (int i = 0; i < kWeights; ++i) {
        m_weights[i] = Objective{}.*weightMember(i);
        const QSignalBlocker block(m_sliders[i]);
        m_sliders[i]->setValue(static_cast<int>(100 * m_weights[i]));
        m_sliderLabels[i]->setText(QString::number(m_weights[i], 'f', 2));
    }
    refresh();
}

void SteeringPanel::push(const SteeringFeedback &forward, const SteeringFeedback &backward, const QString &text)
{
    if (!m_controller->hasSession())
        return;
    try {
        m_undo->push(new SteeringFeedbackCommand(m_controller, forward, backward, text));
    } catch (const InputError &e) {
        Q_EMIT log(tr("Steering: %1").arg(QString::fromUtf8(e.what())));
    }
}

void SteeringPanel::weightSliderMoved(int i)
{
    const double value = m_sliders[i]->value() / 100.0;
    if (value != m_weights[i])
        setWeight(i, value);
}

void SteeringPanel::setWeight(int i, double value)
{
    Objective before, after;
    for (int w = 0; w < kWeights; ++w)
        before.*weightMember(w) = after.*weightMember(w) = m_weights[w];
    after.*weightMember(i) = value;
    if (!after.weighsPlacement()) {
        // Every candidate would score the same: refuse, and put the slider back.
        const QSignalBlocker block(m_sliders[i]);
        m_sliders[i]->setValue(static_cast<int>(std::lround(100 * m_weights[i])));
        m_sliderLabels[i]->setText(QString::number(m_weights[i], 'f', 2));
        m_status->setText(tr("At least one of makespan, bytes, memory and balance must weigh more than 0."));
        return;
    }
    SteeringFeedback forward, backward;
    forward.setWeights = backward.setWeights = true;
    forward.weights = after;
    backward.weights = before;
    push(forward, backward, tr("Steering weight %1 = %2").arg(kWeightNames[i]).arg(value));
}

void SteeringPanel::setFamilyWeight(const std::string &family, double weight)
{
    const SteeringSession *s = m_controller->session();
    if (!s)
        return;
    double old = 1;
    for (const auto &[name, w] : s->arms())
        if (name == family)
            old = w;
    SteeringFeedback forward, backward;
    forward.familyWeights = {{family, weight}};
    backward.familyWeights = {{family, old}};
    push(forward, backward,
         weight > 0 ? tr("Weight of %1 = %2").arg(QString::fromStdString(family)).arg(weight)
                    : tr("Exclude %1").arg(QString::fromStdString(family)));
}

void SteeringPanel::preferDevice(const std::vector<int> &nodes, int device)
{
    const SteeringSession *s = m_controller->session();
    if (!s || nodes.empty())
        return;
    SteeringFeedback forward, backward;
    for (int v : nodes) {
        int old = -1;
        for (const auto &[u, d] : s->objective().preferences.preferDevice)
            if (u == v)
                old = d;
        forward.prefer.emplace_back(v, device);
        backward.prefer.emplace_back(v, old);
    }
    push(forward, backward,
         tr("Prefer %1 for %n op(s)", nullptr, static_cast<int>(nodes.size()))
             .arg(QString::fromStdString(m_controller->cluster().device(device).name)));
}

void SteeringPanel::keepTogether(const std::vector<int> &nodes)
{
    if (nodes.size() < 2)
        return;
    SteeringFeedback forward, backward;
    forward.together = {nodes};
    backward.dropTogether = 1;
    push(forward, backward, tr("Keep %n op(s) together", nullptr, static_cast<int>(nodes.size())));
}

void SteeringPanel::markImportant(const std::vector<int> &nodes)
{
    const SteeringSession *s = m_controller->session();
    if (!s || nodes.empty())
        return;
    SteeringFeedback forward, backward;
    const ImportanceWeights weights(s->objective().preferences.important);
    for (int v : nodes)
        if (!weights.important(v)) {
            forward.important.push_back(v);
            backward.unimportant.push_back(v);
        }
    if (!forward.important.empty())
        push(forward, backward, tr("Mark %n op(s) as important", nullptr, static_cast<int>(forward.important.size())));
}

void SteeringPanel::setVerdict(const std::vector<int> &ids, bool accept)
{
    const SteeringSession *s = m_controller->session();
    if (!s || ids.empty())
        return;
    SteeringFeedback forward, backward;
    (accept ? forward.accept : forward.reject) = ids;
    for (int id : ids) {
        const Candidate::Verdict v = s->candidate(id).verdict;
        if (v == Candidate::Verdict::Accepted)
            backward.accept.push_back(id);
        else if (v == Candidate::Verdict::Rejected)
            backward.reject.push_back(id);
        else
            backward.clearVerdict.push_back(id);
    }
    push(forward, backward,
         (accept ? tr("Accept %n candidate(s)", nullptr, static_cast<int>(ids.size()))
                 : tr("Reject %n candidate(s)", nullptr, static_cast<int>(ids.size()))));
}

void SteeringPanel::runRounds(int rounds)
{
    if (!m_controller->hasSession() || m_controller->running())
        return;
    m_controller->syncPins(m_pins);
    setRunning(true);
    m_controller->runRounds(rounds, m_perRound->value(), m_evaluations->value());
}

void SteeringPanel::formEnsemble()
{
    const SteeringSession *s = m_controller->session();
    if (!s || s->ranking().empty())
        return;
    setRunning(true);
    m_controller->formEnsemble(m_ensembleSize->value(), std::max(100, m_evaluations->value() / 2));
}

void SteeringPanel::applySelected()
{
    const SteeringSession *s = m_controller->session();
    if (!s || m_selection.empty())
        return;
    const Candidate &c = s->candidate(m_selection.front());
    Q_EMIT applyRequested(c.devices, QStringLiteral("steering #%1 %2").arg(c.id).arg(QString::fromStdString(c.arm)));
}

void SteeringPanel::applyEnsemble()
{
    if (m_controller->running() || !m_controller->ensemble())
        return;
    Q_EMIT applyRequested(m_controller->ensemble()->devices, tr("steering ensemble"));
}

void SteeringPanel::compareSelected()
{
    const SteeringSession *s = m_controller->session();
    if (!s || m_selection.size() < 2)
        return;
    const Candidate &a = s->candidate(m_selection[0]), &b = s->candidate(m_selection[1]);
    std::vector<int> differ;
    for (size_t v = 0; v < a.devices.size(); ++v)
        if (a.devices[v] != b.devices[v])
            differ.push_back(static_cast<int>(v));
    // Both timelines, the ops they place differently selected in each.
    Simulator sim(*m_controller->graph(), m_controller->cluster());
    const Candidate *pair[2] = {&a, &b};
    for (int i = 0; i < 2; ++i) {
        auto schedule = std::make_shared<Schedule>(sim.simulate(pair[i]->devices));
        m_compareTimelines[i]->setData(m_controller->graph(), m_controller->cluster(), schedule, pair[i]->devices);
        m_compareTimelines[i]->setSelection(differ);
        m_compareTimelines[i]->fit();
        m_compareLabels[i]->setText(tr("#%1 %2: %3 (%4× bound)")
                                        .arg(pair[i]->id)
                                        .arg(QString::fromStdString(pair[i]->arm))
                                        .arg(formatSeconds(schedule->makespan))
                                        .arg(schedule->ratio(), 0, 'f', 3));
    }
    m_tabs->setCurrentIndex(3);
    Q_EMIT opsHighlighted(differ, tr("#%1 (%2, %3) and #%4 (%5, %6) place %7 op(s) differently")
                                      .arg(a.id)
                                      .arg(QString::fromStdString(a.arm))
                                      .arg(formatSeconds(a.terms.makespan))
                                      .arg(b.id)
                                      .arg(QString::fromStdString(b.arm))
                                      .arg(formatSeconds(b.terms.makespan))
                                      .arg(differ.size()));
}

void SteeringPanel::showDisagreement()
{
    const SteeringSession *s = m_controller->session();
    if (!s)
        return;
    const std::vector<int> ranked = s->ranking();
    if (ranked.size() < 2)
        return;
    const std::vector<int> &best = s->candidate(ranked.front()).devices;
    std::vector<int> count(best.size(), 0);
    const size_t top = std::min<size_t>(5, ranked.size());
    for (size_t i = 1; i < top; ++i) {
        const std::vector<int> aligned = alignDevices(m_controller->cluster(), best, s->candidate(ranked[i]).devices);
        for (size_t v = 0; v < best.size(); ++v)
            count[v] += aligned[v] != best[v];
    }
    std::vector<int> nodes;
    for (size_t v = 0; v < count.size(); ++v)
        if (count[v] > 0)
            nodes.push_back(static_cast<int>(v));
    Q_EMIT opsHighlighted(
        nodes, tr("%n op(s) where the top %1 candidates disagree", nullptr, static_cast<int>(nodes.size())).arg(top));
}

void SteeringPanel::selectCandidates(const std::vector<int> &ids)
{
    m_selection = ids;
    m_map->setSelection(ids);
    m_table->setSelectedIds(ids);
    m_apply->setEnabled(!ids.empty() && !m_controller->running());
    m_compare->setEnabled(ids.size() >= 2 && !m_controller->running());
}

void SteeringPanel::brushCandidates(const std::vector<int> &ids)
{
    selectCandidates(ids);
    const SteeringSession *s = m_controller->session();
    if (!s || ids.size() != 1)
        return;
    const Candidate &c = s->candidate(ids.front());
    std::vector<int> moved;
    for (size_t v = 0; v < c.devices.size() && v < m_placement.size(); ++v)
        if (c.devices[v] != m_placement[v])
            moved.push_back(static_cast<int>(v));
    Q_EMIT opsHighlighted(moved, tr("Candidate #%1 (%2): %3, %4× bound; applying it moves %n op(s)", nullptr,
                                    static_cast<int>(moved.size()))
                                     .arg(c.id)
                                     .arg(QString::fromStdString(c.arm))
                                     .arg(formatSeconds(c.terms.makespan))
                                     .arg(c.terms.bound > 0 ? c.terms.makespan / c.terms.bound : 0, 0, 'f', 3));
}

void SteeringPanel::setRunning(bool running)
{
    for (QPushButton *b : {m_runRound, m_autoSteer, m_ensembleButton, m_applyEnsemble, m_accept, m_reject})
        b->setEnabled(!running && m_controller->hasSession());
    m_cancel->setEnabled(running);
    m_apply->setEnabled(!running && !m_selection.empty());
    m_compare->setEnabled(!running && m_selection.size() >= 2);
    m_applyEnsemble->setEnabled(!running && m_controller->ensemble().has_value());
}

QString SteeringPanel::statusText() const
{
    return m_status->text();
}

QString SteeringPanel::compareCaption() const
{
    return m_compareLabels[0]->text() + " | " + m_compareLabels[1]->text();
}

void SteeringPanel::refresh()
{
    const SteeringSession *s = m_controller->session();
    if (!s) {
        if (!m_controller->running()) {
            m_map->setCandidates({}, {}, -1);
            m_table->setRows({}, {});
            m_agreement->setMatrix({}, {});
            m_status->setText(m_controller->hasSession() ? QString() : tr("Open a graph and a cluster to steer."));
        }
        return;
    }
    m_refreshing = true;
    for (int i = 0; i < kWeights; ++i) {
        m_weights[i] = s->objective().*weightMember(i);
        const QSignalBlocker block(m_sliders[i]);
        m_sliders[i]->setValue(static_cast<int>(std::lround(100 * m_weights[i])));
        m_sliderLabels[i]->setText(QString::number(m_weights[i], 'f', 2));
    }
    const std::vector<int> ranked = s->ranking();
    std::vector<CandidateInfo> rows; // without the placements (232 KB each on the 58k-op GNMT)
    std::vector<double> agreement;
    for (int id : ranked) {
        rows.push_back(s->candidate(id));
        agreement.push_back(s->agreement(s->candidate(id).devices));
    }
    std::vector<std::string> families;
    for (const auto &arm : s->arms())
        families.push_back(arm.first);
    m_map->setFamilies(families);
    m_table->setRows(rows, agreement);
    m_map->setCandidates(std::move(rows), agreement, ranked.empty() ? -1 : ranked.front());
    // Agreement of the top eight.
    const size_t top = std::min<size_t>(8, ranked.size());
    std::vector<std::vector<double>> matrix(top, std::vector<double>(top, 1.0));
    std::vector<QString> labels;
    for (size_t i = 0; i < top; ++i) {
        labels.push_back(QStringLiteral("#%1").arg(ranked[i]));
        for (size_t j = i + 1; j < top; ++j)
            matrix[i][j] = matrix[j][i] =
                similarity(m_controller->cluster(), s->candidate(ranked[i]).devices, s->candidate(ranked[j]).devices);
    }
    m_agreement->setMatrix(matrix, labels);
    refreshFamilies();
    // Parameter chart: families with something to tune.
    const QString family = m_paramFamily->currentText();
    m_paramFamily->clear();
    for (const auto &[name, w] : s->arms())
        if (s->space(name).dimension() > 0)
            m_paramFamily->addItem(QString::fromStdString(name));
    m_refreshing = false;
    const int keep = m_paramFamily->findText(family);
    m_paramFamily->setCurrentIndex(keep >= 0 ? keep : 0);
    if (keep >= 0 || m_paramName->count() == 0)
        Q_EMIT m_paramFamily->currentIndexChanged(m_paramFamily->currentIndex());
    selectCandidates(m_selection);

    QString text = tr("%n round(s), ", nullptr, static_cast<int>(s->rounds().size())) +
                   tr("%n candidate(s), ", nullptr, static_cast<int>(ranked.size())) +
                   tr("%1 simulator runs").arg(s->evaluationsSpent());
    if (!ranked.empty()) {
        const Candidate &b = s->candidate(ranked.front());
        text += tr("; best #%1 %2: %3 (%4× bound), score %5, agreement %6%")
                    .arg(b.id)
                    .arg(QString::fromStdString(b.arm))
                    .arg(formatSeconds(b.terms.makespan))
                    .arg(b.terms.bound > 0 ? b.terms.makespan / b.terms.bound : 0, 0, 'f', 3)
                    .arg(formatSeconds(b.score))
                    .arg(std::lround(100 * s->agreement(b.devices)));
    }
    if (const auto &e = m_controller->ensemble())
        text += tr("; ensemble of %1: %2").arg(e->members.size()).arg(formatSeconds(e->terms.makespan));
    // A round of probes alone (each family once, as the first round on most graphs) spends a
    // few runs of its budget: say so, or a person who ran one round sees 34 of 2,000 spent.
    if (!s->rounds().empty()) {
        const RoundRecord &last = s->rounds().back();
        const bool searched = std::any_of(last.candidates.begin(), last.candidates.end(),
                                          [&](int id) { return s->candidate(id).refines >= 0; });
        if (!searched && last.budget > 0 && 2 * last.evaluations < last.budget)
            text += tr("; round %1 probed each family once (%2 of its %3 runs); searches come next")
                        .arg(last.round)
                        .arg(last.evaluations)
                        .arg(last.budget);
        // Families whose runs failed in the last round, with the first reason (the log keeps each
        // one): steering stops proposing a family that failed twice and never ran.
        std::vector<std::string> failedArms;
        for (int id : last.candidates) {
            const Candidate &c = s->candidate(id);
            if (!c.error.empty() && std::find(failedArms.begin(), failedArms.end(), c.arm) == failedArms.end())
                failedArms.push_back(c.arm);
        }
        for (const std::string &arm : failedArms) {
            const ArmFailures f = armFailures(s->candidates(), arm);
            const QString reason = QString::fromStdString(f.firstReason);
            text += tr("; %1 failed %2 of %3 runs: %4")
                        .arg(QString::fromStdString(arm))
                        .arg(f.failed)
                        .arg(f.runs)
                        .arg(reason.size() > 160 ? reason.left(157) + "..." : reason);
        }
    }
    m_status->setText(text);
    setRunning(m_controller->running());
}

void SteeringPanel::refreshFamilies()
{
    const SteeringSession *s = m_controller->session();
    const auto arms = s->arms();
    m_families->setRowCount(static_cast<int>(arms.size()));
    for (int r = 0; r < static_cast<int>(arms.size()); ++r) {
        auto *name = new QTableWidgetItem(QString::fromStdString(arms[r].first));
        name->setFlags(name->flags() & ~Qt::ItemIsEditable);
        m_families->setItem(r, 0, name);
        auto *spin = qobject_cast<QDoubleSpinBox *>(m_families->cellWidget(r, 1));
        if (!spin) {
            spin = new QDoubleSpinBox;
            spin->setRange(0, 10);
            spin->setSingleStep(0.5);
            spin->setFrame(false);
            m_families->setCellWidget(r, 1, spin);
            connect(spin, &QDoubleSpinBox::editingFinished, this, [this, spin, r] {
                if (r < m_families->rowCount())
                    setFamilyWeight(m_families->item(r, 0)->text().toStdString(), spin->value());
            });
        }
        const QSignalBlocker block(spin);
        spin->setValue(arms[r].second);
    }
}

void SteeringPanel::refreshParamChart()
{
    const SteeringSession *s = m_controller->session();
    if (!s || m_paramFamily->count() == 0 || m_paramName->currentIndex() < 0) {
        m_paramChart->setData({}, {}, {}, {});
        return;
    }
    const std::string arm = m_paramFamily->currentText().toStdString();
    const int p = m_paramName->currentIndex();
    // The predictor's own observations, so that the points and its estimate share one measure
    // (the points were each candidate's score over the best, the curve a refiner's over its start,
    // and a configuration whose placement repeated an earlier one's was left out).
    const std::vector<ConfigObservation> observed = s->armObservations(arm);
    std::vector<ParamScoreView::Point> points;
    const ConfigObservation *armBest = nullptr; // its configuration
    for (const ConfigObservation &o : observed) {
        if (p >= static_cast<int>(o.x.size()))
            continue;
        points.push_back({o.x[p], o.value});
        if (!armBest || o.value < armBest->value)
            armBest = &o;
    }
    std::vector<ParamScoreView::Point> curve;
    std::vector<double> band;
    if (armBest) {
        std::vector<double> x = armBest->x;
        for (int i = 0; i <= 24; ++i) {
            x[p] = i / 24.0;
            const ConfigEstimate e = s->estimate(arm, x);
            curve.push_back({x[p], e.predicted});
            band.push_back(e.uncertainty);
        }
    }
    const HyperParam &h = s->space(arm).params()[p];
    m_paramChart->setData(QStringLiteral("%1 (%2 .. %3%4)")
                              .arg(QString::fromStdString(h.name))
                              .arg(h.min)
                              .arg(h.max)
                              .arg(h.tuning == HyperParam::Tuning::Log ? tr(", log") : QString()),
                          points, curve, band,
                          s->armRefines(arm) ? tr("log(score / its start's)") : tr("log(score / best)"));
}

} // namespace ps
