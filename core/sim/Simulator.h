#pragma once
// The discrete-event simulator of spec section 5: the single judge of a placement everywhere.
// It keeps a workspace sized for its graph and cluster, so repeated calls allocate nothing;
// one Simulator per thread.
#include "core/sim/Schedule.h"

#include <limits>
#include <memory>
#include <vector>

namespace ps {

class Graph;
class Cluster;
class Placement;

class Simulator
{
public:
    Simulator(const Graph &graph, const Cluster &cluster);
    ~Simulator();
    Simulator(const Simulator &) = delete;
    Simulator &operator=(const Simulator &) = delete;

    // Makespan only; nothing is recorded and nothing allocated. With a cutoff the run returns
    // +infinity when some op would finish later than it, and stops as soon as that is sure: an op
    // finishes after it, or an op starts whose device's remaining work, or the chain of compute
    // after it, ends after it ("bounded re-simulation": local search rejects most moves long
    // before their schedule ends). Otherwise it returns the makespan, the same as without one.
    double makespan(const std::vector<int> &deviceOfNode, double cutoff = std::numeric_limits<double>::infinity());

    // Incremental evaluation of moves: a base placement is simulated once with snapshots of
    // its state; a placement that differs from it only in `changed` nodes then resumes from the
    // last snapshot taken before any changed node could matter (the first finish of one of
    // their predecessors) instead of from time 0. Same result as makespan(), bit for bit.
    // snapshots = 0 picks as many as fit in about 64 MB (at most 64). Returns the base's
    // makespan (lastMovedBytes() then holds its bytes): the base run is a judgement too.
    double setIncrementalBase(const std::vector<int> &deviceOfNode, int snapshots = 0);
    double makespanChanged(const std::vector<int> &deviceOfNode, const std::vector<int> &changed,
                           double cutoff = std::numeric_limits<double>::infinity());
    // Accepting a move: the placement of the last makespanChanged call, which must have run to
    // its end (no cutoff hit), becomes the base. Its snapshots are taken again from the one that
    // run resumed from, not from time 0: one run, which returns the base's makespan. The same
    // as setIncrementalBase(deviceOfNode) for every later result, for less work.
    double acceptChanged(const std::vector<int> &deviceOfNode, const std::vector<int> &changed);

    // Everything: per-op times, transfers, busy time, memory, feasibility, lower bound and
    // critical path. Throws InputError when a cost or result overflows a double.
    Schedule simulate(const Placement &placement);
    Schedule simulate(const std::vector<int> &deviceOfNode);

    // Simulator runs since construction (for budgets and progress reports).
    long long evaluations() const;
    // Bytes moved by the last completed makespan() run.
    double lastMovedBytes() const;

    const Graph &graph() const;
    const Cluster &cluster() const;

private:
    struct Impl;
    std::unique_ptr<Impl> m_impl;
};

// Spec section 7: the same for every placement, so computed once per graph and cluster.
LowerBound computeLowerBound(const Graph &graph, const Cluster &cluster);
// Spec section 6: memory per device (file order), then violations in the spec's order.
std::vector<double> memoryUsage(const Graph &graph, const Cluster &cluster, const std::vector<int> &deviceOfNode);
std::vector<std::string> constraintViolations(const Graph &graph, const Cluster &cluster,
                                              const std::vector<int> &deviceOfNode, const std::vector<double> &usage);
// Spec section 6: makespan x (1 + 10 x total overflow / total memory), for learners' rewards.
double penalizedMakespan(double makespan, const Cluster &cluster, const std::vector<double> &usage);

} // namespace ps
