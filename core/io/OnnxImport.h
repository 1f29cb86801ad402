#pragma once
// ONNX models (.onnx) as graphs per spec section 9: one node per ONNX node, an edge per consumed
// tensor, scopes from "/"-separated node names, shapes from ONNX shape inference. Throws
// InputError for truncated, garbage or external-data files; unknown ops become 0-FLOP nodes and
// one summary warning.
#include "core/graph/Graph.h"
#include "core/io/LoadOptions.h"

namespace ps {

Graph importOnnx(const std::string &path, const LoadOptions &options, std::vector<std::string> &warnings);

} // namespace ps
