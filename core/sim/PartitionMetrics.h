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
PartitionMetrics partitionMetrics(const UndirectedGraph &view, const std::vector<int> &parts, int k);
PartitionMetrics partitionMetrics(const Graph &graph, const std::vector<int> &parts, int k);

} // namespace ps
