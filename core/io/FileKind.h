#pragma once
// Which format a file is in (by its name, and for plain ".json" by its "format" field), and
// loading or saving any supported file by that.
#include "core/cluster/Cluster.h"
#include "core/graph/Graph.h"
#include "core/io/LoadOptions.h"
#include "core/placement/Partition.h"
#include "core/placement/Placement.h"

#include <optional>
#include <string>

namespace ps {

enum class FileFormat { GraphJson, ClusterJson, PlacementJson, PartitionJson, Dot, Metis, PlacementCsv, Onnx, TorchScript };

enum class FileKind { Graph, Cluster, Placement, Partition };

FileKind kindOf(FileFormat format);
const char *kindName(FileKind kind);

// By name: *.graph.json, *.cluster.json, *.placement.json, *.partition.json (each optionally
// .gz), *.dot / *.gv, *.graph / *.metis, *.csv, *.onnx, *.pt / *.pth / *.torchscript. A plain *.json[.gz] is sniffed from its bytes
// (decompressed). Throws InputError for anything else.
FileFormat formatFromName(const std::string &path, const std::string *bytes = nullptr);

struct LoadedFile
{
    FileFormat format;
    std::optional<Graph> graph;
    std::optional<Cluster> cluster;
    std::optional<PlacementDoc> placement;
    std::optional<PartitionDoc> partition;
    std::vector<std::string> warnings; // from model importers: unknown ops, unknown shapes
};

LoadedFile loadFile(const std::string &path, const LoadOptions &options = {});
Graph loadGraph(const std::string &path, const LoadOptions &options = {}); // throws if no graph

// The TorchScript importer lives with LibTorch in models/; the programs that have it install
// it here at start-up. Without it, .pt files get an InputError that says so.
void setTorchScriptImporter(GraphImporter importer);

// Writes a graph in the format its name says (graph JSON, DOT, METIS); the placement, when
// given, colours a DOT export.
void saveGraph(const std::string &path, const Graph &graph, const Cluster *cluster = nullptr,
               const Placement *placement = nullptr);

} // namespace ps
