#include "core/layout/CollapsedView.h"

#include <algorithm>
#include <unordered_map>

namespace ps {

namespace {
constexpr int kStubFanOut = 4;

// The outermost collapsed scope on the path to s, or -1 when every scope on it is expanded.
std::vector<int> collapsedAncestor(const ScopeTree &tree, const std::vector<char> &expanded)
{
    std::vector<int> top(tree.size(), -1);
    // Parents come before children (interned path by path), so one pass suffices.
    for (int s = 1; s < tree.size(); ++s) {
        const int p = tree.scope(s).parent;
        if (p > 0 && top[p] >= 0)
            top[s] = top[p];
        else if (!expanded[s])
            top[s] = s;
    }
    return top;
}
} // namespace

bool CollapsedView::isStub(const Graph &graph, int v)
{
    return graph.inDegree(v) == 0 && graph.outDegree(v) >= kStubFanOut && graph.flops(v) == 0;
}

CollapsedView::CollapsedView(const Graph &graph, const std::vector<char> &expanded)
{
    const ScopeTree &tree = graph.scopes();
    const std::vector<int> top = collapsedAncestor(tree, expanded);
    const int n = graph.nodeCount();
    m_itemOfNode.assign(n, -1);
    std::vector<int> itemOfScope(tree.size(), -1);
    for (int v = 0; v < n; ++v) {
        const int s = top[graph.scopeIndex(v)];
        if (s >= 0) {
            int &item = itemOfScope[s];
            if (item < 0) {
                item = static_cast<int>(m_items.size());
                m_items.push_back({-1, s, 0});
            }
            ++m_items[item].members;
            m_itemOfNode[v] = item;
        } else if (!isStub(graph, v)) {
            m_itemOfNode[v] = static_cast<int>(m_items.size());
            m_items.push_back({v, -1, 1});
        }
    }
    for (int v = 0; v < n; ++v)
        if (m_itemOfNode[v] < 0) {
            const int first = graph.successors(v).size() > 0 ? m_itemOfNode[graph.successors(v)[0]] : -1;
            m_stubs.push_back({v, first});
        }
    std::unordered_map<long long, int> index;
    for (int e = 0; e < graph.edgeCount(); ++e) {
        const int a = m_itemOfNode[graph.edgeSrc(e)], b = m_itemOfNode[graph.edgeDst(e)];
        if (a < 0 || b < 0 || a == b)
            continue;
        const long long key = static_cast<long long>(a) * static_cast<long long>(m_items.size()) + b;
        auto [it, inserted] = index.emplace(key, static_cast<int>(m_edges.size()));
        if (inserted)
            m_edges.push_back({a, b, 0, 0});
        m_edges[it->second].bytes += graph.edgeBytes(e);
        ++m_edges[it->second].count;
    }
}

std::vector<char> CollapsedView::expandWithin(const Graph &graph, int budget)
{
    const ScopeTree &tree = graph.scopes();
    std::vector<char> expanded(tree.size(), 0);
    expanded[0] = 1;
    // Items visible with only the root open: its children scopes plus its direct nodes.
    int visible = tree.scope(0).directNodes + static_cast<int>(tree.scope(0).children.size());
    std::vector<int> frontier = tree.scope(0).children;
    while (!frontier.empty()) {
        std::vector<int> next;
        for (int s : frontier) {
            const auto &scope = tree.scope(s);
            const int grows = scope.directNodes + static_cast<int>(scope.children.size()) - 1;
            if (visible + grows > budget)
                continue;
            expanded[s] = 1;
            visible += grows;
            next.insert(next.end(), scope.children.begin(), scope.children.end());
        }
        frontier = std::move(next);
    }
    return expanded;
}

std::vector<int> CollapsedView::membersOf(int item) const
{
    std::vector<int> nodes;
    for (int v = 0; v < static_cast<int>(m_itemOfNode.size()); ++v)
        if (m_itemOfNode[v] == item)
            nodes.push_back(v);
    return nodes;
}

} // namespace ps
