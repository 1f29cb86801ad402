#pragma once
// Loading the files a command needs, with errors that name the file and what was expected.
#include "core/cluster/Cluster.h"
#include "core/graph/Graph.h"
#include "core/placement/Partition.h"
#include "core/placement/Placement.h"

#include <string>

namespace ps::cli {

Graph requireGraph(const std::string &path);
Cluster requireCluster(const std::string &path);
Placement requirePlacement(const std::string &path, const Graph &graph, const Cluster &cluster);
Partition requirePartition(const std::string &path, const Graph &graph);

} // namespace ps::cli
