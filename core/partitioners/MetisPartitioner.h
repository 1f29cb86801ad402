#pragma once
// Calls the METIS library (k-way or recursive bisection); METIS types stay in the .cpp.
#include "core/partitioners/MetisGraph.h"

#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

namespace ps {

// shares: constraints x k target fractions (part-major as METIS wants: part i, constraint c at
// i * constraints + c); empty for equal parts. Returns the part of every vertex.
std::vector<int> metisPartition(const MetisGraph &graph, int k, const std::vector<double> &shares, double imbalance,
                                bool recursive, uint64_t seed);

// The same call in a child process (core/family/ChildProcess), so that it can be stopped: nullopt
// when stop() turned true before METIS finished. Concurrent calls run in parallel here. Where no
// child can be started, the call runs in this process as metisPartition does.
std::optional<std::vector<int>> metisPartitionUntil(const MetisGraph &graph, int k, const std::vector<double> &shares,
                                                    double imbalance, bool recursive, uint64_t seed,
                                                    const std::function<bool()> &stop);

} // namespace ps
