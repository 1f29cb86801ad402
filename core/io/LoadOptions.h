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
    // TorchScript: the forward() inputs, when the file does not record them (or to override).
    struct Input
    {
        Shape shape;
        std::string dtype = "float32"; // a torch dtype name: float32, float16, int64, int32, bool, ...
    };
    std::vector<Input> inputs;

    // One input from text such as "1x3x224x224" or "2x5:int64" (dimensions by 'x' or ','); the
    // command line's --input-shape and the app's import dialog read it. InputError when malformed.
    static Input parseInput(const std::string &text);
};

// Importers return the graph and append human-readable warnings (unknown ops, unknown shapes).
using GraphImporter = Graph (*)(const std::string &path, const LoadOptions &options,
                                std::vector<std::string> &warnings);

} // namespace ps
