#pragma once
// A steering session on disk: its settings, each round's feedback (nodes and devices by name)
// and candidates (family, hyperparameters, seed, what it refined, objective terms, placement),
// and the ensemble if one was formed. The same file scripts a person's feedback for the CLI
// (`steer --feedback`), replays a session (`steer --replay`) and re-ranks it without simulating
// (`rank`).
#include "core/steering/SteeringTypes.h"

#include <string>
#include <utility>
#include <vector>

namespace ps {

class Graph;
class Cluster;
class SteeringSession;

// Feedback as written: node ids, device names, candidate ids as text ("best": the top candidate
// when the feedback is applied).
struct FeedbackText
{
    int round = 0;                                                 // the round it precedes (1: before the first)
    std::string objective;                                         // "bytes=0.5,..." (empty: unchanged)
    std::vector<std::pair<std::string, std::string>> pins, prefer; // node -> device ("" removes)
    std::vector<std::vector<std::string>> together;
    std::vector<std::string> important, unimportant;
    int dropTogether = 0;
    std::vector<std::pair<std::string, double>> familyWeights;
    std::vector<std::string> accept, reject, clearVerdict;
};

// A steering log as data: what a log file holds, read from one (parseSteeringLog) or copied out
// of a session (steeringLogDoc) and written as text on any thread (steeringLogJson) while the
// session goes on.
struct SteeringLogDoc
{
    std::string graphName, clusterName;
    std::string graphHash; // graphContentHash of the graph it was made on (empty in older logs)
    SteeringSettings settings;
    std::string objective;                // the final weights
    std::vector<std::string> deviceNames; // the cluster's, in order (placements index them)
    std::vector<FeedbackText> feedback;   // in the order given, each with its round
    std::vector<std::vector<int>> roundCandidates;
    std::vector<long long> roundBudgets;
    std::vector<long long> roundLeft;        // what the session had left at each round (-1: open-ended)
    std::vector<long long> roundEvaluations; // what each round spent
    long long evaluations = 0;               // the session's simulator runs
    std::vector<Candidate> candidates;
    std::vector<double> agreement; // each candidate's with the person's edits, as the log shows it
    std::vector<int> ranking;      // candidate ids, best first
    bool haveEnsemble = false;
    EnsembleResult ensemble;
    std::string policyDir; // a round's state for workers: where the session keeps learned policies
};

// Feedback files: a JSON array of feedback objects, each with "round". InputError on bad input.
std::vector<FeedbackText> readFeedbackFile(const std::string &path);
std::vector<FeedbackText> parseFeedback(const std::string &text, const std::string &source);
SteeringFeedback resolveFeedback(const FeedbackText &text, const Graph &graph, const Cluster &cluster,
                                 const SteeringSession &session, const std::string &source);

void writeSteeringLog(const std::string &path, const SteeringSession &session, const Graph &graph,
                      const Cluster &cluster, const EnsembleResult *ensemble);
// `policyDir` (a round's state for workers only) says where the session keeps learned policies.
std::string steeringLogJson(const SteeringSession &session, const Graph &graph, const Cluster &cluster,
                            const EnsembleResult *ensemble, const std::string &policyDir = {});
// The same in two steps: a copy of the session's log (no JSON; the candidates' placements are
// copied), then its text, which needs nothing but the copy.
SteeringLogDoc steeringLogDoc(const SteeringSession &session, const Graph &graph, const Cluster &cluster,
                              const EnsembleResult *ensemble, const std::string &policyDir = {});
std::string steeringLogJson(const SteeringLogDoc &doc);
SteeringLogDoc readSteeringLog(const std::string &path);
// A hash of what a placement's cost depends on (ids, ops, costs, compute overrides, edges, in file
// order), as hex: a replay checks that its graph is the log's (a model file read without the
// log's --batch replayed "differently" before, as if another version had written the log).
std::string graphContentHash(const Graph &graph);

// A candidate to run elsewhere (family, hyperparameters, seed, what it refines) and what the run
// gave back (placement, terms, score, evaluations, wall time, or the error), as JSON text that
// round-trips exactly. InputError on malformed text.
std::string candidateTaskJson(const Candidate &c);
Candidate candidateFromTask(const std::string &text);
std::string candidateResultJson(const Candidate &c);
void readCandidateResult(const std::string &text, Candidate &c);
SteeringLogDoc parseSteeringLog(const std::string &text, const std::string &source);

} // namespace ps
