#pragma once
// A cluster's nodes: groups of devices joined by links faster than those between the groups (the
// GPUs of one machine, joined by NVLink, with a network between machines).
#include <vector>

namespace ps {

class Cluster;

// Two devices share a node when a chain of links joins them each of which, in both directions,
// carries a byte faster than the cluster's slowest link. Devices in file order within a node, nodes
// in the order of their first device. A node per device (every link alike) or a single node means
// the cluster has no such level.
std::vector<std::vector<int>> clusterNodes(const Cluster &c);

} // namespace ps
