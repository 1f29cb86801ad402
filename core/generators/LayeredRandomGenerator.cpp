#include "core/generators/LayeredRandomGenerator.h"

#include "core/InputError.h"
#include "core/graph/GraphBuilder.h"

#include <algorithm>
#include <cmath>
#include <string>
#include <unordered_set>

namespace ps {

namespace {

// splitmix64: small, fast and identical everywhere (std distributions are not).
class Random
{
public:
    explicit Random(uint64_t seed) : m_state(seed) {}
    uint64_t next()
    {
        uint64_t z = (m_state += 0x9e3779b97f4a7c15ULL);
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
        return z ^ (z >> 31);
    }
    double uniform() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }
    int below(int n) { return static_cast<int>(next() % static_cast<uint64_t>(n)); }

private:
    uint64_t m_state;
};

} // namespace

Graph generateLayeredRandom(const LayeredRandomParams &p)
{
    if (p.nodes < 1 || p.nodes > 10000000)
        throw InputError("nodes must be 1..10000000");
    if (!(p.alpha > 0) || !(p.outDegree >= 0) || p.outDegree > 100 || !(p.ccr >= 0) ||
        !(p.heterogeneity >= 0 && p.heterogeneity <= 1) || !(p.meanFlops >= 0))
        throw InputError("need alpha > 0, 0 <= out_degree <= 100, ccr >= 0, "
                         "0 <= heterogeneity <= 1, mean_flops >= 0");
    // Each edge is also held in a hash set while drawing: 10 million nodes at out_degree 100 needed
    // tens of gigabytes.
    constexpr double kMaxEdges = 20'000'000;
    if (p.outDegree * p.nodes > kMaxEdges)
        throw InputError("the graph would have " + messageNumber(std::round(p.outDegree * p.nodes)) +
                         " edges (nodes x out_degree), more than the " + messageNumber(kMaxEdges) +
                         " this generator builds");
    Random rng(p.seed);
    const int n = p.nodes;
    const int height = std::clamp(static_cast<int>(std::lround(std::sqrt(double(n)) / p.alpha)), 1, n);
    // Layer l holds nodes [start[l], start[l+1]).
    std::vector<int> start(height + 1);
    for (int l = 0; l <= height; ++l)
        start[l] = static_cast<int>(static_cast<long long>(n) * l / height);
    std::vector<int> layerOf(n);
    for (int l = 0; l < height; ++l)
        for (int v = start[l]; v < start[l + 1]; ++v)
            layerOf[v] = l;

    GraphBuilder builder("layered-random-" + std::to_string(n));
    const double meanComputeS = p.meanFlops / p.referenceFlopsPerS;
    const double meanBytes = p.ccr * meanComputeS * p.referenceBandwidth;
    for (int v = 0; v < n; ++v) {
        GraphBuilder::NodeSpec s;
        s.id = "n" + std::to_string(v);
        s.op = "Task";
        s.flops = std::round(p.meanFlops * (1 - p.heterogeneity + 2 * p.heterogeneity * rng.uniform()));
        s.outBytes = std::round(meanBytes * (0.5 + rng.uniform()));
        s.paramBytes = std::round(s.outBytes * rng.uniform());
        s.scope = "layer" + std::to_string(layerOf[v]);
        builder.addNode(std::move(s));
    }
    const long long target = std::llround(p.outDegree * n);
    std::unordered_set<uint64_t> used;
    long long edges = 0;
    auto addEdge = [&](int u, int v) {
        if (!used.insert(static_cast<uint64_t>(u) << 32 | static_cast<uint32_t>(v)).second)
            return false;
        builder.addEdge(u, v);
        ++edges;
        return true;
    };
    // Every node below the first layer hangs from the layer above it.
    for (int v = start[std::min(1, height)]; v < n && edges < target; ++v) {
        int l = layerOf[v] - 1;
        addEdge(start[l] + rng.below(start[l + 1] - start[l]), v);
    }
    long long attempts = 0;
    const int firstBelow = start[std::min(1, height)];
    while (edges < target && firstBelow < n && attempts++ < 20 * target) {
        int v = firstBelow + rng.below(n - firstBelow);
        int l = rng.uniform() < 0.5 ? layerOf[v] - 1 : rng.below(layerOf[v]);
        addEdge(start[l] + rng.below(start[l + 1] - start[l]), v);
    }
    return builder.build();
}

} // namespace ps
