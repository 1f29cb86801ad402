#include "core/placers/NodePartition.h"

#include "core/family/Stopwatch.h"
#include "core/graph/Graph.h"
#include "core/graph/Subgraph.h"
#include "core/partitioners/Partitioner.h"

#include <chrono>

namespace ps {

namespace {

// The devices' shares summed: a node's share of the cluster.
double shareOf(const std::vector<double> &shares, const std::vector<int> &devices)
{
    double sum = 0;
    for (int d : devices)
        sum += shares[d];
    return sum;
}

// Each device's share within its node.
std::vector<double> sharesWithin(const std::vector<double> &shares, const std::vector<int> &devices)
{
    const double node = shareOf(shares, devices);
    std::vector<double> out;
    for (int d : devices)
        out.push_back(node > 0 ? shares[d] / node : 1.0 / static_cast<double>(devices.size()));
    return out;
}

} // namespace

Partition partitionOverNodes(const PartitionerRegistry &registry, const std::string &partitioner,
                             const PartitionProblem &problem, const std::vector<std::vector<int>> &nodes,
                             const std::vector<std::string> &params, const RunControl &control)
{
    const auto t0 = std::chrono::steady_clock::now();
    const Graph &g = problem.graph;
    const double tolerance = problem.imbalance; // at each level
    PartitionProblem top{g, static_cast<int>(nodes.size()), tolerance, {}, {}};
    for (const std::vector<int> &node : nodes)
        top.targetShares.push_back(shareOf(problem.targetShares, node));
    const Partition first = runPartitioner(registry, partitioner, top, params, control.reportingWithin(0, 0.5));
    std::vector<std::string> notes = first.notes;
    std::vector<std::vector<int>> opsOf(nodes.size());
    for (int v = 0; v < g.nodeCount(); ++v)
        opsOf[first.part(v)].push_back(v);

    std::vector<int> device(g.nodeCount(), -1);
    size_t done = 0;
    const double n = std::max(1, g.nodeCount());
    for (size_t i = 0; i < nodes.size(); ++i) {
        const std::vector<int> &devices = nodes[i], &ops = opsOf[i];
        const double from = 0.5 + 0.5 * static_cast<double>(done) / n;
        done += ops.size();
        if (devices.size() == 1 || ops.size() <= devices.size()) {
            for (size_t j = 0; j < ops.size(); ++j)
                device[ops[j]] = devices[j % devices.size()];
            continue;
        }
        const Graph inner = inducedSubgraph(g, ops);
        const PartitionProblem second{
            inner, static_cast<int>(devices.size()), tolerance, sharesWithin(problem.targetShares, devices), {}};
        const Partition split =
            runPartitioner(registry, partitioner, second, params,
                           control.after(secondsSince(t0)).reportingWithin(from, 0.5 + 0.5 * done / n));
        for (size_t j = 0; j < ops.size(); ++j)
            device[ops[j]] = devices[split.part(static_cast<int>(j))];
        for (const std::string &note : split.notes)
            notes.push_back("node " + std::to_string(i + 1) + ": " + note);
    }
    Partition out(problem.k, std::move(device));
    out.graphName = g.name();
    out.notes = std::move(notes);
    return out;
}

} // namespace ps
