#pragma once
// The pieces of a consensus placement: device labels of equal devices aligned between two
// placements and a weighted per-op vote. SteeringSession::ensemble() strings them together,
// repairs the vote's memory (core/placers/MemoryRepair.h) and refines the result.
#include <vector>

namespace ps {

class Cluster;

// Renames member's devices within each class of interchangeable devices (same type, speed,
// memory and overhead) so that it agrees with reference on as many ops as a greedy matching finds.
std::vector<int> alignDevices(const Cluster &cluster, const std::vector<int> &reference,
                              const std::vector<int> &member);

// Per op, the device with the largest summed weight among the members (ties: the earlier member).
// unanimous counts the ops on which every member agreed.
std::vector<int> weightedVote(const std::vector<std::vector<int>> &members, const std::vector<double> &weights,
                              long long *unanimous = nullptr);

} // namespace ps
