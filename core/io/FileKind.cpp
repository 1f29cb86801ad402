#include "core/io/FileKind.h"

#include "core/InputError.h"
#include "core/io/ClusterJson.h"
#include "core/io/DotFormat.h"
#include "core/io/FileBytes.h"
#include "core/io/GraphJson.h"
#include "core/io/MetisFormat.h"
#include "core/io/OnnxImport.h"
#include "core/io/PlacementCsv.h"
#include "core/io/PlacementJson.h"

namespace ps {

namespace {

// The value of the first "format" key, read without parsing the whole document.
std::string sniffJsonFormat(const std::string &bytes)
{
    size_t key = bytes.find("\"format\"");
    if (key == std::string::npos)
        return {};
    size_t open = bytes.find('"', bytes.find(':', key));
    if (open == std::string::npos)
        return {};
    size_t close = bytes.find('"', open + 1);
    return close == std::string::npos ? std::string() : bytes.substr(open + 1, close - open - 1);
}

GraphImporter torchScriptImporter = nullptr;

// Model files, which importers read themselves.
std::optional<FileFormat> modelFormat(const std::string &path)
{
    const std::string name = baseName(path);
    if (endsWith(name, ".onnx"))
        return FileFormat::Onnx;
    if (endsWith(name, ".pt") || endsWith(name, ".pth") || endsWith(name, ".torchscript"))
        return FileFormat::TorchScript;
    return std::nullopt;
}

} // namespace

void setTorchScriptImporter(GraphImporter importer) { torchScriptImporter = importer; }

FileKind kindOf(FileFormat format)
{
    switch (format) {
    case FileFormat::ClusterJson: return FileKind::Cluster;
    case FileFormat::PlacementJson:
    case FileFormat::PlacementCsv: return FileKind::Placement;
    case FileFormat::PartitionJson: return FileKind::Partition;
    default: return FileKind::Graph;
    }
}

const char *kindName(FileKind kind)
{
    switch (kind) {
    case FileKind::Graph: return "graph";
    case FileKind::Cluster: return "cluster";
    case FileKind::Placement: return "placement";
    case FileKind::Partition: return "partition";
    }
    return "?";
}

FileFormat formatFromName(const std::string &path, const std::string *bytes)
{
    std::string name = baseName(path);
    if (endsWith(name, ".gz"))
        name.resize(name.size() - 3);
    if (endsWith(name, ".graph.json"))
        return FileFormat::GraphJson;
    if (endsWith(name, ".cluster.json"))
        return FileFormat::ClusterJson;
    if (endsWith(name, ".placement.json"))
        return FileFormat::PlacementJson;
    if (endsWith(name, ".partition.json"))
        return FileFormat::PartitionJson;
    if (endsWith(name, ".dot") || endsWith(name, ".gv"))
        return FileFormat::Dot;
    if (endsWith(name, ".graph") || endsWith(name, ".metis"))
        return FileFormat::Metis;
    if (endsWith(name, ".csv"))
        return FileFormat::PlacementCsv;
    if (auto model = modelFormat(path))
        return *model;
    if (endsWith(name, ".json") && bytes) {
        std::string format = sniffJsonFormat(*bytes);
        if (format == "placement-graph")
            return FileFormat::GraphJson;
        if (format == "placement-cluster")
            return FileFormat::ClusterJson;
        if (format == "placement")
            return FileFormat::PlacementJson;
        if (format == "partition")
            return FileFormat::PartitionJson;
        throw InputError(path + ": a JSON file without a known \"format\" (expected placement-graph, "
                                "placement-cluster, placement or partition)");
    }
    throw InputError(path + ": unknown file type (expected .graph.json, .cluster.json, "
                            ".placement.json, .partition.json, .dot, .gv, METIS .graph, .csv, .onnx or .pt)");
}

LoadedFile loadFile(const std::string &path, const LoadOptions &options)
{
    // Model files are parsed from the file by their importers, never held as bytes here too.
    if (const auto model = modelFormat(path)) {
        LoadedFile file{*model, {}, {}, {}, {}, {}};
        if (*model == FileFormat::Onnx)
            file.graph = importOnnx(path, options, file.warnings);
        else if (torchScriptImporter)
            file.graph = torchScriptImporter(path, options, file.warnings);
        else
            throw InputError(path + ": reading TorchScript needs LibTorch, and this program was built without "
                                    "it (PS_WITH_TORCH=OFF)");
        return file;
    }
    const std::string bytes = readFileBytes(path);
    LoadedFile file{formatFromName(path, &bytes), {}, {}, {}, {}, {}};
    switch (file.format) {
    case FileFormat::Onnx:
    case FileFormat::TorchScript: break; // handled above
    case FileFormat::GraphJson: file.graph = parseGraphJson(bytes, path); break;
    case FileFormat::Dot: file.graph = parseDot(bytes, path); break;
    case FileFormat::Metis: file.graph = parseMetis(bytes, path); break;
    case FileFormat::ClusterJson: file.cluster = parseClusterJson(bytes, path); break;
    case FileFormat::PlacementJson: file.placement = parsePlacementJson(bytes, path); break;
    case FileFormat::PlacementCsv: file.placement = parsePlacementCsv(bytes, path); break;
    case FileFormat::PartitionJson: file.partition = parsePartitionJson(bytes, path); break;
    }
    return file;
}

Graph loadGraph(const std::string &path, const LoadOptions &options)
{
    LoadedFile file = loadFile(path, options);
    if (!file.graph)
        throw InputError(path + ": holds a " + kindName(kindOf(file.format)) + ", not a graph");
    return std::move(*file.graph);
}

void saveGraph(const std::string &path, const Graph &graph, const Cluster *cluster,
               const Placement *placement)
{
    switch (formatFromName(path)) {
    case FileFormat::GraphJson: writeGraphJson(path, graph); return;
    case FileFormat::Dot: writeDot(path, graph, cluster, placement); return;
    case FileFormat::Metis: writeMetis(path, graph); return;
    default: throw InputError(path + ": cannot write a graph in this format");
    }
}

} // namespace ps
