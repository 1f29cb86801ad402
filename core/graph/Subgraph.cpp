#include "core/graph/Subgraph.h"

#include "core/graph/GraphBuilder.h"

namespace ps {

Graph inducedSubgraph(const Graph &g, const std::vector<int> &nodes)
{
    GraphBuilder b(g.name());
    std::vector<int> index(g.nodeCount(), -1);
    for (int v : nodes) {
        GraphBuilder::NodeSpec s;
        s.id = g.id(v);
        s.op = g.op(v);
        s.flops = g.flops(v);
        s.outBytes = g.outBytes(v);
        s.paramBytes = g.paramBytes(v);
        s.memBytes = g.memBytes(v);
        s.scope = g.scope(v);
        for (const Graph::ComputeOverride &o : g.computeOverrides(v))
            s.computeS.emplace_back(g.deviceTypeNames()[o.deviceType], o.seconds);
        index[v] = b.addNode(std::move(s));
    }
    for (int v : nodes) {
        const Span<int> succ = g.successors(v);
        const Span<double> bytes = g.successorBytes(v);
        for (size_t i = 0; i < succ.size(); ++i)
            if (index[succ[i]] >= 0)
                b.addEdge(index[v], index[succ[i]], bytes[i]);
    }
    return b.build();
}

} // namespace ps
