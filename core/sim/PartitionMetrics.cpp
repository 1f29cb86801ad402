#include "core/sim/PartitionMetrics.h"

#include "core/graph/Graph.h"

#include <algorithm>
#include <numeric>
#include <unordered_map>

namespace ps {

std::vector<double> balanceWeights(const Graph &g)
{
    const int n = g.nodeCount();
    std::vector<double> weight(n);
    bool allZero = true;
    for (int v = 0; v < n; ++v) {
        weight[v] = g.flops(v);
        allZero = allZero && g.flops(v) == 0;
    }
    if (allZero)
        std::fill(weight.begin(), weight.end(), 1.0);
    return weight;
}

namespace {

// Each part's weight, summed in node order as section 8 takes its sums; returns the total.
double sumParts(const std::vector<double> &weight, const std::vector<int> &parts, int k,
                std::vector<double> &partWeight)
{
    partWeight.assign(k, 0.0);
    double total = 0.0;
    for (size_t v = 0; v < weight.size(); ++v) {
        partWeight[parts[v]] += weight[v];
        total += weight[v];
    }
    return total;
}

// Section 8's imbalance: the heaviest part over an even one (1 for an empty graph).
double imbalanceOf(const std::vector<double> &partWeight, double total, int k)
{
    return total > 0 ? *std::max_element(partWeight.begin(), partWeight.end()) / (total / k) : 1.0;
}

// The least imbalance any partition into k parts can have (at least 1). By pigeonhole: of the
// j*k + 1 heaviest nodes some part holds j + 1, so it weighs at least the j + 1 lightest of them;
// j = 0 is the heaviest node alone. `node` is the heaviest node (-1: none weighs) and `count` the
// j + 1 of the largest such bound (1: that node alone).
double leastShare(const std::vector<double> &weight, double total, int k, int &node, int &count)
{
    node = -1;
    count = 1;
    if (total <= 0)
        return 1.0;
    node = static_cast<int>(std::max_element(weight.begin(), weight.end()) - weight.begin());
    std::vector<double> sorted(weight);
    std::sort(sorted.begin(), sorted.end(), std::greater<>());
    std::vector<double> prefix(sorted.size() + 1, 0.0);
    std::partial_sum(sorted.begin(), sorted.end(), prefix.begin() + 1);
    double least = sorted.front();
    for (size_t j = 1; j * static_cast<size_t>(k) < sorted.size(); ++j) {
        const size_t last = j * static_cast<size_t>(k), first = last - j; // the j + 1 lightest of the top j*k + 1
        if (const double part = prefix[last + 1] - prefix[first]; part > least) {
            least = part;
            count = static_cast<int>(j + 1);
        }
    }
    return std::max(1.0, least / (total / k));
}

} // namespace

double leastImbalance(const Graph &g, int k)
{
    const std::vector<double> weight = balanceWeights(g);
    int node = -1, count = 1;
    return leastShare(weight, std::accumulate(weight.begin(), weight.end(), 0.0), k, node, count);
}

ImbalanceCheck checkImbalance(const Graph &g, const std::vector<int> &parts, int k)
{
    ImbalanceCheck c;
    const std::vector<double> weight = balanceWeights(g);
    std::vector<double> partWeight;
    const double total = sumParts(weight, parts, k, partWeight);
    c.imbalance = imbalanceOf(partWeight, total, k);
    c.lowest = leastShare(weight, total, k, c.heaviestNode, c.forcedBy);
    return c;
}

UndirectedGraph undirectedView(const Graph &g)
{
    UndirectedGraph view;
    const int n = g.nodeCount();
    view.nodeWeight = balanceWeights(g);
    // Merged in the order of first appearance, scanning sources in file order.
    std::unordered_map<unsigned long long, size_t> index;
    index.reserve(static_cast<size_t>(g.edgeCount()));
    for (int u = 0; u < n; ++u) {
        const auto succ = g.successors(u);
        const auto bytes = g.successorBytes(u);
        for (size_t i = 0; i < succ.size(); ++i) {
            const int a = std::min(u, succ[i]), b = std::max(u, succ[i]);
            const unsigned long long key = static_cast<unsigned long long>(a) << 32 | unsigned(b);
            auto [it, inserted] = index.emplace(key, view.edges.size());
            if (inserted)
                view.edges.push_back({a, b, 0.0});
            view.edges[it->second].weight += bytes[i];
        }
    }
    bool allZeroEdges =
        std::all_of(view.edges.begin(), view.edges.end(), [](const UndirectedGraph::Edge &e) { return e.weight == 0; });
    if (allZeroEdges)
        for (auto &e : view.edges)
            e.weight = 1.0;
    return view;
}

PartitionMetrics partitionMetrics(const UndirectedGraph &view, const std::vector<int> &parts, int k)
{
    PartitionMetrics m;
    const double total = sumParts(view.nodeWeight, parts, k, m.partWeights);
    std::vector<double> cutOf(k, 0.0), volume(k, 0.0);
    for (const auto &e : view.edges) {
        volume[parts[e.u]] += e.weight;
        volume[parts[e.v]] += e.weight;
        if (parts[e.u] != parts[e.v]) {
            m.edgeCut += e.weight;
            cutOf[parts[e.u]] += e.weight;
            cutOf[parts[e.v]] += e.weight;
        }
    }
    for (int i = 0; i < k; ++i)
        if (volume[i] > 0)
            m.normalizedCut += cutOf[i] / volume[i];
    m.imbalance = imbalanceOf(m.partWeights, total, k);
    return m;
}

PartitionMetrics partitionMetrics(const Graph &graph, const std::vector<int> &parts, int k)
{
    return partitionMetrics(undirectedView(graph), parts, k);
}

} // namespace ps
