#pragma once
// What every rank of a data-parallel training run must agree on, as "key=value" lines
// (Distribution::fingerprint): the bytes of each input file, the model, the hyperparameters other
// than `threads`, the budget and the seed. The CLI and the app's Models dock build it the same way,
// so ranks started by either join each other.
#include <string>
#include <utility>
#include <vector>

namespace ps {

struct TrainingInputs
{
    std::string model;
    std::vector<std::pair<std::string, std::string>> files; // role ("graph", "cluster", ...) -> path
    std::vector<std::string> params;                        // key=value; threads=... is left out
    std::string iterations = "default", timeLimit = "none", seed = "1", k = "none";
};

// InputError when a file cannot be read.
std::string trainingFingerprint(const TrainingInputs &inputs);

} // namespace ps
