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
    // A shape of more than kMaxElements elements (4 TB of floats) is refused as absurd.
    static Input parseInput(const std::string &text);
    static constexpr double kMaxElements = 1099511627776.0; // 2^40
    // --batch from text: a whole number from 1 to kMaxBatch (the app's import dialog's range);
    // InputError naming the option otherwise (a batch of 1e17 made a model of 1.5e22 FLOPs).
    static long long parseBatch(const std::string &text);
    static constexpr long long kMaxBatch = 1 << 20;
};

// Importers return the graph and append human-readable warnings (unknown ops, unknown shapes).
using GraphImporter = Graph (*)(const std::string &path, const LoadOptions &options,
                                std::vector<std::string> &warnings);

} // namespace ps
