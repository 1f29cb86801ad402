#pragma once
// Graph files (*.graph.json[.gz], spec section 1).
#include "core/graph/Graph.h"

#include <string>
#include <string_view>

namespace ps {

Graph parseGraphJson(std::string_view text, const std::string &source);
Graph readGraphJson(const std::string &path);
std::string graphToJson(const Graph &graph);
void writeGraphJson(const std::string &path, const Graph &graph);

} // namespace ps
