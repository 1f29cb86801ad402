#pragma once
// Repairs and refinements of a k-way partition that any partitioner's output can take (GAP's
// argmax, for one): giving nodes away from parts over the imbalance tolerance, and moving
// boundary nodes to the part that cuts least while the tolerance holds. Both work on the
// undirected view the partition metrics measure (spec section 8): the limit is tolerance × the
// total node weight / k.
#include <vector>

namespace ps {

struct UndirectedGraph;

// The heaviest part gives nodes away until the tolerance holds or nothing helps: its nodes in the
// order of the least cut they add (ties to the lightest part that stays within the limit), each
// moved once.
void rebalanceParts(const UndirectedGraph &view, std::vector<int> &parts, int k, double tolerance);

// Fiduccia-Mattheyses refinement of the edge cut: in each pass the unlocked node whose move to
// another part lowers the cut most (or raises it least) moves and is locked, provided the part it
// goes to stays within the limit; the pass keeps the prefix of its moves with the lowest cut and
// undoes the rest. Passes repeat while they gain. The cut never rises and no part is made heavier
// than the limit. `maxMoves` bounds the moves tried; returns the number of moves kept.
long long refineCut(const UndirectedGraph &view, std::vector<int> &parts, int k, double tolerance, long long maxMoves);

} // namespace ps
