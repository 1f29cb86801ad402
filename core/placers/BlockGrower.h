#pragma once
// Connected blocks of nodes that move to another device at once: a stretch of a layer or a
// pipeline stage changes device together, which no sequence of single-node moves that each
// improve can do. Local search's block moves and gdp's samples grow them the same way.
#include <random>
#include <vector>

namespace ps {

class Constraints;
class Graph;

class BlockGrower
{
public:
    BlockGrower(const Graph &graph, const Constraints &constraints);
    // From v, breadth first over the edges to nodes that are on `device` in `devices`: v's unit
    // first (its colocation group, or v alone), then each reached node with its unit, never a
    // unit that holds a pinned node, at most `size` nodes (v's unit always, whatever its size).
    // Empty when v's unit holds a pinned node.
    std::vector<int> grow(const std::vector<int> &devices, int v, int device, int size);
    // The nodes on `device` in `devices` whose scope lies in v's scope's ancestor at `depth` (1: the
    // top scope; at most v's own depth), each with its unit; empty when v has no scope, or a unit
    // holds a pinned node. A whole layer or expert that moves or swaps at once: experts, layers
    // and stages are what a person places, and scopes name them.
    std::vector<int> scopeBlock(const std::vector<int> &devices, int v, int device, int depth);
    // The depth of v's scope (0: none).
    int scopeDepth(int v) const;
    // A scope move's depth: with probability `share`, drawn uniformly from 1 to v's scope depth;
    // 0 (no scope move) otherwise. Draws nothing when `share` is 0 or v has no scope. Local
    // search's moves and gdp's carried blocks draw it the same way.
    int drawScopeDepth(int v, double share, std::mt19937_64 &rng) const;
    // A block size of at most `most` + 1 nodes, log-uniform from 2, for a uniform draw u in [0, 1].
    static int drawSize(int most, double u);
    // The nodes a move of v carries along: its colocation group, or v alone.
    std::vector<int> unitOf(int v) const;
    // Whether none of the nodes is pinned.
    bool movable(const std::vector<int> &nodes) const;

private:
    const Graph &m_graph;
    const Constraints &m_constraints;
    // The call that saw a node, and the one that took it into its block.
    std::vector<long long> m_seen, m_taken;
    long long m_stamp = 0;
    // Nodes in the scope tree's preorder, and each scope's stretch of them [first, end); built on
    // the first scope block.
    std::vector<int> m_byScope, m_scopeFirst, m_scopeEnd;
};

} // namespace ps
