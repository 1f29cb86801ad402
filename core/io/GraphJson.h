#pragma once
// Graph files (*.graph.json[.gz], spec section 1).
#include "core/graph/Graph.h"

#include <string>
#include <string_view>
#include <vector>

namespace ps {

// Keys the spec does not define are ignored (forward compatibility); `warnings`, where given, says
// which (a graph whose nodes name their "inputs" has no edges).
Graph parseGraphJson(std::string_view text, const std::string &source, std::vector<std::string> *warnings = nullptr);
Graph readGraphJson(const std::string &path);
std::string graphToJson(const Graph &graph);
void writeGraphJson(const std::string &path, const Graph &graph);

} // namespace ps
