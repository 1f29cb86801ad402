#pragma once
// What a model importer needs beyond the file: sizes the file leaves open.
#include "core/graph/FlopRules.h"
#include "core/graph/Graph.h"

#include <string>
#include <vector>

namespace ps {

struct LoadOptions
{
    // Fixes symbolic batch dimensions (the first dimension of each model input); 0 leaves them.
    long long batch = 0;
    // TorchScript: the shapes of the forward() inputs, when the file does not record them.
    std::vector<Shape> inputShapes;
};

// Importers return the graph and append human-readable warnings (unknown ops, unknown shapes).
using GraphImporter = Graph (*)(const std::string &path, const LoadOptions &options,
                                std::vector<std::string> &warnings);

} // namespace ps
