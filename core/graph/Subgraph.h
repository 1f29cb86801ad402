#pragma once
// The graph induced by some of a graph's nodes: what a partitioner needs to split one part again.
#include "core/graph/Graph.h"

#include <vector>

namespace ps {

// Nodes `nodes` (indices of `g`, ascending) with their costs, scopes and compute_s overrides, and
// the edges between them; node j of the result is nodes[j]. Pins and colocation groups are left
// out (the callers enforce them on the whole graph's placement).
Graph inducedSubgraph(const Graph &g, const std::vector<int> &nodes);

} // namespace ps
