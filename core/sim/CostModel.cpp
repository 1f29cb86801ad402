#include "core/sim/CostModel.h"

#include <map>
#include <tuple>

namespace ps {

CostModel::CostModel(const Graph &graph, const Cluster &cluster) : m_graph(graph), m_cluster(cluster)
{
    m_graphType.resize(cluster.deviceCount());
    std::map<std::tuple<int, double, double>, size_t> kinds; // kind -> its index in m_distinct
    for (int d = 0; d < cluster.deviceCount(); ++d) {
        m_graphType[d] = graph.findDeviceType(cluster.device(d).type);
        const auto [it, added] = kinds.insert(
            {{m_graphType[d], cluster.device(d).flopsPerS, cluster.device(d).opOverheadS}, m_distinct.size()});
        if (added) {
            m_distinct.push_back(d);
            m_distinctCount.push_back(0);
        }
        m_distinctCount[it->second] += 1;
    }
}

} // namespace ps
