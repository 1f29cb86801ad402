#pragma once
// What a placement is judged by: one weighted score in seconds over the simulator's report,
// equal to the makespan under the default weights (for a placement that fits in memory). The
// same score serves compositions, local search, the learners' reward and steering. Its raw
// terms are kept apart from the weights, so a change of weights re-ranks evaluated placements
// without simulating them again.
#include "core/sim/CostModel.h"

#include <string>
#include <utility>
#include <vector>

namespace ps {

class Graph;
class Cluster;
class Constraints;
struct Schedule;

// The person's soft wishes (steering feedback). Each broken wish costs a share of the bound.
struct Preferences
{
    std::vector<std::pair<int, int>> preferDevice; // (node, device)
    std::vector<std::vector<int>> together;        // nodes best kept on one device
    std::vector<int> important;                    // nodes that matter: their wishes weigh more, and
                                                   // the objective's critical-path term follows them
    static constexpr double kImportantWeight = 4;

    // How far a "together" group is split: the share of its members off its most common device
    // (0 together, 1 all apart; 0 for groups of fewer than two).
    static double splitShare(const std::vector<int> &group, const std::vector<int> &devices, int deviceCount);
};

// Preferences::important looked up in O(log n) for many nodes (a sorted copy): a linear search per
// node, once per wish or pin, was quadratic with tens of thousands of each.
class ImportanceWeights
{
public:
    explicit ImportanceWeights(const std::vector<int> &important);
    bool important(int v) const;
    double operator()(int v) const { return important(v) ? Preferences::kImportantWeight : 1; }

private:
    std::vector<int> m_sorted;
};

struct Objective
{
    double makespanWeight = 1;
    double bytesWeight = 0;      // moved bytes, in seconds at the mean inverse bandwidth
    double memoryWeight = 0;     // peak memory share of a device's capacity, times the bound
    double balanceWeight = 0;    // busy-time imbalance: the busiest device's minus the mean (s)
    double preferenceWeight = 1; // weighted share of broken preferences, times the bound
    double importantWeight = 1;  // the longest placed path through an important op (s); 0 without any
    Preferences preferences;

    // "makespan=1,bytes=0.2,memory=0,balance=0,preference=1,important=1": named weights, the rest
    // default.
    // Throws InputError on an unknown name, a negative or non-numeric weight, or weights that
    // weigh nothing (see weighsPlacement) unless `mayWeighNothing` (what a steering log recorded:
    // one written before that rule may hold such weights, and must still load).
    static Objective parse(const std::string &text, bool mayWeighNothing = false);
    std::string weightsText() const; // the same form
    // Whether makespan, bytes, memory or balance weighs more than 0; without one every placement
    // scores the same (preferences and important ops only refine those terms).
    bool weighsPlacement() const;
};

// The raw terms of one placement's score.
struct ObjectiveTerms
{
    double makespan = 0;       // s
    double overflowFactor = 1; // spec section 6's memory penalty factor (1 when memory fits)
    double communication = 0;  // moved bytes x mean inverse bandwidth (s)
    double movedBytes = 0;
    double peakMemoryShare = 0;   // max over devices of memory / capacity
    double imbalance = 0;         // max busy - mean busy (s)
    double preferencePenalty = 0; // weighted share of broken preferences, 0..1
    double importantPath = 0;     // s: the critical-path term (ObjectiveJudge::importantPath)
    double bound = 0;             // the makespan lower bound (s)
    bool feasible = true;         // memory fits, pins (the graph's and the person's) and groups hold
};

double objectiveScore(const Objective &objective, const ObjectiveTerms &terms);
// No placement scores below the makespan weight times the lower bound `bound` (spec section 7):
// every other term is at least 0. One that fits and scores that (within the bound's rounding) is
// optimal, and a search that reaches it has nothing left to find.
inline bool meetsScoreFloor(const Objective &objective, double bound, double score, bool feasible)
{
    return feasible && score <= objective.makespanWeight * bound * (1 + 1e-9);
}

// Computes terms for one graph and cluster: from a full schedule, or piece by piece for searches
// that update memory and busy time move by move.
class ObjectiveJudge
{
public:
    ObjectiveJudge(const Graph &graph, const Cluster &cluster, const Constraints &constraints,
                   const Objective &objective);

    ObjectiveTerms terms(const Schedule &schedule, const std::vector<int> &devices) const;
    // checkFeasible = false leaves `feasible` true (searches track memory themselves).
    ObjectiveTerms terms(double makespan, double movedBytes, const std::vector<double> &memory,
                         const std::vector<double> &busy, const std::vector<int> &devices,
                         bool checkFeasible = true) const;
    double score(const ObjectiveTerms &t) const { return objectiveScore(m_objective, t); }
    // Whether a placement that scores `score` is optimal (meetsScoreFloor).
    bool meetsFloor(double score, bool feasible) const
    {
        return meetsScoreFloor(m_objective, m_bound, score, feasible);
    }
    // What a search that stopped there says: "F: stopped after N simulator runs: ...".
    static std::string floorNote(const std::string &family, long long evaluations);
    // Busy time per device: the compute time of its ops, summed in node order.
    std::vector<double> busyTime(const std::vector<int> &devices) const;
    double computeTime(int v, int d) const;
    double preferencePenalty(const std::vector<int> &devices) const;
    // The critical-path term: the longest path through any important op when every op takes its
    // compute time on its device and every edge between devices its transfer time (latency +
    // bytes / bandwidth), without queueing or link contention. A function of the placement alone,
    // so a change of the important ops re-ranks evaluated placements without simulating them.
    // 0 when no op is important.
    double importantPath(const std::vector<int> &devices) const;

private:
    const Graph &m_graph;
    const Cluster &m_cluster;
    const Constraints &m_constraints;
    Objective m_objective;
    CostModel m_cost;
    double m_bound = 0, m_preferenceTotal = 0;
    std::vector<double> m_preferWeight; // per preferDevice entry
};

} // namespace ps
