#pragma once
// METIS graph files (the format of gpmetis and KaHIP): 1-based, undirected, a header
// "n m [fmt [ncon]]", '%' comments. Writing merges parallel and opposite edges (spec section 8)
// and scales weights into 32-bit integers when needed; reading orients each edge from the
// lower-numbered vertex to the higher one, so the result is a DAG.
#include "core/graph/Graph.h"
#include "core/placement/Partition.h"

#include <optional>
#include <string>
#include <string_view>

namespace ps {

Graph parseMetis(std::string_view text, const std::string &source);
Graph readMetis(const std::string &path);
// withMemory adds mem_bytes as a second vertex weight (ncon = 2).
std::string graphToMetis(const Graph &graph, bool withMemory = false);
void writeMetis(const std::string &path, const Graph &graph, bool withMemory = false);

// METIS partition files (what gpmetis and KaHIP write as GRAPH.part.K): one 0-based part per
// line for each vertex in order, which is the graph's node order (as writeMetis numbers them); K
// is in the name. The parts name no node: resolvePartition takes them in the graph's order.
PartitionDoc parseMetisPartition(std::string_view text, const std::string &source);
// K of a name that ends in ".part.K"; nullopt for any other name.
std::optional<long long> metisPartCount(const std::string &path);
// The parts in node order, one a line; written to a name that ends in ".part.K" for its K.
std::string partitionToMetis(const Partition &partition);
void writeMetisPartition(const std::string &path, const Partition &partition);

} // namespace ps
