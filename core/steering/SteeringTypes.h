#pragma once
// The plain data of a steering session: its settings, the person's feedback between rounds, and
// the candidates (a model family or composition with hyperparameters and a seed, perhaps refining
// an earlier candidate's placement) with what the simulator said of them.
#include "core/sim/Objective.h"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace ps {

// How a steering session draws hyperparameters. Guided: the predictor and region estimate, after
// the tuned defaults where a run is judged by its start. Uniform: uniformly instead of the
// predictor, the defaults still run where guided steering runs them. RandomSearch: every
// candidate's uniformly, the defaults unused. The last two are baselines for measuring the first.
enum class Sampling { Guided, Uniform, RandomSearch };

struct SteeringSettings
{
    static constexpr int kMaxPerRound = 256;   // the most candidates one round proposes
    static constexpr int kDefaultEnsemble = 5; // members of the consensus vote unless the person says
    static constexpr int kMaxEnsemble = 64;    // members of the consensus vote, at most

    uint64_t seed = 1;
    int perRound = 8;                  // candidates proposed per round (1 to kMaxPerRound)
    long long roundEvaluations = 2000; // simulator runs a round may spend (all candidates)
    std::vector<std::string> families; // arms; empty: every classical constructive family + local-search,
                                       // and the learned families with a weight of 0
    int threads = 1;                   // candidates evaluated at once
    // Local searches (and learned runs) a round holds at most; they share its budget. Part of what
    // steering proposes, so a log keeps it and a replay on other threads proposes the same (the
    // CLI and the app set it to their thread count unless told otherwise).
    int searches = 1;
    Sampling sampling = Sampling::Guided; // how each candidate's hyperparameters are drawn
    double exploration = 0.25;            // share of a round given to arms regardless of their scores
    // A search (and a learned run, and the ensemble) stops at the simulator runs it was given,
    // judgements included, and a round reserves for the other candidates what their family spent
    // before, so that a session spends no more than its budget. Logs written before this existed
    // read false, and replay as they ran (their searches went 1-2 runs over, a partitioner's 3).
    bool exactBudget = true;
};

// What the person says between two rounds. Nodes and devices are indices into the graph and the
// cluster; a device of -1 in `pins` removes the person's pin.
struct SteeringFeedback
{
    bool setWeights = false;
    Objective weights; // only its weights are read
    std::vector<std::pair<int, int>> pins;
    std::vector<std::pair<int, int>> prefer;
    std::vector<std::vector<int>> together;
    std::vector<int> important;
    std::vector<int> unimportant;                              // takes "important" back (undo)
    int dropTogether = 0;                                      // removes the last N "together" groups (undo)
    std::vector<std::pair<std::string, double>> familyWeights; // 0 excludes the family
    std::vector<int> accept, reject;                           // candidate ids
    std::vector<int> clearVerdict;                             // back to neither (undo)

    bool empty() const
    {
        return !setWeights && pins.empty() && prefer.empty() && together.empty() && important.empty() &&
               unimportant.empty() && dropTogether == 0 && familyWeights.empty() && accept.empty() && reject.empty() &&
               clearVerdict.empty();
    }
};

// A candidate without its placement: what the ranking and the model map show (a copy of one is
// small however large the graph).
struct CandidateInfo
{
    int id = 0;
    int round = 0;
    std::string arm;                 // the family (or "local-search" refining `refines`)
    std::string spec;                // what runPlacer ran
    std::vector<std::string> params; // "key=value"
    std::vector<double> x;           // the tunable parameters as unit coordinates
    uint64_t seed = 0;
    int refines = -1; // the candidate whose placement it started from
    // A second candidate recombined with `refines` before the search (Recombination.h), and the
    // simulator runs that recombination may spend; -1 and 0: none.
    int partner = -1;
    long long recombineEvaluations = 0;
    long long budget = 0; // simulator runs it may spend in all, judgements included (0: no cap)
    uint64_t hash = 0;    // of the placement
    int duplicateOf = -1; // an earlier candidate with the same placement
    ObjectiveTerms terms;
    double score = 0; // under the session's current objective
    long long evaluations = 0;
    double wallS = 0;
    bool continued = false;         // a learned run that went on from the policy `refines` kept (not a fresh one)
    std::vector<std::string> notes; // what the run said of its result (PlacerResult::notes)
    enum class Verdict { None, Accepted, Rejected } verdict = Verdict::None;
    std::string error; // why the run failed (then nothing else is set)
};

struct Candidate : CandidateInfo
{
    std::vector<int> devices; // the placement: a device per op

    bool usable() const { return error.empty() && duplicateOf < 0 && !devices.empty(); }
};

// An arm's runs among the kept candidates (a cancelled run is not kept): how many there were, how
// many failed, and the first failure's reason.
struct ArmFailures
{
    int runs = 0;
    int failed = 0;
    std::string firstReason;
};

// Counts `arm`'s runs and failures among `candidates` (steering's shares and the app's status both
// read it).
ArmFailures armFailures(const std::vector<Candidate> &candidates, const std::string &arm);

struct RoundRecord
{
    int round = 0;
    std::vector<SteeringFeedback> feedback; // applied before the round's proposals, in order
    std::vector<int> candidates;
    long long budget = 0;      // the simulator runs it was given
    long long left = -1;       // what the session had left then, this round's included (-1: open-ended)
    long long evaluations = 0; // and spent
};

// A consensus of the top candidates, repaired and refined.
struct EnsembleResult
{
    std::vector<int> members; // candidate ids, best first
    std::vector<int> devices;
    ObjectiveTerms terms;
    double score = 0;
    long long budget = 0;            // simulator runs its local search was given
    long long evaluations = 0;       // spent, the judgements included
    double agreementWithMembers = 0; // share of ops where the vote was unanimous
};

uint64_t placementHash(const std::vector<int> &devices);

} // namespace ps
