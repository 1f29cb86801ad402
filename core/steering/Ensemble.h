#pragma once
// The pieces of a consensus placement: device labels of equal devices aligned between two
// placements, a weighted per-op vote, and a repair that moves ops off devices whose memory
// overflows. SteeringSession::ensemble() strings them together and refines the result.
#include <vector>

namespace ps {

class Graph;
class Cluster;
class Constraints;

// Renames member's devices within each class of interchangeable devices (same type, speed,
// memory and overhead) so that it agrees with reference on as many ops as a greedy matching finds.
std::vector<int> alignDevices(const Cluster &cluster, const std::vector<int> &reference,
                              const std::vector<int> &member);

// Per op, the device with the largest summed weight among the members (ties: the earlier member).
// unanimous counts the ops on which every member agreed.
std::vector<int> weightedVote(const std::vector<std::vector<int>> &members, const std::vector<double> &weights,
                              long long *unanimous = nullptr);

// Moves unpinned, ungrouped ops (largest first) off devices over their memory to the device with
// the most free memory that holds them. Returns false when some device still overflows.
bool repairMemory(const Graph &graph, const Cluster &cluster, const Constraints &constraints,
                  std::vector<int> &devices);

} // namespace ps
