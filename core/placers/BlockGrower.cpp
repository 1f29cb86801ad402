#include "core/placers/BlockGrower.h"

#include "core/graph/Graph.h"
#include "core/placement/Constraints.h"

#include <cmath>

namespace ps {

BlockGrower::BlockGrower(const Graph &graph, const Constraints &constraints)
    : m_graph(graph), m_constraints(constraints), m_seen(static_cast<size_t>(graph.nodeCount()), -1),
      m_taken(static_cast<size_t>(graph.nodeCount()), -1)
{}

int BlockGrower::drawScopeDepth(int v, double share, std::mt19937_64 &rng) const
{
    const int depth = scopeDepth(v);
    if (share <= 0 || depth == 0 || std::uniform_real_distribution<double>(0.0, 1.0)(rng) >= share)
        return 0;
    return std::uniform_int_distribution<int>(1, depth)(rng);
}

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

int BlockGrower::scopeDepth(int v) const
{
    return m_graph.scopes().scope(m_graph.scopeIndex(v)).depth;
}

std::vector<int> BlockGrower::scopeBlock(const std::vector<int> &devices, int v, int device, int depth)
{
    const ScopeTree &tree = m_graph.scopes();
    if (m_byScope.empty()) {
        // Preorder of the scopes, then the nodes by their scope's place in it: a scope's subtree
        // is one stretch.
        std::vector<int> pre(static_cast<size_t>(tree.size()), 0), last(static_cast<size_t>(tree.size()), 0);
        int next = 0;
        std::vector<std::pair<int, bool>> stack{{0, false}};
        while (!stack.empty()) {
            auto [s, done] = stack.back();
            stack.pop_back();
            if (done) {
                last[s] = next;
                continue;
            }
            pre[s] = next++;
            stack.push_back({s, true});
            const auto &kids = tree.scope(s).children;
            for (auto it = kids.rbegin(); it != kids.rend(); ++it)
                stack.push_back({*it, false});
        }
        // Nodes by their scope's preorder index (a counting sort, node order kept within a scope):
        // a scope's nodes are those whose scope's index lies in [pre, last).
        std::vector<int> first(static_cast<size_t>(tree.size()) + 1, 0);
        const int n = m_graph.nodeCount();
        for (int u = 0; u < n; ++u)
            ++first[pre[m_graph.scopeIndex(u)] + 1];
        for (size_t i = 1; i < first.size(); ++i)
            first[i] += first[i - 1];
        m_byScope.resize(static_cast<size_t>(n));
        std::vector<int> cursor(first.begin(), first.end() - 1);
        for (int u = 0; u < n; ++u)
            m_byScope[cursor[pre[m_graph.scopeIndex(u)]]++] = u;
        m_scopeFirst.resize(static_cast<size_t>(tree.size()));
        m_scopeEnd.resize(static_cast<size_t>(tree.size()));
        for (int t = 0; t < tree.size(); ++t) {
            m_scopeFirst[t] = first[pre[t]];
            m_scopeEnd[t] = first[last[t]];
        }
    }
    int s = m_graph.scopeIndex(v);
    if (s <= 0 || depth < 1)
        return {};
    while (tree.scope(s).depth > depth)
        s = tree.scope(s).parent;
    const long long stamp = ++m_stamp;
    std::vector<int> block;
    for (int i = m_scopeFirst[s]; i < m_scopeEnd[s]; ++i) {
        const int u = m_byScope[i];
        if (devices[u] != device || m_taken[u] == stamp)
            continue;
        const std::vector<int> unit = unitOf(u);
        if (!movable(unit))
            return {};
        for (int w : unit)
            if (m_taken[w] != stamp) {
                m_taken[w] = stamp;
                block.push_back(w);
            }
    }
    return block;
}

} // namespace ps
