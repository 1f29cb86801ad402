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
#include <vector>

namespace ps {

enum class FileFormat {
    GraphJson,
    ClusterJson,
    PlacementJson,
    PartitionJson,
    MetisPartition,
    Dot,
    Metis,
    PlacementCsv,
    Onnx,
    TorchScript
};

enum class FileKind { Graph, Cluster, Placement, Partition };

// The one table of file formats: what each holds, the names it is known by, and what the
// programs do with it. The loader, the CLI's messages and the app's open dialog read it.
struct FormatInfo
{
    FileFormat format;
    FileKind kind;
    const char *description;             // "graph JSON"
    std::vector<std::string> extensions; // the first is what a writer would choose
    bool gzip;                           // also read as NAME.gz (decompressed on the way in)
    bool model;                          // read from the path by an importer (ONNX, TorchScript)
    bool writable;                       // saveGraph / the placement exporters write it
};
const std::vector<FormatInfo> &fileFormats();
const FormatInfo &formatInfo(FileFormat format);
// "*.graph.json *.graph.json.gz *.dot ..." for the formats of one kind, or of all.
std::string namePatterns(std::optional<FileKind> kind = std::nullopt);
// "Graphs (...);;Clusters (...);;..." for a file dialog, formats of each kind from the table.
std::string dialogFilters();

FileKind kindOf(FileFormat format);
const char *kindName(FileKind kind);

// By name, from the table above. A plain *.json[.gz] is sniffed from its bytes (decompressed).
// Throws InputError naming the known extensions for anything else.
FileFormat formatFromName(const std::string &path, const std::string *bytes = nullptr);
// The value of the first "format" key of JSON text, read without parsing it ("" when none).
std::string sniffJsonFormat(const std::string &bytes);
// An ONNX or TorchScript file, which import options (batch, input shapes) apply to.
bool isModelFile(const std::string &path);

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
