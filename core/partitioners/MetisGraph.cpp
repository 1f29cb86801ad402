#include "core/partitioners/MetisGraph.h"

#include "core/graph/Graph.h"
#include "core/sim/PartitionMetrics.h"

#include <algorithm>
#include <cmath>

namespace ps {

namespace {

// Keep every weight sum well inside METIS's 32-bit idx_t.
constexpr double kMaxWeightSum = 1 << 29;

// Rounds values to integers after dividing by what keeps their sum (times `listed`, the times
// each is counted) under the limit; `minimum` keeps METIS edge weights positive.
std::vector<int32_t> scaled(const std::vector<double> &values, double listed, int32_t minimum, double &divisor)
{
    double total = 0;
    for (double x : values)
        total += x;
    divisor = total * listed > kMaxWeightSum ? total * listed / kMaxWeightSum : 1.0;
    std::vector<int32_t> out;
    out.reserve(values.size());
    for (double x : values)
        out.push_back(std::max<int32_t>(minimum, static_cast<int32_t>(std::llround(x / divisor))));
    return out;
}

} // namespace

MetisGraph buildMetisGraph(const Graph &graph, bool withMemory)
{
    const UndirectedGraph view = undirectedView(graph);
    MetisGraph m;
    m.vertices = graph.nodeCount();
    m.constraints = withMemory ? 2 : 1;
    const std::vector<int32_t> flops = scaled(view.nodeWeight, 1, 0, m.flopsDivisor);
    std::vector<int32_t> memory;
    if (withMemory) {
        std::vector<double> mem(m.vertices);
        bool allZero = true;
        for (int v = 0; v < m.vertices; ++v) {
            mem[v] = graph.memBytes(v);
            allZero = allZero && mem[v] == 0;
        }
        if (allZero)
            std::fill(mem.begin(), mem.end(), 1.0);
        memory = scaled(mem, 1, 0, m.memoryDivisor);
    }
    for (int v = 0; v < m.vertices; ++v) {
        m.vwgt.push_back(flops[v]);
        if (withMemory)
            m.vwgt.push_back(memory[v]);
    }
    std::vector<double> bytes;
    for (const auto &e : view.edges)
        bytes.push_back(e.weight);
    const std::vector<int32_t> weight = scaled(bytes, 2, 1, m.bytesDivisor);

    std::vector<int32_t> degree(m.vertices, 0);
    for (const auto &e : view.edges) {
        ++degree[e.u];
        ++degree[e.v];
    }
    m.xadj.assign(m.vertices + 1, 0);
    for (int v = 0; v < m.vertices; ++v)
        m.xadj[v + 1] = m.xadj[v] + degree[v];
    m.adjncy.resize(m.xadj[m.vertices]);
    m.adjwgt.resize(m.xadj[m.vertices]);
    std::vector<int32_t> next(m.xadj.begin(), m.xadj.end() - 1);
    for (size_t i = 0; i < view.edges.size(); ++i) {
        const auto &e = view.edges[i];
        m.adjncy[next[e.u]] = e.v;
        m.adjwgt[next[e.u]++] = weight[i];
        m.adjncy[next[e.v]] = e.u;
        m.adjwgt[next[e.v]++] = weight[i];
    }
    return m;
}

} // namespace ps
