#pragma once
// The steering engine (BEAMES for placement): many models at once instead of one tuned by hand.
// Each round proposes a batch of candidates across model families ("arms"): an arm's share of
// the round follows the best score it has reached under the current objective, a quarter goes to
// exploration, and the person may weight or exclude arms. Within an arm, hyperparameters come
// from ConfigSearch (predictor + region estimate). Local search refines the best candidates so
// far; learned families are expensive arms: the placers the simulator judges (gdp, giph,
// rl-seq2seq) join once the best lineages were searched, with a quarter of what the session has
// left (half after placing in the top three), later runs going on from their best placement and
// the policy that made it; the others' training iterations grow the same way. Candidates are
// evaluated in parallel, identical placements are found by hash, and every candidate is kept with
// its objective terms, so a change of weights re-ranks them without a simulator run. Feedback
// (weights, pins, preferences, accept/reject) is recorded with the round it preceded: the same
// settings and feedback reproduce the same candidates.
#include "core/family/ModelFamily.h"
#include "core/placement/Constraints.h"
#include "core/steering/ConfigSearch.h"
#include "core/steering/ParamSpace.h"
#include "core/steering/SteeringTypes.h"

#include <memory>
#include <random>
#include <string>
#include <vector>

namespace ps {

class Graph;
class Cluster;
class PlacerRegistry;
class CandidateRunner;
class PolicyStore;
struct SteeringLogDoc;

class SteeringSession
{
public:
    SteeringSession(const Graph &graph, const Cluster &cluster, const PlacerRegistry &registry,
                    SteeringSettings settings);
    ~SteeringSession();

    // Takes effect at once (re-ranking) and is recorded for the next round. InputError on a node,
    // device, family or candidate that does not exist.
    void apply(const SteeringFeedback &feedback);
    // Proposes, evaluates and records one round; returns the new candidates' ids. Honours the
    // control's cancel flag (candidates not yet run are dropped) and reports progress per candidate.
    std::vector<int> runRound(const RunControl &control);
    // The proposals the next round would evaluate (for previews and tests); nothing is run.
    std::vector<Candidate> propose() const;
    // Runs one candidate here under the session's constraints and objective, refining the
    // placement of the candidate it names: fills its placement, terms, score, evaluations and
    // wall time, or its error. The run's own progress goes to the control's callback.
    void runCandidate(Candidate &c, const RunControl &control) const;
    // Rounds run their candidates through `runner` (e.g. worker processes) instead of this
    // session's threads; null: back to the threads. The runner must outlive its use.
    void setRunner(CandidateRunner *runner) { m_runner = runner; }
    // Where learned candidates keep their policies for later candidates of their arm to continue
    // (PolicyStore): a private temporary directory, or `dir` where it exists (a worker uses the
    // steer process's, from the round's state).
    void borrowPolicies(const std::string &dir);
    std::string policyDir() const;

    // Usable candidates, best first: feasible before infeasible, then by score, then by id.
    std::vector<int> ranking() const;
    const Candidate &candidate(int id) const { return m_candidates.at(static_cast<size_t>(id)); }
    const std::vector<Candidate> &candidates() const { return m_candidates; }
    const std::vector<RoundRecord> &rounds() const { return m_rounds; }
    // Feedback given since the last round (it will be recorded with the next one).
    const std::vector<SteeringFeedback> &pendingFeedback() const { return m_pending; }
    // Takes a logged session back: its candidates, rounds and feedback (re-applied in order,
    // without running anything). InputError when the log does not fit this graph and cluster.
    void restore(const SteeringLogDoc &doc, const Graph &graph, const Cluster &cluster);
    const SteeringSettings &settings() const { return m_settings; }
    // The next round's budget, and what the whole session has left (this round's included; -1:
    // open-ended, as in the app). A learned arm's run takes a share of what is left (a round's
    // share is too short for it to learn), so a session with a total passes it.
    void setRoundEvaluations(long long evaluations, long long left = -1)
    {
        m_settings.roundEvaluations = evaluations;
        m_left = left;
    }
    // The next round's budget out of what a session with a total has `left`: an even share for each
    // of the `roundsLeft` rounds still to come (this one included). False, and nothing set, when
    // nothing is left: a round costs at least one run.
    bool shareLeft(long long left, int roundsLeft)
    {
        if (left <= 0)
            return false;
        setRoundEvaluations(std::max(1LL, left / std::max(1, roundsLeft)), left);
        return true;
    }
    // Whether the best candidate fits and meets the score floor under the current objective
    // (meetsScoreFloor): no later candidate can score lower, so rounds run in a row (the CLI's,
    // Auto-steer's) stop there unless feedback is still to come.
    bool bestMeetsFloor() const;
    // What such a stop says.
    static std::string floorNote(int roundsRun, int rounds)
    {
        return "the best candidate meets the lower bound after " + std::to_string(roundsRun) + " of " +
               std::to_string(rounds) + " rounds: no placement can score lower, so the rest were not run";
    }
    // What a session with a total says when shareLeft() ended its rounds early.
    static std::string spentNote(long long total, int roundsRun, int rounds)
    {
        return "the budget of " + std::to_string(total) + " simulator runs was spent after " +
               std::to_string(roundsRun) + " of " + std::to_string(rounds) + " rounds";
    }
    void setPerRound(int perRound) { m_settings.perRound = perRound; }
    const Objective &objective() const { return m_objective; }
    const Constraints &constraints() const { return m_constraints; }
    // graphContentHash of the session's graph, taken once (7 ms on the 58k-op GNMT, which every
    // log of the session, autosaves included, would pay again).
    const std::string &graphHash() const { return m_graphHash; }
    const std::vector<int> &personPins() const { return m_personPins; } // device per node, -1 none
    // Arms and the person's weight on each (0: excluded).
    std::vector<std::pair<std::string, double>> arms() const;

