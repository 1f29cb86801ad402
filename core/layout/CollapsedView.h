#pragma once
// What a graph view shows: the graph with some scopes collapsed into one item each. An item is
// an op or a collapsed scope; edges between items are merged (bytes summed). High fan-out
// sources without inputs (a weight read by every unrolled step) are "stubs": drawn beside their
// consumers instead of being laid out as hubs.
#include "core/graph/Graph.h"

#include <vector>

namespace ps {

class CollapsedView
{
public:
    struct Item
    {
        int node = -1;  // an op, or
        int scope = -1; // a collapsed scope
        int members = 1;
    };
    struct Edge
    {
        int from, to; // items
        double bytes;
        int count; // graph edges merged into this one
    };
    struct Stub
    {
        int node;
        int consumerItem; // the first item it feeds
    };

    // expanded[s] for every scope of graph.scopes(); the root (0) is always expanded.
    CollapsedView(const Graph &graph, const std::vector<char> &expanded);

    // Expands scopes breadth-first from the root while at most `budget` items are visible.
    static std::vector<char> expandWithin(const Graph &graph, int budget);

    const std::vector<Item> &items() const { return m_items; }
    const std::vector<Edge> &edges() const { return m_edges; }
    const std::vector<Stub> &stubs() const { return m_stubs; }
    // The item showing a node (-1 for a stub).
    int itemOf(int node) const { return m_itemOfNode[node]; }
    // The nodes an item stands for.
    std::vector<int> membersOf(int item) const;

    static bool isStub(const Graph &graph, int v);

private:
    std::vector<Item> m_items;
    std::vector<Edge> m_edges;
    std::vector<Stub> m_stubs;
    std::vector<int> m_itemOfNode;
};

} // namespace ps
