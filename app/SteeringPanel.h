#pragma once
// The Steering dock: the person steers many models at once. Controls (objective weights,
// per-family weights, round size and budget, Run round / Auto-steer with progress and cancel),
// the model map, the ranking, the agreement of the top candidates, hyperparameters against
// score; apply a candidate or the ensemble, compare two, accept or reject. Every weight, family
// weight, preference and verdict is one undo command on the document's stack.
#include "core/cluster/Cluster.h"
#include "core/graph/Graph.h"

#include <QWidget>

#include <memory>
#include <string>
#include <vector>

class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QProgressBar;
class QPushButton;
class QSlider;
class QSpinBox;
class QTableWidget;
class QTabWidget;
class QUndoStack;

namespace ps {

class AgreementMatrixView;
class ModelMapView;
class ParamScoreView;
class RankingTable;
class SteeringController;
class TimelineView;
struct SteeringFeedback;
struct SteeringLogDoc;

class SteeringPanel : public QWidget
{
    Q_OBJECT
public:
    // The objective weights with a slider: makespan, bytes, memory, balance, important.
    static constexpr int kWeights = 5;

    SteeringPanel(SteeringController *controller, QUndoStack *undo, QWidget *parent = nullptr);

    // A new graph or cluster starts a new steering session; the same ones keep it. A session with
    // candidates that an edit of the cluster replaces (`undoable`: the cluster came from an edit
    // or a file opened with a graph placed, or their undo or redo) is set aside, and comes back
    // when that cluster does (the edit undone): a tweak of one link lost every candidate for good.
    // A new graph or a session clears the undo stack, and with it what was set aside.
    void setProblem(std::shared_ptr<const Graph> graph, std::shared_ptr<const Cluster> cluster, bool undoable = false);
    // The person's pins (device per node, -1 none): every later candidate honours them.
    void setPins(const std::vector<int> &pins) { m_pins = pins; }
    // The placement being edited: selecting one candidate selects, in the graph, the ops that
    // applying it would move.
    void setPlacement(const std::vector<int> &placement) { m_placement = placement; }

    // Feedback from the graph view's context menu; one undo step each.
    void preferDevice(const std::vector<int> &nodes, int device);
    void keepTogether(const std::vector<int> &nodes);
    void markImportant(const std::vector<int> &nodes);
    // weight: 0 makespan, 1 bytes, 2 memory, 3 balance.
    void setWeight(int weight, double value);
    void setFamilyWeight(const std::string &family, double weight);
    void setVerdict(const std::vector<int> &ids, bool accept);

    void runRounds(int rounds);
    void formEnsemble();
    void applySelected();
    void applyEnsemble();
    void compareSelected();
    void showDisagreement();
    void selectCandidates(const std::vector<int> &ids);
    // The same, as a person's click in the map or the table: also brushes the graph view.
    void brushCandidates(const std::vector<int> &ids);

    SteeringController *controller() const { return m_controller; }
    ModelMapView *modelMap() const { return m_map; }
    RankingTable *rankingTable() const { return m_table; }
    AgreementMatrixView *agreementMatrix() const { return m_agreement; }
    // The Compare tab: the two compared candidates' timelines, one above the other.
    TimelineView *compareTimeline(int which) const { return m_compareTimelines[which]; }
    QString compareCaption() const;
    std::vector<int> selection() const { return m_selection; }
    QString statusText() const;
    double weight(int i) const { return m_weights[i]; }

Q_SIGNALS:
    void applyRequested(const std::vector<int> &devices, const QString &what);
    // Ops to show in the graph view (what two candidates place differently, or disagreement).
    void opsHighlighted(const std::vector<int> &nodes, const QString &why);
    void log(const QString &text);

private:
    void refresh();
    void refreshFamilies();
    void refreshParamChart();
    void push(const SteeringFeedback &forward, const SteeringFeedback &backward, const QString &text);
    void weightSliderMoved(int weight);
    void setRunning(bool running);

    SteeringController *m_controller;
    QUndoStack *m_undo;
    std::shared_ptr<const Graph> m_graph;
    std::shared_ptr<const Cluster> m_cluster; // the document's, as last given
    struct SetAside
    {
        std::shared_ptr<const Cluster> cluster;
        std::shared_ptr<const SteeringLogDoc> log;
    };
    std::vector<SetAside> m_setAside; // of the current graph, the latest last (a few at most)
    std::vector<int> m_pins, m_placement;
    std::vector<int> m_selection;
    double m_weights[kWeights] = {};
    bool m_refreshing = false;

    QSlider *m_sliders[kWeights];
    QLabel *m_sliderLabels[kWeights];
    QTableWidget *m_families;
    QSpinBox *m_perRound, *m_autoRounds, *m_workers, *m_ensembleSize;
    QLabel *m_workerReadout;
    QSpinBox *m_evaluations;
    QPushButton *m_runRound, *m_autoSteer, *m_cancel, *m_apply, *m_ensembleButton, *m_applyEnsemble, *m_compare,
        *m_accept, *m_reject, *m_disagree;
    QProgressBar *m_progress;
    QLabel *m_status;
    QComboBox *m_xAxis, *m_yAxis, *m_paramFamily, *m_paramName;
    QLineEdit *m_filter;
    ModelMapView *m_map;
    RankingTable *m_table;
    AgreementMatrixView *m_agreement;
    ParamScoreView *m_paramChart;
    QTabWidget *m_tabs;
    TimelineView *m_compareTimelines[2];
    QLabel *m_compareLabels[2];
};

} // namespace ps
