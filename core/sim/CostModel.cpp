#include "core/sim/CostModel.h"

namespace ps {

CostModel::CostModel(const Graph &graph, const Cluster &cluster) : m_graph(graph), m_cluster(cluster)
{
    m_graphType.resize(cluster.deviceCount());
    for (int d = 0; d < cluster.deviceCount(); ++d)
        m_graphType[d] = graph.findDeviceType(cluster.device(d).type);
}

} // namespace ps
