#include "core/placers/BlockGrower.h"

#include "core/graph/Graph.h"
#include "core/placement/Constraints.h"

#include <cmath>

namespace ps {

BlockGrower::BlockGrower(const Graph &graph, const Constraints &constraints)
    : m_graph(graph), m_constraints(constraints), m_seen(static_cast<size_t>(graph.nodeCount()), -1),
      m_taken(static_cast<size_t>(graph.nodeCount()), -1)
{}

int BlockGrower::drawSize(int most, double u)
{
    return 1 + static_cast<int>(std::lround(std::pow(double(most), u)));
}

std::vector<int> BlockGrower::unitOf(int v) const
{
    const int group = m_constraints.groupOf(v);
    return group >= 0 ? m_constraints.groupMembers(group) : std::vector<int>{v};
}

bool BlockGrower::movable(const std::vector<int> &nodes) const
{
    for (int v : nodes)
        if (m_constraints.pinnedDevice(v) >= 0)
            return false;
    return true;
}

std::vector<int> BlockGrower::grow(const std::vector<int> &devices, int v, int device, int size)
{
    const long long stamp = ++m_stamp;
    std::vector<int> block;
    std::vector<int> frontier{v};
    m_seen[v] = stamp;
    for (size_t head = 0; head < frontier.size() && static_cast<int>(block.size()) < size; ++head) {
        if (m_taken[frontier[head]] == stamp)
            continue;
        const std::vector<int> unit = unitOf(frontier[head]);
        if (!movable(unit) || (!block.empty() && static_cast<int>(block.size() + unit.size()) > size))
            continue;
        for (int u : unit) {
            m_seen[u] = m_taken[u] = stamp;
            block.push_back(u);
        }
        for (int u : unit)
            for (const auto &next : {m_graph.predecessors(u), m_graph.successors(u)})
                for (int w : next)
                    if (m_seen[w] != stamp && devices[w] == device) {
                        m_seen[w] = stamp;
                        frontier.push_back(w);
                    }
    }
    return block;
}

} // namespace ps
