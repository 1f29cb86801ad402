#pragma once
// Spec section 8: edge cut, imbalance and normalized cut of a k-way partition.
#include <vector>

namespace ps {

class Graph;

struct PartitionMetrics
{
    double edgeCut = 0;
    double imbalance = 1;
    double normalizedCut = 0;
    std::vector<double> partWeights;
};

// The undirected, merged view of a graph that section 8 measures: node weights (flops, or 1
// each when all are 0) and merged edges (summed bytes, or 1 each when all are 0), in the order
// the spec's sums take them.
struct UndirectedGraph
{
    std::vector<double> nodeWeight;
    struct Edge
    {
        int u, v;
        double weight;
    };
    std::vector<Edge> edges;
};

UndirectedGraph undirectedView(const Graph &graph);
// The node weights balance is measured on: flops, or 1 each when all are 0.
std::vector<double> balanceWeights(const Graph &graph);

// A partition's imbalance (as partitionMetrics, without the edges) and the least any partition of
// the graph into k parts can have (at least 1): the heaviest node alone over an even part, or more
// where the nodes cannot be split evenly (5 equal ones in 2 parts: 3 share one, 1.2). `forcedBy`
// ops share the part that bound is of (1: the heaviest node alone).
struct ImbalanceCheck
{
    double imbalance = 1, lowest = 1;
    int heaviestNode = -1;
    int forcedBy = 1;
};
ImbalanceCheck checkImbalance(const Graph &graph, const std::vector<int> &parts, int k);
// The least imbalance any partition of the graph into k parts can have (checkImbalance's `lowest`).
double leastImbalance(const Graph &graph, int k);
PartitionMetrics partitionMetrics(const UndirectedGraph &view, const std::vector<int> &parts, int k);
PartitionMetrics partitionMetrics(const Graph &graph, const std::vector<int> &parts, int k);

} // namespace ps
