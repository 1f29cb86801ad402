#pragma once
// METIS graph files (the format of gpmetis and KaHIP): 1-based, undirected, a header
// "n m [fmt [ncon]]", '%' comments. Writing merges parallel and opposite edges (spec section 8)
// and scales weights into 32-bit integers when needed; reading orients each edge from the
// lower-numbered vertex to the higher one, so the result is a DAG.
#include "core/graph/Graph.h"

#include <string>
#include <string_view>

namespace ps {

Graph parseMetis(std::string_view text, const std::string &source);
Graph readMetis(const std::string &path);
// withMemory adds mem_bytes as a second vertex weight (ncon = 2).
std::string graphToMetis(const Graph &graph, bool withMemory = false);
void writeMetis(const std::string &path, const Graph &graph, bool withMemory = false);

} // namespace ps
