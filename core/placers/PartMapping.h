#pragma once
// Which part of a partition goes on which device. A partitioner sized part i for device i, but its
// numbering knows nothing of the links: on a cluster of nodes (fast links inside, slow ones between)
// it decides whose traffic crosses the slow links. Spectral's k-means numbers its parts in no
// useful order, and so sent 3-7 times the bytes it needed to across the nodes of 8gpu-2node.
#include <vector>

namespace ps {

class Graph;
class Cluster;

struct PartMapping
{
    int partsMoved = 0;         // parts put on a device other than their own number's
    double transferSBefore = 0; // the partition's transfer time summed over its transfers, part i on device i
    double transferSAfter = 0;  // the same after the mapping
    bool skipped = false;       // too many devices to map (more than kMaxDevices)
    static constexpr int kMaxDevices = 256;
};

// Swaps parts between interchangeable devices (the same type, speed, memory and per-op overhead, so
// a part sized for one fits the other exactly) while a swap lowers the transfers' summed time
// (spec section 4: latency + bytes / bandwidth for each output sent to a device), then rewrites
// `devices` (a part per op on entry, a device per op on return). Pairwise swaps until none helps,
// as static mappers of partitions onto machine topologies do (a local search on the quadratic
// assignment). Deterministic; with k parts a sweep costs O(k^3), so more than kMaxDevices are left
// as they are.
PartMapping mapPartsToDevices(const Graph &graph, const Cluster &cluster, std::vector<int> &devices);

} // namespace ps
