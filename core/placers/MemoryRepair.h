#pragma once
// Moving ops off devices whose memory overflows: what a placement mapped from a partition (METIS,
// spectral, GAP: part i on device i) and a steering ensemble's vote need, since neither knows the
// devices' memory well enough to fit it by itself.
#include <vector>

namespace ps {

class Graph;
class Cluster;
class Constraints;

struct MemoryRepair
{
    int moved = 0;    // ops moved to another device
    bool fits = true; // every device within its memory afterwards
};

// Moves unpinned, ungrouped ops (largest first) off devices over their memory to the device, of
// those with room for them, whose busy time (the compute of the ops on it) ends first with them.
MemoryRepair repairMemory(const Graph &graph, const Cluster &cluster, const Constraints &constraints,
                          std::vector<int> &devices);

} // namespace ps