    // Share (0..1) of the person's pins and preferences the placement honours (important ops
    // weigh more); 1 when there are none.
    double agreement(const std::vector<int> &devices) const;
    // Re-ranking after feedback spends none: it reuses the kept terms.
    long long evaluationsSpent() const { return m_evaluations; }

    // The predictor's view of one arm: each evaluated candidate's coordinates and value (those
    // whose placement repeated an earlier one's at its score), and the estimate at given points.
    // Lower is better: the log of the score over the best score, a refiner's over its start's
    // (armRefines). InputError for an arm the session does not have.
    std::vector<ConfigObservation> armObservations(const std::string &arm) const;
    bool armRefines(const std::string &arm) const;
    ConfigEstimate estimate(const std::string &arm, const std::vector<double> &x) const;
    const ParamSpace &space(const std::string &arm) const;

    // A consensus of the top `size` candidates: a weighted per-op vote (device labels of equal
    // devices aligned to the best member first), repaired for pins, groups and memory, then
    // refined by local search with `evaluations` simulator runs. Counted in evaluationsSpent().
    EnsembleResult ensemble(int size, long long evaluations, const RunControl &control);

private:
    struct Arm;
    std::vector<Candidate> proposeRound(int round) const;
    void evaluate(std::vector<Candidate> &batch, const RunControl &control) const;
    // Applies checked feedback; true when it changes what a placement's terms depend on (pins,
    // preferences, important ops) rather than only weights and verdicts.
    bool applyFeedback(const SteeringFeedback &feedback);
    // Every candidate's score under the current objective; `terms`: also the terms that depend on
    // pins and preferences (feasibility, preference penalty, important path), which read every op.
    void rescore(bool terms);
    double armShare(const Arm &arm, double bestScore) const;
    // The base a refiner starts from (`batch`: the round's proposals so far); *screening: it is
    // the first search of one of the three best lineages.
    int chooseBase(std::mt19937_64 &rng, const std::vector<Candidate> &batch, bool *screening = nullptr) const;
    // The start of the lineage a candidate belongs to (following `refines`).
    int lineageRoot(int id) const;
    // For a base whose search already came back unchanged: the best usable candidate of another
    // lineage not yet recombined with it (this round's batch included); -1 when there is none.
    int choosePartner(int base, const std::vector<Candidate> &batch) const;
    // The arm's best evaluated hyperparameters (its defaults before any).
    std::vector<double> bestConfig(const Arm &arm) const;
    std::vector<ConfigObservation> observations(const Arm &arm) const;
    std::vector<std::vector<double>> rejectedPoints(const Arm &arm) const;
    const Arm *findArm(const std::string &name) const;  // null when the session has no such arm
    const Arm &armNamed(const std::string &name) const; // InputError naming the arms it has

    const Graph &m_graph;
    std::string m_graphHash;
    const Cluster &m_cluster;
    const PlacerRegistry &m_registry;
    SteeringSettings m_settings;
    Constraints m_constraints;
    std::vector<int> m_personPins;
    Objective m_objective;
    std::vector<Arm> m_arms;
    std::vector<Candidate> m_candidates;
    std::vector<RoundRecord> m_rounds;
    std::vector<SteeringFeedback> m_pending; // feedback since the last round, in order
    long long m_evaluations = 0;
    long long m_left = -1; // see setRoundEvaluations
    CandidateRunner *m_runner = nullptr;
    std::unique_ptr<PolicyStore> m_policies;
};

} // namespace ps
