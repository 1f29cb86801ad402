#pragma once
// Graphviz DOT files. Reading goes through cgraph (any digraph; attributes op, flops, out_bytes,
// param_bytes, mem_bytes, scope, compute_s ("gpu=1e-4,cpu=2e-3"), colocate, pin on nodes and
// bytes on edges; absent ones take the spec's defaults). Writing shows a placement, when given,
// as one fill colour and one cluster_ subgraph per device. Every id reads back as it was written
// (a name Graphviz would forget also goes in the attribute id; one that quotes cannot hold, as an
// HTML-like string <...>).
#include "core/graph/Graph.h"

#include <string>
#include <string_view>
#include <vector>

namespace ps {

class Cluster;
class Placement;

// A node name that Graphviz forgets (one beginning with '%') is taken from the node's attribute id,
// else kept as cgraph calls it and said in `warnings`.
Graph parseDot(std::string_view text, const std::string &source, std::vector<std::string> *warnings = nullptr);
Graph readDot(const std::string &path, std::vector<std::string> *warnings = nullptr);
std::string graphToDot(const Graph &graph, const Cluster *cluster = nullptr, const Placement *placement = nullptr);
void writeDot(const std::string &path, const Graph &graph, const Cluster *cluster = nullptr,
              const Placement *placement = nullptr);
// A distinct colour per device index ("#rrggbb"), shared with the views.
std::string deviceColor(int device);

} // namespace ps
