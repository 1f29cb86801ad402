#include "core/sim/CostModel.h"

#include <set>
#include <tuple>

namespace ps {

CostModel::CostModel(const Graph &graph, const Cluster &cluster) : m_graph(graph), m_cluster(cluster)
{
    m_graphType.resize(cluster.deviceCount());
    std::set<std::tuple<int, double, double>> kinds;
    for (int d = 0; d < cluster.deviceCount(); ++d) {
        m_graphType[d] = graph.findDeviceType(cluster.device(d).type);
        if (kinds.insert({m_graphType[d], cluster.device(d).flopsPerS, cluster.device(d).opOverheadS}).second)
            m_distinct.push_back(d);
    }
}

} // namespace ps
