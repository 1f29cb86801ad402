#include "core/placement/Constraints.h"

#include "core/cluster/Cluster.h"
#include "core/graph/Graph.h"

namespace ps {

Constraints Constraints::fromGraph(const Graph &graph, const Cluster &cluster)
{
    Constraints c;
    const int n = graph.nodeCount();
    std::vector<int> pinDevice;
    for (const std::string &name : graph.pinNames()) {
        int d = cluster.findDevice(name);
        pinDevice.push_back(d < 0 ? kUnknownDevice : d);
    }
    c.m_pin.assign(n, kNotPinned);
    c.m_groupOf.assign(n, -1);
    c.m_groups.resize(graph.colocateGroupNames().size());
    c.m_groupNames = graph.colocateGroupNames();
    for (int v = 0; v < n; ++v) {
        if (graph.pin(v) >= 0)
            c.m_pin[v] = pinDevice[graph.pin(v)];
        if (int g = graph.colocateGroup(v); g >= 0) {
            c.m_groupOf[v] = g;
            c.m_groups[g].push_back(v);
        }
    }
    return c;
}

std::vector<int> Constraints::unknownPins() const
{
    std::vector<int> nodes;
    for (int v = 0; v < static_cast<int>(m_pin.size()); ++v)
        if (m_pin[v] == kUnknownDevice)
            nodes.push_back(v);
    return nodes;
}

} // namespace ps
