#pragma once
// Partitioning for a cluster of nodes in two levels, as hierarchical multisection maps processes onto
// machines: first the graph into one part per node, then each node's ops into its devices. A flat
// k-way cut weighs a byte sent between nodes as one sent inside a node; the first level cuts the
// slow links alone. On 8gpu-2node METIS's placement of MoE went from 34 to 5 times the bound so.
#include "core/placement/Partition.h"

#include <string>
#include <vector>

namespace ps {

class PartitionerRegistry;
struct PartitionProblem;
struct RunControl;

// problem.k is the cluster's device count, with a FLOP share per device; nodes are
// clusterNodes(cluster). Part d of the result is device d. The first level gives each node the sum
// of its devices' shares, the second each device its share within its node, each level the
// tolerance problem.imbalance (so a device may get up to its square). FLOPs alone are balanced:
// with memory as a second constraint (as the flat METIS call has it) the first level cut MoE's
// experts across the nodes (34 times the bound against 5.2 without). A node of one device, or with
// no more ops than devices, takes its ops without a second call.
Partition partitionOverNodes(const PartitionerRegistry &registry, const std::string &partitioner,
                             const PartitionProblem &problem, const std::vector<std::vector<int>> &nodes,
                             const std::vector<std::string> &params, const RunControl &control);

} // namespace ps
