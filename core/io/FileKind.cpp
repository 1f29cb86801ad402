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

#include <cctype>
#include <stdexcept>

namespace ps {

namespace {

GraphImporter torchScriptImporter = nullptr;

// The format whose extension the name ends with (after any .gz, for formats read gzipped).
std::optional<FileFormat> byExtension(const std::string &path)
{
    const std::string name = baseName(path);
    const bool gz = endsWith(name, ".gz");
    const std::string bare = gz ? name.substr(0, name.size() - 3) : name;
    if (!gz && metisPartCount(bare)) // GRAPH.part.K, whatever K
        return FileFormat::MetisPartition;
    for (const FormatInfo &f : fileFormats())
        for (const std::string &e : f.extensions)
            if ((!gz || f.gzip) && endsWith(bare, e))
                return f.format;
    return std::nullopt;
}

// Model files, which importers read themselves.
std::optional<FileFormat> modelFormat(const std::string &path)
{
    const auto format = byExtension(path);
    return format && formatInfo(*format).model ? format : std::nullopt;
}

} // namespace

const std::vector<FormatInfo> &fileFormats()
{
    using F = FileFormat;
    using K = FileKind;
    static const std::vector<FormatInfo> table = {
        {F::GraphJson, K::Graph, "graph JSON", {".graph.json"}, true, false, true},
        {F::Dot, K::Graph, "Graphviz DOT", {".dot", ".gv"}, true, false, true},
        {F::Metis, K::Graph, "METIS graph", {".graph", ".metis"}, true, false, true},
        {F::Onnx, K::Graph, "ONNX model", {".onnx"}, false, true, false},
        {F::TorchScript, K::Graph, "TorchScript model", {".pt", ".pth", ".torchscript"}, false, true, false},
        {F::ClusterJson, K::Cluster, "cluster JSON", {".cluster.json"}, true, false, true},
        {F::PlacementJson, K::Placement, "placement JSON", {".placement.json"}, true, false, true},
        {F::PlacementCsv, K::Placement, "placement CSV", {".csv"}, true, false, true},
        {F::PartitionJson, K::Partition, "partition JSON", {".partition.json"}, true, false, true},
        // ".part.K" for K parts (the pattern "*.part.*" in dialogs)
        {F::MetisPartition, K::Partition, "METIS partition (gpmetis, KaHIP)", {".part.*"}, false, false, true},
    };
    return table;
}

const FormatInfo &formatInfo(FileFormat format)
{
    for (const FormatInfo &f : fileFormats())
        if (f.format == format)
            return f;
    throw std::logic_error("a file format missing from the table");
}

std::string namePatterns(std::optional<FileKind> kind)
{
    std::string out;
    for (const FormatInfo &f : fileFormats())
        if (!kind || f.kind == *kind)
            for (const std::string &e : f.extensions) {
                out += (out.empty() ? "*" : " *") + e;
                if (f.gzip)
                    out += " *" + e + ".gz";
            }
    return out;
}

std::string dialogFilters()
{
    std::string out;
    for (FileKind k : {FileKind::Graph, FileKind::Cluster, FileKind::Placement, FileKind::Partition}) {
        std::string name = kindName(k);
        name[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(name[0])));
        out += (out.empty() ? "" : ";;") + name + "s (" + namePatterns(k) + ")";
    }
    return out;
}

bool isModelFile(const std::string &path)
{
    return modelFormat(path).has_value();
}

void setTorchScriptImporter(GraphImporter importer)
{
    torchScriptImporter = importer;
}

FileKind kindOf(FileFormat format)
{
    return formatInfo(format).kind;
}

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
    if (const auto format = byExtension(path))
        return *format;
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
        // Our own files of other kinds say what they are (a steering log was "without a known format").
        const std::string notHere = ", not a graph, cluster, placement or partition file";
        if (format == "steering-log")
            throw InputError(
                path + ": a steering log" + notHere +
                " (`placement-cli rank` and `steer --replay` read it; the app opens it in its Steering dock)");
        if (format == "placement-studio-session")
            throw InputError(path + ": a Placement Studio session" + notHere + " (the app opens it, named .pstudio)");
        throw InputError(path + ": a JSON file " +
                         (format.empty() ? std::string("without a \"format\"")
                                         : "of \"format\" \"" + format + "\", which is not one read here") +
                         " (expected placement-graph, placement-cluster, placement or partition)");
    }
    if (endsWith(name, ".pstudio"))
        throw InputError(path + ": a Placement Studio session, not a graph, cluster, placement or partition file "
                                "(the app opens it)");
    std::string known;
    for (const FormatInfo &f : fileFormats())
        for (const std::string &e : f.extensions)
            known += (known.empty() ? "" : ", ") + e;
    throw InputError(path + ": unknown file type (expected " + known + ", or a .json with a known \"format\")");
}

namespace {

// A DOT graph whose ops carry no compute cost at all (a file from another tool, without our
// attributes) places trivially: said, not silent. (Model files say what their importers could not
// size; a JSON graph names its costs in fields of our own format.)
void warnIfCostless(const Graph &g, std::vector<std::string> &warnings)
{
    if (g.nodeCount() == 0 || g.totalFlops() > 0)
        return;
    for (int v = 0; v < g.nodeCount(); ++v)
        if (!g.computeOverrides(v).empty())
            return;
    warnings.push_back("no op carries a compute cost (node attributes flops or compute_s): each takes only its "
                       "device's per-op overhead, so placements differ by little but their transfers");
}

} // namespace

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
    case FileFormat::GraphJson: file.graph = parseGraphJson(bytes, path, &file.warnings); break;
    case FileFormat::Dot: file.graph = parseDot(bytes, path, &file.warnings); break;
    case FileFormat::Metis: file.graph = parseMetis(bytes, path); break;
    case FileFormat::ClusterJson: file.cluster = parseClusterJson(bytes, path, &file.warnings); break;
    case FileFormat::PlacementJson: file.placement = parsePlacementJson(bytes, path); break;
    case FileFormat::PlacementCsv: file.placement = parsePlacementCsv(bytes, path); break;
    case FileFormat::PartitionJson: file.partition = parsePartitionJson(bytes, path); break;
    case FileFormat::MetisPartition: file.partition = parseMetisPartition(bytes, path); break;
    }
    if (file.format == FileFormat::Dot)
        warnIfCostless(*file.graph, file.warnings);
    return file;
}

Graph loadGraph(const std::string &path, const LoadOptions &options)
{
    LoadedFile file = loadFile(path, options);
    if (!file.graph)
        throw InputError(path + ": holds a " + kindName(kindOf(file.format)) + ", not a graph");
    return std::move(*file.graph);
}

void saveGraph(const std::string &path, const Graph &graph, const Cluster *cluster, const Placement *placement)
{
    switch (formatFromName(path)) {
    case FileFormat::GraphJson: writeGraphJson(path, graph); return;
    case FileFormat::Dot: writeDot(path, graph, cluster, placement); return;
    case FileFormat::Metis: writeMetis(path, graph); return;
    default: throw InputError(path + ": cannot write a graph in this format");
    }
}

} // namespace ps
