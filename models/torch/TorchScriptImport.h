#pragma once
// TorchScript (.pt) modules as graphs: forward() is inlined and run once on example inputs of
// the recorded (or given) shapes, so every aten:: op becomes a node with exact shapes, FLOPs per
// spec section 9, parameters from the module's tensors, and its module path as scope. Scripted
// branches follow the example inputs; loops are unrolled.
#include "core/graph/Graph.h"
#include "core/io/LoadOptions.h"

namespace ps {

Graph importTorchScript(const std::string &path, const LoadOptions &options, std::vector<std::string> &warnings);

} // namespace ps
